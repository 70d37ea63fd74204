//! Built-in bots. Both read the protocol text like a process would, rebuild a `GameState`
//! model from it (`Tracker`), and answer one line per phase. The protocol does not tell the
//! league, so the tracker infers it: mine spots mean league 3 or 4 (a refused tower means 3),
//! and without spots a probe `TRAIN 2 x y;TRAIN 1 x y` tells league 1 (the level-2 piece is
//! filtered) from league 2 (it succeeds and the level-1 piece is refused). The probe waits
//! until the bot can pay the level-2 upkeep; until the league is known the bot plays as in
//! league 1, which is legal in league 2 too (level-1 units only).

mod greedy;
mod random;

use std::sync::Arc;

use realm_core::{BotError, Input, PlayerId};

use crate::geom::{Bits, Cell, ALL, SIZE};
use crate::protocol::{read_initial, read_observation, Observation};
use crate::rules::{BuildingKind, GameState};
use crate::setup::{League, Map};

pub use greedy::GreedyBot;
pub use random::RandomBot;

/// What a bot knows across phases and how it rebuilds the position each phase.
#[derive(Default)]
pub struct Tracker {
    spots: Option<Vec<Cell>>,
    /// Some(n) once the league is known (or assumed, for league 4).
    league: Option<u32>,
    probe: Option<Cell>,
    tower_attempt: Option<Cell>,
    map: Option<Arc<Map>>,
    n_calls: u32,
}

impl Tracker {
    /// Reads one call's lines and returns the model of the position (the bot to act), and
    /// the raw observation.
    pub fn read(&mut self, input: &mut dyn Input) -> Result<(GameState, Observation), BotError> {
        if self.spots.is_none() {
            self.spots = Some(read_initial(input)?);
        }
        let obs = read_observation(input)?;
        self.n_calls += 1;
        let spots = self.spots.as_deref().unwrap_or_default();
        if self.league.is_none() && !spots.is_empty() {
            self.league = Some(4);
        }
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
        let league =
            League::new(self.league.unwrap_or(1)).unwrap_or(League::new(4).expect("league 4"));
        let state = model(Arc::clone(&map), league, &obs, self.n_calls);
        self.learn(&state);
        let league = League::new(self.league.unwrap_or(1)).unwrap_or(league);
        let state = if league == state.league() {
            state
        } else {
            model(Arc::clone(&map), league, &obs, self.n_calls)
        };
        Ok((state, obs))
    }

    /// Uses the outcome of last phase's probes.
    fn learn(&mut self, state: &GameState) {
        let me = state.player();
        if let Some(cell) = self.probe.take() {
            if let Some(unit) = state.unit_at(cell).filter(|u| u.owner == me) {
                self.league = Some(if unit.level >= 2 { 2 } else { 1 });
            }
        }
        if self.league.is_none()
            && (0..2).any(|p| {
                !state
                    .units_of_level(p, 2)
                    .or(state.units_of_level(p, 3))
                    .is_empty()
            })
        {
            self.league = Some(2);
        }
        if let Some(cell) = self.tower_attempt.take() {
            if state.owner(cell) == Some(me)
                && state.building_at(cell).is_none()
                && state.unit_at(cell).is_none()
            {
                self.league = Some(3);
            }
        }
    }

    /// True when the league is still unknown (no mine spots, no probe answered yet) and a
    /// probe is safe now: 20 gold for the level-2 unit, and enough income for its upkeep, so
    /// that a level-2 unit does not bankrupt the bot and vanish before it is seen.
    pub fn should_probe(&self, state: &GameState) -> bool {
        let me = state.player();
        self.league.is_none() && state.gold(me) >= 20 && state.income(me) >= 4
    }

    /// Records a league probe at `cell` (see the module doc).
    pub fn probed(&mut self, cell: Cell) {
        self.probe = Some(cell);
    }

    /// Records a BUILD TOWER attempt, to learn league 3 if it is refused.
    pub fn tried_tower(&mut self, cell: Cell) {
        self.tower_attempt = Some(cell);
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

#[cfg(test)]
mod tests {
    use realm_core::{Bot, LinesInput, Referee};

    use super::*;
    use crate::referee::IceAndFireReferee;

    #[test]
    fn bots_infer_the_league_from_the_protocol() {
        for league in 1..=4 {
            let mut referee =
                IceAndFireReferee::new(GameState::new(42, League::new(league).unwrap()));
            let mut greedy = GreedyBot::new(1);
            let mut random = RandomBot::new(2);
            for _ in 0..60 {
                let Some(request) = referee.next_request() else {
                    break;
                };
                let answer = if request.player == 0 {
                    greedy
                        .play_turn(&mut LinesInput::new(&request.lines))
                        .unwrap()
                } else {
                    random
                        .play_turn(&mut LinesInput::new(&request.lines))
                        .unwrap()
                };
                referee.answer(request.player, &answer);
            }
            // League 3 is only learned once a tower was refused; before that 4 is assumed.
            let expected = if league == 3 {
                [Some(3), Some(4)]
            } else {
                [Some(league); 2]
            };
            assert!(
                expected.contains(&greedy.tracker.league),
                "league {league}: greedy thinks {:?}",
                greedy.tracker.league
            );
            // The random bot may never afford a safe probe; it then keeps playing level 1 only.
            assert!(
                random.tracker.league.is_none() || expected.contains(&random.tracker.league),
                "league {league}: random thinks {:?}",
                random.tracker.league
            );
        }
    }
}
