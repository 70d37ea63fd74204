//! Shared test helpers: scripted matches on the referee with reference bots filling in, and a
//! builder for the 5 × 5 "window" kingdoms of §7.

#![allow(dead_code)]

use realm_core::{Bot, Fault, FaultKind, LinesInput, Outcome, Referee, Request, Verdict};
use realm_kingdomino::bits::Bits;
use realm_kingdomino::kingdom::{Kingdom, Placement};
use realm_kingdomino::referee::KingdominoReferee;
use realm_kingdomino::scoring::Standing;
use realm_kingdomino::setup::{Config, Mode};
use realm_kingdomino::tiles::{tile, Square, Terrain};

/// What a scripted seat does on one call instead of its bot's answer.
pub enum Reply {
    Lines(Vec<String>),
    Fault(FaultKind),
}

pub fn lines(put: &str, pick: &str) -> Reply {
    Reply::Lines(vec![put.to_string(), pick.to_string()])
}

/// Everything that happened in one match.
pub struct Run<B: Bits> {
    pub referee: KingdominoReferee<B>,
    pub requests: Vec<Request>,
    pub answers: Vec<Vec<String>>,
    pub verdicts: Vec<Verdict>,
    pub outcome: Outcome,
}

impl<B: Bits> Run<B> {
    pub fn standing(&self, seat: usize) -> (u32, u32, u32) {
        let Standing {
            score,
            territory,
            crowns,
        } = self.referee.game().standing(seat);
        (score, territory, crowns)
    }

    pub fn placed(&self, seat: usize) -> u32 {
        self.referee.game().tiles_placed(seat)
    }

    pub fn calls(&self) -> usize {
        self.requests.len()
    }
}

/// Plays a match where every seat runs built-in bot `bots[seat]`, except that
/// `script(seat, call_of_that_seat, request)` may replace an answer (calls count from 1). The
/// bot still reads every call so it keeps its state.
pub fn play<B: Bits>(
    config: Config,
    seed: u64,
    bots: &[&str],
    mut script: impl FnMut(usize, usize, &Request) -> Option<Reply>,
) -> Run<B> {
    let mut referee = KingdominoReferee::<B>::new(config, seed);
    let mut players: Vec<Box<dyn Bot>> = bots
        .iter()
        .enumerate()
        .map(|(i, name)| realm_kingdomino::new_bot(name, 1000 + i as u64, None).expect("known bot"))
        .collect();
    let mut seat_calls = vec![0usize; config.n_players];
    let mut run_requests = Vec::new();
    let mut answers = Vec::new();
    let mut verdicts = Vec::new();
    while let Some(request) = referee.next_request() {
        assert!(run_requests.len() < 200, "match does not end");
        let seat = request.player;
        seat_calls[seat] += 1;
        let mut input = LinesInput::new(&request.lines);
        let bot_answer = players[seat].play_turn(&mut input).expect("bot answers");
        assert_eq!(input.remaining(), 0, "bot left input unread");
        match script(seat, seat_calls[seat], &request) {
            Some(Reply::Fault(kind)) => {
                referee.fault(
                    seat,
                    Fault {
                        kind,
                        turn: request.turn,
                        detail: kind.code().to_string(),
                    },
                );
                answers.push(Vec::new());
                verdicts.push(Verdict::fault(kind, "runner"));
            }
            Some(Reply::Lines(lines)) => {
                verdicts.push(referee.answer(seat, &lines));
                answers.push(lines);
            }
            None => {
                verdicts.push(referee.answer(seat, &bot_answer));
                answers.push(bot_answer);
            }
        }
        run_requests.push(request);
    }
    let outcome = referee.outcome();
    Run {
        referee,
        requests: run_requests,
        answers,
        verdicts,
        outcome,
    }
}

/// A reference-bot match without scripted answers.
pub fn reference_game<B: Bits>(config: Config, seed: u64) -> Run<B> {
    let bots = vec!["reference"; config.n_players];
    play::<B>(config, seed, &bots, |_, _, _| None)
}

pub fn std2() -> Config {
    Config::new(Mode::Standard, 2)
}

/// A 9 × 9 kingdom whose rows y = 2..6, columns x = 2..6 are given (the rest empty).
pub fn window(rows: [&str; 5]) -> Kingdom<u128> {
    let mut k = Kingdom::new();
    for (dy, row) in rows.iter().enumerate() {
        let b = row.as_bytes();
        for dx in 0..5 {
            let (t, c) = (b[2 * dx], b[2 * dx + 1]);
            if let Some(terrain) = Terrain::from_letter(t) {
                k.set(
                    dx + 2,
                    dy + 2,
                    Square {
                        terrain,
                        crowns: c - b'0',
                    },
                );
            }
        }
    }
    k
}

/// Places tile `id` at `PUT x y r` without a legality check.
pub fn put<B: Bits>(k: &mut Kingdom<B>, id: u8, x: u8, y: u8, r: u8) {
    k.place(tile(id).expect("tile"), Placement { x, y, r });
}

pub fn p(x: u8, y: u8, r: u8) -> Placement {
    Placement { x, y, r }
}

/// The tile-section lines (CURRENT and NEXT) at the end of a request.
pub fn tile_sections(request: &Request, line_len: usize) -> Vec<String> {
    request.lines[request.lines.len() - 2 * line_len..].to_vec()
}
