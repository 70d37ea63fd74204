//! The seeded start of a game: the league's parameters and the map generator of R7–R9, which
//! reproduces the official Java referee cell for cell through `realm_core::JavaRandom`.
//! The map also answers static distances (R9.10), computed lazily per target because only a
//! MOVE towards a far target needs them. Nothing here knows about units, gold or turns.

use std::sync::OnceLock;

use realm_core::JavaRandom;

use crate::geom::{Bits, Cell, ALL, N_SLOTS, SIZE};

/// The league (1 = Wood 3 … 4 = Bronze and above) and what it enables (§5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct League(u8);

impl League {
    /// League `n`, for `n` in 1..=4.
    pub fn new(n: u32) -> Option<League> {
        (1..=4).contains(&n).then_some(League(n as u8))
    }

    pub fn number(self) -> u32 {
        self.0 as u32
    }

    /// T, the top trainable level: 1 in league 1, 3 otherwise.
    pub fn top_level(self) -> u8 {
        if self.0 == 1 {
            1
        } else {
            3
        }
    }

    /// Mine spots exist and BUILD MINE works (leagues 3 and 4).
    pub fn has_mines(self) -> bool {
        self.0 >= 3
    }

    /// BUILD TOWER works (league 4).
    pub fn has_towers(self) -> bool {
        self.0 >= 4
    }
}

/// `nextFloat()` of java.util.Random, which `realm_core::JavaRandom` does not provide.
pub fn next_float(rng: &mut JavaRandom) -> f32 {
    rng.next_bits(24) as f32 / (1u32 << 24) as f32
}

/// The static part of a game: which cells are playable and which are mine spots.
pub struct Map {
    playable: Bits,
    spots: Bits,
    /// By target cell, allocated on the first query: most games never need a distance.
    dist: OnceLock<Box<[OnceLock<Distances>]>>,
}

/// Static distances from every cell to one target.
type Distances = Box<[u8; N_SLOTS]>;

/// Distance value for cells that cannot be reached (void cells, or a disconnected hand-built map).
pub const UNREACHABLE: u8 = u8::MAX;

impl Map {
    /// A map from its playable cells and mine spots (hand-built positions, bots' models).
    pub fn from_parts(playable: Bits, spots: Bits) -> Map {
        Map {
            playable: playable.and(ALL),
            spots: spots.and(playable),
            dist: OnceLock::new(),
        }
    }

    /// Runs the generator of R9 for `seed` in `league`.
    pub fn generate(seed: i64, league: League) -> Map {
        let mut rng = JavaRandom::new(seed);
        // Steps 1–2: the random fill, x outer and y inner.
        let mut open = Bits::EMPTY;
        for x in 0..SIZE {
            for y in 0..SIZE {
                let bit = (next_float(&mut rng) > 0.45f32) as u64;
                open.0[y / 4] |= bit << (16 * (y % 4) + x);
            }
        }
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            open.insert(Cell::new(x, y));
        }
        // Step 4: the cellular automaton; outside the grid counts as open.
        for _ in 0..3 {
            open = automaton_round(open);
        }
        // Step 5: open cells become void.
        let mut playable = ALL.minus(open);
        // Step 6: the symmetry pass. In the referee's order, for x then y ≤ x, each cell
        // (x, y) is copied onto its mirror image. Only the cells (x, x) with x ≥ 6 are written
        // before they are read, and they then copy back the value they received. So the pass
        // keeps the cells with y < x and the first half of the diagonal, and mirrors them.
        let kept = playable.and(SYMMETRY_SOURCE);
        playable = kept.or(kept.mirror());
        // Step 7: the corners around both HQs.
        for x in 0..3 {
            for y in 0..3 {
                playable.insert(Cell::new(x, y));
                playable.insert(Cell::new(x, y).mirror());
            }
        }
        // Step 8: connect the components.
        connect(&mut playable, &mut rng);
        // Steps 3 and 9: the mine spots.
        let mut spots = Bits::EMPTY;
        if league.has_mines() {
            spots.insert(Cell::new(1, 0));
            spots.insert(Cell::new(10, 11));
            let n = playable.count() as i32;
            let max = 6.max((n as f32 * 0.15f32) as i32);
            let r = rng.next_int_bounded(max - 5) + 6;
            let count = 2 * (r / 2);
            let forbidden: Bits = [(0, 0), (11, 11), (0, 1), (11, 10)]
                .into_iter()
                .map(|(x, y)| Cell::new(x, y))
                .collect();
            for _ in 0..count / 2 - 1 {
                loop {
                    let x = rng.next_int_bounded(SIZE as i32) as usize;
                    let y = rng.next_int_bounded(SIZE as i32) as usize;
                    let c = Cell::new(x, y);
                    if playable.has(c) && !spots.has(c) && !forbidden.has(c) {
                        spots.insert(c);
                        spots.insert(c.mirror());
                        break;
                    }
                }
            }
        }
        Map::from_parts(playable, spots)
    }

    pub fn playable(&self) -> Bits {
        self.playable
    }

    pub fn is_playable(&self, cell: Cell) -> bool {
        self.playable.has(cell)
    }

    pub fn spots(&self) -> Bits {
        self.spots
    }

    /// The playable neighbours of `cell`, in the order up, right, down, left.
    pub fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        cell.around()
            .into_iter()
            .flatten()
            .filter(|c| self.playable.has(*c))
    }

    /// Static distance from every cell to `target` (R9.10), `UNREACHABLE` where there is no path.
    pub fn dist_to(&self, target: Cell) -> &[u8; N_SLOTS] {
        let by_target = self
            .dist
            .get_or_init(|| (0..N_SLOTS).map(|_| OnceLock::new()).collect());
        by_target[target.idx()].get_or_init(|| {
            let mut d = Box::new([UNREACHABLE; N_SLOTS]);
            if !self.playable.has(target) {
                return d;
            }
            let mut seen = Bits::single(target);
            let mut layer = seen;
            let mut k = 0u8;
            while !layer.is_empty() {
                for c in layer.iter() {
                    d[c.idx()] = k;
                }
                let next = seen.grow(self.playable);
                layer = next.minus(seen);
                seen = next;
                k = k.saturating_add(1);
            }
            d
        })
    }

    /// Static distance between two cells (R9.10).
    pub fn dist(&self, a: Cell, b: Cell) -> u8 {
        self.dist_to(b)[a.idx()]
    }
}

