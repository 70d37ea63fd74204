//! The tile table (spec §2): the 24 tile types of the embedded CSV, each precomputed in its four
//! orientations with its parts (§2.3), the item-to-part map used to join blocks (§2.4), the
//! field-castle contacts (§2.6) and the links text of the protocol (§4.3).
//!
//! Everything here is static data built once; nothing depends on a match.

use std::sync::OnceLock;

/// The tile table shipped with the binary (a copy of `shared/data/carcassonne_tiles.csv`).
pub const TILES_CSV: &str = include_str!("../data/carcassonne_tiles.csv");

/// Number of tile types in the base set.
pub const N_TYPES: usize = 24;
/// No tile has more parts than this (X: four roads and four fields).
pub const MAX_PARTS: usize = 8;
/// Marks "no part" in `Oriented::item_part`.
pub const NO_PART: u8 = u8::MAX;

/// Item letters in their sort order `c r e - +` (§4.3); an item letter is an index into this.
pub const LETTERS: [char; 5] = ['c', 'r', 'e', '-', '+'];
pub const L_CASTLE: u8 = 0;
pub const L_ROAD: u8 = 1;
pub const L_EARTH: u8 = 2;
pub const L_MINUS: u8 = 3;
pub const L_PLUS: u8 = 4;

/// What one side of a tile shows. The discriminants are the 2-bit codes of the edge-matching
/// tables (0 means "no constraint").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    Castle = 1,
    Road = 2,
    Earth = 3,
}

impl Edge {
    pub fn letter(self) -> char {
        match self {
            Edge::Castle => 'c',
            Edge::Road => 'r',
            Edge::Earth => 'e',
        }
    }

    fn parse(text: &str) -> Option<Edge> {
        match text {
            "c" => Some(Edge::Castle),
            "r" => Some(Edge::Road),
            "e" => Some(Edge::Earth),
            _ => None,
        }
    }
}

/// The kind of a part, and so of the block it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Castle,
    Road,
    Field,
    Monastery,
}

/// One item `<side><letter>`.
pub type Item = (u8, u8);

/// A tile type in one orientation.
#[derive(Clone, Debug)]
pub struct Oriented {
    /// Board edges, side 0 = up, clockwise.
    pub edges: [Edge; 4],
    /// `edges` packed two bits per side (side s at bits 2s..2s+2).
    pub code: u8,
    pub n_parts: u8,
    pub kinds: [Kind; MAX_PARTS],
    /// Items of each part, in board orientation (empty for the monastery).
    pub items: Vec<Vec<Item>>,
    /// Number of castle or road items of each part: the open ends it brings to its block.
    pub n_ends: [u8; MAX_PARTS],
    /// `item_part[side][letter]`: the local part holding that item, or `NO_PART`.
    pub item_part: [[u8; 5]; 4],
    /// Pairs (field part, castle part) that touch on this tile (§2.6).
    pub touches: Vec<(u8, u8)>,
    /// The links text of a placed tile (§4.3): items rotated, sorted, groups in CSV order.
    pub links: String,
    /// `token_part[token]`: the local part a man token names (§3.4), or `NO_PART`.
    pub token_part: [u8; 13],
    /// One (token, part) per part a man can go on: the first token in token order naming it.
    pub man_tokens: Vec<(u8, u8)>,
}

/// One row of the tile table.
#[derive(Clone, Debug)]
pub struct TileType {
    pub name: String,
    pub letter: char,
    pub count: u8,
    pub center: bool,
    pub shield: bool,
    /// The `links` column verbatim (the text of a tile to place).
    pub csv_links: String,
    pub angles: [Oriented; 4],
}

impl TileType {
    /// The tile at angle 0, as printed for the tile to place.
    pub fn base(&self) -> &Oriented {
        &self.angles[0]
    }

    pub fn edges_text(&self, angle: usize) -> String {
        self.angles[angle]
            .edges
            .iter()
            .map(|e| e.letter())
            .collect()
    }
}

