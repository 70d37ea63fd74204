//! `builtin:mcts`: legal answers in every mode and league, and sampled hidden states that keep
//! every public fact and never deal a tile the bot has seen.

use proptest::prelude::*;
use realm_core::{LinesInput, MatchSpec};
use realm_kingdomino::bots::{read_header, read_observation, rules_for, MctsKingdomino};
use realm_kingdomino::{new_bot, new_referee};
use realm_search::SearchOptions;

fn spec(duel: bool, players: usize, league: u32, seed: u64) -> MatchSpec {
    let spec = if duel {
        MatchSpec::new("kingdomino", 2, seed).with_variant("duel")
    } else {
        MatchSpec::new("kingdomino", players, seed)
    };
    spec.with_league(league)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]

    /// Whatever the mode, league, seat and opponents, every answer gets a non-fault verdict.
    #[test]
    fn mcts_only_answers_legal_moves(
        duel in proptest::bool::ANY,
        players in 2usize..=4,
        league in 1u32..=3,
        seat in 0usize..4,
        seed in 0u64..1_000,
        uct in proptest::bool::ANY,
    ) {
        let spec = spec(duel, players, league, seed);
        let n = spec.n_players;
        let name = if uct { "mcts:iters=30" } else { "mcts:iters=30,algo=flat" };
        let mut referee = new_referee(&spec).unwrap();
        let mut bots: Vec<_> = (0..n)
            .map(|i| {
                let bot = if i == seat % n { name } else { "random" };
                new_bot(bot, seed + i as u64, Some(league)).unwrap()
            })
            .collect();
        while let Some(req) = referee.next_request() {
            let out = bots[req.player].play_turn(&mut LinesInput::new(&req.lines)).unwrap();
            let verdict = referee.answer(req.player, &out);
            prop_assert!(!verdict.is_fault(), "seat {}: {verdict:?}", req.player);
        }
    }

    /// At every call of a real game, a sampled game shows exactly what the bot saw (kingdoms,
    /// CURRENT and NEXT with owners, the bot to move), its hidden future lines hold only tiles
    /// the bot never saw, each tile at most once, sorted within each line, and as many lines
    /// as the deck has left.
    #[test]
    fn sampled_games_keep_the_public_facts_and_hide_only_unseen_tiles(
        players in 2usize..=4,
        seed in 0u64..1_000,
    ) {
        let spec = spec(false, players, 3, seed);
        let mut referee = new_referee(&spec).unwrap();
        let mut others: Vec<_> = (0..players)
            .map(|i| new_bot("random", seed + i as u64, None).unwrap())
            .collect();
        let mut bot = MctsKingdomino::new(1, 3, rules_for(None), SearchOptions::default());
        // Seat 0 plays greedy moves; the search bot only reads the same text and samples.
        let mut seat0 = new_bot("greedy", 0, None).unwrap();
        let mut header = None;
        let mut seen = std::collections::BTreeSet::new();
        let mut rng = realm_core::chacha_rng(seed, 9);
        while let Some(req) = referee.next_request() {
            if req.player != 0 {
                let out = others[req.player].play_turn(&mut LinesInput::new(&req.lines)).unwrap();
                referee.answer(req.player, &out);
                continue;
            }
            let mut input = LinesInput::new(&req.lines);
            let pending = match header {
                None => {
                    let (h, row) = read_header(&mut input).unwrap();
                    header = Some(h);
                    row
                }
                Some(_) => None,
            };
            let obs = read_observation::<u128>(&mut input, &header.unwrap(), pending).unwrap();
            seen.extend(obs.current.iter().chain(&obs.next).map(|t| t.id).filter(|&id| id != 0));
            let sampler = bot.sampler(&obs).expect("a flagged slot");
            for _ in 0..3 {
                let game = sampler.sample(&mut rng);
                prop_assert_eq!(game.to_move(), Some(0));
                for (p, kingdom) in obs.kingdoms.iter().enumerate() {
                    prop_assert_eq!(game.kingdom(p), kingdom);
                }
                let ids = |slots: &[realm_kingdomino::rules::Slot]| -> Vec<(u8, Option<u8>)> {
                    slots.iter().map(|s| (s.id, s.owner)).collect()
                };
                let shown = |tiles: &[realm_kingdomino::bots::SeenTile]| -> Vec<(u8, Option<u8>)> {
                    tiles.iter().map(|t| (t.id, u8::try_from(t.owner).ok())).collect()
                };
                prop_assert_eq!(ids(&game.current()[..obs.current.len()]), shown(&obs.current));
                prop_assert_eq!(ids(&game.next()[..obs.next.len()]), shown(&obs.next));
                let turn = (game.turn() as usize).min(game.lines().len());
                let len = obs.current.len();
                let future: Vec<u8> = game.lines()[turn..]
                    .iter()
                    .flat_map(|line| line[..len].iter().copied())
                    .collect();
                let n_future_lines = game.lines().len() - turn;
                prop_assert_eq!(future.len(), n_future_lines * len);
                prop_assert!(future.iter().all(|id| (1..=48).contains(id) && !seen.contains(id)));
                let distinct: std::collections::BTreeSet<u8> = future.iter().copied().collect();
                prop_assert_eq!(distinct.len(), future.len());
                for line in &game.lines()[turn..] {
                    prop_assert!(line[..len].windows(2).all(|w| w[0] < w[1]));
                }
            }
            let out = seat0.play_turn(&mut LinesInput::new(&req.lines)).unwrap();
            referee.answer(0, &out);
        }
    }
}

