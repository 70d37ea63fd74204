//! The acceptance examples K0–K13 of the spec (§7), one test (or more) each, plus the worked
//! example of §3.5 with its exact text.

mod common;

use common::*;
use realm_core::{FaultKind, SplitMix64, VerdictKind};
use realm_kingdomino::bits::{Bits, Wide};
use realm_kingdomino::kingdom::{Kingdom, PlacementRules};
use realm_kingdomino::rules::score_with_bonuses;
use realm_kingdomino::setup::{deal_lines, shuffled_deck, Config, InvalidPut, Mode};
use realm_kingdomino::tiles::{tile, Terrain, TILES, TILES_CSV};

fn rules(league: u32) -> PlacementRules {
    PlacementRules::for_league(league)
}

/// (legal triples, distinct placements) of tile `id` on `k` in `league`.
fn count<B: Bits>(k: &Kingdom<B>, id: u8, league: u32) -> (usize, usize) {
    let t = tile(id).expect("tile");
    let triples = k.legal_placements(t, rules(league)).len();
    let distinct = if t.is_symmetric() {
        triples / 2
    } else {
        triples
    };
    (triples, distinct)
}

fn legal<B: Bits>(k: &Kingdom<B>, id: u8, league: u32, x: u8, y: u8, r: u8) -> bool {
    k.is_legal(tile(id).expect("tile"), p(x, y, r), rules(league))
}

#[test]
fn k0_tile_file_totals() {
    // The embedded CSV is a byte-for-byte copy of the shared data file: a header and 48 tiles.
    assert_eq!(
        TILES_CSV.lines().filter(|l| !l.trim().is_empty()).count(),
        49
    );
    let mut squares = [0u32; 6];
    let mut crowns = [0u32; 6];
    for t in &TILES {
        for sq in [t.a, t.b] {
            squares[sq.terrain.index()] += 1;
            crowns[sq.terrain.index()] += u32::from(sq.crowns);
        }
        assert_eq!(t.is_symmetric(), t.id <= 12, "tile {}", t.id);
    }
    // Order: c, f, g, l, w, m.
    assert_eq!(squares, [26, 22, 14, 18, 10, 6]);
    assert_eq!(crowns, [5, 6, 6, 6, 6, 10]);
    assert_eq!(squares.iter().sum::<u32>(), 96);
    assert_eq!(crowns.iter().sum::<u32>(), 39);
    assert_eq!(
        Terrain::ALL.map(|t| t.letter()),
        ['c', 'f', 'g', 'l', 'w', 'm']
    );
}

#[test]
fn k1_generator() {
    let mut g = SplitMix64::new(0);
    assert_eq!(
        [g.next_u64(), g.next_u64()],
        [16294208416658607535, 7960286522194355700]
    );
    let mut g = SplitMix64::new(1);
    assert_eq!(
        [g.next_u64(), g.next_u64()],
        [10451216379200822465, 13757245211066428519]
    );
}

#[test]
fn k2_decks() {
    let expected: Vec<u8> =
        "10 40 5 36 27 11 48 13 8 31 34 42 7 25 29 14 3 17 9 41 35 6 24 38 26 47 \
         43 44 20 15 19 4 33 46 28 45 2 16 32 1 12 22 39 30 21 23 37 18"
            .split_whitespace()
            .map(|w| w.parse().expect("id"))
            .collect();
    assert_eq!(shuffled_deck(1).to_vec(), expected);
    let two = vec![
        [5, 10, 36, 40],
        [11, 13, 27, 48],
        [8, 31, 34, 42],
        [7, 14, 25, 29],
        [3, 9, 17, 41],
        [6, 24, 35, 38],
    ];
    assert_eq!(deal_lines(&Config::new(Mode::Standard, 2), 1), two);
    let three: Vec<[u8; 4]> = [
        [5, 10, 40],
        [11, 27, 36],
        [8, 13, 48],
        [31, 34, 42],
        [7, 25, 29],
        [3, 14, 17],
        [9, 35, 41],
        [6, 24, 38],
        [26, 43, 47],
        [15, 20, 44],
        [4, 19, 33],
        [28, 45, 46],
    ]
    .iter()
    .map(|l| [l[0], l[1], l[2], 0])
    .collect();
    assert_eq!(deal_lines(&Config::new(Mode::Standard, 3), 1), three);
    let mut four = two.clone();
    four.extend([
        [26, 43, 44, 47],
        [4, 15, 19, 20],
        [28, 33, 45, 46],
        [1, 2, 16, 32],
        [12, 22, 30, 39],
        [18, 21, 23, 37],
    ]);
    assert_eq!(deal_lines(&Config::new(Mode::Standard, 4), 1), four);
    assert_eq!(deal_lines(&Config::new(Mode::Duel, 2), 1), four);
    assert_eq!(
        deal_lines(&Config::new(Mode::Standard, 2), 0),
        vec![
            [4, 5, 9, 26],
            [3, 6, 29, 34],
            [36, 39, 42, 45],
            [1, 18, 24, 43],
            [14, 19, 23, 41],
            [7, 21, 31, 33]
        ]
    );
}

