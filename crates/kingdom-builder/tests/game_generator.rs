//! The full game's board generator (9.2, RULES.md G1-G5) over many seeds, and the map file.

use realm_core::SplitMix64;
use realm_kingdom_builder::game::bits::hex_distance;
use realm_kingdom_builder::game::{generate_map, Map, MapCell, Terrain, TileKind};
use realm_kingdom_builder::Pos;

fn quadrant_cells(quadrant: usize) -> impl Iterator<Item = Pos> {
    let (row0, col0) = ((quadrant / 2) * 10, (quadrant % 2) * 10);
    (0..100).map(move |i| Pos::new(row0 + i / 10, col0 + i % 10))
}

fn is_special(cell: MapCell) -> bool {
    matches!(cell.terrain(), Terrain::Location | Terrain::Castle)
}

const SEEDS: u64 = 1500;

#[test]
fn g1_to_g5_quadrant_counts_like_r4_over_many_seeds() {
    for seed in 0..SEEDS {
        let (map, kinds) = generate_map(&mut SplitMix64::new(seed));
        for (quadrant, &kind) in kinds.iter().enumerate() {
            let count = |terrain: Terrain| {
                quadrant_cells(quadrant)
                    .filter(|&p| map.cell(p).terrain() == terrain)
                    .count()
            };
            let (water, mountains) = (count(Terrain::Water), count(Terrain::Mountain));
            assert!(
                (12..=18).contains(&water),
                "seed {seed} Q{quadrant}: {water} water"
            );
            assert!((6..=10).contains(&mountains), "seed {seed} Q{quadrant}");
            // 9.2: Oracle and Harbor quadrants 1 location hex + 2 castles, others 2 + 1, all of
            // the quadrant's drawn type.
            let locations: Vec<MapCell> = quadrant_cells(quadrant)
                .map(|p| map.cell(p))
                .filter(|c| c.terrain() == Terrain::Location)
                .collect();
            let expected = kind.location_hexes_per_quadrant();
            assert_eq!(
                locations,
                vec![MapCell::Location(kind); expected],
                "seed {seed}"
            );
            assert_eq!(count(Terrain::Castle), 3 - expected, "seed {seed}");
            // Every `.` became a buildable terrain, and each of the five terrains owns at least
            // its two region centres.
            let buildable: usize = Terrain::BUILDABLE.iter().map(|&t| count(t)).sum();
            assert_eq!(buildable, 100 - water - mountains - 3, "seed {seed}");
            for terrain in Terrain::BUILDABLE {
                assert!(count(terrain) >= 2, "seed {seed} Q{quadrant}: {terrain:?}");
            }
            // Special hexes at local rows and columns 1..8.
            for p in quadrant_cells(quadrant).filter(|&p| is_special(map.cell(p))) {
                assert!((1..=8).contains(&(p.row % 10)) && (1..=8).contains(&(p.col % 10)));
            }
        }
        // Four different types of the eight.
        for (i, kind) in kinds.iter().enumerate() {
            assert!(!kinds[..i].contains(kind), "seed {seed}: {kinds:?}");
        }
    }
}

#[test]
fn g3_special_hexes_are_apart_and_start_with_three_buildable_neighbours() {
    for seed in 0..SEEDS {
        let (map, _) = generate_map(&mut SplitMix64::new(seed));
        let specials: Vec<Pos> = (0..400)
            .map(Pos::from_index)
            .filter(|&p| is_special(map.cell(p)))
            .collect();
        assert_eq!(specials.len(), 12);
        for (i, &a) in specials.iter().enumerate() {
            for &b in &specials[..i] {
                let d = hex_distance((a.row, a.col), (b.row, b.col));
                assert!(d >= 3, "seed {seed}: {a} and {b} are {d} apart");
            }
            let open = a
                .neighbours()
                .filter(|&n| map.cell(n).terrain().is_buildable())
                .count();
            assert!(open >= 3, "seed {seed}: {a}");
        }
    }
}

#[test]
fn g2_location_types_are_drawn_evenly_enough() {
    // Every type shows up, in every quadrant, over a few hundred seeds.
    let mut seen = [[0u32; 8]; 4];
    for seed in 0..400 {
        let (_, kinds) = generate_map(&mut SplitMix64::new(seed));
        for (q, kind) in kinds.into_iter().enumerate() {
            seen[q][kind as usize] += 1;
        }
    }
    for row in seen {
        assert!(row.iter().all(|&n| n > 20), "{seen:?}");
    }
}

