//! `realm score kingdom-builder` as a user runs it: the built binary on a board file or stdin,
//! its exact stdout (spec kingdom-builder.md §6.4), its one-line errors and exit codes, and the
//! one-frame replay of `--replay`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{realm, run, stderr, stdout};

const SPEC_DETAIL: &str = "castles 18 0 15 12\n\
discoverers 14 20 12 16\n\
fishermen 13 21 10 5\n\
hermits 7 5 6 29\n\
total 52 46 43 62\n";

/// The shared data file when the checkout has `../shared` beside it, else the copy the
/// Kingdom Builder crate keeps (the same bytes; its own tests compare them).
fn data_file(name: &str) -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shared = manifest.join("../../../shared/data").join(name);
    if shared.is_file() {
        return shared;
    }
    eprintln!("no {}; using the vendored copy", shared.display());
    manifest.join("../kingdom-builder/data").join(name)
}

fn board_file() -> PathBuf {
    data_file("kingdom_builder_example_board.txt")
}

fn score(args: &[&str]) -> Output {
    let dir = std::env::temp_dir();
    let mut all = vec!["score", "kingdom-builder"];
    all.extend_from_slice(args);
    run(&dir, &all)
}

fn score_stdin(input: &[u8], args: &[&str]) -> Output {
    let mut child = Command::new(realm())
        .args(["score", "kingdom-builder"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Exit code 2 and exactly one stderr line.
fn failure(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(2), "stdout: {}", stdout(out));
    assert_eq!(stdout(out), "", "nothing on stdout after an error");
    let err = stderr(out);
    assert_eq!(err.lines().count(), 1, "{err:?}");
    err
}

#[test]
fn board_from_stdin() {
    let board = std::fs::read(board_file()).unwrap();
    let out = score_stdin(&board, &["--cards", "1,3,7", "-"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "52 46 43 62\n");
}

#[test]
fn detail_prints_the_spec_example_exactly() {
    let board = board_file();
    let out = score(&["--cards", "1,3,7", "--detail", board.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), SPEC_DETAIL);
    // Names in any order and case give the same lines.
    let out = score(&[
        "--cards",
        "Hermits,fishermen,1",
        "--detail",
        board.to_str().unwrap(),
    ]);
    assert_eq!(stdout(&out), SPEC_DETAIL);
}

#[test]
fn json_holds_every_card_and_the_totals() {
    let board = board_file();
    let out = score(&["--cards", "9,10,5", "--json", board.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let cards = json["cards"].as_object().unwrap();
    let keys: Vec<&str> = cards.keys().map(String::as_str).collect();
    assert_eq!(keys.len(), 4);
    assert_eq!(json["players"], 4);
    assert_eq!(cards["castles"], serde_json::json!([18, 0, 15, 12]));
    assert_eq!(cards["lords"], serde_json::json!([18, 36, 12, 18]));
    // Spec 7.1: Merchants 40/8/24/0, Workers 16/5/10/8.
    assert_eq!(cards["merchants"], serde_json::json!([40, 8, 24, 0]));
    assert_eq!(cards["workers"], serde_json::json!([16, 5, 10, 8]));
    assert_eq!(json["total"], serde_json::json!([92, 49, 61, 38]));
}

#[test]
fn every_combination_of_the_reference_csv() {
    let csv = std::fs::read_to_string(data_file("kingdom_builder_example_scores.csv")).unwrap();
    let board = board_file();
    let mut combinations = 0;
    for line in csv.lines().skip(1) {
        let (label, values) = line.split_once(',').unwrap();
        if !label.contains(' ') {
            continue;
        }
        let cards = label.replace(' ', ",");
        let out = score(&["--cards", &cards, board.to_str().unwrap()]);
        assert!(out.status.success(), "{label}: {}", stderr(&out));
        assert_eq!(
            stdout(&out),
            values.replace(',', " ") + "\n",
            "cards {label}"
        );
        combinations += 1;
    }
    assert_eq!(combinations, 16);
}

#[test]
fn broken_board_gives_one_line_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(board_file()).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    // Line 3 is "3 M 2 2 W ..."; its fourth token starts at character 7.
    lines[2].replace_range(6..7, "Z");
    let broken = dir.path().join("broken.txt");
    std::fs::write(&broken, lines.join("\n")).unwrap();
    let out = run(dir.path(), &["score", "kingdom-builder", "broken.txt"]);
    assert_eq!(
        failure(&out),
        "error: broken.txt: line 3, column 7: unknown token 'Z'\n"
    );

    lines.truncate(19);
    std::fs::write(&broken, lines.join("\n")).unwrap();
    let out = run(dir.path(), &["score", "kingdom-builder", "broken.txt"]);
    assert_eq!(
        failure(&out),
        "error: broken.txt: line 3, column 7: unknown token 'Z'\n",
        "the first problem in text order"
    );

    let out = score_stdin(b". . .\n", &["-"]);
    assert_eq!(
        failure(&out),
        "error: stdin: line 1, column 6: expected 20 tokens in the row, found 3\n"
    );
}

#[test]
fn bytes_that_are_not_utf8_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(board_file()).unwrap();
    // Line 2 is " 3 M W W ..."; put a lone 0xff where its third token starts (column 6).
    let line_2 = bytes.iter().position(|&b| b == b'\n').unwrap() + 1;
    bytes[line_2 + 5] = 0xff;
    std::fs::write(dir.path().join("garbage.bin"), &bytes).unwrap();
    let out = run(dir.path(), &["score", "kingdom-builder", "garbage.bin"]);
    assert_eq!(
        failure(&out),
        "error: garbage.bin: line 2, column 6: byte 0xff is not UTF-8 text\n"
    );
}

#[test]
fn option_errors_do_not_name_the_board() {
    let board = board_file();
    let board = board.to_str().unwrap();
    let out = score(&["--cards", "0", board]);
    assert_eq!(
        failure(&out),
        "error: unknown card '0' (cards are 1 to 10 or discoverers, knights, fishermen, miners, \
         lords, farmers, hermits, citizens, merchants, workers)\n"
    );
    let out = score(&["--players", "0", board]);
    assert_eq!(failure(&out), "error: --players must be 1 to 4, got 0\n");
    // A digit above --players is about the board: it names the file, line and column.
    let out = score(&["--players", "2", board]);
    let err = failure(&out);
    assert!(
        err.starts_with(&format!(
            "error: {board}: line 1, column 1: settlement of player 3"
        )),
        "{err}"
    );
    let out = score(&["/nonexistent/board.txt"]);
    assert!(failure(&out).starts_with("error: cannot read /nonexistent/board.txt: "));
}

#[test]
fn replay_holds_the_board_the_card_rows_and_the_ranking() {
    let dir = tempfile::tempdir().unwrap();
    // realm writes into a folder the user named only when it exists.
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let board = board_file();
    let out = run(
        dir.path(),
        &[
            "score",
            "kingdom-builder",
            "--cards",
            "1,3,7",
            "--replay",
            "out/board.json",
            board.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "52 46 43 62\n", "stdout stays the scores");
    let text = std::fs::read_to_string(dir.path().join("out/board.json")).unwrap();
    let replay: realm_core::Replay = serde_json::from_str(&text).unwrap();
    assert_eq!(replay.spec.game, "kingdom-builder");
    assert_eq!(replay.spec.n_players, 4);
    assert_eq!(
        replay.spec.options["cards"],
        "discoverers,fishermen,hermits"
    );
    assert!(replay.turns.is_empty());
    assert_eq!(replay.outcome.scores, [52, 46, 43, 62]);
    assert_eq!(replay.outcome.ranks, [2, 3, 4, 1]);
    let frame = &replay.initial_frame;
    assert_eq!(
        frame["cards"]["fishermen"],
        serde_json::json!([13, 21, 10, 5])
    );
    assert_eq!(frame["scores"], serde_json::json!([52, 46, 43, 62]));
    let rows = frame["rows"].as_array().unwrap();
    let board_text = std::fs::read_to_string(&board).unwrap();
    let expected: Vec<&str> = board_text.lines().collect();
    assert_eq!(rows.len(), 20);
    for (row, line) in rows.iter().zip(expected) {
        assert_eq!(row, line);
    }
}

/// What `realm score` says of a board text longer than its 1 MiB cap, at `line`, `column`.
fn past_the_cap(name: &str, line: usize, column: usize) -> String {
    format!(
        "error: {name}: line {line}, column {column}: the text goes on past 1 MiB \
         (a board takes about 1 KiB)\n"
    )
}

#[test]
fn an_endless_board_on_stdin_is_refused_where_the_cap_is_crossed() {
    let mut child = Command::new(realm())
        .args(["score", "kingdom-builder", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // `yes .`, bounded at 16 times the cap so that the test ends even if realm read it all.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = ".\n".repeat(32 * 1024);
        (0..256).try_for_each(|_| stdin.write_all(chunk.as_bytes()))
    });
    let out = child.wait_with_output().unwrap();
    // 524,288 lines of two bytes fill the cap; the next line's first byte crosses it.
    assert_eq!(failure(&out), past_the_cap("stdin", 524_289, 1));
    let written = writer.join().unwrap();
    assert_eq!(
        written.map_err(|e| e.kind()),
        Err(std::io::ErrorKind::BrokenPipe),
        "realm stops reading at the cap"
    );
}

#[test]
fn a_board_file_past_the_cap_is_refused_where_the_cap_is_crossed() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = std::fs::read(board_file()).unwrap();
    // Blank lines at the end of a board are allowed, however many, up to the cap.
    text.resize(1 << 20, b'\n');
    std::fs::write(dir.path().join("long.txt"), &text).unwrap();
    let out = run(dir.path(), &["score", "kingdom-builder", "long.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    text.push(b'\n');
    std::fs::write(dir.path().join("long.txt"), &text).unwrap();
    let out = run(dir.path(), &["score", "kingdom-builder", "long.txt"]);
    let lines_in_cap = text[..1 << 20].iter().filter(|&&b| b == b'\n').count();
    assert_eq!(failure(&out), past_the_cap("long.txt", lines_in_cap + 1, 1));
}
