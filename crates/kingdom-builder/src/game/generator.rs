//! The full game's board generator (9.2): R3's quadrant generator with the location type draw
//! in place of the pattern draw, and the region fill of the remaining `.` cells. The order of
//! every draw is written down in RULES.md ("Full game", G1-G5).

use realm_core::SplitMix64;

use crate::board::{Pos, QUADRANT_SIZE};

use super::bits::hex_distance;
use super::map::{Map, MapCell, Terrain, TileKind};

const Q: usize = QUADRANT_SIZE;

/// R1's `below(n)`: the next output modulo n.
pub(crate) fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// Candidates rejected in a row before a quadrant is thrown away and restarted (R3 step 4).
const MAX_REJECTIONS: usize = 1000;

/// Number of region centres per quadrant (9.2).
const REGION_CENTRES: usize = 10;

/// Generates Q1, Q2, Q3, Q4 in this order from the stream (G1), each quadrant continuing where
/// the previous one stopped. Returns the map and the location type of each quadrant.
pub fn generate_map(rng: &mut SplitMix64) -> (Map, [TileKind; 4]) {
    let mut map = Map::filled(MapCell::Open(Terrain::Grass));
    let mut remaining = TileKind::ALL.to_vec();
    let mut kinds = [TileKind::Oracle; 4];
    for (quadrant, kind_slot) in kinds.iter_mut().enumerate() {
        let (cells, kind) = generate_quadrant(rng, &remaining);
        remaining.retain(|&k| k != kind);
        *kind_slot = kind;
        let (row0, col0) = ((quadrant / 2) * Q, (quadrant % 2) * Q);
        for (local, cell) in cells.into_iter().enumerate() {
            map.set(Pos::new(row0 + local / Q, col0 + local % Q), cell);
        }
    }
    (map, kinds)
}

/// A quadrant cell before the region fill; `None` is R3's `.`.
type Local = Option<MapCell>;

const WATER: Local = Some(MapCell::Open(Terrain::Water));
const MOUNTAIN: Local = Some(MapCell::Open(Terrain::Mountain));
const CASTLE: Local = Some(MapCell::Open(Terrain::Castle));

fn local_index((row, col): (usize, usize)) -> usize {
    row * Q + col
}

/// The in-quadrant neighbours of a local cell in B2's table order (the row offset of a quadrant
/// is even, so the table applies in local coordinates).
fn local_neighbours((row, col): (usize, usize)) -> impl Iterator<Item = (usize, usize)> {
    Pos::new(row, col)
        .neighbours()
        .filter(|p| p.row < Q && p.col < Q)
        .map(|p| (p.row, p.col))
}

/// A cell (row drawn first, then column), each below `n`, plus `offset`.
fn pick(rng: &mut SplitMix64, n: usize, offset: usize) -> (usize, usize) {
    let row = offset + below(rng, n);
    let col = offset + below(rng, n);
    (row, col)
}

/// One quadrant: R3 steps 1-4 with the location type drawn from `remaining` (G2), restarted at
/// step 1 after too many rejected candidates, then the region fill (G4).
fn generate_quadrant(rng: &mut SplitMix64, remaining: &[TileKind]) -> ([MapCell; Q * Q], TileKind) {
    loop {
        let mut cells: [Local; Q * Q] = [None; Q * Q];
        place_water(rng, &mut cells);
        place_mountains(rng, &mut cells);
        let kind = remaining[below(rng, remaining.len())];
        if place_specials(rng, &mut cells, kind) {
            return (fill_regions(rng, &cells), kind);
        }
    }
}

/// R3 step 2: a random walk that turns cells into water until the quadrant holds w of them.
fn place_water(rng: &mut SplitMix64, cells: &mut [Local; Q * Q]) {
    let target = 12 + below(rng, 7);
    let mut current = pick(rng, Q, 0);
    let mut count = 0;
    loop {
        if cells[local_index(current)] != WATER {
            cells[local_index(current)] = WATER;
            count += 1;
        }
        if count == target {
            return;
        }
        let options: Vec<_> = local_neighbours(current).collect();
        current = options[below(rng, options.len())];
    }
}