#[test]
fn bad_options_are_refused_with_the_reason() {
    let err = new_bot("mcts:algo=minimax", 0, None)
        .err()
        .unwrap()
        .to_string();
    assert_eq!(
        err,
        "built-in bot `mcts:algo=minimax` of kingdomino: option `algo`: `minimax` is not uct or flat"
    );
}

/// The last call of real 2-player games (random play up to it) where exactly one of the
/// mover's legal moves wins and every other one loses or ties: the search, with a fixed seed
/// and iteration budget, must find it. The positions are found by trying every move on a copy
/// of the game, so the test also checks that it met enough of them.
#[test]
fn the_search_finds_the_only_winning_last_move() {
    use realm_core::{Referee, State};
    use realm_kingdomino::bots::{default_params, KingdominoKnowledge};
    use realm_kingdomino::referee::KingdominoReferee;
    use realm_kingdomino::setup::{Config, Mode};
    use realm_search::{Budget, Mcts, MctsParams};

    let config = Config::new(Mode::Standard, 2).with_league(3);
    let mut found = 0;
    for seed in 0..3_000u64 {
        let mut referee = KingdominoReferee::<u128>::new(config, seed);
        let mut randoms: Vec<_> = (0..2)
            .map(|i| new_bot("random", seed * 7 + i, Some(3)).unwrap())
            .collect();
        while let Some(req) = referee.next_request() {
            let game = referee.game().clone();
            let p = req.player;
            let mut moves = Vec::new();
            game.legal_actions(&mut moves);
            let after = |a: &realm_kingdomino::Action| {
                let mut g = game.clone();
                g.apply(a);
                g
            };
            let last_call = moves.iter().all(|a| after(a).to_move().is_none());
            let wins = |a: &realm_kingdomino::Action| {
                let ranks = after(a).outcome().ranks;
                ranks[p] == 1 && ranks.iter().filter(|&&r| r == 1).count() == 1
            };
            if moves.len() >= 3 && last_call && moves.iter().filter(|a| wins(a)).count() == 1 {
                found += 1;
                // Plain UCT, and the bot's widened search over greedy's order.
                for params in [MctsParams::default(), default_params(2)] {
                    let result = Mcts::new(params, KingdominoKnowledge::default(), seed)
                        .search(&game, Budget::iterations(2_000))
                        .expect("a move");
                    assert!(
                        wins(&result.best),
                        "seed {seed}, {params:?}: {:?} of {} moves does not win",
                        result.best,
                        moves.len()
                    );
                }
                break;
            }
            let answer = randoms[p]
                .play_turn(&mut LinesInput::new(&req.lines))
                .unwrap();
            referee.answer(p, &answer);
        }
        if found == 5 {
            break;
        }
    }
    assert_eq!(
        found, 5,
        "five positions with a single winning move among the first 3,000 seeds"
    );
}

/// The search's prior: on positions of random 4-player games, the ordered actions are the
/// listed ones (none lost or repeated), and their placements come in order of the zone score
/// they lead to, so the first one reaches the best score any legal placement reaches.
#[test]
fn the_prior_puts_the_best_scoring_placements_first() {
    use rand_core::RngCore;
    use realm_core::{chacha_rng, State};
    use realm_kingdomino::bots::KingdominoKnowledge;
    use realm_kingdomino::setup::{Config, Mode};
    use realm_kingdomino::tiles::tile;
    use realm_kingdomino::Game;
    use realm_search::Knowledge;

    let mut knowledge = KingdominoKnowledge::default();
    let mut rng = chacha_rng(5, 0);
    let mut checked = 0;
    for seed in 0..20u64 {
        let mut game: Game<u128> = Game::new(Config::new(Mode::Standard, 4), seed);
        let mut listed = Vec::new();
        while let Some(player) = game.to_move() {
            game.legal_actions(&mut listed);
            let mut ordered = listed.clone();
            knowledge.order(&game, &mut ordered);
            let mut sorted_listed = listed.clone();
            sorted_listed.sort_by_key(|a| format!("{a:?}"));
            let mut sorted_ordered = ordered.clone();
            sorted_ordered.sort_by_key(|a| format!("{a:?}"));
            assert_eq!(
                sorted_ordered, sorted_listed,
                "seed {seed}: the same actions"
            );
            if let Some(t) = game.slot_tile() {
                let score = |a: &realm_kingdomino::Action| {
                    a.put().map_or(0, |p| {
                        let mut k = *game.kingdom(player);
                        k.place(t, p);
                        k.zone_score()
                    })
                };
                let scores: Vec<u32> = ordered.iter().map(score).collect();
                assert!(
                    scores.windows(2).all(|w| w[0] >= w[1]),
                    "seed {seed}: placements not ordered by zone score: {scores:?}"
                );
                let crowns = |a: &realm_kingdomino::Action| {
                    a.pick().and_then(tile).map_or(0, |t| t.crowns())
                };
                // Among the picks of the first placement, more crowns come first.
                let first_put = ordered[0].put();
                let picks: Vec<u8> = ordered
                    .iter()
                    .take_while(|a| a.put() == first_put)
                    .map(crowns)
                    .collect();
                assert!(
                    picks.windows(2).all(|w| w[0] >= w[1]),
                    "seed {seed}: {picks:?}"
                );
                checked += 1;
            }
            let pick = listed[(rng.next_u64() % listed.len() as u64) as usize];
            game.apply(&pick);
        }
    }
    assert!(
        checked > 400,
        "only {checked} positions with a tile in hand"
    );
}
