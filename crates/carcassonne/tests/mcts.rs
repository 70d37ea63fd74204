//! `builtin:mcts`: legal answers in every league and player count, and sampled bags that keep
//! the tile counts and deal only tiles the bot has not seen.

use std::collections::BTreeMap;

use proptest::prelude::*;
use realm_carcassonne::bots::{unseen_tiles, Reader};
use realm_carcassonne::setup::{start_type, unshuffled_bag};
use realm_carcassonne::{new_bot, new_referee};
use realm_core::{LinesInput, MatchSpec};

fn counts(tiles: impl IntoIterator<Item = u8>) -> BTreeMap<u8, usize> {
    let mut map = BTreeMap::new();
    for t in tiles {
        *map.entry(t).or_insert(0) += 1;
    }
    map
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// Whatever the league, seat and opponents, every answer gets a non-fault verdict.
    #[test]
    fn mcts_only_answers_legal_moves(
        players in 2usize..=4,
        league in 1u32..=3,
        seat in 0usize..4,
        seed in 0u64..1_000,
    ) {
        let spec = MatchSpec::new("carcassonne", players, seed).with_league(league);
        let mut referee = new_referee(&spec).unwrap();
        let mut bots: Vec<_> = (0..players)
            .map(|i| {
                let name = if i == seat % players { "mcts:iters=40" } else { "random" };
                new_bot(name, seed + i as u64, Some(league)).unwrap()
            })
            .collect();
        while let Some(req) = referee.next_request() {
            let out = bots[req.player].play_turn(&mut LinesInput::new(&req.lines)).unwrap();
            let verdict = referee.answer(req.player, &out);
            prop_assert!(!verdict.is_fault(), "seat {}: {verdict:?}", req.player);
        }
    }

    /// At every turn of a real game, the tiles the bot samples bags from are exactly the
    /// league's bag minus every tile it has seen in play (the board but the start tile, and the
    /// one in hand), type by type.
    #[test]
    fn sampled_bags_keep_the_counts_and_hold_no_seen_tile(
        players in 2usize..=4,
        league in 1u32..=3,
        seed in 0u64..1_000,
    ) {
        let spec = MatchSpec::new("carcassonne", players, seed).with_league(league);
        let mut referee = new_referee(&spec).unwrap();
        let mut bots: Vec<_> = (0..players)
            .map(|i| new_bot("random", seed + i as u64, None).unwrap())
            .collect();
        let mut reader = Reader::default();
        let full = counts(unshuffled_bag(league));
        while let Some(req) = referee.next_request() {
            if req.player == 0 {
                let obs = reader.read(&mut LinesInput::new(&req.lines)).unwrap();
                let unseen = unseen_tiles(league, &obs).expect("every seen tile is in the set");
                let mut seen: Vec<u8> = obs.board.placed().iter().map(|p| p.ty).collect();
                prop_assert_eq!(seen.first().copied(), Some(start_type(league)));
                seen.remove(0);
                seen.push(obs.tile);
                let mut total = counts(unseen.iter().copied());
                for (ty, n) in counts(seen) {
                    *total.entry(ty).or_insert(0) += n;
                }
                prop_assert_eq!(&total, &full);
                prop_assert_eq!(unseen.len() + obs.board.placed().len(), full.values().sum::<usize>());
            }
            let out = bots[req.player].play_turn(&mut LinesInput::new(&req.lines)).unwrap();
            referee.answer(req.player, &out);
        }
    }
}

/// The first tile is a one-sided castle that closes the start tile's castle when laid above
/// it: with a man on it that is 4 points at once and the man comes back, clearly the best
/// move. The bot takes it.
#[test]
fn the_bot_closes_the_start_castle_with_its_man() {
    use realm_carcassonne::setup::bag_from_letters;
    use realm_carcassonne::{CarcassonneReferee, State};
    use realm_core::Referee;
    let bag = bag_from_letters("EUVUVUVUV").unwrap();
    let mut referee = CarcassonneReferee::new(State::with_bag(3, 2, bag));
    let mut bot = new_bot("mcts:iters=400", 5, Some(3)).unwrap();
    let req = referee.next_request().unwrap();
    assert_eq!(req.player, 0);
    let out = bot.play_turn(&mut LinesInput::new(&req.lines)).unwrap();
    let verdict = referee.answer(0, &out);
    assert!(!verdict.is_fault(), "{verdict:?}");
    assert_eq!(referee.state().board().scores()[0], 4, "answer {out:?}");
    assert_eq!(
        referee.state().board().men_on_board(0),
        0,
        "the man came back"
    );
}

#[test]
fn bad_options_are_refused_with_the_reason() {
    let err = new_bot("mcts:det=x", 0, None).err().unwrap().to_string();
    assert_eq!(
        err,
        "built-in bot `mcts:det=x` of carcassonne: option `det`: `x` is not a positive whole number"
    );
}
