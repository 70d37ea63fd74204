//! Built-in bots: they only ever answer listed moves, and greedy beats random.

mod common;

use realm_blocking::{new_bot, new_referee};
use realm_core::{LinesInput, MatchSpec};

/// Plays one game; returns the outcome ranks per seat.
fn play(spec: &MatchSpec, names: &[&str], bot_seed: u64) -> Vec<u32> {
    let mut referee = new_referee(spec).unwrap();
    let mut bots: Vec<_> = names
        .iter()
        .enumerate()
        .map(|(i, n)| new_bot(n, bot_seed * 10 + i as u64, None).unwrap())
        .collect();
    while let Some(req) = referee.next_request() {
        let mut input = LinesInput::new(&req.lines);
        let out = bots[req.player].play_turn(&mut input).unwrap();
        let verdict = referee.answer(req.player, &out);
        assert!(!verdict.is_fault(), "{verdict:?}");
    }
    referee.outcome().ranks
}

/// Greedy wins clearly against random in 2 and 4 players, from every seat.
#[test]
fn greedy_beats_random() {
    for (np, games) in [(2, 12), (4, 8)] {
        let mut greedy_first = 0;
        let mut random_first = 0;
        for g in 0..games {
            let seat = g % np;
            let names: Vec<&str> = (0..np)
                .map(|i| if i == seat { "greedy" } else { "random" })
                .collect();
            let ranks = play(&MatchSpec::new("blocking", np, g as u64), &names, g as u64);
            greedy_first += usize::from(ranks[seat] == 1);
            random_first += (0..np).filter(|&i| i != seat && ranks[i] == 1).count();
        }
        println!("{np} players: greedy first in {greedy_first} of {games}, random {random_first}");
        assert!(
            greedy_first * 4 >= games * 3,
            "{np} players: greedy first in {greedy_first} of {games}"
        );
        assert!(greedy_first > random_first, "{np} players");
    }
}

/// The bots also play the variants to the end without a fault.
#[test]
fn bots_play_the_variants() {
    play(
        &MatchSpec::new("blocking", 2, 0).with_variant("duo"),
        &["greedy", "random"],
        1,
    );
    play(
        &MatchSpec::new("blocking", 4, 0).with_variant("classic"),
        &["random", "greedy", "random", "greedy"],
        2,
    );
    play(
        &MatchSpec::new("blocking", 3, 4),
        &["greedy", "greedy", "random"],
        3,
    );
}

/// A bot fed garbage reports an error instead of panicking.
#[test]
fn bots_reject_bad_input() {
    for name in ["random", "greedy"] {
        let mut bot = new_bot(name, 0, None).unwrap();
        let lines: Vec<String> = ["2", "A 1 1 #", "Z 9 9 ?"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert!(bot.play_turn(&mut LinesInput::new(&lines)).is_err());
        let mut bot = new_bot(name, 0, None).unwrap();
        assert!(bot.play_turn(&mut LinesInput::new(&[])).is_err());
    }
}
