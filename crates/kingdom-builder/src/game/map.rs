//! The full game's terrain layer (9.2): every cell is one of five buildable terrains, water,
//! mountain, a location hex of one of the eight tile types, or a castle. Occupants (settlements)
//! are the game state's, not the map's.
//!
//! The map's text format (RULES.md, "Map file") is B5's layout with one letter per cell.

use std::fmt;

use crate::board::{row_text, Board, Cell, Pos, N_CELLS, SIZE};
use crate::parse::{parse_grid, ParseError};

use super::bits::Bits;

/// The terrain of a cell, the layer under any settlement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Terrain {
    Grass = 0,
    Canyon = 1,
    Desert = 2,
    Flower = 3,
    Forest = 4,
    Water = 5,
    Mountain = 6,
    Location = 7,
    Castle = 8,
}

impl Terrain {
    pub const ALL: [Terrain; 9] = [
        Terrain::Grass,
        Terrain::Canyon,
        Terrain::Desert,
        Terrain::Flower,
        Terrain::Forest,
        Terrain::Water,
        Terrain::Mountain,
        Terrain::Location,
        Terrain::Castle,
    ];

    /// The five terrains of the terrain cards, in the deck's and the region fill's order (9.1,
    /// 9.2): grass, canyon, desert, flower field, forest.
    pub const BUILDABLE: [Terrain; 5] = [
        Terrain::Grass,
        Terrain::Canyon,
        Terrain::Desert,
        Terrain::Flower,
        Terrain::Forest,
    ];

    pub fn is_buildable(self) -> bool {
        (self as u8) < 5
    }

    pub fn name(self) -> &'static str {
        match self {
            Terrain::Grass => "grass",
            Terrain::Canyon => "canyon",
            Terrain::Desert => "desert",
            Terrain::Flower => "flower",
            Terrain::Forest => "forest",
            Terrain::Water => "water",
            Terrain::Mountain => "mountain",
            Terrain::Location => "location",
            Terrain::Castle => "castle",
        }
    }
}

/// The eight location tiles, in the order of 9.1 (the generator draws from this list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TileKind {
    Oracle = 0,
    Farm = 1,
    Tavern = 2,
    Tower = 3,
    Harbor = 4,
    Paddock = 5,
    Barn = 6,
    Oasis = 7,
}

impl TileKind {
    pub const ALL: [TileKind; 8] = [
        TileKind::Oracle,
        TileKind::Farm,
        TileKind::Tavern,
        TileKind::Tower,
        TileKind::Harbor,
        TileKind::Paddock,
        TileKind::Barn,
        TileKind::Oasis,
    ];

    /// Barn, Harbor and Paddock move a settlement; the others build one from the supply (9.6).
    pub fn is_move(self) -> bool {
        matches!(self, TileKind::Barn | TileKind::Harbor | TileKind::Paddock)
    }

    /// Oracle and Harbor quadrants have 1 location hex and 2 castles, the others 2 and 1 (9.2).
    pub fn location_hexes_per_quadrant(self) -> usize {
        match self {
            TileKind::Oracle | TileKind::Harbor => 1,
            _ => 2,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TileKind::Oracle => "oracle",
            TileKind::Farm => "farm",
            TileKind::Tavern => "tavern",
            TileKind::Tower => "tower",
            TileKind::Harbor => "harbor",
            TileKind::Paddock => "paddock",
            TileKind::Barn => "barn",
            TileKind::Oasis => "oasis",
        }
    }
}

/// One cell of the map: its terrain, and the tile type of a location hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MapCell {
    Open(Terrain),
    Location(TileKind),
}

impl MapCell {
    pub fn terrain(self) -> Terrain {
        match self {
            MapCell::Open(terrain) => terrain,
            MapCell::Location(_) => Terrain::Location,
        }
    }

    /// The map file's letter of this cell.
    pub fn token(self) -> char {
        TOKENS
            .iter()
            .find(|&&(_, cell)| cell == self)
            .map_or('?', |&(token, _)| token)
    }

    /// The cell of a map file token, `None` for anything else.
    pub fn from_token(token: &str) -> Option<MapCell> {
        let mut chars = token.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return None;
        };
        TOKENS.iter().find(|&&(t, _)| t == c).map(|&(_, cell)| cell)
    }
}

