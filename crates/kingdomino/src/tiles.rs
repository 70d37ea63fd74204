//! The 48 dominoes (§1.1): terrains, squares and the tile table, parsed at compile time from
//! the embedded `data/kingdomino_tiles.csv` so the binary needs no data files.
//!
//! This module knows nothing of kingdoms or turns; it only names what is printed on a tile.

/// The six terrains, in the order used for the per-terrain bitboards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Terrain {
    Corn = 0,
    Forest = 1,
    Grass = 2,
    Lake = 3,
    Wetland = 4,
    Mine = 5,
}

impl Terrain {
    pub const ALL: [Terrain; 6] = [
        Terrain::Corn,
        Terrain::Forest,
        Terrain::Grass,
        Terrain::Lake,
        Terrain::Wetland,
        Terrain::Mine,
    ];

    /// The protocol letter (§3.2).
    pub const fn letter(self) -> char {
        match self {
            Terrain::Corn => 'c',
            Terrain::Forest => 'f',
            Terrain::Grass => 'g',
            Terrain::Lake => 'l',
            Terrain::Wetland => 'w',
            Terrain::Mine => 'm',
        }
    }

    pub const fn from_letter(letter: u8) -> Option<Terrain> {
        match letter {
            b'c' => Some(Terrain::Corn),
            b'f' => Some(Terrain::Forest),
            b'g' => Some(Terrain::Grass),
            b'l' => Some(Terrain::Lake),
            b'w' => Some(Terrain::Wetland),
            b'm' => Some(Terrain::Mine),
            _ => None,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One half of a domino: a terrain and 0..3 crowns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Square {
    pub terrain: Terrain,
    pub crowns: u8,
}

impl Square {
    /// The two-character protocol cell, e.g. `m3`.
    pub fn code(self) -> String {
        format!("{}{}", self.terrain.letter(), self.crowns)
    }
}

/// A domino: `a` is the first square (the one `PUT x y` positions), `b` the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tile {
    pub id: u8,
    pub a: Square,
    pub b: Square,
}

impl Tile {
    /// Tiles whose two squares are identical (IDs 1–12): a placement and its mirror give the
    /// same kingdom (R18).
    pub const fn is_symmetric(&self) -> bool {
        self.a.terrain as u8 == self.b.terrain as u8 && self.a.crowns == self.b.crowns
    }

    pub const fn crowns(&self) -> u8 {
        self.a.crowns + self.b.crowns
    }
}

/// Number of tiles in the game.
pub const N_TILES: usize = 48;

/// The tile file, embedded.
pub const TILES_CSV: &str = include_str!("../data/kingdomino_tiles.csv");

/// The tile table; `TILES[i]` is tile `i + 1`.
pub static TILES: [Tile; N_TILES] = parse_tiles(TILES_CSV.as_bytes());

/// The tile with this ID, if it exists (1..=48).
pub fn tile(id: u8) -> Option<&'static Tile> {
    TILES.get((id as usize).wrapping_sub(1))
}

// The parser runs at compile time, so a malformed data file is a build error rather than a
// runtime panic.
const fn parse_tiles(csv: &[u8]) -> [Tile; N_TILES] {
    let blank = Square {
        terrain: Terrain::Corn,
        crowns: 0,
    };
    let mut tiles = [Tile {
        id: 0,
        a: blank,
        b: blank,
    }; N_TILES];
    let mut pos = 0;
    // Skip the header line.
    while csv[pos] != b'\n' {
        pos += 1;
    }
    pos += 1;
    let mut count = 0;
    while count < N_TILES {
        let mut id = 0u8;
        while csv[pos] != b',' {
            id = id * 10 + (csv[pos] - b'0');
            pos += 1;
        }
        pos += 1;
        let (a, next) = parse_square(csv, pos);
        let (b, next) = parse_square(csv, next);
        pos = next;
        assert!(id as usize == count + 1, "tile ids must be 1..48 in order");
        tiles[count] = Tile { id, a, b };
        count += 1;
    }
    tiles
}

// Reads `t,c` followed by a separator (`,`, `\n` or `\r\n`) and returns the position after it.
const fn parse_square(csv: &[u8], pos: usize) -> (Square, usize) {
    let terrain = match Terrain::from_letter(csv[pos]) {
        Some(t) => t,
        None => panic!("unknown terrain letter in the tile file"),
    };
    assert!(csv[pos + 1] == b',');
    let crowns = csv[pos + 2] - b'0';
    assert!(crowns <= 3);
    let mut next = pos + 3;
    if next < csv.len() && csv[next] == b'\r' {
        next += 1;
    }
    (Square { terrain, crowns }, next + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_lookup_is_one_based() {
        assert_eq!(tile(1).map(|t| t.id), Some(1));
        assert_eq!(tile(48).map(|t| t.b.code()), Some("m3".to_string()));
        assert!(tile(0).is_none());
        assert!(tile(49).is_none());
    }
}
