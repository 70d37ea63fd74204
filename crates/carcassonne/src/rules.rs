//! The game as a state machine (§3): the bag, whose turn it is, the two steps of a turn (place
//! the drawn tile, then the man step that also scores), discards, eliminations and the end.
//!
//! A turn is two `Action`s by the same player so that search enumerates placements cheaply and
//! man choices only for the placement it explores. The text protocol lives in `protocol.rs`.

use realm_core::{ranks_from_keys, EndReason, Outcome, PlayerId, SplitMix64};

use crate::board::{Board, ManRefusal, Placement, MAX_PLAYERS};
use crate::setup::{shuffled_bag, start_type};

/// One step of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Put the drawn tile here.
    Place(Placement),
    /// The man step: no man, or a man token (board orientation) of the tile just placed.
    Man(Option<u8>),
}

/// Why the game ended (§3.6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndCause {
    /// No placeable tile was left in the bag.
    BagEmpty,
    /// An elimination left a single player.
    OnePlayerLeft,
}

impl EndCause {
    pub fn code(self) -> &'static str {
        match self {
            EndCause::BagEmpty => "bag_empty",
            EndCause::OnePlayerLeft => "one_player_left",
        }
    }
}

#[derive(Clone, Debug)]
pub struct State {
    board: Board,
    league: u32,
    bag: Vec<u8>,
    next_draw: usize,
    /// The drawn tile waiting to be placed.
    current: Option<u8>,
    /// The slot of the tile placed this turn, waiting for the man step.
    pending: Option<usize>,
    to_move: Option<PlayerId>,
    /// Elimination order of each player (0 = first eliminated).
    eliminated: [Option<u32>; MAX_PLAYERS],
    n_eliminated: u32,
    discarded: Vec<u8>,
    end: Option<EndCause>,
}

impl State {
    /// A match from its seed (§3.1).
    pub fn new(league: u32, n_players: usize, seed: u64) -> State {
        State::with_bag(league, n_players, shuffled_bag(league, seed))
    }

    /// A match whose bag is given in draw order (scripted tests bypass the shuffle).
    pub fn with_bag(league: u32, n_players: usize, bag: Vec<u8>) -> State {
        let mut state = State {
            board: Board::new(n_players, start_type(league)),
            league,
            bag,
            next_draw: 0,
            current: None,
            pending: None,
            to_move: None,
            eliminated: [None; MAX_PLAYERS],
            n_eliminated: 0,
            discarded: Vec::new(),
            end: None,
        };
        state.draw_for(0);
        state
    }

