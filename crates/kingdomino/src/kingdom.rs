//! One player's kingdom: the placed squares as per-terrain bitboards, placement legality (R14)
//! for all rotations at once, placing a tile, zone scoring (R21–R23), the Middle Kingdom test
//! and the protocol's grid text in both directions.
//!
//! A kingdom knows nothing of turns, owners or eliminations; `rules.rs` drives it.

use std::marker::PhantomData;

use crate::bits::{coords, index, Bits};
use crate::tiles::{Square, Terrain, Tile};

/// The placement rules of a league (§1.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementRules {
    /// League 1: squares may land on placed squares and replace them (R14c).
    pub overlap: bool,
    /// League 3: one square must touch the castle or its own terrain (R14e).
    pub connect: bool,
}

impl PlacementRules {
    /// The rules of `league` (1, 2, or 3 and above).
    pub fn for_league(league: u32) -> Self {
        PlacementRules {
            overlap: league <= 1,
            connect: league >= 3,
        }
    }

    /// The full rules (league 3), which bots use because the protocol does not name the league.
    pub const FULL: PlacementRules = PlacementRules {
        overlap: false,
        connect: true,
    };
}

/// `PUT x y r`: the first square at (x, y), the second at (x, y) + d(r) (R12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    pub x: u8,
    pub y: u8,
    pub r: u8,
}

/// d(r) of §1.2: right, below, left, above.
pub const DIRECTIONS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

impl Placement {
    /// The placement of raw `PUT` numbers if they lie on a grid of side `size` with a valid
    /// rotation (both cells inside), else `None` (an illegal PUT, R16).
    pub fn from_numbers(x: i64, y: i64, r: i64, size: usize) -> Option<Placement> {
        let s = size as i64;
        let (dx, dy) = *DIRECTIONS.get(usize::try_from(r).ok()?)?;
        let inside = |v: i64| (0..s).contains(&v);
        if inside(x) && inside(y) && inside(x + dx) && inside(y + dy) {
            Some(Placement {
                x: x as u8,
                y: y as u8,
                r: r as u8,
            })
        } else {
            None
        }
    }

    /// The cell of the second square.
    pub fn second(self) -> (usize, usize) {
        let (dx, dy) = DIRECTIONS[self.r as usize];
        ((self.x as i64 + dx) as usize, (self.y as i64 + dy) as usize)
    }
}

/// What a grid cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    Empty,
    Castle,
    Land(Square),
}

impl Cell {
    /// The protocol's two characters (§3.2): `_0`, `*0` or terrain and crowns.
    pub fn code(self) -> [u8; 2] {
        match self {
            Cell::Empty => *b"_0",
            Cell::Castle => *b"*0",
            Cell::Land(sq) => [sq.terrain.letter() as u8, b'0' + sq.crowns],
        }
    }
}

/// A kingdom on a grid of side `B::S` with the castle at the centre.
///
/// **Invariant**: each placed cell is in exactly one terrain board and in `occupied`; crown
/// bits are only set on placed cells; the bounding box covers the castle and every placed cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kingdom<B: Bits> {
    terrain: [B; 6],
    /// Bit 0 of each placed square's crown count.
    crown1: B,
    /// Bit 1 of each placed square's crown count.
    crown2: B,
    occupied: B,
    /// Where squares may still go (R14d): the cells within E − 1 of every placed square and
    /// of the castle in both axes, the castle itself excluded. Kept up to date by `set`, one
    /// table lookup a square, where recomputing it from the bounding box took a tenth of a
    /// listing.
    reach: B,
    min_x: u8,
    max_x: u8,
    min_y: u8,
    max_y: u8,
}

impl<B: Bits> Default for Kingdom<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B: Bits> Kingdom<B> {
    /// Grid side S.
    pub const SIZE: usize = B::S;
    /// Maximum extent E = (S + 1) / 2.
    pub const EXTENT: usize = B::S.div_ceil(2);
    /// Castle coordinate C = (S − 1) / 2.
    pub const CENTRE: usize = (B::S - 1) / 2;

