//! Built-in bots. Each reads exactly the protocol text a bot process reads, rebuilds the board
//! from the tile history (identifying each tile line in the tile table) and answers one line.
//! They never see the referee's state or the bag.

mod greedy;
mod mcts;
mod random;
mod valuation;

pub use greedy::Greedy;
pub use mcts::{default_params, sampled_state, unseen_tiles, CarcassonneKnowledge, MctsBot};
pub use random::Random;

use realm_core::{read_line, BotError, Input};

use crate::board::{Board, Placement};
use crate::protocol::parse_token;
use crate::tiles::tileset;

/// What a bot knows on its turn.
#[derive(Clone, Debug)]
pub struct Observation {
    pub n_players: usize,
    pub me: usize,
    /// The board rebuilt from the history, men and scores included.
    pub board: Board,
    /// The type of the tile to place.
    pub tile: u8,
}

/// Reads the initial input once and the turn input on every call.
#[derive(Clone, Debug, Default)]
pub struct Reader {
    seat: Option<(usize, usize)>,
}

fn bad(line: &str) -> BotError {
    BotError::BadInput(line.to_string())
}

/// The (type, angle) whose tile line shows these edges, centre, shield and links.
fn identify(tokens: &[&str]) -> Option<(u8, u8)> {
    let set = tileset();
    let edges: String = tokens[2..6].concat();
    for (ty, t) in set.types.iter().enumerate() {
        if tokens[6] != if t.center { "1" } else { "0" }
            || tokens[9] != if t.shield { "1" } else { "0" }
        {
            continue;
        }
        for angle in 0..4 {
            if t.edges_text(angle) == edges && t.angles[angle].links == tokens[10] {
                return Some((ty as u8, angle as u8));
            }
        }
    }
    None
}

impl Reader {
    /// Reads one call's lines and rebuilds the observation.
    pub fn read(&mut self, input: &mut dyn Input) -> Result<Observation, BotError> {
        let (n_players, me) = match self.seat {
            Some(seat) => seat,
            None => {
                let line = read_line(input)?;
                let nums: Vec<usize> = line
                    .split_whitespace()
                    .filter_map(|t| t.parse().ok())
                    .collect();
                // The first line is judged before the next is read, so garbage followed by the
                // end of the input is reported as garbage.
                let &[n, me] = nums.as_slice() else {
                    return Err(bad(&line));
                };
                let line2 = read_line(input)?;
                if !(2..=4).contains(&n) || me >= n || line2.split_whitespace().count() != 2 {
                    return Err(bad(&line));
                }
                self.seat = Some((n, me));
                (n, me)
            }
        };
        let count_line = read_line(input)?;
        let count: usize = count_line.trim().parse().map_err(|_| bad(&count_line))?;
        if !(2..=72).contains(&count) {
            return Err(bad(&count_line));
        }
        let mut board: Option<Board> = None;
        for _ in 0..count - 1 {
            let line = read_line(input)?;
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.len() != 11 {
                return Err(bad(&line));
            }
            let (ty, angle) = identify(&tokens).ok_or_else(|| bad(&line))?;
            let row: i64 = tokens[0].parse().map_err(|_| bad(&line))?;
            let col: i64 = tokens[1].parse().map_err(|_| bad(&line))?;
            let slot = match board.as_mut() {
                None => {
                    if !(0..143).contains(&row) || !(0..143).contains(&col) {
                        return Err(bad(&line));
                    }
                    let at = Placement {
                        row: row as u8,
                        col: col as u8,
                        angle,
                    };
                    board = Some(Board::with_first(n_players, ty, at));
                    0
                }
                Some(b) => {
                    if !b.is_legal(ty, row, col, angle as i64) {
                        return Err(bad(&line));
                    }
                    b.place(
                        ty,
                        Placement {
                            row: row as u8,
                            col: col as u8,
                            angle,
                        },
                    )
                }
            };
            let b = board.as_mut().expect("set above");
            if let (Ok(owner), Some(token)) = (tokens[7].parse::<usize>(), parse_token(tokens[8])) {
                if owner < n_players {
                    let _ = b.put_man(owner, slot, token);
                }
            }
            if slot > 0 {
                b.score_closed(slot);
            }
        }
        let line = read_line(input)?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() != 11 {
            return Err(bad(&line));
        }
        let (tile, angle) = identify(&tokens).ok_or_else(|| bad(&line))?;
        let board = board.ok_or_else(|| bad(&count_line))?;
        if angle != 0 {
            return Err(bad(&line));
        }
        Ok(Observation {
            n_players,
            me,
            board,
            tile,
        })
    }
}