#[test]
fn k3_empty_kingdom_counts() {
    let k9 = Kingdom::<u128>::new();
    let k13 = Kingdom::<Wide>::new();
    assert_eq!(count(&k9, 1, 3), (24, 12));
    assert_eq!(count(&k9, 13, 3), (24, 24));
    assert_eq!(count(&k9, 48, 3), (24, 24));
    for league in [1, 2] {
        assert_eq!(count(&k9, 1, league), (280, 140));
        assert_eq!(count(&k9, 13, league).0, 280);
        assert_eq!(count(&k9, 48, league).0, 280);
        assert_eq!(count(&k13, 1, league), (616, 308));
        assert_eq!(count(&k13, 13, league).0, 616);
    }
    assert_eq!(count(&k13, 1, 3), (24, 12));
    assert_eq!(count(&k13, 13, 3).0, 24);
}

#[test]
fn k4_connection() {
    let mut k = Kingdom::<u128>::new();
    put(&mut k, 10, 4, 5, 1);
    assert_eq!(count(&k, 36, 3).0, 31);
    assert_eq!(count(&k, 36, 2).0, 200);
    assert_eq!(count(&k, 36, 1).0, 212);
    assert!(legal(&k, 36, 3, 6, 5, 2));
    assert!(legal(&k, 36, 3, 5, 5, 1));
    assert!(!legal(&k, 36, 3, 5, 5, 0));
    assert_eq!(count(&k, 7, 3), (18, 9));
    assert_eq!(count(&k, 10, 3), (40, 20));
}

#[test]
fn k5_extent() {
    let mut k = Kingdom::<u128>::new();
    put(&mut k, 13, 2, 4, 0);
    put(&mut k, 14, 5, 4, 0);
    assert_eq!(k.row_text(4), "_0_0c0f0*0c0l0_0_0");
    assert_eq!(count(&k, 17, 3).0, 20);
    assert_eq!(count(&k, 17, 2).0, 124);
    assert_eq!(count(&k, 17, 1).0, 144);
    assert!(legal(&k, 17, 3, 6, 2, 1));
    assert!(!legal(&k, 17, 3, 8, 4, 2));
}

fn k6_kingdom() -> Kingdom<u128> {
    let mut k = Kingdom::<u128>::new();
    put(&mut k, 5, 4, 3, 3);
    put(&mut k, 3, 4, 1, 3);
    k
}

#[test]
fn k6_castle_on_the_edge() {
    let k = k6_kingdom();
    assert_eq!(count(&k, 4, 3), (36, 18));
    assert_eq!(count(&k, 13, 3).0, 28);
    for league in [1, 2, 3] {
        assert!(!legal(&k, 4, league, 4, 5, 0));
        assert!(!legal(&k, 4, league, 3, 4, 1));
        assert!(legal(&k, 4, league, 3, 4, 2));
        assert!(legal(&k, 4, league, 5, 0, 1));
    }
}

fn k7_kingdom() -> Kingdom<u128> {
    window([
        "_0_0f0f0c0",
        "c0c0f0c0c0",
        "c0c0*0f0f0",
        "f0f0f0f0c0",
        "c0c0f0f0c0",
    ])
}

