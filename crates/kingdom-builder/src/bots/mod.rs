//! Built-in bots of the full game. Each reads exactly the protocol text a bot process reads,
//! rebuilds a `GameState` from it (`Reader`: the map of the initial input, then every turn's
//! occupants, supplies, tiles and card counts through the engine's `edit_*` methods), and
//! answers one line, the whole turn. The hidden cards (the draw pile's order, the other seats'
//! cards) are dealt in a fixed order; the search bot deals them anew per sample.

mod greedy;
mod mcts;
mod random;

pub use greedy::Greedy;
pub use mcts::{default_params, KingdomBuilderKnowledge, MctsBot};
pub use random::Random;

use realm_core::{read_line, BotError, Input, State as _};

use crate::board::{Pos, N_CELLS, SIZE};
use crate::cards::Card;
use crate::game::{Action, Bits, GameConfig, GameState, Map, MapCell, Terrain, DECK_SIZE};
use crate::parse::parse_grid;
use crate::protocol::{answer_line, card_of_letter, tile_of_name};
use crate::score::LordsRule;

/// What a bot knows on its turn: the position rebuilt from the text, with itself to move.
#[derive(Clone, Debug)]
pub struct Observation {
    pub me: usize,
    pub state: GameState,
}

/// What the initial input said.
#[derive(Clone, Debug)]
struct Setup {
    n_players: usize,
    me: usize,
    cards: Vec<Card>,
    lords: LordsRule,
    map: Map,
}

/// Reads the initial input once and the turn input on every call.
#[derive(Clone, Debug, Default)]
pub struct Reader {
    setup: Option<Setup>,
}

fn bad(line: &str) -> BotError {
    BotError::BadInput(line.chars().take(80).collect())
}

/// The whitespace-separated integers of a line, exactly `n` of them.
fn ints(line: &str, n: usize) -> Result<Vec<i64>, BotError> {
    let values: Vec<i64> = line
        .split_whitespace()
        .map(|t| t.parse().map_err(|_| bad(line)))
        .collect::<Result<_, _>>()?;
    if values.len() == n {
        Ok(values)
    } else {
        Err(bad(line))
    }
}

fn read_rows(input: &mut dyn Input) -> Result<String, BotError> {
    let mut text = String::new();
    for _ in 0..SIZE {
        text.push_str(&read_line(input)?);
        text.push('\n');
    }
    Ok(text)
}

fn read_setup(input: &mut dyn Input) -> Result<Setup, BotError> {
    let line = read_line(input)?;
    let v = ints(&line, 2)?;
    let (n_players, me) = (v[0], v[1]);
    if !(2..=4).contains(&n_players) || !(0..n_players).contains(&me) {
        return Err(bad(&line));
    }
    let line = read_line(input)?;
    let v = ints(&line, 4)?;
    let cards: Vec<Card> = v[..3]
        .iter()
        .map(|&n| u8::try_from(n).ok().and_then(Card::from_number))
        .collect::<Option<_>>()
        .ok_or_else(|| bad(&line))?;
    let lords = match v[3] {
        0 => LordsRule::NonZeroCounts,
        1 => LordsRule::ZeroCountsRank,
        _ => return Err(bad(&line)),
    };
    let map = Map::parse(&read_rows(input)?).map_err(|e| BotError::BadInput(e.to_string()))?;
    Ok(Setup {
        n_players: n_players as usize,
        me: me as usize,
        cards,
        lords,
        map,
    })
}

/// The turn input's first line: card, builds left, built, last round.
struct TurnHead {
    card: Terrain,
    left: u8,
    built: u8,
    last: bool,
}

fn read_head(input: &mut dyn Input) -> Result<TurnHead, BotError> {
    let line = read_line(input)?;
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let [card, rest @ ..] = tokens.as_slice() else {
        return Err(bad(&line));
    };
    let card = card_of_letter(card).ok_or_else(|| bad(&line))?;
    let v = ints(&rest.join(" "), 3).map_err(|_| bad(&line))?;
    if !(0..=3).contains(&v[0]) || !(0..=3).contains(&v[1]) || !(0..=1).contains(&v[2]) {
        return Err(bad(&line));
    }
    Ok(TurnHead {
        card,
        left: v[0] as u8,
        built: v[1] as u8,
        last: v[2] == 1,
    })
}

