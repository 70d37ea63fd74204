//! Scenario builders shared by the integration tests: positions drawn as 12 text rows, as in
//! the spec's acceptance examples (`a` P0, `b` P1, `.` neutral, `#` void).
#![allow(dead_code)]

use std::sync::Arc;

use realm_ice_and_fire::geom::{Bits, Cell, ALL};
use realm_ice_and_fire::{BuildingKind, GameState, League, Map};

/// Builds positions, optionally rotated by 180° with the players swapped (E5's symmetry).
pub struct Builder {
    pub state: GameState,
    pub mirrored: bool,
}

impl Builder {
    pub fn new(league: u32, rows: &[&str], spots: &[(usize, usize)]) -> Builder {
        Builder::with_symmetry(league, rows, spots, false)
    }

    pub fn with_symmetry(
        league: u32,
        rows: &[&str],
        spots: &[(usize, usize)],
        mirrored: bool,
    ) -> Builder {
        assert_eq!(rows.len(), 12);
        let t = |x: usize, y: usize| {
            if mirrored {
                Cell::new(x, y).mirror()
            } else {
                Cell::new(x, y)
            }
        };
        let mut playable = ALL;
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                if ch == '#' {
                    playable.remove(t(x, y));
                }
            }
        }
        let spots: Bits = spots.iter().map(|&(x, y)| t(x, y)).collect();
        let map = Arc::new(Map::from_parts(playable, spots));
        let mut state = GameState::empty(map, League::new(league).unwrap());
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().enumerate() {
                let owner = match ch {
                    'a' => Some(0),
                    'b' => Some(1),
                    _ => None,
                };
                state.set_owner(t(x, y), owner.map(|o| if mirrored { 1 - o } else { o }));
            }
        }
        state.refresh();
        Builder { state, mirrored }
    }

    pub fn cell(&self, x: usize, y: usize) -> Cell {
        if self.mirrored {
            Cell::new(x, y).mirror()
        } else {
            Cell::new(x, y)
        }
    }

    /// The player index after the optional swap.
    pub fn player(&self, p: usize) -> usize {
        if self.mirrored {
            1 - p
        } else {
            p
        }
    }

    /// A unit of the owner of (x, y), with the next id.
    pub fn unit(mut self, level: u8, x: usize, y: usize) -> Builder {
        let c = self.cell(x, y);
        self.state.put_unit(c, level, None);
        self
    }

    pub fn building(mut self, kind: BuildingKind, x: usize, y: usize) -> Builder {
        let c = self.cell(x, y);
        self.state.put_building(c, kind);
        self
    }

    pub fn gold(mut self, p: usize, gold: i32) -> Builder {
        let p = self.player(p);
        self.state.set_gold(p, gold);
        self
    }

    /// `p` (before the swap) acts in `turn`.
    pub fn acting(mut self, turn: u32, p: usize) -> Builder {
        let p = self.player(p);
        self.state.set_phase(turn, p);
        self
    }

    pub fn build(mut self) -> GameState {
        self.state.refresh();
        self.state
    }
}

/// Counts of legal single actions: (TRAIN, BUILD, MOVE).
pub fn action_counts(state: &GameState) -> (usize, usize, usize) {
    use realm_ice_and_fire::Action;
    let mut v = Vec::new();
    state.single_actions(&mut v);
    assert_eq!(v.len() as u32, state.count_single_actions());
    let n = |f: fn(&Action) -> bool| v.iter().filter(|a| f(a)).count();
    (
        n(|a| matches!(a, Action::Train { .. })),
        n(|a| matches!(a, Action::Build { .. })),
        n(|a| matches!(a, Action::Move { .. })),
    )
}

pub fn c(x: usize, y: usize) -> Cell {
    Cell::new(x, y)
}

/// Plays whole games of `bot` against greedy in every league, from both seats, and checks
/// that the referee accepts every line either sends.
pub fn every_command_is_accepted(bot: &str, seed_base: u64) {
    use realm_core::{LinesInput, MatchSpec, VerdictKind};
    use realm_ice_and_fire::{new_bot, new_referee};
    for league in 1..=4 {
        for seat in 0..2 {
            let spec =
                MatchSpec::new("ice-and-fire", 2, seed_base + league as u64).with_league(league);
            let mut referee = new_referee(&spec).unwrap();
            let mut bots: Vec<_> = (0..2)
                .map(|i| {
                    let name = if i == seat { bot } else { "greedy" };
                    new_bot(name, i as u64, Some(league)).unwrap()
                })
                .collect();
            while let Some(req) = referee.next_request() {
                let out = bots[req.player]
                    .play_turn(&mut LinesInput::new(&req.lines))
                    .unwrap();
                let verdict = referee.answer(req.player, &out);
                assert_eq!(
                    verdict.kind,
                    VerdictKind::Ok,
                    "league {league}, seat {}: {verdict:?} for {out:?}",
                    req.player
                );
            }
        }
    }
}