#[test]
fn k7_discard() {
    let k = k7_kingdom();
    assert_eq!(count(&k, 7, 3).0, 0);
    assert!(!k.can_place(tile(7).expect("tile"), rules(3)));
    assert_eq!(count(&k, 7, 2), (2, 1));
    assert_eq!(count(&k, 7, 1), (72, 36));
    assert_eq!(count(&k, 13, 3).0, 2);
    let mut found = k.legal_placements(tile(13).expect("tile"), rules(3));
    found.sort();
    assert_eq!(found, vec![p(2, 2, 0), p(3, 2, 2)]);
    assert_eq!(count(&k, 13, 1).0, 72);
    assert_eq!((k.zone_score(), k.territory(), k.crowns()), (0, 22, 0));
    assert!(legal(&k, 48, 1, 3, 3, 0));
    assert!(!legal(&k, 48, 2, 3, 3, 0));
    assert!(!legal(&k, 48, 3, 3, 3, 0));
    let mut k1 = k;
    put(&mut k1, 48, 3, 3, 0);
    assert_eq!((k1.zone_score(), k1.territory(), k1.crowns()), (3, 22, 3));
    assert_eq!(k1.row_text(3), "_0_0c0c0m3c0c0_0_0");
}

#[test]
fn k8_scoring_and_middle_kingdom() {
    let k = window([
        "c1c0f0f1f0",
        "c0l1l0f0m2",
        "g0g1*0w0m0",
        "g0w1w0w0g0",
        "_0_0c1c0c0",
    ]);
    assert_eq!((k.zone_score(), k.territory(), k.crowns()), (23, 22, 8));
    let mut config = Config::new(Mode::Standard, 2);
    assert_eq!(score_with_bonuses(&k, 11, &config), 23);
    config.middle_kingdom = true;
    assert_eq!(score_with_bonuses(&k, 11, &config), 33);
    assert!(!k6_kingdom().is_centred());
    assert_eq!(score_with_bonuses(&k6_kingdom(), 2, &config), 0);
    assert_eq!(score_with_bonuses(&Kingdom::<u128>::new(), 0, &config), 10);
}

// K9 is `scoring::tests::r24_r25_tie_breaks_k9` (pure numbers); here through a referee outcome.
#[test]
fn k9_outcome_uses_displayed_scores_and_key_ranks() {
    let run = reference_game::<u128>(std2(), 1);
    assert_eq!(run.outcome.scores, vec![26, 22]);
    assert_eq!(run.outcome.ranks, vec![1, 2]);
}

#[test]
fn k10_reference_games() {
    struct Case {
        config: Config,
        results: Vec<((u32, u32, u32), u32)>,
        ranks: Vec<u32>,
        calls: usize,
    }
    let cases = [
        Case {
            config: Config::new(Mode::Standard, 2),
            results: vec![((26, 22, 4), 11), ((22, 22, 11), 11)],
            ranks: vec![1, 2],
            calls: 28,
        },
        Case {
            config: Config::new(Mode::Standard, 3),
            results: vec![((10, 22, 3), 11), ((19, 22, 9), 11), ((33, 22, 16), 11)],
            ranks: vec![3, 2, 1],
            calls: 39,
        },
        Case {
            config: Config::new(Mode::Standard, 4),
            results: vec![
                ((22, 22, 2), 11),
                ((12, 22, 6), 11),
                ((29, 24, 12), 12),
                ((49, 22, 17), 11),
            ],
            ranks: vec![3, 4, 2, 1],
            calls: 52,
        },
        Case {
            config: Config::new(Mode::Duel, 2),
            results: vec![((84, 44, 13), 22), ((73, 46, 24), 23)],
            ranks: vec![1, 2],
            calls: 52,
        },
    ];
    for case in cases {
        for middle in [false, true] {
            let mut config = case.config;
            config.middle_kingdom = middle;
            let (results, ranks, calls) = match config.mode {
                Mode::Standard => summary(&reference_game::<u128>(config, 1)),
                Mode::Duel => summary(&reference_game::<Wide>(config, 1)),
            };
            let label = format!(
                "{:?} {} players, middle {middle}",
                config.mode, config.n_players
            );
            assert_eq!(results, case.results, "{label}");
            assert_eq!(ranks, case.ranks, "{label}");
            assert_eq!(calls, case.calls, "{label}");
        }
    }
}