    /// A kingdom holding only its castle (R2).
    pub fn new() -> Self {
        let c = Self::CENTRE as u8;
        Kingdom {
            terrain: [B::ZERO; 6],
            crown1: B::ZERO,
            crown2: B::ZERO,
            occupied: B::ZERO,
            reach: B::reach(B::CASTLE) & !B::bit(B::CASTLE),
            min_x: c,
            max_x: c,
            min_y: c,
            max_y: c,
        }
    }

    /// For every rotation r, the set of first-square cells where `tile` may be placed (R14).
    // Inlined into its callers (a listing, a random action): returned through registers and
    // combined with the caller's masking, a listing took 8% less time.
    #[inline(always)]
    pub fn legal_masks(&self, tile: &Tile, rules: PlacementRules) -> [B; 4] {
        // R14d: both cells must stay inside the E × E windows containing the current box; a
        // domino cannot straddle the box, so checking each cell against the window suffices.
        let castle = B::bit(B::CASTLE);
        let mut free = self.reach;
        if !rules.overlap {
            free &= !self.occupied;
        }
        let st = B::STRIDE as u32;
        let mut masks = [
            free & free.shr(1),
            free & free.shr(st),
            free & free.shl(1),
            free & free.shl(st),
        ];
        if rules.connect {
            let near_a = (self.terrain[tile.a.terrain.index()] | castle).neighbours();
            let near_b = (self.terrain[tile.b.terrain.index()] | castle).neighbours();
            masks[0] &= near_a | near_b.shr(1);
            masks[1] &= near_a | near_b.shr(st);
            masks[2] &= near_a | near_b.shl(1);
            masks[3] &= near_a | near_b.shl(st);
        }
        masks
    }

    /// True when `tile` has at least one legal placement (R15).
    pub fn can_place(&self, tile: &Tile, rules: PlacementRules) -> bool {
        self.legal_masks(tile, rules).iter().any(|m| !m.is_empty())
    }

    /// True when `placement` of `tile` is legal (R14).
    pub fn is_legal(&self, tile: &Tile, placement: Placement, rules: PlacementRules) -> bool {
        let s = Self::SIZE as u8;
        if placement.x >= s || placement.y >= s || placement.r > 3 {
            return false;
        }
        let masks = self.legal_masks(tile, rules);
        masks[placement.r as usize].has(index::<B>(placement.x as usize, placement.y as usize))
    }

    /// Every legal (x, y, r) triple of `tile`, ordered by rotation then cell (R18 counts them).
    pub fn legal_placements(&self, tile: &Tile, rules: PlacementRules) -> Vec<Placement> {
        let masks = self.legal_masks(tile, rules);
        let mut out = Vec::new();
        for (r, mask) in masks.iter().enumerate() {
            for i in mask.iter() {
                let (x, y) = coords::<B>(i);
                out.push(Placement {
                    x: x as u8,
                    y: y as u8,
                    r: r as u8,
                });
            }
        }
        out
    }

    /// Lays `tile` at `placement` without checking legality; in league 1 new squares replace
    /// whatever was there.
    // Inlined: a step of every playout (4% faster games; BENCHMARKS.md).
    #[inline(always)]
    pub fn place(&mut self, tile: &Tile, placement: Placement) {
        let (bx, by) = placement.second();
        let (ax, ay) = (placement.x as usize, placement.y as usize);
        let (a, b) = (index::<B>(ax, ay), index::<B>(bx, by));
        let (bit_a, bit_b) = (B::bit(a), B::bit(b));
        if !(self.occupied & (bit_a | bit_b)).is_empty() {
            // League 1 lays squares over squares: `set` replaces them.
            self.set(ax, ay, tile.a);
            self.set(bx, by, tile.b);
            return;
        }
        // Both squares at once, as `set` lays each: the shared bookkeeping (occupied cells,
        // reach, bounding box) is done once for the domino.
        self.terrain[tile.a.terrain.index()] |= bit_a;
        self.terrain[tile.b.terrain.index()] |= bit_b;
        self.occupied |= bit_a | bit_b;
        self.reach &= B::reach(a) & B::reach(b);
        self.crown1 |= crowned(bit_a, tile.a.crowns & 1) | crowned(bit_b, tile.b.crowns & 1);
        self.crown2 |= crowned(bit_a, tile.a.crowns & 2) | crowned(bit_b, tile.b.crowns & 2);
        self.min_x = self.min_x.min(ax.min(bx) as u8);
        self.max_x = self.max_x.max(ax.max(bx) as u8);
        self.min_y = self.min_y.min(ay.min(by) as u8);
        self.max_y = self.max_y.max(ay.max(by) as u8);
    }

