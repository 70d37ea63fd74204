//! PROTOCOL.md's worked example of the full game is real: the first inputs of seed 1 (league
//! 3, two seats, FirstFit answers) are generated here and must equal the document's blocks, so
//! the document cannot drift from the referee.

mod common;

use common::{first_fit, referee};
use realm_kingdom_builder::bots::Reader;

const PROTOCOL: &str = include_str!("../PROTOCOL.md");

/// The fenced block right after the line `<!-- example: NAME -->` in PROTOCOL.md.
fn doc_block(name: &str) -> String {
    let marker = format!("<!-- example: {name} -->");
    let start = PROTOCOL
        .find(&marker)
        .unwrap_or_else(|| panic!("PROTOCOL.md has no {marker}"));
    let rest = &PROTOCOL[start + marker.len()..];
    let open = rest.find("```\n").expect("a fenced block after the marker") + 4;
    let close = rest[open..].find("```").expect("the block's end") + open;
    rest[open..close].to_string()
}

fn block(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The example's texts: seat 0's first input and answer, seat 1's first input and answer,
/// seat 0's second turn input (without the initial lines it no longer gets).
fn example() -> Vec<(&'static str, String)> {
    let mut referee = referee(2, 1, 3);
    let mut readers = [Reader::default(), Reader::default()];
    let mut texts = Vec::new();
    for (input, answer) in [
        ("seat0-input", "seat0-answer"),
        ("seat1-input", "seat1-answer"),
    ] {
        let request = referee.next_request().unwrap();
        let line = first_fit(&mut readers[request.player], &request.lines);
        texts.push((input, block(&request.lines)));
        texts.push((answer, format!("{line}\n")));
        assert!(!referee.answer(request.player, &[line]).is_fault());
    }
    let request = referee.next_request().unwrap();
    texts.push(("seat0-second-input", block(&request.lines)));
    texts.push(("seat1-faults", faults_of_seat_1()));
    texts
}

/// Answers seat 1 could have given in its first turn, each with the verdict it gets.
const SEAT_1_ANSWERS: [&str; 10] = [
    "build 1 0;BUILD 1 1 ; BUILD 1 2;",
    "BUILD 0 0; BUILD 1 0; BUILD 1 1",
    "BUILD 0 3; BUILD 1 0; BUILD 1 1",
    "BUILD 1 0; BUILD 5 10; BUILD 1 1",
    "BUILD 1 0; BUILD 1 1",
    "BUILD 1 0; BUILD 1 1; BUILD 1 2; BUILD 1 4",
    "BUILD 1 0; TILE FARM 1 1; BUILD 1 2",
    "BUILD 20 0; BUILD 1 0; BUILD 1 1",
    "1 0 1 1 1 2",
    "BUILD 1 0, BUILD 1 1, BUILD 1 2",
];

fn faults_of_seat_1() -> String {
    let mut out = String::new();
    for answer in SEAT_1_ANSWERS {
        let mut referee = referee(2, 1, 3);
        let mut reader = Reader::default();
        let request = referee.next_request().unwrap();
        let line = first_fit(&mut reader, &request.lines);
        referee.answer(request.player, &[line]);
        let request = referee.next_request().unwrap();
        let verdict = referee.answer(request.player, &[answer.to_string()]);
        let kind = match verdict.kind {
            realm_core::VerdictKind::Fault(f) => f.code(),
            _ => "ok",
        };
        out.push_str(&format!("{answer}\n    => {kind} {}\n", verdict.detail));
    }
    out.replace(" \n", "\n")
}

#[test]
fn protocol_md_worked_example_is_what_the_referee_sends() {
    let texts = example();
    if std::env::var_os("REALM_PRINT").is_some() {
        for (name, text) in &texts {
            println!("<!-- example: {name} -->\n```\n{text}```\n");
        }
    }
    for (name, text) in texts {
        assert_eq!(doc_block(name), text, "PROTOCOL.md block {name}");
    }
}