/// The values of the outcome's stat `name` (R27), one per seat.
fn stat(outcome: &realm_core::Outcome, name: &str) -> Vec<i64> {
    let found = outcome.stats.iter().find(|s| s.name == name);
    found
        .unwrap_or_else(|| panic!("no stat {name}"))
        .values
        .clone()
}

#[test]
fn r27_outcome_reports_every_result_figure_of_the_k10_games() {
    let run = reference_game::<u128>(std2(), 1);
    let names: Vec<&str> = run.outcome.stats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "raw_score",
            "territory",
            "crowns",
            "tiles_placed",
            "tiles_discarded"
        ]
    );
    assert_eq!(stat(&run.outcome, "raw_score"), [26, 22]);
    assert_eq!(stat(&run.outcome, "territory"), [22, 22]);
    assert_eq!(stat(&run.outcome, "crowns"), [4, 11]);
    assert_eq!(stat(&run.outcome, "tiles_placed"), [11, 11]);
    assert_eq!(stat(&run.outcome, "tiles_discarded"), [1, 1]);

    // With Harmony the raw score carries the +5 of seat 2, the only seat that placed all 12.
    let mut config = Config::new(Mode::Standard, 4);
    config.harmony = true;
    let run = reference_game::<u128>(config, 1);
    assert_eq!(stat(&run.outcome, "raw_score"), [22, 12, 34, 49]);
    assert_eq!(stat(&run.outcome, "territory"), [22, 22, 24, 22]);
    assert_eq!(stat(&run.outcome, "crowns"), [2, 6, 12, 17]);
    assert_eq!(stat(&run.outcome, "tiles_placed"), [11, 11, 12, 11]);
    assert_eq!(stat(&run.outcome, "tiles_discarded"), [1, 1, 0, 1]);
}

#[test]
fn r27_raw_score_differs_from_the_displayed_score_on_a_tie() {
    // Both seats are eliminated by their first answer: equal empty kingdoms, so R25 adds its
    // two points to each displayed score while the raw score stays 0.
    let run = k12::<u128>(std2(), |_, call, _| {
        (call == 1).then(|| lines("PUT 0 0 0", "PICK 99"))
    });
    assert_eq!(stat(&run.outcome, "raw_score"), [0, 0]);
    assert_eq!(run.outcome.scores, [2, 2]);
    assert_eq!(run.outcome.ranks, [1, 1]);
}

type Summary = (Vec<((u32, u32, u32), u32)>, Vec<u32>, usize);

fn summary<B: Bits>(run: &Run<B>) -> Summary {
    let n = run.outcome.ranks.len();
    let results = (0..n).map(|s| (run.standing(s), run.placed(s))).collect();
    (results, run.outcome.ranks.clone(), run.calls())
}

#[test]
fn k10_last_call_of_the_two_player_game() {
    let run = reference_game::<u128>(std2(), 1);
    let last = run.requests.last().expect("calls");
    assert_eq!((last.turn, last.player), (7, 1));
    assert_eq!(
        tile_sections(last, 4),
        [
            "6 f0 f0 1 0",
            "24 f1 c0 0 0",
            "35 l1 f0 1 0",
            "38 c0 w1 0 1",
            "0 _0 _0 -1",
            "0 _0 _0 -1",
            "0 _0 _0 -1",
            "0 _0 _0 -1"
        ]
    );
}

#[test]
fn k10_harmony_changes_only_seat_2_of_the_four_player_game() {
    let mut config = Config::new(Mode::Standard, 4);
    config.harmony = true;
    let run = reference_game::<u128>(config, 1);
    let scores: Vec<u32> = (0..4).map(|s| run.standing(s).0).collect();
    assert_eq!(scores, vec![22, 12, 34, 49]);
    assert_eq!(run.placed(2), 12);
}

const TURN1_SEAT0: &str = "2
4
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0*0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0*0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
0 _0 _0 0 1
0 _0 _0 1 0
0 _0 _0 0 0
0 _0 _0 1 0
5 f0 f0 -1
10 g0 g0 -1
36 c0 g1 -1
40 m1 c0 -1
";

