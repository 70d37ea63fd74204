//! One game position behind an object-safe interface with integer action ids, so the Python
//! classes hold any game without knowing its types. Each game says how its actions map to ids
//! and text, and what a player observes, in a `Codec` (`codecs/`).

use rand_core::RngCore;
use realm_core::{Outcome, PlayerId, State};

/// The fixed sizes of a game's observation and action space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Number of action ids; legal ids are always below it.
    pub n_actions: usize,
    /// Board planes: channels, rows, columns.
    pub board: [usize; 3],
    pub n_scalars: usize,
}

impl Layout {
    pub fn board_len(&self) -> usize {
        self.board.iter().product()
    }
}

/// The lowest and highest value of each scalar of an observation, derived from the rules.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bounds {
    pub low: Vec<f32>,
    pub high: Vec<f32>,
}

impl Bounds {
    /// Appends `count` scalars within `low..=high`.
    pub fn push(&mut self, count: usize, low: f32, high: f32) -> &mut Self {
        self.low.extend(std::iter::repeat_n(low, count));
        self.high.extend(std::iter::repeat_n(high, count));
        self
    }

    /// Appends `count` flags (0 or 1).
    pub fn flags(&mut self, count: usize) -> &mut Self {
        self.push(count, 0.0, 1.0)
    }
}

/// How one game's `State` meets Python: action ids, protocol text and observations.
pub trait Codec: 'static {
    type S: State + Sync;

    fn layout(state: &Self::S) -> Layout;
    fn encode(state: &Self::S, action: &<Self::S as State>::Action) -> u32;
    /// The action an id names, if the id is well formed (legality is checked by the caller).
    fn decode(state: &Self::S, id: u32) -> Option<<Self::S as State>::Action>;
    /// The protocol text the player to move would write for a legal action.
    fn text(state: &Self::S, action: &<Self::S as State>::Action) -> String;
    /// Fills `board` (zeroed, `layout().board` in C order) and `scalars` (zeroed) with what
    /// `player` may see, players ordered from `player` onwards.
    fn observe(state: &Self::S, player: PlayerId, board: &mut [u8], scalars: &mut [f32]);
    /// The range of each scalar `observe` writes, over every position of this game's setup.
    fn scalar_bounds(state: &Self::S) -> Bounds;
    /// Redraws what no player has seen (no-op in games of perfect information).
    fn reshuffle_hidden(_state: &mut Self::S, _seed: u64) {}
    /// True when `action` ends the answer the player sends in one call.
    fn closes_answer(_action: &<Self::S as State>::Action) -> bool {
        true
    }
    /// The answer lines of one call from the texts of its actions.
    fn answer_lines(texts: &[String]) -> Vec<String> {
        texts.to_vec()
    }
}

/// A position of any game.
pub trait Engine: Send + Sync {
    fn clone_box(&self) -> Box<dyn Engine>;
    fn layout(&self) -> Layout;
    fn n_players(&self) -> usize;
    fn to_move(&self) -> Option<PlayerId>;
    /// Legal ids in the game's own order.
    fn legal_ids(&self) -> Vec<u32>;
    /// The protocol text of a legal id, else `None`.
    fn text(&self, id: u32) -> Option<String>;
    /// The legal id whose text is `text` (spaces normalized), else `None`.
    fn id_of_text(&self, text: &str) -> Option<u32>;
    /// Plays a legal id; says why not otherwise.
    fn apply(&mut self, id: u32) -> Result<(), String>;
    /// True when a legal id ends the answer of one call.
    fn closes_answer(&self, id: u32) -> bool;
    fn answer_lines(&self, texts: &[String]) -> Vec<String>;
    fn outcome(&self) -> Outcome;
    /// Plays uniformly random legal actions to the end; returns how many.
    fn random_playout(&mut self, rng: &mut dyn RngCore) -> usize;
    fn observe(&self, player: PlayerId, board: &mut [u8], scalars: &mut [f32]);
    fn scalar_bounds(&self) -> Bounds;
    /// 1 at each legal id of the player to move, 0 elsewhere (`mask.len() == n_actions`).
    fn fill_mask(&self, mask: &mut [u8]);
    fn reshuffle_hidden(&mut self, seed: u64);
}