    /// Puts one square on a cell (replacing what was there); used by `place` and by tests and
    /// bots rebuilding a kingdom.
    // Inlined: a step of every playout (4% faster games; BENCHMARKS.md).
    #[inline(always)]
    pub fn set(&mut self, x: usize, y: usize, square: Square) {
        let bit = B::bit(index::<B>(x, y));
        if !(self.occupied & bit).is_empty() {
            let keep = !bit;
            for board in &mut self.terrain {
                *board &= keep;
            }
            self.crown1 &= keep;
            self.crown2 &= keep;
        }
        self.terrain[square.terrain.index()] |= bit;
        self.occupied |= bit;
        self.reach &= B::reach(index::<B>(x, y));
        self.crown1 |= crowned(bit, square.crowns & 1);
        self.crown2 |= crowned(bit, square.crowns & 2);
        self.min_x = self.min_x.min(x as u8);
        self.max_x = self.max_x.max(x as u8);
        self.min_y = self.min_y.min(y as u8);
        self.max_y = self.max_y.max(y as u8);
    }

    /// What the cell (x, y) holds.
    pub fn cell(&self, x: usize, y: usize) -> Cell {
        let i = index::<B>(x, y);
        if i == B::CASTLE {
            return Cell::Castle;
        }
        if !self.occupied.has(i) {
            return Cell::Empty;
        }
        let terrain = Terrain::ALL
            .into_iter()
            .find(|t| self.terrain[t.index()].has(i))
            .unwrap_or(Terrain::Corn);
        let crowns = u8::from(self.crown1.has(i)) + 2 * u8::from(self.crown2.has(i));
        Cell::Land(Square { terrain, crowns })
    }

    /// Sum over zones of squares × crowns (R21, R22), without bonuses.
    pub fn zone_score(&self) -> u32 {
        if let Some(score) = self.word_zone_score() {
            return score;
        }
        Terrain::ALL
            .into_iter()
            .map(|t| self.terrain_score(t))
            .sum()
    }

    /// `zone_score` in one machine word, every terrain in one pass, when the kingdom spans
    /// at most six rows (always, on the standard grid): a crowned cell's zone grows only
    /// across links between neighbouring squares of the same terrain, so one flood per
    /// crowned zone serves all six terrains, with no loop over terrains and its
    /// unpredictable exits (a third of the scoring time).
    fn word_zone_score(&self) -> Option<u32> {
        if self.max_y - self.min_y >= 6 {
            return None;
        }
        let y = self.min_y as usize;
        let stride = B::STRIDE;
        let crown1 = self.crown1.six_rows_from(y)?;
        let crown2 = self.crown2.six_rows_from(y)?;
        // `right`: cells whose right neighbour has their terrain; `down`: the same below.
        let (mut right, mut down) = (0u64, 0u64);
        for land in self.terrain {
            let land = land.six_rows_from(y)?;
            right |= land & land >> 1;
            down |= land & land >> stride;
        }
        let grow = |zone: u64| {
            zone | (zone & right) << 1
                | (zone >> 1 & right)
                | (zone & down) << stride
                | (zone >> stride & down)
        };
        let mut seeds = crown1 | crown2;
        let mut total = 0;
        while seeds != 0 {
            let mut zone = seeds & seeds.wrapping_neg();
            // Three steps before the first test: most zones are complete by then, so the
            // loop's exit is predicted, where testing every step mispredicted it once a zone.
            zone = grow(grow(grow(zone)));
            loop {
                let grown = grow(zone);
                if grown == zone {
                    break;
                }
                zone = grown;
            }
            let crowns = (zone & crown1).count_ones() + 2 * (zone & crown2).count_ones();
            total += zone.count_ones() * crowns;
            seeds &= !zone;
        }
        Some(total)
    }