const TURN2_SLOT36_SEAT1: &str = "_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0*0_0_0_0_0
_0_0_0_0g0_0_0_0_0
_0_0_0_0g0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0f0_0_0_0_0
_0_0_0_0f0_0_0_0_0
_0_0_0_0*0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
_0_0_0_0_0_0_0_0_0
5 f0 f0 1 0
10 g0 g0 0 0
36 c0 g1 0 1
40 m1 c0 1 0
11 g0 g0 -1
13 c0 f0 -1
27 f1 c0 0
48 c0 m3 1
";

const TURN2_SLOT40_SEAT0_TILES: &str = "5 f0 f0 0 0
10 g0 g0 1 0
36 c0 g1 1 0
40 m1 c0 0 1
11 g0 g0 -1
13 c0 f0 1
27 f1 c0 1
48 c0 m3 0
";

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

// §3.5: seat 0 answers its calls 1–3 and seat 1 its calls 1–4 as in the example.
fn worked_example_script(seat: usize, call: usize) -> Option<Reply> {
    match (seat, call) {
        (0, 1) => Some(lines("PUT 0 0 0", "PICK 40 mine first")),
        (1, 1) => Some(lines("PUT 0 0 0", "PICK 36")),
        (0, 2) => Some(lines("PUT 0 0 0", "PICK 5")),
        (1, 2) => Some(lines("PUT 0 0 0", "PICK 10")),
        (0, 3) => Some(lines("PUT 4 3 3", "PICK 48")),
        (1, 3) => Some(lines("PUT 4 5 1", "PICK 27")),
        (1, 4) => Some(lines("PUT 6 5 2", "PICK 13")),
        _ => None,
    }
}

#[test]
fn worked_example_3_5_exact_text() {
    let run = play::<u128>(std2(), 1, &["reference", "reference"], |seat, call, _| {
        worked_example_script(seat, call)
    });
    assert_eq!(text(&run.requests[0].lines), TURN1_SEAT0);
    assert_eq!(run.requests[0].time_limit.as_millis(), 1000);
    // Seat 1's own turn-1 placeholders.
    assert_eq!(
        tile_sections(&run.requests[1], 4)[..4],
        ["0 _0 _0 1 0", "0 _0 _0 0 1", "0 _0 _0 1 0", "0 _0 _0 0 0"]
    );
    assert_eq!(run.requests[1].lines.len(), 2 + 26);
    assert_eq!(run.requests[3].lines.len(), 26, "initial input only once");
    let slot36 = &run.requests[6];
    assert_eq!((slot36.player, slot36.turn), (1, 2));
    assert_eq!(text(&slot36.lines), TURN2_SLOT36_SEAT1);
    assert_eq!(slot36.time_limit.as_millis(), 50);
    let slot40 = &run.requests[7];
    assert_eq!(slot40.player, 0);
    assert_eq!(text(&tile_sections(slot40, 4)), TURN2_SLOT40_SEAT0_TILES);
    // Turn 3 order: 11 (seat 0), 13 (seat 1), 27 (seat 1), 48 (seat 0).
    let turn3: Vec<usize> = run.requests[8..12].iter().map(|r| r.player).collect();
    assert_eq!(turn3, vec![0, 1, 1, 0]);
    assert!(run.requests[8..12].iter().all(|r| r.turn == 3));
    assert!(run.verdicts[..8].iter().all(|v| v.kind == VerdictKind::Ok));
}

#[test]
fn k11_worked_example_continued() {
    let run = play::<u128>(std2(), 1, &["reference", "reference"], |seat, call, _| {
        worked_example_script(seat, call)
    });
    assert_eq!(run.standing(0), (32, 22, 10));
    assert_eq!(run.standing(1), (15, 22, 6));
    assert_eq!(run.outcome.ranks, vec![1, 2]);
    assert_eq!(run.outcome.winners(), vec![0]);
}

fn k12<B: Bits>(
    config: Config,
    script: impl FnMut(usize, usize, &realm_core::Request) -> Option<Reply>,
) -> Run<B> {
    play::<B>(config, 1, &["reference", "reference"], script)
}