/// The whole table plus the edge-matching lookup.
pub struct TileSet {
    pub types: Vec<TileType>,
    /// `compat[type][constraint]`: bit k set when the type at angle k satisfies the constraint
    /// byte of an empty cell (2 bits per side, 0 = no neighbour there). One type's row is 256
    /// bytes, so the hot loop over the frontier stays in a few cache lines.
    pub compat: Vec<[u8; 256]>,
}

impl TileSet {
    /// The type whose letter is `letter`.
    pub fn by_letter(&self, letter: char) -> Option<u8> {
        self.types
            .iter()
            .position(|t| t.letter == letter)
            .map(|i| i as u8)
    }

    pub fn get(&self, ty: u8) -> &TileType {
        &self.types[ty as usize]
    }

    pub fn oriented(&self, ty: u8, angle: u8) -> &Oriented {
        &self.types[ty as usize].angles[angle as usize]
    }
}

/// The table, parsed on first use. The CSV is embedded, so a parse failure is a build defect.
pub fn tileset() -> &'static TileSet {
    static SET: OnceLock<TileSet> = OnceLock::new();
    SET.get_or_init(|| parse_tileset(TILES_CSV).expect("the embedded tile table is valid"))
}

/// Parses the CSV text of the tile table.
pub fn parse_tileset(csv: &str) -> Result<TileSet, String> {
    let mut types = Vec::new();
    for line in csv.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        types.push(parse_row(line)?);
    }
    if types.len() != N_TYPES {
        return Err(format!(
            "expected {N_TYPES} tile types, found {}",
            types.len()
        ));
    }
    let mut compat = vec![[0u8; 256]; N_TYPES];
    for (ty, row) in types.iter().zip(compat.iter_mut()) {
        for (constraint, cell) in row.iter_mut().enumerate().skip(1) {
            for angle in 0..4 {
                if fits(constraint as u8, ty.angles[angle].code) {
                    *cell |= 1 << angle;
                }
            }
        }
    }
    Ok(TileSet { types, compat })
}

/// True when every constrained side of `constraint` equals the same side of `code`.
fn fits(constraint: u8, code: u8) -> bool {
    (0..4).all(|s| {
        let want = (constraint >> (2 * s)) & 3;
        want == 0 || want == (code >> (2 * s)) & 3
    })
}

fn parse_row(line: &str) -> Result<TileType, String> {
    let (head, links) = match line.find('"') {
        Some(at) => (&line[..at], line[at..].trim().trim_matches('"')),
        None => return Err(format!("no quoted links in `{line}`")),
    };
    let fields: Vec<&str> = head.trim_end_matches(',').split(',').collect();
    if fields.len() != 8 {
        return Err(format!("expected 8 fields before links in `{line}`"));
    }
    let bad = |what: &str| format!("bad {what} in `{line}`");
    let name = fields[0].to_string();
    let letter = name.chars().next().ok_or_else(|| bad("name"))?;
    let count = fields[1].parse().map_err(|_| bad("count"))?;
    let mut edges = [Edge::Earth; 4];
    for (side, edge) in edges.iter_mut().enumerate() {
        *edge = Edge::parse(fields[2 + side]).ok_or_else(|| bad("edge"))?;
    }
    let center = fields[6] == "1";
    let shield = fields[7] == "1";
    let groups = parse_links(links).ok_or_else(|| bad("links"))?;
    let angles = [0, 1, 2, 3].map(|k| orient(&edges, center, &groups, k));
    Ok(TileType {
        name,
        letter,
        count,
        center,
        shield,
        csv_links: links.to_string(),
        angles,
    })
}

/// Parses a links string `0c,1c;2r,3r` into groups of items.
pub fn parse_links(text: &str) -> Option<Vec<Vec<Item>>> {
    if text.is_empty() {
        return Some(Vec::new());
    }
    text.split(';')
        .map(|group| {
            group
                .split(',')
                .map(|item| {
                    let mut chars = item.chars();
                    let side = chars.next()?.to_digit(10).filter(|&s| s < 4)? as u8;
                    let letter_char = chars.next()?;
                    let letter = LETTERS.iter().position(|&l| l == letter_char)? as u8;
                    chars.next().is_none().then_some((side, letter))
                })
                .collect()
        })
        .collect()
}