/// R3 step 3: clusters of 2 to 4 mountains until the quadrant holds m of them.
fn place_mountains(rng: &mut SplitMix64, cells: &mut [Local; Q * Q]) {
    let target = 6 + below(rng, 5);
    let mut placed = 0;
    while placed < target {
        let size = 2 + below(rng, 3);
        let mut start = pick(rng, Q, 0);
        while cells[local_index(start)].is_some() {
            start = pick(rng, Q, 0);
        }
        cells[local_index(start)] = MOUNTAIN;
        placed += 1;
        let mut cluster = vec![start];
        while cluster.len() < size && placed < target {
            let mut options: Vec<(usize, usize)> = cluster
                .iter()
                .flat_map(|&c| local_neighbours(c))
                .filter(|&n| cells[local_index(n)].is_none())
                .collect();
            options.sort();
            options.dedup();
            if options.is_empty() {
                break;
            }
            let next = options[below(rng, options.len())];
            cells[local_index(next)] = MOUNTAIN;
            cluster.push(next);
            placed += 1;
        }
    }
}

/// R3 step 4 with 9.2's kinds: the location hexes of `kind` first, then the castles. False when
/// some special hex met 1000 rejected candidates in a row (the quadrant is restarted).
fn place_specials(rng: &mut SplitMix64, cells: &mut [Local; Q * Q], kind: TileKind) -> bool {
    let n_locations = kind.location_hexes_per_quadrant();
    let specials = (0..3).map(|i| {
        if i < n_locations {
            Some(MapCell::Location(kind))
        } else {
            CASTLE
        }
    });
    let mut placed: Vec<(usize, usize)> = Vec::with_capacity(3);
    for special in specials {
        let mut rejected = 0;
        loop {
            let candidate = pick(rng, Q - 2, 1);
            if accepts_special(cells, &placed, candidate) {
                cells[local_index(candidate)] = special;
                placed.push(candidate);
                break;
            }
            rejected += 1;
            if rejected == MAX_REJECTIONS {
                return false;
            }
        }
    }
    true
}

/// R3 step 4's test: an empty cell with at least 3 empty neighbours, and no special hex of the
/// quadrant next to it or sharing a neighbour with it (hex distance 3 or more).
fn accepts_special(cells: &[Local; Q * Q], placed: &[(usize, usize)], at: (usize, usize)) -> bool {
    let empty_neighbours = local_neighbours(at)
        .filter(|&n| cells[local_index(n)].is_none())
        .count();
    cells[local_index(at)].is_none()
        && empty_neighbours >= 3
        && placed.iter().all(|&other| hex_distance(at, other) >= 3)
}

/// 9.2's region fill (G4): ten centres drawn from the quadrant's `.` cells, terrains grass,
/// canyon, desert, flower, forest twice over, each `.` cell taking the terrain of its nearest
/// centre (ties to the lower centre index).
fn fill_regions(rng: &mut SplitMix64, cells: &[Local; Q * Q]) -> [MapCell; Q * Q] {
    let empties: Vec<usize> = (0..Q * Q).filter(|&i| cells[i].is_none()).collect();
    let mut pool = empties.clone();
    let centres: Vec<(usize, usize)> = (0..REGION_CENTRES)
        .map(|_| {
            let cell = pool.remove(below(rng, pool.len()));
            (cell / Q, cell % Q)
        })
        .collect();
    let mut filled = [MapCell::Open(Terrain::Grass); Q * Q];
    for (i, cell) in cells.iter().enumerate() {
        filled[i] = cell.unwrap_or_else(|| {
            let at = (i / Q, i % Q);
            let nearest = (0..REGION_CENTRES)
                .min_by_key(|&k| (hex_distance(at, centres[k]), k))
                .unwrap_or(0);
            MapCell::Open(Terrain::BUILDABLE[nearest % Terrain::BUILDABLE.len()])
        });
    }
    filled
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r1_stream_matches_spec_7_3() {
        let mut rng = SplitMix64::new(1);
        assert_eq!(rng.next_u64(), 10451216379200822465);
        assert_eq!(rng.next_u64(), 13757245211066428519);
    }

    #[test]
    fn same_seed_same_map_and_types_all_different() {
        let (a, kinds_a) = generate_map(&mut SplitMix64::new(7));
        let (b, kinds_b) = generate_map(&mut SplitMix64::new(7));
        assert_eq!(a, b);
        assert_eq!(kinds_a, kinds_b);
        let (c, _) = generate_map(&mut SplitMix64::new(8));
        assert_ne!(a, c);
        for (i, k) in kinds_a.iter().enumerate() {
            assert!(!kinds_a[..i].contains(k));
        }
    }
}