#[test]
fn k12_invalid_first_pick() {
    let run = k12::<u128>(std2(), |seat, call, _| {
        (seat == 1 && call == 1).then(|| lines("PUT 0 0 0", "PICK 99"))
    });
    assert_eq!(
        run.verdicts[1].kind,
        VerdictKind::Fault(FaultKind::InvalidAction)
    );
    let fault = run.outcome.faults[1].clone().expect("seat 1 faulted");
    assert_eq!((fault.kind, fault.turn), (FaultKind::InvalidAction, 1));
    assert_eq!(run.standing(1), (0, 0, 0));
    assert_eq!(run.standing(0), (5, 18, 1));
    assert_eq!(run.placed(0), 9);
    assert_eq!(run.referee.game().tiles_discarded(0), 3);
    assert_eq!(stat(&run.outcome, "raw_score"), [5, 0]);
    assert_eq!(stat(&run.outcome, "territory"), [18, 0]);
    assert_eq!(stat(&run.outcome, "crowns"), [1, 0]);
    assert_eq!(stat(&run.outcome, "tiles_placed"), [9, 0]);
    assert_eq!(stat(&run.outcome, "tiles_discarded"), [3, 0]);
    assert_eq!(run.calls(), 15);
    let first_turn2 = run.requests.iter().find(|r| r.turn == 2).expect("turn 2");
    assert_eq!(first_turn2.player, 0);
    assert_eq!(
        tile_sections(first_turn2, 4)[..4],
        [
            "5 f0 f0 0 1",
            "10 g0 g0 0 0",
            "36 c0 g1 -1 0",
            "40 m1 c0 -1 0"
        ]
    );
    assert!(run.outcome.faults[0].is_none());
    assert_eq!(run.outcome.ranks, vec![1, 2]);
}

#[test]
fn k12_timeout_on_second_call() {
    let run = k12::<u128>(std2(), |seat, call, _| {
        (seat == 1 && call == 2).then_some(Reply::Fault(FaultKind::Timeout))
    });
    let fault = run.outcome.faults[1].clone().expect("seat 1 faulted");
    assert_eq!((fault.kind, fault.turn), (FaultKind::Timeout, 1));
    assert_eq!(run.standing(0), (8, 20, 2));
    assert_eq!(run.standing(1), (0, 0, 0));
    let first_turn2 = run.requests.iter().find(|r| r.turn == 2).expect("turn 2");
    let sections = tile_sections(first_turn2, 4);
    assert_eq!(sections[1], "10 g0 g0 1 0");
    assert_eq!(sections[3], "40 m1 c0 -1 0");
    assert!(run.requests.iter().all(|r| r.turn == 1 || r.player == 0));
}

#[test]
fn k12_invalid_put() {
    let script = |seat: usize, call: usize, _: &realm_core::Request| {
        (seat == 1 && call == 3).then(|| lines("PUT 4 4 0", "PICK 13"))
    };
    let run = k12::<u128>(std2(), script);
    let fault = run.outcome.faults[1].clone().expect("seat 1 faulted");
    assert_eq!((fault.kind, fault.turn), (FaultKind::InvalidAction, 2));
    assert_eq!(run.standing(0), (8, 20, 2));
    assert_eq!(run.standing(1), (0, 0, 0));
    let mut discard3 = std2();
    discard3.invalid_put = InvalidPut::Discard;
    for config in [std2().with_league(1), std2().with_league(2), discard3] {
        let run = k12::<u128>(config, script);
        let third = run
            .requests
            .iter()
            .enumerate()
            .filter(|(_, r)| r.player == 1)
            .nth(2)
            .map(|(i, _)| i)
            .expect("third call");
        assert_eq!(run.verdicts[third].kind, VerdictKind::Warning, "{config:?}");
        assert!(run.outcome.faults.iter().all(Option::is_none), "{config:?}");
        assert_eq!(run.standing(0), (26, 22, 4), "{config:?}");
        assert_eq!(run.standing(1), (25, 22, 12), "{config:?}");
        // Turn 3 opens with seat 0 on tile 11; the pick of the discarding answer made seat 1
        // (player 1 in seat 0's view) the owner of tile 13.
        let turn3 = run.requests.iter().find(|r| r.turn == 3).expect("turn 3");
        assert_eq!(turn3.player, 0, "{config:?}");
        assert_eq!(
            tile_sections(turn3, 4)[..4],
            [
                "11 g0 g0 0 1",
                "13 c0 f0 1 0",
                "27 f1 c0 0 0",
                "48 c0 m3 1 0"
            ],
            "{config:?}"
        );
    }
}

