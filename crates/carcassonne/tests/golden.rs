//! Golden playthrough: the exact protocol text of a whole match (league 3, 2 players, seed 1,
//! the spec's FirstFit bot in both seats, reading the text through the crate's `Reader`),
//! compared line by line with `tests/playthroughs/`. `REALM_BLESS=1` rewrites the file.

use realm_carcassonne::bots::Reader;
use realm_carcassonne::new_referee;
use realm_carcassonne::protocol::answer_line;
use realm_core::{LinesInput, MatchSpec};
use realm_testkit::match_transcript;

/// FirstFit of §8 A11: the smallest legal triple and the first accepted man token.
fn first_fit(reader: &mut Reader, lines: &[String]) -> String {
    let obs = reader.read(&mut LinesInput::new(lines)).unwrap();
    let at = obs.board.sorted_placements(obs.tile)[0];
    let mut board = obs.board.clone();
    let slot = board.place(obs.tile, at);
    let token = (0..13).find(|&t| board.check_man(obs.me, slot, t).is_ok());
    answer_line(at, token)
}

fn transcript(league: u32, n: usize, seed: u64) -> String {
    let spec = MatchSpec::new("carcassonne", n, seed).with_league(league);
    let mut referee = new_referee(&spec).unwrap();
    let mut readers = vec![Reader::default(); n];
    let title =
        format!("# carcassonne league {league}, {n} players, seed {seed}, FirstFit in every seat");
    match_transcript(&title, referee.as_mut(), |player, lines| {
        first_fit(&mut readers[player], lines)
    })
}

fn check_golden(name: &str, text: &str) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/playthroughs");
    realm_testkit::check_golden(format!("{dir}/{name}"), text);
}

#[test]
fn golden_league3_two_players_seed1() {
    let text = transcript(3, 2, 1);
    assert!(
        text.ends_with("scores [17, 11]\nranks [1, 2]\nend finished bag_empty\n"),
        "A11 result"
    );
    check_golden("league3_2p_seed1_firstfit.txt", &text);
}

#[test]
fn golden_league1_two_players_seed37() {
    let text = transcript(1, 2, 37);
    assert!(text.contains("scores [11, 5]\n"), "A11 result");
    check_golden("league1_2p_seed37_firstfit.txt", &text);
}
