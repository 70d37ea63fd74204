//! Golden playthrough: the exact protocol text of a whole 2-player game (seed 7, greedy against
//! random), every answer and verdict, and the outcome, compared line by line with the checked-in
//! file. `REALM_BLESS=1 cargo test -p realm-kingdomino --test golden` rewrites it.

mod common;

use common::*;
use realm_core::VerdictKind;

const GOLDEN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/playthroughs/standard_2p_seed7.txt"
);

fn transcript() -> String {
    let run = play::<u128>(std2(), 7, &["greedy", "random"], |_, _, _| None);
    let mut out = String::from(
        "# kingdomino, standard, 2 players, league 3, seed 7; seat 0 builtin:greedy, seat 1 builtin:random\n",
    );
    for (i, request) in run.requests.iter().enumerate() {
        out += &format!(
            "== call {}: turn {}, seat {}, {} ms, {} lines\n",
            i + 1,
            request.turn,
            request.player,
            request.time_limit.as_millis(),
            request.lines.len()
        );
        for line in &request.lines {
            out += line;
            out.push('\n');
        }
        for line in &run.answers[i] {
            out += &format!("-> {line}\n");
        }
        let verdict = &run.verdicts[i];
        let kind = match verdict.kind {
            VerdictKind::Ok => "ok".to_string(),
            VerdictKind::Warning => "warning".to_string(),
            VerdictKind::Fault(f) => f.code().to_string(),
        };
        out += format!("verdict: {kind} {}", verdict.detail).trim_end();
        out.push('\n');
    }
    let standings: Vec<String> = (0..2)
        .map(|s| {
            let (score, territory, crowns) = run.standing(s);
            format!("{score}/{territory}/{crowns}")
        })
        .collect();
    out += "== outcome\n";
    out += &format!("standings: {}\n", standings.join(" "));
    out += &format!(
        "scores: {:?}\nranks: {:?}\n",
        run.outcome.scores, run.outcome.ranks
    );
    out += &format!("end: {} {}\n", run.outcome.end.code(), run.outcome.detail);
    out
}

#[test]
fn golden_two_player_game() {
    let actual = transcript();
    if std::env::var_os("REALM_BLESS").is_some() {
        std::fs::write(GOLDEN, &actual).expect("write golden file");
        return;
    }
    let expected = std::fs::read_to_string(GOLDEN)
        .expect("golden file missing: run with REALM_BLESS=1 to create it");
    for (n, (want, got)) in expected.lines().zip(actual.lines()).enumerate() {
        assert_eq!(got, want, "line {} of {GOLDEN} differs", n + 1);
    }
    assert_eq!(
        actual.lines().count(),
        expected.lines().count(),
        "line count differs"
    );
}