#[test]
fn k12_malformed_put_in_every_league() {
    for league in [1, 2, 3] {
        let run = k12::<u128>(std2().with_league(league), |seat, call, _| {
            (seat == 0 && call == 3).then(|| lines("PUT 4 5", "PICK 11"))
        });
        let fault = run.outcome.faults[0].clone().expect("seat 0 faulted");
        assert_eq!(
            (fault.kind, fault.turn),
            (FaultKind::Malformed, 2),
            "league {league}"
        );
        assert_eq!(run.placed(0), 0);
        assert_eq!(run.standing(0), (0, 0, 0));
        assert_eq!(run.standing(1), (7, 20, 2), "league {league}");
    }
}

/// K13: seat 0's third answer (turn 2, tile 5) is `PUT 4 5 1` / `PICK 11` with one line changed.
fn k13(put_line: &str, pick_line: &str) -> Run<u128> {
    let (put_line, pick_line) = (put_line.to_string(), pick_line.to_string());
    play::<u128>(
        std2(),
        1,
        &["reference", "reference"],
        move |seat, call, _| {
            (seat == 0 && call == 3)
                .then(|| Reply::Lines(vec![put_line.clone(), pick_line.clone()]))
        },
    )
}

fn third_verdict(run: &Run<u128>) -> VerdictKind {
    let i = run
        .requests
        .iter()
        .enumerate()
        .filter(|(_, r)| r.player == 0)
        .nth(2)
        .map(|(i, _)| i)
        .expect("third call");
    assert_eq!(run.requests[i].turn, 2);
    run.verdicts[i].kind
}

#[test]
fn k13_parsing() {
    for (put_line, pick_line) in [
        ("PUT 4 5 1 0", "PICK 11"),
        ("put 4 5 1", "PICK 11"),
        ("PUT 4 x 1", "PICK 11"),
        ("PUT 4 5 1", "PICK"),
        ("PUT 4 5 1", "PICK x"),
    ] {
        let run = k13(put_line, pick_line);
        assert_eq!(
            third_verdict(&run),
            VerdictKind::Fault(FaultKind::Malformed),
            "{put_line} / {pick_line}"
        );
        assert_eq!(run.placed(0), 0, "nothing of a malformed answer applies");
    }
    for pick_line in ["PICK 99", "PICK 5"] {
        let run = k13("PUT 4 5 1", pick_line);
        assert_eq!(
            third_verdict(&run),
            VerdictKind::Fault(FaultKind::InvalidAction)
        );
        assert_eq!(run.placed(0), 1, "tile 5 stays placed");
        assert_eq!(
            run.referee.game().kingdom(0).row_text(6),
            "_0_0_0_0f0_0_0_0_0"
        );
    }
    let run = k13("PUT 99 -7 9", "PICK 11");
    assert_eq!(
        third_verdict(&run),
        VerdictKind::Fault(FaultKind::InvalidAction)
    );
    assert_eq!(run.placed(0), 0);
    for (put_line, pick_line) in [
        ("  PUT  4 5 1 ", "PICK\t11"),
        ("PUT 4 5 1", "PICK 11 hello world"),
    ] {
        let run = k13(put_line, pick_line);
        assert_eq!(
            third_verdict(&run),
            VerdictKind::Ok,
            "{put_line:?} / {pick_line:?}"
        );
        assert!(run.outcome.faults.iter().all(Option::is_none));
        let k = run.referee.game().kingdom(0);
        assert_eq!((&k.row_text(5)[8..10], &k.row_text(6)[8..10]), ("f0", "f0"));
    }
}

#[test]
fn r15_auto_discard_ignores_the_put_values() {
    // Reference games discard some tiles; every such call is a warning, never a fault, even
    // though the reference bot then answers `PUT 0 0 0`.
    let run = reference_game::<u128>(std2(), 1);
    let warnings: Vec<&String> = run
        .verdicts
        .iter()
        .filter(|v| v.kind == VerdictKind::Warning)
        .map(|v| &v.detail)
        .collect();
    let discarded: u32 = (0..2).map(|s| run.referee.game().tiles_discarded(s)).sum();
    assert_eq!(warnings.len() as u32, discarded);
    assert!(discarded > 0);
    assert!(warnings.iter().all(|w| w.contains("no legal placement")));
}