    /// The part of `zone_score` from the zones of one terrain.
    #[inline]
    pub fn terrain_score(&self, terrain: Terrain) -> u32 {
        let land = self.terrain[terrain.index()];
        // A standard kingdom spans at most five rows: moved down to row 0 they fit one
        // machine word, where the flood's shifts are single instructions.
        if self.max_y - self.min_y < 6 {
            let y = self.min_y as usize;
            let word = |b: B| b.six_rows_from(y);
            if let (Some(land), Some(crown1), Some(crown2)) =
                (word(land), word(self.crown1), word(self.crown2))
            {
                return crowned_zones_score(
                    Word::<B>::of(land),
                    Word::of(crown1),
                    Word::of(crown2),
                );
            }
        }
        crowned_zones_score(land, self.crown1, self.crown2)
    }

    /// How many placed squares next to (x, y) have `terrain`.
    pub fn touching(&self, x: usize, y: usize, terrain: Terrain) -> u32 {
        (B::bit(index::<B>(x, y)).neighbours() & self.terrain[terrain.index()]).count()
    }

    /// Placed squares, castle excluded (R23).
    pub fn territory(&self) -> u32 {
        self.occupied.count()
    }

    /// Total crowns (R23).
    pub fn crowns(&self) -> u32 {
        self.crown1.count() + 2 * self.crown2.count()
    }

    /// Middle Kingdom (§6.2): every placed square within (E − 1) / 2 of the castle in both axes.
    pub fn is_centred(&self) -> bool {
        if self.occupied.is_empty() {
            return true;
        }
        let h = (Self::EXTENT - 1) / 2;
        let c = Self::CENTRE;
        let within = |lo: u8, hi: u8| lo as usize + h >= c && hi as usize <= c + h;
        within(self.min_x, self.max_x) && within(self.min_y, self.max_y)
    }

    /// The bounding box (min_x, max_x, min_y, max_y) of the castle and all placed squares.
    pub fn bounds(&self) -> (usize, usize, usize, usize) {
        (
            self.min_x as usize,
            self.max_x as usize,
            self.min_y as usize,
            self.max_y as usize,
        )
    }

    /// Row y as the protocol prints it: S cells of two characters.
    pub fn row_text(&self, y: usize) -> String {
        let mut row = Vec::with_capacity(2 * Self::SIZE);
        for x in 0..Self::SIZE {
            row.extend_from_slice(&self.cell(x, y).code());
        }
        String::from_utf8(row).unwrap_or_default()
    }

    /// All S rows, top to bottom.
    pub fn rows_text(&self) -> Vec<String> {
        (0..Self::SIZE).map(|y| self.row_text(y)).collect()
    }

    /// Rebuilds a kingdom from the S protocol rows of its grid, checking every cell code and
    /// that the castle sits (only) at the centre.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Self, String> {
        if rows.len() != Self::SIZE {
            return Err(format!("{} rows, expected {}", rows.len(), Self::SIZE));
        }
        let mut kingdom = Self::new();
        for (y, row) in rows.iter().enumerate() {
            let bytes = row.as_ref().as_bytes();
            if bytes.len() != 2 * Self::SIZE {
                return Err(format!("row {y} has {} characters", bytes.len()));
            }
            for x in 0..Self::SIZE {
                let (t, c) = (bytes[2 * x], bytes[2 * x + 1]);
                let centre = x == Self::CENTRE && y == Self::CENTRE;
                match (t, centre) {
                    (b'*', true) | (b'_', false) => {}
                    _ => {
                        let terrain = Terrain::from_letter(t)
                            .filter(|_| !centre)
                            .ok_or_else(|| format!("bad cell at ({x}, {y})"))?;
                        if !(b'0'..=b'3').contains(&c) {
                            return Err(format!("bad crowns at ({x}, {y})"));
                        }
                        let crowns = c - b'0';
                        kingdom.set(x, y, Square { terrain, crowns });
                    }
                }
            }
        }
        Ok(kingdom)
    }
}

/// `bit` when `crown_bit` is not zero, else no cell: selected rather than branched on, since
/// crowns are random to the branch predictor.
#[inline(always)]
fn crowned<B: Bits>(bit: B, crown_bit: u8) -> B {
    if crown_bit != 0 {
        bit
    } else {
        B::ZERO
    }
}