/// Writes groups of items in the protocol's links notation.
pub fn links_text(groups: &[Vec<Item>]) -> String {
    groups
        .iter()
        .map(|g| {
            g.iter()
                .map(|&(s, l)| format!("{s}{}", LETTERS[l as usize]))
                .collect::<Vec<_>>()
                .join(",")
        })
        .collect::<Vec<_>>()
        .join(";")
}

/// The items each side contributes (§2.3), in the order side, then letter.
fn side_items(side: u8, edge: Edge) -> Vec<Item> {
    match edge {
        Edge::Castle => vec![(side, L_CASTLE)],
        Edge::Earth => vec![(side, L_EARTH)],
        Edge::Road => vec![(side, L_ROAD), (side, L_MINUS), (side, L_PLUS)],
    }
}

fn kind_of(letter: u8) -> Kind {
    match letter {
        L_CASTLE => Kind::Castle,
        L_ROAD => Kind::Road,
        _ => Kind::Field,
    }
}

/// Builds the tile turned `k` quarter turns clockwise. Parts keep the same local index in every
/// orientation: groups first (CSV order), then lone items in angle-0 side/letter order, then the
/// monastery.
fn orient(base_edges: &[Edge; 4], center: bool, groups: &[Vec<Item>], k: u8) -> Oriented {
    let turn = |(s, l): Item| ((s + k) % 4, l);
    let mut parts: Vec<Vec<Item>> = groups.to_vec();
    for side in 0..4u8 {
        for item in side_items(side, base_edges[side as usize]) {
            if !groups.iter().any(|g| g.contains(&item)) {
                parts.push(vec![item]);
            }
        }
    }
    let mut parts: Vec<Vec<Item>> = parts
        .into_iter()
        .map(|p| {
            let mut items: Vec<Item> = p.into_iter().map(turn).collect();
            items.sort_unstable();
            items
        })
        .collect();
    let links = links_text(&parts[..groups.len()]);
    let mut kinds = [Kind::Field; MAX_PARTS];
    let mut n_ends = [0u8; MAX_PARTS];
    let mut item_part = [[NO_PART; 5]; 4];
    for (i, items) in parts.iter().enumerate() {
        kinds[i] = kind_of(items[0].1);
        for &(s, l) in items {
            item_part[s as usize][l as usize] = i as u8;
            n_ends[i] += u8::from(l == L_CASTLE || l == L_ROAD);
        }
    }
    if center {
        kinds[parts.len()] = Kind::Monastery;
        parts.push(Vec::new());
    }
    let mut edges = [Edge::Earth; 4];
    for (side, edge) in edges.iter_mut().enumerate() {
        *edge = base_edges[(side + 4 - k as usize) % 4];
    }
    let code = edges
        .iter()
        .enumerate()
        .fold(0u8, |c, (s, &e)| c | (e as u8) << (2 * s));
    let touches = touching_pairs(&edges, &item_part, &kinds);
    // Man tokens (§3.4): `s0 s- s+` are 3s, 3s+1, 3s+2 and `40` is 12.
    let mut token_part = [NO_PART; 13];
    for (token, part) in token_part.iter_mut().enumerate() {
        if token == 12 {
            if center {
                *part = (parts.len() - 1) as u8;
            }
            continue;
        }
        let side = token / 3;
        let letter = match (token % 3, edges[side]) {
            (0, Edge::Castle) => L_CASTLE,
            (0, Edge::Road) => L_ROAD,
            (0, Edge::Earth) => L_EARTH,
            (1, Edge::Road) => L_MINUS,
            (2, Edge::Road) => L_PLUS,
            _ => continue,
        };
        *part = item_part[side][letter as usize];
    }
    let mut man_tokens: Vec<(u8, u8)> = Vec::new();
    for (token, &part) in token_part.iter().enumerate() {
        if part != NO_PART && !man_tokens.iter().any(|&(_, p)| p == part) {
            man_tokens.push((token as u8, part));
        }
    }
    Oriented {
        edges,
        code,
        n_parts: parts.len() as u8,
        kinds,
        items: parts,
        n_ends,
        item_part,
        touches,
        links,
        token_part,
        man_tokens,
    }
}

