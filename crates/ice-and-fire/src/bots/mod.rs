//! Built-in bots. Both read the protocol text like a process would, rebuild a `GameState`
//! model from it (`Tracker`), and answer one line per phase. The protocol does not tell the
//! league; like a bot written for a CodinGame league, a built-in bot is told it when created
//! (`None` means the full rules of league 4), so it plays only actions legal in that league.

mod greedy;
mod mcts;
mod paths;
mod random;
mod strong;

use std::sync::Arc;

use realm_core::{BotError, Input, PlayerId};

use crate::geom::{Bits, Cell, ALL, SIZE};
use crate::protocol::{read_initial, read_observation, Observation};
use crate::rules::{BuildingKind, GameState};
use crate::setup::{League, Map};

pub use greedy::GreedyBot;
pub use mcts::{default_params, IceAndFireKnowledge, MctsBot};
pub use paths::{chain_cost, chain_cost_with_steps, NO_CHAIN};
pub use random::RandomBot;
pub use strong::{StrongBot, StrongOptions};

/// What a bot knows across phases and how it rebuilds the position each phase.
pub struct Tracker {
    league: League,
    spots: Option<Vec<Cell>>,
    map: Option<Arc<Map>>,
    n_calls: u32,
}

impl Tracker {
    /// A tracker for a bot playing in `league` (`None`: league 4; above 4 plays as 4).
    pub fn new(league: Option<u32>) -> Tracker {
        let number = league.unwrap_or(4).clamp(1, 4);
        Tracker {
            league: League::new(number).expect("league in 1..=4"),
            spots: None,
            map: None,
            n_calls: 0,
        }
    }

    /// Reads one call's lines and returns the model of the position (the bot to act), and
    /// the raw observation.
    pub fn read(&mut self, input: &mut dyn Input) -> Result<(GameState, Observation), BotError> {
        if self.spots.is_none() {
            self.spots = Some(read_initial(input)?);
        }
        let obs = read_observation(input)?;
        self.n_calls += 1;
        let spots = self.spots.as_deref().unwrap_or_default();
        let map = Arc::clone(self.map.get_or_insert_with(|| {
            let mut playable = ALL;
            for (y, row) in obs.rows.iter().enumerate() {
                for (x, ch) in row.chars().enumerate().take(SIZE) {
                    if ch == '#' {
                        playable.remove(Cell::new(x, y));
                    }
                }
            }
            Arc::new(Map::from_parts(
                playable,
                spots.iter().copied().collect::<Bits>(),
            ))
        }));
        let state = model(map, self.league, &obs, self.n_calls);
        Ok((state, obs))
    }

    /// Phases played so far, this one included.
    pub fn n_calls(&self) -> u32 {
        self.n_calls
    }
}

/// The position an observation describes, with the observing player to act. Units can all
/// move (a phase has just started); ids come from the input.
fn model(map: Arc<Map>, league: League, obs: &Observation, n_calls: u32) -> GameState {
    let me: PlayerId = obs
        .buildings
        .iter()
        .find(|b| b.0 == 0 && b.1 == BuildingKind::Hq as u8)
        .map(|b| usize::from((b.2, b.3) != (0, 0)))
        .unwrap_or(0);
    let player = |owner: u8| if owner == 0 { me } else { 1 - me };
    let mut s = GameState::empty(map, league);
    s.set_phase(n_calls.min(100), me);
    for (y, row) in obs.rows.iter().enumerate() {
        for (x, ch) in row.chars().enumerate().take(SIZE) {
            let owner = match ch {
                'O' | 'o' => Some(me),
                'X' | 'x' => Some(1 - me),
                _ => None,
            };
            s.set_owner(Cell::new(x, y), owner);
        }
    }
    for &(owner, kind, x, y) in &obs.buildings {
        let cell = Cell::new(x, y);
        s.set_owner(cell, Some(player(owner)));
        match kind {
            1 => s.put_building(cell, BuildingKind::Mine),
            2 => s.put_building(cell, BuildingKind::Tower),
            _ => {}
        }
    }
    for &(owner, id, level, x, y) in &obs.units {
        let cell = Cell::new(x, y);
        s.set_owner(cell, Some(player(owner)));
        s.put_unit(cell, level, Some(id));
    }
    s.set_gold(me, obs.gold);
    s.set_gold(1 - me, obs.opp_gold);
    s.refresh();
    s
}