/// What zone scoring needs of a cell set: a grid's bitboard, or a word of its rows.
trait ZoneCells: Copy + Eq {
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn without(self, other: Self) -> Self;
    fn is_empty(self) -> bool;
    fn lowest_cell(self) -> Self;
    /// The set with its orthogonal neighbours, kept to `within`.
    fn grown(self, within: Self) -> Self;
    fn count(self) -> u32;
}

impl<B: Bits> ZoneCells for B {
    fn and(self, other: B) -> B {
        self & other
    }
    fn or(self, other: B) -> B {
        self | other
    }
    fn without(self, other: B) -> B {
        self & !other
    }
    fn is_empty(self) -> bool {
        Bits::is_empty(self)
    }
    fn lowest_cell(self) -> B {
        B::bit(self.lowest())
    }
    fn grown(self, within: B) -> B {
        (self | self.neighbours()) & within
    }
    fn count(self) -> u32 {
        Bits::count(self)
    }
}

/// Six rows of a `B` grid in one word (`Bits::six_rows_from`).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Word<B>(u64, PhantomData<B>);

impl<B: Bits> Word<B> {
    fn of(rows: u64) -> Self {
        Word(rows, PhantomData)
    }
}

impl<B: Bits> ZoneCells for Word<B> {
    fn and(self, other: Self) -> Self {
        Word::of(self.0 & other.0)
    }
    fn or(self, other: Self) -> Self {
        Word::of(self.0 | other.0)
    }
    fn without(self, other: Self) -> Self {
        Word::of(self.0 & !other.0)
    }
    fn is_empty(self) -> bool {
        self.0 == 0
    }
    fn lowest_cell(self) -> Self {
        Word::of(self.0 & self.0.wrapping_neg())
    }
    fn grown(self, within: Self) -> Self {
        let (z, stride) = (self.0, B::STRIDE);
        Word::of((z | z << 1 | z >> 1 | z << stride | z >> stride) & within.0)
    }
    fn count(self) -> u32 {
        self.0.count_ones()
    }
}