/// The 12-position border walk of §2.6: consecutive positions holding a field part and a castle
/// part make them touch.
fn touching_pairs(edges: &[Edge; 4], item_part: &[[u8; 5]; 4], kinds: &[Kind]) -> Vec<(u8, u8)> {
    let mut ring = Vec::with_capacity(12);
    for s in 0..4 {
        let ip = &item_part[s];
        match edges[s] {
            Edge::Castle => ring.extend([ip[L_CASTLE as usize]; 3]),
            Edge::Earth => ring.extend([ip[L_EARTH as usize]; 3]),
            Edge::Road => ring.extend([
                ip[L_MINUS as usize],
                ip[L_ROAD as usize],
                ip[L_PLUS as usize],
            ]),
        }
    }
    let mut pairs = Vec::new();
    for i in 0..12 {
        let (a, b) = (ring[i], ring[(i + 1) % 12]);
        for (f, c) in [(a, b), (b, a)] {
            if kinds[f as usize] == Kind::Field && kinds[c as usize] == Kind::Castle {
                pairs.push((f, c));
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r2_table_has_72_tiles_and_the_spec_part_examples() {
        let set = tileset();
        assert_eq!(
            set.types.iter().map(|t| t.count as usize).sum::<usize>(),
            72
        );
        let h = set.get(set.by_letter('H').unwrap()).base();
        assert_eq!(
            h.items,
            vec![vec![(1, 2), (3, 2)], vec![(0, 0)], vec![(2, 0)]]
        );
        let l = set.get(set.by_letter('L').unwrap()).base();
        let roads = l.kinds[..l.n_parts as usize]
            .iter()
            .filter(|&&k| k == Kind::Road)
            .count();
        assert_eq!((l.n_parts, roads), (7, 3));
        let s = set.get(set.by_letter('S').unwrap()).base();
        assert_eq!(s.n_parts, 4);
        let a = set.get(set.by_letter('A').unwrap()).base();
        assert_eq!(a.kinds[a.n_parts as usize - 1], Kind::Monastery);
    }

    #[test]
    fn r2_6_field_castle_contacts_match_the_spec_examples() {
        let set = tileset();
        let d = set.get(set.by_letter('D').unwrap()).base();
        // D: parts 0 road, 1 field `1-,3+`, 2 field `1+,2e,3-`, 3 castle `0c`.
        assert_eq!(d.touches, vec![(1, 3)]);
        for letter in ['J', 'K', 'O', 'P'] {
            let t = set.get(set.by_letter(letter).unwrap()).base();
            let touching: Vec<u8> = t.touches.iter().map(|&(f, _)| f).collect();
            let fields = (0..t.n_parts)
                .filter(|&p| t.kinds[p as usize] == Kind::Field)
                .count();
            assert_eq!(
                touching.len(),
                fields - 1,
                "{letter}: the inner corner field is apart"
            );
        }
        let s = set.get(set.by_letter('S').unwrap()).base();
        assert_eq!(
            s.touches.len(),
            2,
            "both bottom strips of S touch the castle"
        );
    }

    #[test]
    fn r2_2_rotation_turns_edges_and_links_clockwise() {
        let set = tileset();
        let e = set.get(set.by_letter('E').unwrap());
        assert_eq!(e.edges_text(2), "eece");
        assert_eq!(e.angles[2].links, "0e,1e,3e");
        let v = set.get(set.by_letter('V').unwrap());
        assert_eq!(v.angles[1].links, "0r,3r;0+,1e,2e,3-;0-,3+");
        for t in &set.types {
            assert_eq!(
                t.angles[0].links, t.csv_links,
                "{}: angle 0 reproduces the CSV",
                t.name
            );
        }
    }
}
