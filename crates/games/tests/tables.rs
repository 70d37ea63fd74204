//! Every playable game's table (its referee and the position it holds, as an `Engine`) and
//! codec, checked the way the Python package and a person's seat use them: random legal ids
//! played as the referee's answers, with the codec's promises checked at every position.

use realm_core::{Engine, MatchSpec, SplitMix64};
use realm_games::GameKind;

/// Every playable game, variant and smallest and largest player count.
fn specs() -> Vec<MatchSpec> {
    let mut specs = Vec::new();
    for game in GameKind::ALL.into_iter().filter(|g| g.is_playable()) {
        let info = game.info();
        for variant in info.variants {
            let mut counts = vec![variant.players[0], *variant.players.last().unwrap()];
            counts.dedup();
            for players in counts {
                let mut spec = MatchSpec::new(info.slug, players, 11);
                spec.variant = variant.name.map(str::to_string);
                specs.push(spec);
            }
        }
    }
    specs
}

fn observation(engine: &dyn Engine, player: usize) -> (Vec<u8>, Vec<f32>) {
    let layout = engine.layout();
    let mut board = vec![0; layout.board_len()];
    let mut scalars = vec![0.0; layout.n_scalars];
    engine.observe(player, &mut board, &mut scalars);
    (board, scalars)
}

/// What a codec promises at one position: ids below `n_actions` named by the mask, texts that
/// map back to their ids, scalars within their bounds, hidden information out of sight.
fn check_position(engine: &dyn Engine, rng: &mut SplitMix64, what: &str) {
    let layout = engine.layout();
    let ids = engine.legal_ids();
    let mut mask = vec![0; layout.n_actions];
    engine.fill_mask(&mut mask);
    assert_eq!(
        mask.iter().filter(|&&m| m == 1).count(),
        ids.len(),
        "{what}"
    );
    // Texts are looked up among all legal actions: a sample keeps this linear.
    for _ in 0..ids.len().min(8) {
        let id = ids[(rng.next_u64() % ids.len() as u64) as usize];
        assert!((id as usize) < layout.n_actions, "{what}: id {id}");
        assert_eq!(mask[id as usize], 1, "{what}: id {id}");
        let text = engine.text(id).unwrap();
        assert_eq!(engine.id_of_text(&text), Some(id), "{what}: `{text}`");
    }
    let bounds = engine.scalar_bounds();
    for player in 0..engine.n_players() {
        let seen = observation(engine, player);
        for (i, value) in seen.1.iter().enumerate() {
            assert!(
                (bounds.low[i]..=bounds.high[i]).contains(value),
                "{what}: scalar {i} = {value} outside {}..={}",
                bounds.low[i],
                bounds.high[i]
            );
        }
        let mut reshuffled = engine.clone_box();
        reshuffled.reshuffle_hidden(rng.next_u64());
        assert_eq!(
            observation(&*reshuffled, player),
            seen,
            "{what}: player {player}"
        );
    }
}

#[test]
fn tables_play_whole_matches_through_their_engines() {
    for spec in specs() {
        let what = format!("{} {:?} {}p", spec.game, spec.variant, spec.n_players);
        let mut table = realm_games::new_table(&spec).unwrap();
        let mut rng = SplitMix64::new(spec.n_players as u64);
        let mut calls = 0;
        while let Some(request) = table.referee().next_request() {
            let mut engine = table.engine();
            assert_eq!(engine.to_move(), Some(request.player), "{what}");
            let mut texts = Vec::new();
            loop {
                if calls % 5 == 0 {
                    check_position(&*engine, &mut rng, &what);
                }
                let ids = engine.legal_ids();
                let id = ids[(rng.next_u64() % ids.len() as u64) as usize];
                texts.push(engine.text(id).unwrap());
                let closes = engine.closes_answer(id);
                engine.apply(id).unwrap();
                if closes {
                    break;
                }
            }
            let verdict = table
                .referee()
                .answer(request.player, &engine.answer_lines(&texts));
            assert!(!verdict.is_fault(), "{what}: {verdict:?}");
            // The answer took the referee where the engine went: a codec closes an answer
            // exactly where the referee ends the call (Kingdom Builder's new card within a
            // turn would otherwise leave the rest of the turn ignored).
            let held = table.engine();
            assert_eq!(held.legal_ids(), engine.legal_ids(), "{what}: call {calls}");
            for player in 0..engine.n_players() {
                let seen = observation(&*engine, player);
                assert_eq!(observation(&*held, player), seen, "{what}: call {calls}");
            }
            calls += 1;
        }
        let engine = table.engine();
        assert_eq!(engine.to_move(), None, "{what}");
        assert_eq!(
            engine.outcome().ranks,
            table.referee().outcome().ranks,
            "{what}"
        );
    }
}

#[test]
fn an_engine_starts_where_its_referee_starts() {
    for spec in specs() {
        let engine = realm_games::new_engine(&spec).unwrap();
        let mut table = realm_games::new_table(&spec).unwrap();
        let request = table.referee().next_request().unwrap();
        assert_eq!(engine.to_move(), Some(request.player), "{}", spec.game);
        assert_eq!(
            engine.legal_ids(),
            table.engine().legal_ids(),
            "{}",
            spec.game
        );
    }
}

#[test]
fn a_game_without_match_play_has_no_table() {
    for game in GameKind::ALL.into_iter().filter(|g| !g.is_playable()) {
        let spec = MatchSpec::new(game.slug(), 2, 1);
        let err = realm_games::new_table(&spec).err().unwrap();
        assert_eq!(err, game.not_playable());
    }
}