/// The occupant of each cell from the board rows: `Some(seat)` for a digit.
fn read_board(input: &mut dyn Input, n_players: usize) -> Result<Vec<Option<usize>>, BotError> {
    let text = read_rows(input)?;
    let read = |token: &str| match token.as_bytes() {
        [d @ b'1'..=b'4'] if usize::from(d - b'0') <= n_players => {
            Some(Some(usize::from(d - b'1')))
        }
        _ => MapCell::from_token(token).map(|_| None),
    };
    let (cells, _) = parse_grid(&text, read).map_err(|e| BotError::BadInput(e.to_string()))?;
    Ok(cells)
}

/// Every seat's card, the draw pile and the discards.
type Dealt = (Vec<Terrain>, Vec<Terrain>, Vec<Terrain>);

/// The hidden cards dealt in a fixed order: the unseen ones are the 25 minus the discards and
/// the mover's card; the other seats take the first, the pile the rest.
fn deal_cards(
    n_players: usize,
    me: usize,
    card: Terrain,
    pile_len: usize,
    discards: &[usize; 5],
    line: &str,
) -> Result<Dealt, BotError> {
    let mut unseen = [DECK_SIZE / 5; 5];
    let mut discard_pile = Vec::new();
    for (t, &count) in discards.iter().enumerate() {
        unseen[t] = unseen[t].checked_sub(count).ok_or_else(|| bad(line))?;
        discard_pile.extend(std::iter::repeat_n(Terrain::BUILDABLE[t], count));
    }
    unseen[card as usize] = unseen[card as usize]
        .checked_sub(1)
        .ok_or_else(|| bad(line))?;
    let mut hidden: Vec<Terrain> = (0..5)
        .flat_map(|t| std::iter::repeat_n(Terrain::BUILDABLE[t], unseen[t]))
        .collect();
    if hidden.len() != pile_len + n_players - 1 {
        return Err(bad(line));
    }
    let pile = hidden.split_off(n_players - 1);
    let mut hands = hidden;
    hands.insert(me, card);
    Ok((hands, pile, discard_pile))
}

impl Reader {
    /// Reads one call's lines and rebuilds the position.
    pub fn read(&mut self, input: &mut dyn Input) -> Result<Observation, BotError> {
        if self.setup.is_none() {
            self.setup = Some(read_setup(input)?);
        }
        let setup = self.setup.as_ref().expect("set above");
        let n = setup.n_players;
        let head = read_head(input)?;
        let mut supplies = Vec::with_capacity(n);
        for _ in 0..n {
            let line = read_line(input)?;
            let v = ints(&line, 2)?;
            match v[0] {
                -1 => supplies.push(None),
                s @ 0..=40 => supplies.push(Some(s as u8)),
                _ => return Err(bad(&line)),
            }
        }
        if supplies[setup.me].is_none() {
            return Err(BotError::BadInput("my seat is eliminated".to_string()));
        }
        let occupants = read_board(input, n)?;
        let deck_line = read_line(input)?;
        let v = ints(&deck_line, 6)?;
        if v.iter().any(|&x| !(0..=DECK_SIZE as i64).contains(&x)) {
            return Err(bad(&deck_line));
        }
        let discards = [v[1], v[2], v[3], v[4], v[5]].map(|x| x as usize);
        let (hands, pile, discard_pile) =
            deal_cards(n, setup.me, head.card, v[0] as usize, &discards, &deck_line)?;

        let mut config = GameConfig::new(n, 3);
        config.cards = Some(setup.cards.clone());
        config.lords = setup.lords;
        let mut state = GameState::with_map(&config, setup.map.clone(), 0);
        for (cell, occupant) in occupants.iter().enumerate() {
            if let Some(p) = *occupant {
                state.edit_place(p, cell);
            }
        }
        for (p, supply) in supplies.iter().enumerate() {
            state.edit_supply(p, supply.unwrap_or(0));
        }
        let unusable = read_locations(input, &mut state, setup)?;
        state.edit_mover(setup.me);
        state.edit_last_round(head.last);
        for p in (0..n).filter(|&p| supplies[p].is_none()) {
            state.eliminate(p);
        }
        state.edit_restart_turn();
        // After the restart, which may have drawn for a card without an empty cell.
        state.edit_cards(&hands, &pile, &discard_pile);
        state.edit_turn_progress(head.built, head.left, unusable);
        if state.to_move() != Some(setup.me) {
            return Err(BotError::BadInput("the position is over".to_string()));
        }
        Ok(Observation {
            me: setup.me,
            state,
        })
    }
}