impl Clone for Map {
    fn clone(&self) -> Map {
        Map::from_parts(self.playable, self.spots)
    }
}

impl std::fmt::Debug for Map {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Map")
            .field("playable", &self.playable)
            .field("spots", &self.spots)
            .finish()
    }
}

/// The cells the symmetry pass of `Map::generate` copies from: (x, y) with y < x, and
/// (x, x) with x < 6.
const SYMMETRY_SOURCE: Bits = {
    let mut words = [0u64; 3];
    let mut y = 0;
    while y < SIZE {
        let mut x = 0;
        while x < SIZE {
            if y < x || (y == x && x < SIZE / 2) {
                let idx = y * 16 + x;
                words[idx / 64] |= 1 << (idx % 64);
            }
            x += 1;
        }
        y += 1;
    }
    Bits(words)
};

/// One round of the automaton: a cell is open when at least 6 of the 9 cells of its 3×3 block
/// (itself included, outside counting as open) were open.
fn automaton_round(open: Bits) -> Bits {
    // Rows padded by one open cell on every side: bit x + 1 of `rows[y + 1]` is cell (x, y).
    let mut rows = [0x3FFFu32; SIZE + 2];
    for (y, row) in rows[1..=SIZE].iter_mut().enumerate() {
        let bits = (open.0[y / 4] >> (16 * (y % 4))) as u32 & 0x0FFF;
        *row = 1 | bits << 1 | 1 << (SIZE + 1);
    }
    // The open cells of each row's 1×3 windows, bit x for the window centred on cell x, as
    // 2-bit numbers in bit slices (ones, twos): a whole row is counted at once.
    let windows = rows.map(|r| {
        let (a, b, c) = (r, r >> 1, r >> 2);
        (a ^ b ^ c, majority(a, b, c))
    });
    let mut next = Bits::EMPTY;
    for y in 0..SIZE {
        let [(l0, l1), (m0, m1), (n0, n1)] = [windows[y], windows[y + 1], windows[y + 2]];
        // The block count is (l0 + m0 + n0) + 2 (l1 + m1 + n1) = s + 2 (carry + l1 + m1 + n1)
        // with s ≤ 1, so it reaches 6 exactly when 3 of those 4 bits are set.
        let carry = majority(l0, m0, n0);
        let open_row = at_least_3_of_4(carry, l1, m1, n1) & 0x0FFF;
        next.0[y / 4] |= (open_row as u64) << (16 * (y % 4));
    }
    next
}

/// Bitwise: set where at least 2 of the 3 inputs are.
fn majority(a: u32, b: u32, c: u32) -> u32 {
    (a & b) | (c & (a ^ b))
}

/// Bitwise: set where at least 3 of the 4 inputs are.
fn at_least_3_of_4(a: u32, b: u32, c: u32, d: u32) -> u32 {
    (a & b & (c | d)) | (c & d & (a | b))
}

