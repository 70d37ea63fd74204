//! Reading the protocol as a bot: the initial input once, then each turn's board, other moves
//! and valid-move list, turned into row masks a bot can evaluate moves with.

use realm_core::{read_line, read_parsed, BotError, Input};

use crate::protocol::{parse_answer, Name};
use crate::shapes::{tables, N_LETTERS};

/// What the initial input told the bot.
#[derive(Clone, Debug)]
pub struct Setup {
    pub n_players: usize,
    pub my_id: usize,
    pub size: usize,
    /// The shape set as letter bits (bit 0 = A).
    pub set: u32,
}

/// One turn as the bot sees it.
#[derive(Clone, Debug)]
pub struct Observation {
    pub size: usize,
    pub n_players: usize,
    pub my_id: usize,
    /// Cells of each colour, one mask per row.
    pub own: Vec<Vec<u32>>,
    /// The receiver's anchor cells (`x`).
    pub anchors: Vec<u32>,
    /// The valid moves with their cells.
    pub valid: Vec<(Name, Vec<(usize, usize)>)>,
    /// The other players' moves since the previous call, in order: `(player, name)`.
    pub others: Vec<(usize, Name)>,
    /// The board rows as read.
    pub rows: Vec<String>,
    /// The shape set as letter bits.
    pub set: u32,
}

/// Reads the protocol across turns (the initial input only on the first call).
#[derive(Default)]
pub struct Reader {
    setup: Option<Setup>,
}

fn bad(what: &str) -> BotError {
    BotError::BadInput(what.to_string())
}

/// The cells a valid-move name covers, checked against the shape table.
pub fn name_cells(name: &Name, size: usize) -> Option<Vec<(usize, usize)>> {
    let t = tables();
    let l = name.letter.checked_sub(b'A')? as usize;
    if l >= N_LETTERS || name.f > 1 || name.r > 3 || name.k < 1 || name.k > t.sizes[l] {
        return None;
    }
    let e = &t.names[l][name.f as usize * 4 + name.r as usize];
    let (sx, sy) = e.squares[name.k as usize - 1];
    let (ox, oy) = (name.x as i64 - sx as i64, name.y as i64 - sy as i64);
    let cells: Vec<(usize, usize)> = e.squares[..t.sizes[l] as usize]
        .iter()
        .map(|&(x, y)| (ox + x as i64, oy + y as i64))
        .filter(|&(x, y)| x >= 0 && y >= 0 && (x as usize) < size && (y as usize) < size)
        .map(|(x, y)| (x as usize, y as usize))
        .collect();
    (cells.len() == t.sizes[l] as usize).then_some(cells)
}

impl Reader {
    fn read_setup(input: &mut dyn Input) -> Result<Setup, BotError> {
        let t = tables();
        let n_shapes: usize = read_parsed(input)?;
        for _ in 0..n_shapes {
            let line = read_line(input)?;
            if !t.lines.contains(&line.trim_end()) {
                return Err(BotError::BadInput(format!(
                    "unknown shape drawing `{line}`"
                )));
            }
        }
        let n_players: usize = read_parsed(input)?;
        let my_id: usize = read_parsed(input)?;
        let size: usize = read_parsed(input)?;
        let letters = read_line(input)?;
        if !(2..=4).contains(&n_players) || my_id >= n_players || !(5..=30).contains(&size) {
            return Err(bad("bad players, id or board size"));
        }
        let mut set = 0u32;
        for c in letters.trim().bytes() {
            let l = c.wrapping_sub(b'A') as usize;
            if l >= N_LETTERS {
                return Err(BotError::BadInput(format!("bad letters line `{letters}`")));
            }
            set |= 1 << l;
        }
        Ok(Setup {
            n_players,
            my_id,
            size,
            set,
        })
    }

    /// Reads one call's lines.
    pub fn read_turn(&mut self, input: &mut dyn Input) -> Result<Observation, BotError> {
        if self.setup.is_none() {
            self.setup = Some(Self::read_setup(input)?);
        }
        let setup = self.setup.clone().ok_or_else(|| bad("no setup"))?;
        let n = setup.size;
        let mut own = vec![vec![0u32; n]; setup.n_players];
        let mut anchors = vec![0u32; n];
        let mut rows = Vec::with_capacity(n);
        for y in 0..n {
            let row = read_line(input)?;
            if row.len() != n {
                return Err(BotError::BadInput(row));
            }
            for (x, c) in row.bytes().enumerate() {
                match c {
                    b'x' => anchors[y] |= 1 << x,
                    b'0'..=b'3' if ((c - b'0') as usize) < setup.n_players => {
                        own[(c - b'0') as usize][y] |= 1 << x
                    }
                    b'.' => {}
                    _ => return Err(BotError::BadInput(row)),
                }
            }
            rows.push(row);
        }
        let n_other: usize = read_parsed(input)?;
        let mut others = Vec::with_capacity(n_other);
        for _ in 0..n_other {
            let line = read_line(input)?;
            let (pid, rest) = line
                .trim()
                .split_once(' ')
                .ok_or_else(|| BotError::BadInput(line.clone()))?;
            let pid: usize = pid.parse().map_err(|_| BotError::BadInput(line.clone()))?;
            let name = parse_answer(rest).ok_or_else(|| BotError::BadInput(line.clone()))?;
            if pid >= setup.n_players {
                return Err(BotError::BadInput(line));
            }
            others.push((pid, name));
        }
        let n_valid: usize = read_parsed(input)?;
        let mut valid = Vec::with_capacity(n_valid);
        for _ in 0..n_valid {
            let line = read_line(input)?;
            let name = parse_answer(&line).ok_or_else(|| BotError::BadInput(line.clone()))?;
            let cells = name_cells(&name, n).ok_or(BotError::BadInput(line))?;
            valid.push((name, cells));
        }
        if valid.is_empty() {
            return Err(bad("no valid move listed"));
        }
        Ok(Observation {
            size: n,
            n_players: setup.n_players,
            my_id: setup.my_id,
            own,
            anchors,
            valid,
            others,
            rows,
            set: setup.set,
        })
    }
}