/// Sum over the zones of `land` of squares × crowns (R21, R22). Crownless zones score
/// nothing, so only zones holding a crown are flooded.
fn crowned_zones_score<C: ZoneCells>(land: C, crown1: C, crown2: C) -> u32 {
    let mut seeds = land.and(crown1.or(crown2));
    let mut total = 0;
    while !seeds.is_empty() {
        let mut zone = seeds.lowest_cell();
        loop {
            let grown = zone.grown(land);
            if grown == zone {
                break;
            }
            zone = grown;
        }
        let crowns = zone.and(crown1).count() + 2 * zone.and(crown2).count();
        total += zone.count() * crowns;
        seeds = seeds.without(zone);
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::tile;

    #[test]
    fn r12_second_square_follows_rotation() {
        let p = Placement { x: 4, y: 3, r: 3 };
        assert_eq!(p.second(), (4, 2));
        assert_eq!(Placement::from_numbers(8, 4, 0, 9), None);
        assert_eq!(Placement::from_numbers(0, 0, 2, 9), None);
        assert_eq!(
            Placement::from_numbers(1, 0, 2, 9),
            Some(Placement { x: 1, y: 0, r: 2 })
        );
        assert_eq!(Placement::from_numbers(4, 4, 4, 9), None);
        assert_eq!(Placement::from_numbers(4, 4, -1, 9), None);
    }

    #[test]
    fn r14b_castle_is_never_covered() {
        let k = Kingdom::<u128>::new();
        let t = tile(1).copied().unwrap_or_else(|| unreachable!());
        for rules in [PlacementRules::for_league(1), PlacementRules::FULL] {
            assert!(!k.is_legal(&t, Placement { x: 4, y: 4, r: 0 }, rules));
            assert!(!k.is_legal(&t, Placement { x: 3, y: 4, r: 0 }, rules));
            assert!(k.is_legal(&t, Placement { x: 2, y: 4, r: 0 }, rules));
        }
    }

    /// The one-word floods of the standard grid score every terrain, and all of them, as the
    /// grid flood does, after every action of random 2- and 4-player games.
    #[test]
    fn word_zone_scores_are_the_grid_zone_scores() {
        use crate::rules::Game;
        use crate::setup::{Config, Mode};
        let mut buf = Vec::new();
        let mut crowned = 0;
        for seed in 0..60u64 {
            let players = if seed % 2 == 0 { 2 } else { 4 };
            let mut game: Game<u128> = Game::new(Config::new(Mode::Standard, players), seed);
            let mut step = seed as usize;
            while game.to_move().is_some() {
                game.legal_actions_into(&mut buf);
                step = step.wrapping_mul(31).wrapping_add(7);
                game.apply_action(&buf[step % buf.len()]);
                for p in 0..players {
                    let k = game.kingdom(p);
                    let mut total = 0;
                    for t in Terrain::ALL {
                        let grid = crowned_zones_score(k.terrain[t.index()], k.crown1, k.crown2);
                        assert_eq!(k.terrain_score(t), grid);
                        crowned += u32::from(grid > 0);
                        total += grid;
                    }
                    // The all-terrains flood in one word.
                    assert_eq!(k.word_zone_score(), Some(total));
                    assert_eq!(k.zone_score(), total);
                }
            }
        }
        assert!(crowned > 1000, "only {crowned} scoring terrains seen");
    }

    /// Placing a domino at once lays the same kingdom as setting its two squares, in every
    /// league (league 1 lays squares over squares), after every placement of random games.
    #[test]
    fn a_placed_domino_is_its_two_set_squares() {
        use crate::rules::Game;
        use crate::setup::{Config, Mode};
        let mut buf = Vec::new();
        let mut placed = 0;
        for seed in 0..45u64 {
            let league = 1 + seed as u32 % 3;
            let config = Config::new(Mode::Standard, 2).with_league(league);
            let mut game: Game<u128> = Game::new(config, seed);
            let mut step = seed as usize;
            while let Some(player) = game.to_move() {
                game.legal_actions_into(&mut buf);
                step = step.wrapping_mul(31).wrapping_add(7);
                let action = buf[step % buf.len()];
                let mut expected = *game.kingdom(player);
                if let (Some(t), Some(p)) = (game.slot_tile(), action.put()) {
                    let (bx, by) = p.second();
                    expected.set(p.x as usize, p.y as usize, t.a);
                    expected.set(bx, by, t.b);
                    placed += 1;
                }
                game.apply_action(&action);
                assert_eq!(*game.kingdom(player), expected, "seed {seed}");
            }
        }
        assert!(placed > 800, "only {placed} placements");
    }

    #[test]
    fn rows_round_trip() {
        let mut k = Kingdom::<u128>::new();
        let t = tile(48).copied().unwrap_or_else(|| unreachable!());
        k.place(&t, Placement { x: 5, y: 4, r: 0 });
        let rows = k.rows_text();
        assert_eq!(rows[4], "_0_0_0_0*0c0m3_0_0");
        assert_eq!(Kingdom::<u128>::from_rows(&rows), Ok(k));
        assert_eq!(k.zone_score(), 3);
    }

    #[test]
    fn touching_counts_placed_squares_of_one_terrain_and_never_the_castle() {
        let mut k = Kingdom::<u128>::new();
        let t = tile(48).copied().unwrap_or_else(|| unreachable!());
        // c0 at (5, 4) next to the castle, m3 at (6, 4).
        k.place(&t, Placement { x: 5, y: 4, r: 0 });
        let (corn, mine) = (t.a.terrain, t.b.terrain);
        assert_ne!(corn, mine);
        assert_eq!(k.touching(5, 5, corn), 1);
        assert_eq!(k.touching(5, 5, mine), 0);
        assert_eq!(k.touching(6, 5, mine), 1);
        assert_eq!(k.touching(7, 4, mine), 1);
        assert_eq!(k.touching(3, 4, corn), 0);
        assert_eq!(k.terrain_score(mine), 3);
        assert_eq!(k.terrain_score(corn), 0);
        // A second mine square next to the crowned one: one zone of 2 squares, 3 crowns.
        let second = Square {
            terrain: mine,
            crowns: 0,
        };
        k.set(7, 4, second);
        assert_eq!(k.terrain_score(mine), 6);
        assert_eq!(k.zone_score(), 6);
    }
}
