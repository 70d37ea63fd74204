//! One game position behind an object-safe interface with integer action ids, so code that
//! knows no game (the Python package, a person's seat in the browser) holds any game: its legal
//! actions as ids and protocol text, applying one, and what a player observes. Each game says
//! how its actions map to ids and text, and what a player observes, in a `Codec` (the game
//! crate's `codec.rs`); a `Table` is a referee with the position it holds, as an `Engine`.
//!
//! Everything here depends only on this crate's contracts (`State`, `Referee`), so it lives
//! beside them rather than in any crate that uses it.

use crate::{Outcome, PlayerId, Referee, State};
use rand_core::RngCore;

mod raster;
pub use raster::{hexagon, rgb, seat_color, Raster, Rgb, SEAT_COLORS, SEAT_LIGHT};

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

/// How one game's `State` meets game-agnostic code: action ids, protocol text and observations.
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
    /// True when `action`, played at `state`, ends the answer the player sends in one call
    /// (the position matters where the referee may end a call early, as Kingdom Builder does
    /// when an action forces a new terrain card).
    fn closes_answer(_state: &Self::S, _action: &<Self::S as State>::Action) -> bool {
        true
    }
    /// The answer lines of one call from the texts of its actions.
    fn answer_lines(texts: &[String]) -> Vec<String> {
        texts.to_vec()
    }
    /// The position as the game's viewer draws it, for a person building an answer action by
    /// action (keys of the referee's frame it updates; `None`: the game offers none).
    fn view(_state: &Self::S) -> Option<serde_json::Value> {
        None
    }
    /// The whole position as text in the game's own terms (the protocol's board rows where it
    /// has them, seats as digits or letters) under a header line with the scores and the seat
    /// to move: what a person reads in a terminal (`render_mode="ansi"`).
    fn text_board(state: &Self::S) -> String;
    /// The board drawn as the game's viewer draws it (its palette and layout, at a fixed
    /// cell size, no text), the same size at every position of a match (`"rgb_array"`).
    fn render(state: &Self::S) -> Raster;
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
    /// The codec's `view` of this position.
    fn view(&self) -> Option<serde_json::Value>;
    /// The codec's `text_board` of this position.
    fn text_board(&self) -> String;
    /// The codec's `render` of this position.
    fn render(&self) -> Raster;
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
        C::decode(&self.state, id).is_none_or(|a| C::closes_answer(&self.state, &a))
    }

    fn answer_lines(&self, texts: &[String]) -> Vec<String> {
        C::answer_lines(texts)
    }

    fn outcome(&self) -> Outcome {
        self.state.outcome()
    }

    fn random_playout(&mut self, mut rng: &mut dyn RngCore) -> usize {
        let mut buf = Vec::new();
        crate::random_playout(&mut self.state, &mut rng, &mut buf)
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

    fn view(&self) -> Option<serde_json::Value> {
        C::view(&self.state)
    }

    fn text_board(&self) -> String {
        C::text_board(&self.state)
    }

    fn render(&self) -> Raster {
        C::render(&self.state)
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

/// The first line of a text board: each seat's score and the seat to move, e.g.
/// `scores 0:12 1:7 | seat 1 to move` (`| game over` at the end).
pub fn board_header(scores: &[i64], to_move: Option<PlayerId>) -> String {
    let scores: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("{p}:{s}"))
        .collect();
    let turn = to_move.map_or_else(|| "game over".to_string(), |p| format!("seat {p} to move"));
    format!("scores {} | {turn}", scores.join(" "))
}

/// A referee and the position it holds.
pub trait Table: Send {
    fn referee(&mut self) -> &mut dyn Referee;
    /// The referee's position as an engine.
    fn engine(&self) -> Box<dyn Engine>;
}

/// A referee of type `R` holding a position of codec `C`, reached through `state_of`.
struct Held<C: Codec, R> {
    referee: R,
    state_of: fn(&R) -> &C::S,
}

impl<C: Codec, R: Referee + Send + 'static> Table for Held<C, R> {
    fn referee(&mut self) -> &mut dyn Referee {
        &mut self.referee
    }

    fn engine(&self) -> Box<dyn Engine> {
        Wrapped::<C>::boxed((self.state_of)(&self.referee).clone())
    }
}