/// The map file's letters (RULES.md, "Map file"): buildable terrains, water, mountain, castle,
/// then one letter per location type. No letter is used twice.
pub const TOKENS: [(char, MapCell); 16] = [
    ('G', MapCell::Open(Terrain::Grass)),
    ('C', MapCell::Open(Terrain::Canyon)),
    ('D', MapCell::Open(Terrain::Desert)),
    ('F', MapCell::Open(Terrain::Flower)),
    ('T', MapCell::Open(Terrain::Forest)),
    ('W', MapCell::Open(Terrain::Water)),
    ('M', MapCell::Open(Terrain::Mountain)),
    ('K', MapCell::Open(Terrain::Castle)),
    ('O', MapCell::Location(TileKind::Oracle)),
    ('A', MapCell::Location(TileKind::Farm)),
    ('V', MapCell::Location(TileKind::Tavern)),
    ('R', MapCell::Location(TileKind::Tower)),
    ('H', MapCell::Location(TileKind::Harbor)),
    ('P', MapCell::Location(TileKind::Paddock)),
    ('B', MapCell::Location(TileKind::Barn)),
    ('S', MapCell::Location(TileKind::Oasis)),
];

/// A whole 20x20 terrain map. Any combination of cells is a map (like B5, counts and places of
/// location hexes and castles are not checked).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Map {
    cells: [MapCell; N_CELLS],
}

impl Map {
    /// A map of one cell type everywhere.
    pub fn filled(cell: MapCell) -> Map {
        Map {
            cells: [cell; N_CELLS],
        }
    }

    pub fn cell(&self, pos: Pos) -> MapCell {
        self.cells[pos.index()]
    }

    pub fn set(&mut self, pos: Pos, cell: MapCell) {
        self.cells[pos.index()] = cell;
    }

    pub fn at(&self, index: usize) -> MapCell {
        self.cells[index]
    }

    /// The cells of one terrain.
    pub fn terrain_set(&self, terrain: Terrain) -> Bits {
        self.indices(|c| c.terrain() == terrain)
    }

    /// The location hexes of one tile type.
    pub fn location_set(&self, kind: TileKind) -> Bits {
        self.indices(|c| c == MapCell::Location(kind))
    }

    fn indices(&self, keep: impl Fn(MapCell) -> bool) -> Bits {
        (0..N_CELLS).filter(|&i| keep(self.cells[i])).collect()
    }

    /// The scoring board of R15-R18 for this map without settlements: water and mountains as
    /// such, location hexes as towns, castles as castles, every buildable cell empty.
    pub fn scoring_board(&self) -> Board {
        let mut board = Board::empty();
        for (idx, cell) in self.cells.iter().enumerate() {
            let token = match cell.terrain() {
                Terrain::Water => Cell::Water,
                Terrain::Mountain => Cell::Mountain,
                Terrain::Location => Cell::Town,
                Terrain::Castle => Cell::Castle,
                _ => Cell::Empty,
            };
            board.set(Pos::from_index(idx), token);
        }
        board
    }

    /// The map in the strict map file format: B5's layout (single spaces, odd rows indented by
    /// one space, no trailing space, LF after every line) with the letters of `TOKENS`.
    pub fn to_text(&self) -> String {
        let mut text = String::with_capacity(SIZE * (2 * SIZE + 1));
        for row in 0..SIZE {
            text.push_str(&row_text(row, |pos| self.cell(pos).token()));
            text.push('\n');
        }
        text
    }

    /// Reads a map file with B5's lenient rules (CRLF, tabs, optional indent, trailing blank
    /// lines, a byte-order mark); errors name a line and column like the board parser's.
    pub fn parse(text: &str) -> Result<Map, ParseError> {
        let (cells, _) = parse_grid(text, MapCell::from_token)?;
        let mut map = Map::filled(MapCell::Open(Terrain::Grass));
        map.cells.copy_from_slice(&cells);
        Ok(map)
    }
}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Map:")?;
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn map_tokens_are_distinct_and_round_trip() {
        for (i, &(token, cell)) in TOKENS.iter().enumerate() {
            assert!(TOKENS[..i].iter().all(|&(t, c)| t != token && c != cell));
            assert_eq!(cell.token(), token);
            assert_eq!(MapCell::from_token(&token.to_string()), Some(cell));
        }
        for bad in ["", ".", "g", "GG", "1", "L", "Z"] {
            assert_eq!(MapCell::from_token(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn map_file_errors_name_line_and_column() {
        let mut text = Map::filled(MapCell::Open(Terrain::Forest)).to_text();
        assert_eq!(Map::parse(&text).unwrap().to_text(), text);
        // Line 2 is " T T ..."; its third token starts at character 6.
        text.replace_range(40 + 5..40 + 6, ".");
        assert_eq!(
            Map::parse(&text).unwrap_err().to_string(),
            "line 2, column 6: unknown token '.'"
        );
        assert_eq!(
            Map::parse("G G\n").unwrap_err().to_string(),
            "line 1, column 4: expected 20 tokens in the row, found 2"
        );
    }
}
