//! Scenario builders shared by the integration tests: positions drawn as 12 text rows, as in
//! the spec's acceptance examples (`a` P0, `b` P1, `.` neutral, `#` void).
#![allow(dead_code)]

use std::sync::Arc;

use realm_core::{LinesInput, VerdictKind};
use realm_ice_and_fire::bots::{chain_cost, chain_cost_with_steps, Tracker};
use realm_ice_and_fire::geom::{Bits, Cell, ALL};
use realm_ice_and_fire::rules::HQ;
use realm_ice_and_fire::{new_bot, BuildingKind, GameState, IceAndFireReferee, League, Map};

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

/// One phase's input for the bot (player 0, HQ at 0 0): no mine spots, the rows as drawn
/// (`O` own, `X` enemy, `.` neutral), both HQs and the units `(owner, id, level, x, y)`.
pub fn position(
    gold: [i32; 2],
    rows: [&str; 12],
    units: &[(u8, u32, u8, u32, u32)],
) -> Vec<String> {
    let mut lines = vec!["0".to_string()];
    let count = |c: char| rows.iter().map(|r| r.matches(c).count()).sum::<usize>();
    lines.extend([
        gold[0].to_string(),
        count('O').to_string(),
        gold[1].to_string(),
        count('X').to_string(),
    ]);
    lines.extend(rows.iter().map(|r| r.to_string()));
    lines.extend(["2".into(), "0 0 0 0".into(), "1 0 11 11".into()]);
    lines.push(units.len().to_string());
    lines.extend(
        units
            .iter()
            .map(|(o, id, l, x, y)| format!("{o} {id} {l} {x} {y}")),
    );
    lines
}

/// The bot's model of `lines` with its answer played on it by the referee's own line
/// execution, which must accept every command.
pub fn after_answer(lines: &[String], answer: &str) -> GameState {
    let mut tracker = Tracker::new(Some(4));
    let (state, _) = tracker.read(&mut LinesInput::new(lines)).unwrap();
    let mut referee = IceAndFireReferee::new(state);
    let verdict = referee.execute_line(answer);
    assert_eq!(verdict.kind, VerdictKind::Ok, "`{answer}`: {verdict:?}");
    referee.state().clone()
}

/// The bot holds columns 0 to 2; the enemy row 0 from x 3 and column 11 (20 cells: income 20).
/// The enemy's chain (2, 0), (1, 0), (0, 0) costs 30.
pub const CHAIN_ROWS: [&str; 12] = [
    "OOOXXXXXXXXX",
    "OOO........X",
    "OOO........X",
    "OOO........X",
    "OOO........X",
    "OOO........X",
    "OOO........X",
    "OOO........X",
    "OOO........X",
    "OOO........X",
    "OOO........X",
    "OOO........X",
];

/// Facing a chain the opponent can pay for next phase, `bot`'s answer leaves that chain
/// dearer than the opponent's gold (and the bot's HQ standing).
pub fn stops_a_chain_the_opponent_could_pay_for(bot: &str) {
    // The enemy holds row 0 from x 3 and column 11 (20 cells: income 20) and has 15 gold:
    // 35 next phase, and its chain (2, 0), (1, 0), (0, 0) costs 30.
    stops_the_enemy_chain(bot, [20, 15], &[]);
}

/// `bot`'s answer (as one line) in the position of `stops_a_chain_the_opponent_could_pay_for`
/// with `gold` and `units`, checked to leave the enemy's chain (30 gold before the answer,
/// its units' steps counted free) dearer than the enemy's gold in its next phase.
pub fn stops_the_enemy_chain(
    bot: &str,
    gold: [i32; 2],
    units: &[(u8, u32, u8, u32, u32)],
) -> String {
    let lines = position(gold, CHAIN_ROWS, units);
    let mut tracker = Tracker::new(Some(4));
    let (before, _) = tracker.read(&mut LinesInput::new(&lines)).unwrap();
    assert_eq!(chain_cost(&before, 1), 30, "the threat is real");

    let mut player = new_bot(bot, 7, Some(4)).unwrap();
    let line = player
        .play_turn(&mut LinesInput::new(&lines))
        .unwrap()
        .join("\n");
    let mut state = after_answer(&lines, &line);
    state.end_phase();
    assert_eq!(state.player(), 1);
    assert!(
        chain_cost_with_steps(&state, 1) > state.gold(1),
        "`{line}` leaves a chain of {} against {} gold",
        chain_cost_with_steps(&state, 1),
        state.gold(1)
    );
    assert!(state.owned(0).has(HQ[0]));
    line
}