/// The table of `referee`, whose position `state_of` reads (what a game's `new_table` returns).
pub fn held<C: Codec, R: Referee + Send + 'static>(
    referee: R,
    state_of: fn(&R) -> &C::S,
) -> Box<dyn Table> {
    Box::new(Held::<C, R> { referee, state_of })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ranks_from_keys, EndReason};

    /// Two players take turns adding 1 or 2 to a counter; whoever reaches 5 wins.
    #[derive(Clone, Debug, Default)]
    struct Race {
        total: u32,
        moves: u32,
    }

    impl State for Race {
        type Action = u32;

        fn n_players(&self) -> usize {
            2
        }

        fn to_move(&self) -> Option<PlayerId> {
            (self.total < 5).then_some(self.moves as usize % 2)
        }

        fn legal_actions(&self, out: &mut Vec<u32>) {
            out.clear();
            out.extend((1..=2).filter(|step| self.total + step <= 5));
        }

        fn apply(&mut self, step: &u32) {
            self.total += step;
            self.moves += 1;
        }

        fn outcome(&self) -> Outcome {
            let last = (self.moves as usize + 1) % 2;
            let keys: Vec<bool> = (0..2).map(|p| self.total == 5 && p == last).collect();
            Outcome {
                scores: keys.iter().map(|&k| i64::from(k)).collect(),
                ranks: ranks_from_keys(&keys),
                end: EndReason::Finished,
                detail: String::new(),
                faults: vec![None, None],
                stats: Vec::new(),
            }
        }
    }

    /// Ids 0 and 1 add 1 and 2; id 2 is well formed but never legal; the text is `ADD k`.
    struct RaceCodec;

    impl Codec for RaceCodec {
        type S = Race;

        fn layout(_: &Race) -> Layout {
            Layout {
                n_actions: 3,
                board: [1, 1, 6],
                n_scalars: 1,
            }
        }

        fn encode(_: &Race, step: &u32) -> u32 {
            step - 1
        }

        fn decode(_: &Race, id: u32) -> Option<u32> {
            (id < 3).then_some(id + 1)
        }

        fn text(_: &Race, step: &u32) -> String {
            format!("ADD {step}")
        }

        fn observe(race: &Race, _: PlayerId, board: &mut [u8], scalars: &mut [f32]) {
            board[race.total as usize] = 1;
            scalars[0] = race.moves as f32;
        }

        fn scalar_bounds(_: &Race) -> Bounds {
            let mut bounds = Bounds::default();
            bounds.push(1, 0.0, 5.0);
            bounds
        }

        fn text_board(race: &Race) -> String {
            format!("total {}", race.total)
        }

        /// One pixel per step, seat 0's colour up to the total.
        fn render(race: &Race) -> Raster {
            let mut raster = Raster::new(5, 1, [255; 3]);
            raster.fill_rect(0, 0, race.total as i32, 1, SEAT_COLORS[0]);
            raster
        }
    }

    fn race(total: u32) -> Box<dyn Engine> {
        Wrapped::<RaceCodec>::boxed(Race { total, moves: 0 })
    }

    #[test]
    fn ids_text_and_mask_follow_the_legal_actions() {
        let engine = race(4);
        assert_eq!(engine.legal_ids(), [0]);
        assert_eq!(engine.text(0).as_deref(), Some("ADD 1"));
        assert_eq!(engine.text(1), None, "well formed but illegal");
        assert_eq!(engine.text(7), None, "not an id");
        assert_eq!(engine.id_of_text("  ADD   1 "), Some(0));
        assert_eq!(engine.id_of_text("ADD 2"), None);
        let mut mask = [9; 3];
        engine.fill_mask(&mut mask);
        assert_eq!(mask, [1, 0, 0]);
    }

    #[test]
    fn apply_refuses_illegal_ids_and_a_finished_game() {
        let mut engine = race(3);
        assert_eq!(
            engine.apply(2),
            Err("action 2 is not legal now".to_string())
        );
        engine.apply(1).unwrap();
        assert_eq!(engine.to_move(), None);
        assert_eq!(engine.apply(0), Err("the game is over".to_string()));
        assert_eq!(engine.outcome().ranks, [1, 2]);
        assert!(engine.legal_ids().is_empty());
    }

    #[test]
    fn clones_are_independent_and_playouts_end_the_game() {
        let engine = race(0);
        let mut copy = engine.clone_box();
        let mut rng = crate::chacha_rng(3, 0);
        let played = copy.random_playout(&mut rng);
        assert!((3..=5).contains(&played));
        assert_eq!(copy.to_move(), None);
        assert_eq!(engine.to_move(), Some(0));
    }

    #[test]
    fn observations_and_bounds_come_from_the_codec() {
        let engine = race(2);
        let layout = engine.layout();
        let (mut board, mut scalars) = (vec![0; layout.board_len()], vec![0.0; layout.n_scalars]);
        engine.observe(0, &mut board, &mut scalars);
        assert_eq!(board, [0, 0, 1, 0, 0, 0]);
        assert_eq!(engine.scalar_bounds().high, [5.0]);
        assert!(
            engine.closes_answer(0),
            "an answer is one action by default"
        );
        assert_eq!(engine.answer_lines(&["ADD 1".into()]), ["ADD 1"]);
    }

    #[test]
    fn text_boards_and_pictures_come_from_the_codec() {
        let engine = race(2);
        assert_eq!(engine.text_board(), "total 2");
        let picture = engine.render();
        assert_eq!((picture.width, picture.height), (5, 1));
        assert_eq!(picture.pixel(1, 0), SEAT_COLORS[0]);
        assert_eq!(picture.pixel(2, 0), [255; 3]);
        assert_eq!(
            board_header(&[12, 7], Some(1)),
            "scores 0:12 1:7 | seat 1 to move"
        );
        assert_eq!(board_header(&[3], None), "scores 0:3 | game over");
    }

    #[test]
    fn bounds_append_ranges_and_flags() {
        let mut bounds = Bounds::default();
        bounds.push(2, -1.0, 3.0).flags(1);
        assert_eq!(bounds.low, [-1.0, -1.0, 0.0]);
        assert_eq!(bounds.high, [3.0, 3.0, 1.0]);
    }

    #[test]
    fn planes_and_seats_are_counted_from_the_observer() {
        let layout = Layout {
            n_actions: 1,
            board: [2, 3, 4],
            n_scalars: 0,
        };
        assert_eq!(plane_index(&layout, 1, 2, 3), 23);
        assert_eq!(relative(2, 1, 3), 0);
        assert_eq!(seen_from(2, 0, 3), 1);
    }
}