/// Spec 3.1's board of seed 1 (R3), quadrant Q1, with the settlements removed.
const SEED_1_Q1: [&str; 10] = [
    ". . . . M M . . . .",
    ". . . M . . . . . .",
    ". . . . M . . . C .",
    ". . . . . . . . . .",
    ". . . . T . . . . .",
    ". W . . . M . . . .",
    "W W . . . . . . . .",
    "W W W . . M C . . .",
    "W W W W . M M . . .",
    "W W W W . . M . . .",
];

#[test]
fn g2_the_type_draw_takes_the_place_of_r3s_pattern_draw() {
    // Both are one draw, so up to the end of Q1's step 4 the stream is R3's: seed 1 puts water,
    // mountains and special hexes where spec 3.1's board has them (the kinds differ: Barn's
    // quadrant has two location hexes and one castle).
    let (map, kinds) = generate_map(&mut SplitMix64::new(1));
    assert_eq!(
        kinds,
        [
            TileKind::Barn,
            TileKind::Farm,
            TileKind::Oasis,
            TileKind::Harbor
        ]
    );
    for (row, line) in SEED_1_Q1.iter().enumerate() {
        for (col, token) in line.split(' ').enumerate() {
            let cell = map.cell(Pos::new(row, col));
            let expected = match token {
                "W" => cell.terrain() == Terrain::Water,
                "M" => cell.terrain() == Terrain::Mountain,
                "T" | "C" => is_special(cell),
                _ => cell.terrain().is_buildable(),
            };
            assert!(expected, "({row},{col}) is {cell:?}, spec 3.1 has {token}");
        }
    }
    assert_eq!(map.cell(Pos::new(4, 4)), MapCell::Location(TileKind::Barn));
    assert_eq!(map.cell(Pos::new(7, 6)), MapCell::Location(TileKind::Barn));
    assert_eq!(map.cell(Pos::new(2, 8)), MapCell::Open(Terrain::Castle));
}

#[test]
fn g4_region_fill_of_seed_1_first_rows() {
    // A golden check of the fill's draw order and tie rule (RULES.md G4).
    let (map, _) = generate_map(&mut SplitMix64::new(1));
    let text = map.to_text();
    let first: Vec<&str> = text.lines().take(2).collect();
    assert_eq!(
        first,
        [
            "G G G C M M C C C T F F F F F T W T W W",
            " G G G M G G G T T T F F F F T W W W W W",
        ]
    );
}

#[test]
fn map_file_round_trips_generated_maps_and_reads_leniently() {
    for seed in 0..50 {
        let (map, _) = generate_map(&mut SplitMix64::new(seed));
        let text = map.to_text();
        assert_eq!(Map::parse(&text).unwrap(), map);
        let crlf_tabs = text.replace('\n', "\r\n").replace(' ', "\t");
        assert_eq!(Map::parse(&crlf_tabs).unwrap(), map);
        let flush_left: String = text
            .lines()
            .map(|l| l.trim_start().to_string() + "\n\n")
            .collect();
        // Blank lines inside the map are rows without tokens.
        assert_eq!(
            Map::parse(&flush_left).unwrap_err().to_string(),
            "line 2, column 1: expected 20 tokens in the row, found 0"
        );
    }
}

#[test]
fn map_file_errors_name_line_and_column() {
    let (map, _) = generate_map(&mut SplitMix64::new(3));
    let mut lines: Vec<String> = map.to_text().lines().map(String::from).collect();
    // A B5 settlement digit is not a map token.
    lines[4].replace_range(2..3, "1");
    assert_eq!(
        Map::parse(&lines.join("\n")).unwrap_err().to_string(),
        "line 5, column 3: unknown token '1'"
    );
    lines.truncate(19);
    lines[4] = map.to_text().lines().nth(4).unwrap().to_string();
    assert_eq!(
        Map::parse(&lines.join("\n")).unwrap_err().to_string(),
        "line 20, column 1: expected 20 board rows, found 19"
    );
}
