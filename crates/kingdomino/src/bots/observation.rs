//! What a bot learns from one call's text (§3.1, §3.2): the header (player count, tiles per
//! line, grid size) and each call's grids, CURRENT and NEXT. Built-in bots see nothing else.

use realm_core::{read_line, BotError, Input};

use crate::bits::Bits;
use crate::kingdom::Kingdom;
use crate::tiles::{tile, Tile};

/// The game shape a bot learns from its first call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub n_players: usize,
    pub line_len: usize,
    /// Grid side S: 9, or 13 in the Duel.
    pub size: usize,
}

/// One tile line entry as read: ID (0 = placeholder), relative owner (-1 = none) and, for
/// CURRENT, the flag of the slot being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenTile {
    pub id: u8,
    pub owner: i32,
    pub flag: bool,
}

/// One call's input, parsed. `kingdoms[0]` is the reader's own.
#[derive(Clone, Debug)]
pub struct Observation<B: Bits> {
    pub kingdoms: Vec<Kingdom<B>>,
    pub current: Vec<SeenTile>,
    pub next: Vec<SeenTile>,
}

impl<B: Bits> Observation<B> {
    /// The tile to place in this call (`None` in turn 1, where CURRENT holds placeholders).
    pub fn my_tile(&self) -> Option<&'static Tile> {
        self.current
            .iter()
            .find(|t| t.flag)
            .and_then(|t| tile(t.id))
    }

    /// IDs of NEXT nobody has picked yet (empty in the last turn).
    pub fn free_picks(&self) -> Vec<u8> {
        self.next
            .iter()
            .filter(|t| t.id != 0 && t.owner == -1)
            .map(|t| t.id)
            .collect()
    }
}

/// Reads the header on the first call. The Duel sends none (§3.1): its first line is already a
/// 26-character grid row, which is handed back to be read as part of the grids.
pub fn read_header(input: &mut dyn Input) -> Result<(Header, Option<String>), BotError> {
    let first = read_line(input)?;
    if first.trim().len() > 2 {
        let size = first.trim().len() / 2;
        if size != 9 && size != 13 {
            return Err(BotError::BadInput(first));
        }
        let header = Header {
            n_players: 2,
            line_len: 4,
            size,
        };
        return Ok((header, Some(first)));
    }
    let parse = |line: &str| {
        line.trim()
            .parse::<usize>()
            .map_err(|_| BotError::BadInput(line.to_string()))
    };
    let n_players = parse(&first)?;
    let line = read_line(input)?;
    let line_len = parse(&line)?;
    if !(2..=4).contains(&n_players) {
        return Err(BotError::BadInput(first));
    }
    if !(3..=4).contains(&line_len) {
        return Err(BotError::BadInput(line));
    }
    Ok((
        Header {
            n_players,
            line_len,
            size: 9,
        },
        None,
    ))
}

/// Reads the rest of one call: n grids, CURRENT and NEXT. `pending` is a grid row already read.
pub fn read_observation<B: Bits>(
    input: &mut dyn Input,
    header: &Header,
    mut pending: Option<String>,
) -> Result<Observation<B>, BotError> {
    let mut kingdoms = Vec::with_capacity(header.n_players);
    for _ in 0..header.n_players {
        let mut rows = Vec::with_capacity(B::S);
        for _ in 0..B::S {
            let row = match pending.take() {
                Some(row) => row,
                None => read_line(input)?,
            };
            rows.push(row.trim().to_string());
        }
        kingdoms.push(Kingdom::from_rows(&rows).map_err(BotError::BadInput)?);
    }
    let mut current = Vec::with_capacity(header.line_len);
    for _ in 0..header.line_len {
        current.push(parse_tile_line(&read_line(input)?, true)?);
    }
    let mut next = Vec::with_capacity(header.line_len);
    for _ in 0..header.line_len {
        next.push(parse_tile_line(&read_line(input)?, false)?);
    }
    Ok(Observation {
        kingdoms,
        current,
        next,
    })
}

// `ID CELL CELL OWNER [FLAG]`; the cells are implied by the ID, so only ID, owner, flag count.
fn parse_tile_line(line: &str, with_flag: bool) -> Result<SeenTile, BotError> {
    let bad = || BotError::BadInput(line.to_string());
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() != 4 + usize::from(with_flag) {
        return Err(bad());
    }
    let id: u8 = words[0].parse().map_err(|_| bad())?;
    let owner: i32 = words[3].parse().map_err(|_| bad())?;
    let flag = with_flag && words[4] == "1";
    Ok(SeenTile { id, owner, flag })
}
