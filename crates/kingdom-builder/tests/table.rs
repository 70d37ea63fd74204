//! The table (`new_table`: the referee with its position, through `KingdomBuilderCodec`) played
//! the way the Python package and a person's seat play it: random legal ids, one call's
//! actions sent as one answer line. The point is D28's new card within a turn: the codec must
//! close the answer exactly where the referee ends the call, so the referee never ignores
//! commands the engine already played.

use realm_core::engine::Engine;
use realm_core::{MatchSpec, SplitMix64, VerdictKind};
use realm_kingdom_builder::game::{GameConfig, GameState};
use realm_kingdom_builder::new_table;

/// Seed `seed`'s generated map with all but three grass cells turned to mountain, so that
/// grass runs out partway through a build.
fn scarce_grass_map(seed: u64) -> String {
    let map = GameState::new(&GameConfig::new(4, 3), seed).map().to_text();
    let mut grass = 0;
    map.chars()
        .map(|c| match c {
            'G' if grass < 3 => {
                grass += 1;
                'G'
            }
            'G' => 'M',
            other => other,
        })
        .collect()
}

fn observation(engine: &dyn Engine, player: usize) -> (Vec<u8>, Vec<f32>) {
    let layout = engine.layout();
    let mut board = vec![0; layout.board_len()];
    let mut scalars = vec![0.0; layout.n_scalars];
    engine.observe(player, &mut board, &mut scalars);
    (board, scalars)
}

/// Plays one match with random ids; returns the calls that continued a turn after a new card.
fn play(seed: u64) -> usize {
    let spec =
        MatchSpec::new("kingdom-builder", 4, seed).with_option("board", &scarce_grass_map(seed));
    let mut table = new_table(&spec).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut continuations = 0;
    while let Some(request) = table.referee().next_request() {
        let mut engine = table.engine();
        let mut texts = Vec::new();
        let ended_turn = loop {
            let ids = engine.legal_ids();
            let id = ids[(rng.next_u64() % ids.len() as u64) as usize];
            texts.push(engine.text(id).unwrap());
            let closes = engine.closes_answer(id);
            engine.apply(id).unwrap();
            if closes {
                break engine.to_move() != Some(request.player);
            }
        };
        let line = engine.answer_lines(&texts);
        let verdict = table.referee().answer(request.player, &line);
        assert_eq!(verdict.kind, VerdictKind::Ok, "seed {seed}: {line:?}");
        let held = table.engine();
        assert_eq!(held.legal_ids(), engine.legal_ids(), "seed {seed}");
        assert_eq!(observation(&*held, 0), observation(&*engine, 0));
        if !ended_turn && engine.to_move().is_some() {
            continuations += 1;
        }
    }
    assert_eq!(table.engine().to_move(), None);
    continuations
}

#[test]
fn answers_close_where_the_referee_ends_the_call_after_a_new_card() {
    let continuations: usize = (1..=6).map(play).sum();
    assert!(
        continuations > 0,
        "no new card within a turn in these games"
    );
}