    /// The position a player sees on its turn: `board` as rebuilt from the protocol, `player`
    /// to place `tile`, and `bag` the tiles still to come in draw order (hidden from players:
    /// a search bot samples it from the unseen tiles).
    pub fn from_observed(
        league: u32,
        board: Board,
        player: PlayerId,
        tile: u8,
        bag: Vec<u8>,
    ) -> State {
        State {
            board,
            league,
            bag,
            next_draw: 0,
            current: Some(tile),
            pending: None,
            to_move: Some(player),
            eliminated: [None; MAX_PLAYERS],
            n_eliminated: 0,
            discarded: Vec::new(),
            end: None,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn league(&self) -> u32 {
        self.league
    }

    /// The tile the player to move must place (None during the man step and at the end).
    pub fn current_tile(&self) -> Option<u8> {
        self.current
    }

    /// The slot of the tile placed this turn while the man step is pending.
    pub fn pending_slot(&self) -> Option<usize> {
        self.pending
    }

    /// Tiles removed unseen because they had no legal placement (§3.2.1), in draw order.
    pub fn discarded(&self) -> &[u8] {
        &self.discarded
    }

    /// Tiles not drawn yet.
    pub fn bag_left(&self) -> &[u8] {
        &self.bag[self.next_draw..]
    }

    /// Shuffles the draw order of the tiles not drawn yet (seeded): a determinization of the
    /// hidden part of the game, for sampling search and for checking what observations hide.
    pub fn reshuffle_hidden(&mut self, seed: u64) {
        SplitMix64::new(seed).shuffle(&mut self.bag[self.next_draw..]);
    }

    pub fn is_eliminated(&self, player: PlayerId) -> bool {
        self.eliminated[player].is_some()
    }

    pub fn end_cause(&self) -> Option<EndCause> {
        self.end
    }

    /// Draws for `player` until a placeable tile comes up (§3.2.1), or ends the game.
    fn draw_for(&mut self, player: PlayerId) {
        while let Some(&ty) = self.bag.get(self.next_draw) {
            self.next_draw += 1;
            if self.board.has_placement(ty) {
                self.current = Some(ty);
                self.to_move = Some(player);
                return;
            }
            self.discarded.push(ty);
        }
        self.finish(EndCause::BagEmpty);
    }

    fn finish(&mut self, cause: EndCause) {
        self.current = None;
        self.pending = None;
        self.to_move = None;
        self.end = Some(cause);
        self.board.apply_final_scoring();
    }

    /// The next player in the game after `player`, cyclically (§3.1.4).
    fn next_player(&self, player: PlayerId) -> PlayerId {
        let n = self.board.n_players();
        (1..=n)
            .map(|d| (player + d) % n)
            .find(|&p| !self.is_eliminated(p))
            .unwrap_or(player)
    }

    /// Places the drawn tile if (row, col, angle) is legal (§3.3); returns false otherwise and
    /// changes nothing.
    pub fn try_place(&mut self, row: i64, col: i64, angle: i64) -> bool {
        let (Some(ty), None) = (self.current, self.pending) else {
            return false;
        };
        if !self.board.is_legal(ty, row, col, angle) {
            return false;
        }
        let at = Placement {
            row: row as u8,
            col: col as u8,
            angle: angle as u8,
        };
        self.pending = Some(self.board.place(ty, at));
        self.current = None;
        true
    }

    /// The man step, scoring and the hand-over (§3.2.5-7). A refused man is not placed and the
    /// turn goes on; the refusal is returned for the record.
    pub fn finish_turn(&mut self, token: Option<u8>) -> Result<(), ManRefusal> {
        let (Some(slot), Some(player)) = (self.pending, self.to_move) else {
            return Ok(());
        };
        let result = match token {
            Some(t) => self.board.put_man(player, slot, t),
            None => Ok(()),
        };
        self.board.score_closed(slot);
        self.pending = None;
        let next = self.next_player(player);
        self.draw_for(next);
        result
    }

    /// Eliminates `player` (§3.8): its drawn tile leaves the game, its score freezes, and the
    /// game ends if one player is left, otherwise the next player draws.
    pub fn eliminate(&mut self, player: PlayerId) {
        if player >= self.board.n_players() || self.is_eliminated(player) || self.end.is_some() {
            return;
        }
        self.eliminated[player] = Some(self.n_eliminated);
        self.n_eliminated += 1;
        self.board.freeze(player);
        let n_left = (0..self.board.n_players())
            .filter(|&p| !self.is_eliminated(p))
            .count();
        if n_left <= 1 {
            self.finish(EndCause::OnePlayerLeft);
            return;
        }
        if self.to_move == Some(player) {
            if let Some(slot) = self.pending.take() {
                // A fault between the two steps of a turn: the tile stays, with no man.
                self.board.score_closed(slot);
            }
            self.current = None;
            let next = self.next_player(player);
            self.draw_for(next);
        }
    }

    /// Ranks of §3.7: players in the game by score; eliminated players below, later ones higher.
    pub fn ranks(&self) -> Vec<u32> {
        let keys: Vec<(i64, i64)> = (0..self.board.n_players())
            .map(|p| match self.eliminated[p] {
                None => (1, self.board.scores()[p]),
                Some(order) => (0, order as i64),
            })
            .collect();
        ranks_from_keys(&keys)
    }
}

impl realm_core::State for State {
    type Action = Action;

    fn n_players(&self) -> usize {
        self.board.n_players()
    }

    fn to_move(&self) -> Option<PlayerId> {
        self.to_move
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(player) = self.to_move else { return };
        if let Some(slot) = self.pending {
            out.push(Action::Man(None));
            self.board
                .for_each_man_option(player, slot, |t| out.push(Action::Man(Some(t))));
        } else if let Some(ty) = self.current {
            self.board.extend_placements(ty, out, Action::Place);
        }
    }

    fn is_legal(&self, action: &Action) -> bool {
        let Some(player) = self.to_move else {
            return false;
        };
        match (*action, self.pending, self.current) {
            (Action::Place(at), None, Some(ty)) => {
                self.board
                    .is_legal(ty, at.row as i64, at.col as i64, at.angle as i64)
            }
            (Action::Man(None), Some(_), _) => true,
            (Action::Man(Some(t)), Some(slot), _) => {
                let mut tokens = Vec::new();
                self.board.man_options(player, slot, &mut tokens);
                tokens.contains(&t)
            }
            _ => false,
        }
    }

    fn apply(&mut self, action: &Action) {
        match *action {
            Action::Place(at) => {
                self.try_place(at.row as i64, at.col as i64, at.angle as i64);
            }
            Action::Man(token) => {
                // A refused man is simply not placed, as in the protocol (§3.4).
                let _ = self.finish_turn(token);
            }
        }
    }

    fn outcome(&self) -> Outcome {
        let n = self.board.n_players();
        let end = match self.end {
            Some(EndCause::OnePlayerLeft) => EndReason::Eliminations,
            _ => EndReason::Finished,
        };
        Outcome {
            scores: self.board.scores().to_vec(),
            ranks: self.ranks(),
            end,
            detail: self.end.map_or("in_progress", EndCause::code).to_string(),
            faults: vec![None; n],
            stats: Vec::new(),
        }
    }
}