/// A game's state with its codec.
pub struct Wrapped<C: Codec> {
    state: C::S,
}

impl<C: Codec> Wrapped<C> {
    pub fn boxed(state: C::S) -> Box<dyn Engine> {
        Box::new(Wrapped::<C> { state })
    }

    fn legal(&self, id: u32) -> Option<<C::S as State>::Action> {
        self.state.to_move()?;
        let action = C::decode(&self.state, id)?;
        self.state.is_legal(&action).then_some(action)
    }

    fn actions(&self) -> Vec<<C::S as State>::Action> {
        let mut out = Vec::new();
        if self.state.to_move().is_some() {
            self.state.legal_actions(&mut out);
        }
        out
    }
}

/// Protocol text compared word by word.
fn normalized(text: &str) -> String {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

impl<C: Codec> Engine for Wrapped<C> {
    fn clone_box(&self) -> Box<dyn Engine> {
        Box::new(Wrapped::<C> {
            state: self.state.clone(),
        })
    }

    fn layout(&self) -> Layout {
        C::layout(&self.state)
    }

    fn n_players(&self) -> usize {
        self.state.n_players()
    }

    fn to_move(&self) -> Option<PlayerId> {
        self.state.to_move()
    }

    fn legal_ids(&self) -> Vec<u32> {
        self.actions()
            .iter()
            .map(|a| C::encode(&self.state, a))
            .collect()
    }

    fn text(&self, id: u32) -> Option<String> {
        self.legal(id).map(|a| C::text(&self.state, &a))
    }

    fn id_of_text(&self, text: &str) -> Option<u32> {
        let wanted = normalized(text);
        self.actions()
            .iter()
            .find(|a| normalized(&C::text(&self.state, a)) == wanted)
            .map(|a| C::encode(&self.state, a))
    }

    fn apply(&mut self, id: u32) -> Result<(), String> {
        if self.state.to_move().is_none() {
            return Err("the game is over".to_string());
        }
        let action = self
            .legal(id)
            .ok_or_else(|| format!("action {id} is not legal now"))?;
        self.state.apply(&action);
        Ok(())
    }

    fn closes_answer(&self, id: u32) -> bool {
        C::decode(&self.state, id).is_none_or(|a| C::closes_answer(&a))
    }

    fn answer_lines(&self, texts: &[String]) -> Vec<String> {
        C::answer_lines(texts)
    }

    fn outcome(&self) -> Outcome {
        self.state.outcome()
    }

    fn random_playout(&mut self, mut rng: &mut dyn RngCore) -> usize {
        let mut buf = Vec::new();
        realm_core::random_playout(&mut self.state, &mut rng, &mut buf)
    }

    fn observe(&self, player: PlayerId, board: &mut [u8], scalars: &mut [f32]) {
        C::observe(&self.state, player, board, scalars);
    }

    fn scalar_bounds(&self) -> Bounds {
        C::scalar_bounds(&self.state)
    }

    fn fill_mask(&self, mask: &mut [u8]) {
        mask.fill(0);
        for a in self.actions() {
            mask[C::encode(&self.state, &a) as usize] = 1;
        }
    }

    fn reshuffle_hidden(&mut self, seed: u64) {
        C::reshuffle_hidden(&mut self.state, seed);
    }
}

/// `board[c][y][x]` of a `[channels, rows, cols]` plane set in C order.
pub fn plane_index(layout: &Layout, channel: usize, y: usize, x: usize) -> usize {
    (channel * layout.board[1] + y) * layout.board[2] + x
}

/// Player `k` places after `player` (0 = `player`).
pub fn relative(player: PlayerId, k: usize, n: usize) -> PlayerId {
    (player + k) % n
}

/// `player`'s place counted from `viewer` (0 = the viewer).
pub fn seen_from(viewer: PlayerId, player: PlayerId, n: usize) -> usize {
    (player + n - viewer) % n
}
