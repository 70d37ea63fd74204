//! Built-in bots and their league: `random` draws uniformly from the actions that are legal in
//! the league it was created for, checked on real mid-game positions by counting many draws
//! (fixed seeds, so the counts are deterministic).

use std::collections::BTreeMap;

use realm_core::{Bot, LinesInput, Referee, Request, VerdictKind};
use realm_kingdomino::bots::rules_for;
use realm_kingdomino::kingdom::{Placement, PlacementRules};
use realm_kingdomino::new_bot;
use realm_kingdomino::protocol::{parse_pick, parse_put};
use realm_kingdomino::referee::KingdominoReferee;
use realm_kingdomino::setup::{Config, Mode};

/// The answers of the worked example (§3.5) up to seat 1's slot 36 of turn 2, by call.
const WORKED_EXAMPLE: [(usize, &str, &str); 6] = [
    (0, "PUT 0 0 0", "PICK 40"),
    (1, "PUT 0 0 0", "PICK 36"),
    (0, "PUT 0 0 0", "PICK 5"),
    (1, "PUT 0 0 0", "PICK 10"),
    (0, "PUT 4 3 3", "PICK 48"),
    (1, "PUT 4 5 1", "PICK 27"),
];

/// The position of K4 in league `league`: seat 1 about to place tile 36 `c0 g1` next to its g0
/// at (4,5) and (4,6), with tiles 11 and 13 free. Returns the referee at that moment, seat 1's
/// first request (with the header) and the request of slot 36.
fn k4_position(league: u32) -> (KingdominoReferee<u128>, Request, Request) {
    let config = Config::new(Mode::Standard, 2).with_league(league);
    let mut referee = KingdominoReferee::<u128>::new(config, 1);
    let mut first = None;
    for (seat, put, pick) in WORKED_EXAMPLE {
        let request = referee.next_request().expect("a call");
        assert_eq!(request.player, seat);
        if seat == 1 && first.is_none() {
            first = Some(request);
        }
        let verdict = referee.answer(seat, &[put.to_string(), pick.to_string()]);
        assert_eq!(verdict.kind, VerdictKind::Ok, "{put} / {pick}");
    }
    let request = referee.next_request().expect("slot 36");
    assert_eq!((request.player, request.turn), (1, 2));
    (referee, first.expect("seat 1 was called"), request)
}

/// Draws `n_draws` answers of one `random` bot created for `league` at the stopped position and
/// counts each placement and each pick. Every answer must be legal for the referee.
fn draw(league: u32, n_draws: usize) -> Draws {
    let (referee, first, request) = k4_position(league);
    let game = referee.game();
    let tile = game.slot_tile().expect("a tile to place");
    let legal: Vec<Placement> = game
        .kingdom(1)
        .legal_placements(tile, PlacementRules::for_league(league));
    let free: Vec<u8> = game
        .next()
        .iter()
        .filter(|s| s.owner.is_none())
        .map(|s| s.id)
        .collect();
    let mut bot = new_bot("random", 42, Some(league)).expect("bot");
    // The bot reads the header of its first call once, as a process would.
    bot.play_turn(&mut LinesInput::new(&first.lines))
        .expect("first answer");
    let mut draws = Draws::default();
    for _ in 0..n_draws {
        let answer = bot
            .play_turn(&mut LinesInput::new(&request.lines))
            .expect("answer");
        let [x, y, r] = parse_put(&answer[0]).expect("well-formed PUT");
        let p = Placement::from_numbers(x, y, r, 9).expect("inside the grid");
        assert!(game.is_legal_placement(p), "league {league}: {}", answer[0]);
        let pick = parse_pick(&answer[1]).expect("well-formed PICK").id;
        assert!(game.is_valid_pick(pick), "league {league}: {}", answer[1]);
        *draws.placements.entry((p.x, p.y, p.r)).or_default() += 1;
        *draws.picks.entry(pick).or_default() += 1;
    }
    draws.n_legal = legal.len();
    draws.n_free = free.len();
    draws
}

#[derive(Default)]
struct Draws {
    placements: BTreeMap<(u8, u8, u8), usize>,
    picks: BTreeMap<i64, usize>,
    n_legal: usize,
    n_free: usize,
}

/// Pearson's χ² of `counts` against a uniform law over `n_cells` cells (cells never drawn
/// count with 0), and the bound `df + 6·sqrt(2·df)` a uniform draw stays under by far.
fn chi_square(counts: &BTreeMap<impl Ord, usize>, n_cells: usize) -> (f64, f64) {
    let total: usize = counts.values().sum();
    let expected = total as f64 / n_cells as f64;
    let missing = (n_cells - counts.len()) as f64 * expected;
    let seen: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    let df = (n_cells - 1) as f64;
    (seen + missing, df + 6.0 * (2.0 * df).sqrt())
}

/// Checks `random` at K4 in `league`, where the spec counts `n_legal` legal triples.
fn assert_uniform(league: u32, n_legal: usize) {
    let draws = draw(league, 50 * n_legal);
    assert_eq!(draws.n_legal, n_legal, "league {league}");
    // Every legal triple is drawn: the 31 league-3 triples alone would miss most of them.
    assert_eq!(draws.placements.len(), n_legal, "league {league}");
    let (chi2, bound) = chi_square(&draws.placements, n_legal);
    assert!(
        chi2 < bound,
        "league {league} placements: χ² {chi2} ≥ {bound}"
    );
    assert_eq!(draws.picks.len(), draws.n_free, "league {league} picks");
    let (chi2, bound) = chi_square(&draws.picks, draws.n_free);
    assert!(chi2 < bound, "league {league} picks: χ² {chi2} ≥ {bound}");
}

#[test]
fn random_is_uniform_over_the_legal_placements_of_league_1() {
    assert_uniform(1, 212);
}

#[test]
fn random_is_uniform_over_the_legal_placements_of_league_2() {
    assert_uniform(2, 200);
}

#[test]
fn bots_created_without_a_league_play_the_full_rules() {
    assert_eq!(rules_for(None), PlacementRules::FULL);
    assert_eq!(rules_for(Some(3)), PlacementRules::FULL);
    assert_eq!(rules_for(Some(9)), PlacementRules::FULL);
    assert_eq!(rules_for(Some(1)), PlacementRules::for_league(1));
    // K4 in league 3: the draws cover exactly the 31 connected triples.
    let draws = draw(3, 3100);
    assert_eq!((draws.n_legal, draws.placements.len()), (31, 31));
    assert_eq!(draws.picks.keys().copied().collect::<Vec<_>>(), [11, 13]);
}

#[test]
fn random_plays_whole_games_in_leagues_1_and_2_without_a_warning() {
    for league in [1, 2] {
        for seed in 0..6 {
            let config = Config::new(Mode::Standard, 2).with_league(league);
            let mut referee = KingdominoReferee::<u128>::new(config, seed);
            let mut bots: Vec<Box<dyn Bot>> = (0..2)
                .map(|seat| new_bot("random", seed * 2 + seat, Some(league)).expect("bot"))
                .collect();
            while let Some(request) = referee.next_request() {
                let can_place = referee.game().can_place() || request.turn == 1;
                let answer = bots[request.player]
                    .play_turn(&mut LinesInput::new(&request.lines))
                    .expect("answer");
                let verdict = referee.answer(request.player, &answer);
                // The only warning a legal answer can get is an auto-discard (R15).
                assert!(
                    verdict.kind == VerdictKind::Ok || !can_place,
                    "league {league} seed {seed}: {verdict:?}"
                );
            }
        }
    }
}