/// Reads the location lines into `state`; returns the reader's tiles it may not use now.
fn read_locations(
    input: &mut dyn Input,
    state: &mut GameState,
    setup: &Setup,
) -> Result<Bits, BotError> {
    let line = read_line(input)?;
    let count: usize = line.trim().parse().map_err(|_| bad(&line))?;
    let hexes = state.terrain_cells(Terrain::Location);
    if count != hexes.len() {
        return Err(bad(&line));
    }
    for hex in hexes.iter() {
        state.edit_tiles_left(hex, 0);
    }
    let mut unusable = Bits::EMPTY;
    for _ in 0..count {
        let line = read_line(input)?;
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let [row, col, kind, left, marks] = tokens.as_slice() else {
            return Err(bad(&line));
        };
        let (row, col) = match (row.parse::<usize>(), col.parse::<usize>()) {
            (Ok(r), Ok(c)) if r < SIZE && c < SIZE => (r, c),
            _ => return Err(bad(&line)),
        };
        let hex = Pos::new(row, col).index();
        let kind = tile_of_name(kind).ok_or_else(|| bad(&line))?;
        let left: u8 = left.parse().map_err(|_| bad(&line))?;
        if hex >= N_CELLS
            || !hexes.contains(hex)
            || state.tile_kind(hex) != kind
            || left > 2
            || marks.len() != setup.n_players
        {
            return Err(bad(&line));
        }
        state.edit_tiles_left(hex, left);
        for (p, mark) in marks.bytes().enumerate() {
            match mark {
                b'-' => {}
                b'H' | b'U' => state.edit_took_tile(p, hex, true),
                b'X' => state.edit_took_tile(p, hex, false),
                _ => return Err(bad(&line)),
            }
            if p == setup.me && mark == b'H' {
                unusable.insert(hex);
            }
        }
    }
    Ok(unusable)
}

/// Most actions a bot plays in one call (3 builds and a use of each tile it can hold fit).
const MAX_ACTIONS: usize = 64;

/// Plays the mover's turn with `choose` from `state` until `EndTurn`, the end of the game, or
/// a new card (the referee then asks again, PROTOCOL.md), and returns the answer line.
pub fn play_turn(
    state: &GameState,
    mut choose: impl FnMut(&GameState, &[Action]) -> Action,
) -> String {
    let me = state.mover();
    let card = state.revealed();
    let mut position = state.clone();
    let mut actions = Vec::new();
    let mut buf = Vec::new();
    for _ in 0..MAX_ACTIONS {
        if position.to_move() != Some(me) {
            break;
        }
        position.legal_actions(&mut buf);
        if buf.is_empty() {
            break;
        }
        let action = choose(&position, &buf);
        if action == Action::EndTurn {
            break;
        }
        position.apply(&action);
        actions.push(action);
        if position.revealed() != card {
            break;
        }
    }
    answer_line(&actions)
}

#[cfg(test)]
mod tests {
    use realm_core::{LinesInput, MatchSpec, Referee};

    use super::*;
    use crate::referee::{start_state, KingdomBuilderReferee};

    /// At every call of random games the rebuilt position lists the referee's legal actions
    /// and scores the same gold.
    #[test]
    fn the_reader_rebuilds_the_referees_position() {
        for (n, league, seed) in [(2, 1, 1), (3, 2, 2), (4, 3, 3), (2, 3, 7)] {
            let spec = MatchSpec::new("kingdom-builder", n, seed);
            let mut referee = KingdomBuilderReferee::new(start_state(&spec, league).unwrap());
            let mut readers = vec![Reader::default(); n];
            let mut bots: Vec<Random> = (0..n).map(|p| Random::new(seed + p as u64)).collect();
            let mut calls = 0;
            while let Some(request) = referee.next_request() {
                let mut input = LinesInput::new(&request.lines);
                let obs = readers[request.player].read(&mut input).unwrap();
                assert_eq!(input.remaining(), 0);
                let real = referee.state();
                let (mut a, mut b) = (Vec::new(), Vec::new());
                real.legal_actions(&mut a);
                obs.state.legal_actions(&mut b);
                assert_eq!(a, b, "call {calls}");
                assert_eq!(real.gold(), obs.state.gold());
                assert_eq!(real.is_last_round(), obs.state.is_last_round());
                let line = bots[request.player].answer(&obs);
                assert!(!referee.answer(request.player, &[line]).is_fault());
                calls += 1;
            }
            // Tile builds empty supplies sooner, so only league 1 lasts exactly 14 rounds.
            let outcome = referee.outcome();
            assert!(outcome.scores.iter().all(|&s| s >= 0), "{outcome:?}");
            assert!(calls >= 5 * n, "{calls} calls");
        }
    }
}