/// Step 8: find the components in the referee's order and join every pair of picked cells with
/// an L-shaped corridor and its mirror.
fn connect(playable: &mut Bits, rng: &mut JavaRandom) {
    // Shortcut: a connected map draws nothing, and a flood fill tells it cheaply.
    if let Some(first) = playable.first() {
        if Bits::single(first).flood(*playable) == *playable {
            return;
        }
    }
    // The playable cells component after component, each in depth-first pre-order, and
    // where each component starts in that order.
    let mut order = Order {
        cells: [Cell::new(0, 0); SIZE * SIZE],
        len: 0,
    };
    let mut starts = [0; SIZE * SIZE + 1];
    let mut n_components = 0;
    let mut seen = Bits::EMPTY;
    for x in 0..SIZE {
        for y in 0..SIZE {
            let c = Cell::new(x, y);
            if playable.has(c) && !seen.has(c) {
                starts[n_components] = order.len;
                n_components += 1;
                dfs(c, *playable, &mut seen, &mut order);
            }
        }
    }
    if n_components <= 1 {
        return;
    }
    starts[n_components] = order.len;
    let mut picks = [Cell::new(0, 0); SIZE * SIZE];
    for (i, pick) in picks[..n_components].iter_mut().enumerate() {
        let component = &order.cells[starts[i]..starts[i + 1]];
        *pick = component[rng.next_int_bounded(component.len() as i32) as usize];
    }
    let picks = &picks[..n_components];
    for (i, a) in picks.iter().enumerate() {
        for b in &picks[i + 1..] {
            for x in a.x().min(b.x())..=a.x().max(b.x()) {
                let c = Cell::new(x, b.y());
                playable.insert(c);
                playable.insert(c.mirror());
            }
            for y in a.y().min(b.y())..=a.y().max(b.y()) {
                let c = Cell::new(a.x(), y);
                playable.insert(c);
                playable.insert(c.mirror());
            }
        }
    }
}

/// Cells in the order a search visits them, without allocating.
struct Order {
    cells: [Cell; SIZE * SIZE],
    len: usize,
}

/// Recursive depth-first pre-order, neighbours tried as (x−1,y), (x+1,y), (x,y−1), (x,y+1).
fn dfs(c: Cell, playable: Bits, seen: &mut Bits, order: &mut Order) {
    seen.insert(c);
    order.cells[order.len] = c;
    order.len += 1;
    let (x, y) = (c.x() as i64, c.y() as i64);
    for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] {
        if let Some(n) = Cell::checked(nx, ny) {
            if playable.has(n) && !seen.has(n) {
                dfs(n, playable, seen, order);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spot_list(map: &Map) -> Vec<(usize, usize)> {
        map.spots().iter().map(|c| (c.x(), c.y())).collect()
    }

    #[test]
    fn e1_java_random_values() {
        let mut r = JavaRandom::new(42);
        assert_eq!(r.clone().next_bits(24), 12206493);
        assert_eq!(next_float(&mut r), 0.7275637);
        assert_eq!(next_float(&mut r), 0.054665208);
        let mut r = JavaRandom::new(0);
        assert_eq!(r.next_int_bounded(12), 0);
        assert_eq!(r.next_int_bounded(12), 4);
        assert_eq!(r.next_int_bounded(10), 9);
        assert_eq!(JavaRandom::new(-1).next_bits(32), 1155099827);
        assert_eq!(JavaRandom::new(i64::MIN).next_int_bounded(100), 60);
    }

    #[test]
    fn e2_maps() {
        let l4 = League::new(4).unwrap();
        let m = Map::generate(42, l4);
        assert_eq!(m.playable().count(), 116);
        assert_eq!(
            spot_list(&m),
            vec![
                (1, 0),
                (3, 1),
                (6, 1),
                (4, 3),
                (9, 4),
                (0, 5),
                (11, 5),
                (0, 6),
                (11, 6),
                (2, 7),
                (7, 8),
                (5, 10),
                (8, 10),
                (10, 11)
            ]
        );
        let m = Map::generate(0, l4);
        assert_eq!(m.playable().count(), 98);
        assert_eq!(
            spot_list(&m),
            vec![(1, 0), (6, 1), (1, 5), (10, 6), (5, 10), (10, 11)]
        );
        let same = Map::generate(i64::MIN, l4);
        assert_eq!((same.playable(), same.spots()), (m.playable(), m.spots()));
        let m = Map::generate(-1, l4);
        assert_eq!((m.playable().count(), m.spots().count()), (120, 12));
        let same = Map::generate(i64::MAX, l4);
        assert_eq!((same.playable(), same.spots()), (m.playable(), m.spots()));
        let m = Map::generate(4, l4);
        assert_eq!((m.playable().count(), m.spots().count()), (84, 10));
        let m = Map::generate(9110998980814952608, l4);
        assert_eq!(m.playable().count(), 106);
        assert_eq!(
            spot_list(&m),
            vec![(1, 0), (11, 3), (9, 4), (2, 7), (0, 8), (10, 11)]
        );
    }

    #[test]
    fn r9_10_distances_follow_paths_around_void() {
        let m = Map::generate(4, League::new(1).unwrap());
        assert!(m.spots().is_empty());
        let hq = Cell::new(11, 11);
        assert_eq!(m.dist(hq, hq), 0);
        assert_eq!(m.dist(Cell::new(10, 11), hq), 1);
        // The map is connected, so every playable cell has a finite distance.
        assert!(m.playable().iter().all(|c| m.dist(c, hq) != UNREACHABLE));
        assert!(m.dist(Cell::new(0, 0), hq) as usize >= 22);
    }
}
