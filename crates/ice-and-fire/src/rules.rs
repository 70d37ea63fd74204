//! The rules of §2 as a pure state machine: ownership, activity, units, buildings, gold,
//! income, the phase start (R12.1–6), the three actions with their failure codes (R25–R28),
//! HQ capture and the turn limit. It implements `realm_core::State` with single actions plus
//! `End` (end the phase), which is what search bots and the benchmark drive.
//!
//! Territory, units and buildings are bitboards (`geom::Bits`), so activity (R5) is a flood
//! fill of a few word operations. What every action needs and few change (occupied cells,
//! R16's playable mask, tower guard, R20's income) is kept current rather than recomputed;
//! the tests check it against a fresh computation. This module does no parsing and produces
//! no text: `protocol` and `referee` do that.

use std::sync::Arc;

use realm_core::{ranks_from_keys, EndReason, Outcome, PlayerId, State};

use crate::geom::{byte_total, Bits, Cell, N_SLOTS};
use crate::setup::{League, Map, UNREACHABLE};

/// The HQ cell of each player (R10).
pub const HQ: [Cell; 2] = [Cell::new(0, 0), Cell::new(11, 11)];
/// Both HQ cells as a set.
const HQ_CELLS: Bits = Bits([1, 0, 1 << (11 * 16 + 11 - 128)]);
/// Unit cost by level (index 0 unused).
pub const UNIT_COST: [i32; 4] = [0, 10, 20, 30];
/// Unit upkeep by level (index 0 unused).
pub const UNIT_UPKEEP: [i32; 4] = [0, 1, 4, 20];
/// Income of an active mine (R20).
pub const MINE_INCOME: i32 = 4;
// `compute_income` sums weighted counts of up to 24 cells in a byte.
const _: () = assert!(
    24 * (1 + MINE_INCOME) < 256 && UNIT_UPKEEP[1] <= UNIT_UPKEEP[2] && 24 * UNIT_UPKEEP[2] < 256
);
/// Cost of a mine or a tower.
pub const BUILD_COST: i32 = 15;
/// Gold of each player before its first phase.
pub const START_GOLD: i32 = 20;
/// The last turn.
pub const MAX_TURNS: u32 = 100;

/// Building types with the protocol's type ids (R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BuildingKind {
    Hq = 0,
    Mine = 1,
    Tower = 2,
}

impl BuildingKind {
    pub fn name(self) -> &'static str {
        match self {
            BuildingKind::Hq => "HQ",
            BuildingKind::Mine => "MINE",
            BuildingKind::Tower => "TOWER",
        }
    }
}

/// Why an action was skipped: the 13 codes of R35, the same as the vectors' commentary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Invalid {
    OutOfBounds,
    League,
    BadLevel,
    BadId,
    NotYours,
    NotPlayable,
    AlreadyMoved,
    OccupiedOrProtected,
    NoStep,
    NoGold,
    NotOwned,
    NotMineSpot,
    OnMineSpot,
}

impl Invalid {
    pub fn code(self) -> &'static str {
        match self {
            Invalid::OutOfBounds => "out_of_bounds",
            Invalid::League => "league",
            Invalid::BadLevel => "bad_level",
            Invalid::BadId => "bad_id",
            Invalid::NotYours => "not_yours",
            Invalid::NotPlayable => "not_playable",
            Invalid::AlreadyMoved => "already_moved",
            Invalid::OccupiedOrProtected => "occupied_or_protected",
            Invalid::NoStep => "no_step",
            Invalid::NoGold => "no_gold",
            Invalid::NotOwned => "not_owned",
            Invalid::NotMineSpot => "not_mine_spot",
            Invalid::OnMineSpot => "on_mine_spot",
        }
    }
}

/// A single action of the player in its phase, as the `State` contract plays it. MOVE is
/// given by the unit's cell; the referee turns protocol ids and far targets into calls of
/// `GameState::try_move` directly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// `MOVE id x y` of the unit on `from` to the adjacent cell `to`.
    Move { from: Cell, to: Cell },
    /// `TRAIN level x y`.
    Train { level: u8, at: Cell },
    /// `BUILD MINE|TOWER x y`.
    Build { kind: BuildingKind, at: Cell },
    /// End the phase (the rest of the answer line is empty).
    End,
}

/// A unit as the protocol shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub owner: PlayerId,
    pub id: u32,
    pub level: u8,
    pub cell: Cell,
}

/// A building as the protocol shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Building {
    pub owner: PlayerId,
    pub kind: BuildingKind,
    pub cell: Cell,
}

/// How the game ended, when it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// R30: `loser`'s HQ was captured.
    HqCaptured { loser: PlayerId },
    /// R31: turn 100 is over.
    TurnLimit,
}

/// What the latest phase start did (R12.2 and R12.5), for commentary and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PhaseStart {
    /// Units removed: cut off, plus all units on a bankruptcy.
    pub deaths: u32,
    pub bankrupt: bool,
}

/// A whole game position. Cheap to clone (the map is shared).
#[derive(Clone, Debug)]
pub struct GameState {
    map: Arc<Map>,
    /// `map.playable()`, kept here to save a pointer chase in the hot paths.
    playable: Bits,
    league: League,
    turn: u32,
    player: PlayerId,
    own: [Bits; 2],
    active: [Bits; 2],
    /// `active` grown by one step within the playable cells: R16's playable mask, kept
    /// current with `active` because every TRAIN and BUILD needs it.
    reach: [Bits; 2],
    /// Cells closed to enemy units below level 3 (R15.1–2): the cells protected by an
    /// active tower (R14) and all tower cells. Kept current with `active` and `towers`.
    guard: [Bits; 2],
    /// Units by owner and level − 1. A unit's owner always owns its cell (R4, R17).
    units: [[Bits; 3]; 2],
    /// Unit ids by cell. Ids stay below 2^16: a player earns at most 20 + 100 × 224 gold,
    /// so fewer than 4,500 units are ever trained.
    ids: [u16; N_SLOTS],
    /// Units that cannot move any more this phase.
    moved: Bits,
    mines: [Bits; 2],
    towers: [Bits; 2],
    /// Cells holding a unit, a building or an HQ, kept current because every mask needs it.
    /// A unit never shares its cell with a building (R15.3 keeps it out of its own, R17
    /// removes the enemy's), so a unit leaving a cell frees it.
    occupied: Bits,
    gold: [i32; 2],
    /// R20 applied to the position, kept current by every change (a full count at each
    /// phase start cost more than the updates).
    incomes: [i32; 2],
    /// The stored income (R6) when it differs from `incomes`, which happens only after a
    /// bankruptcy (R12.5) until the next recomputation.
    stale_income: Option<(PlayerId, i32)>,
    next_id: u32,
    ending: Option<Ending>,
    last_start: PhaseStart,
}

impl GameState {
    /// A new game from a seed (R7–R10), already at the start of P0's first phase.
    pub fn new(seed: i64, league: League) -> GameState {
        GameState::on_map(Arc::new(Map::generate(seed, league)), league)
    }

    /// The initial position of R10 on `map`, at the start of P0's first phase.
    pub fn on_map(map: Arc<Map>, league: League) -> GameState {
        let mut s = GameState::empty(map, league);
        s.own[0].insert(HQ[0]);
        s.own[1].insert(HQ[1]);
        s.own[1].insert(Cell::new(11, 10));
        s.gold = [START_GOLD; 2];
        s.refresh();
        s.start_phase();
        s
    }

    /// A blank position on `map` for hand-built scenarios and bots' models: nobody owns
    /// anything, no units, no gold, P0 to act in turn 1. Call `refresh` after editing it.
    pub fn empty(map: Arc<Map>, league: League) -> GameState {
        GameState {
            playable: map.playable(),
            map,
            league,
            turn: 1,
            player: 0,
            own: [Bits::EMPTY; 2],
            active: [Bits::EMPTY; 2],
            reach: [Bits::EMPTY; 2],
            guard: [Bits::EMPTY; 2],
            units: [[Bits::EMPTY; 3]; 2],
            ids: [0; N_SLOTS],
            moved: Bits::EMPTY,
            mines: [Bits::EMPTY; 2],
            towers: [Bits::EMPTY; 2],
            occupied: HQ_CELLS,
            gold: [0; 2],
            incomes: [0; 2],
            stale_income: None,
            next_id: 1,
            ending: None,
            last_start: PhaseStart::default(),
        }
    }

    // ----- scenario editing (hand-built positions and bot models) -----

    /// Sets the owner of a playable cell (`None` = neutral).
    pub fn set_owner(&mut self, cell: Cell, owner: Option<PlayerId>) {
        for p in 0..2 {
            self.own[p].set(cell, owner == Some(p));
        }
    }

    /// Puts a unit of the cell's owner on `cell` with the next id (or `id` if given) and
    /// returns its id. The unit can move.
    pub fn put_unit(&mut self, cell: Cell, level: u8, id: Option<u32>) -> u32 {
        let owner = self.owner(cell).unwrap_or(0);
        self.own[owner].insert(cell);
        let id = id.unwrap_or(self.next_id);
        self.next_id = self.next_id.max(id + 1);
        self.units[owner][level as usize - 1].insert(cell);
        self.occupied.insert(cell);
        self.ids[cell.idx()] = id as u16;
        self.moved.remove(cell);
        self.incomes[owner] = self.compute_income(owner);
        id
    }

    /// Puts a mine or a tower of the cell's owner on `cell`.
    pub fn put_building(&mut self, cell: Cell, kind: BuildingKind) {
        let owner = self.owner(cell).unwrap_or(0);
        match kind {
            BuildingKind::Mine => self.mines[owner].insert(cell),
            BuildingKind::Tower => self.towers[owner].insert(cell),
            BuildingKind::Hq => {}
        }
        if kind != BuildingKind::Hq {
            self.occupied.insert(cell);
        }
        self.incomes[owner] = self.compute_income(owner);
        self.territory_changed(owner);
    }

    pub fn set_gold(&mut self, player: PlayerId, gold: i32) {
        self.gold[player] = gold;
    }

    /// Sets whose phase it is and the turn number, without running any phase step.
    pub fn set_phase(&mut self, turn: u32, player: PlayerId) {
        self.turn = turn;
        self.player = player;
    }

    /// Marks the unit on `cell` as unable to move this phase.
    pub fn set_moved(&mut self, cell: Cell) {
        self.moved.insert(cell);
    }

    /// Recomputes activity (R5), occupied cells and both incomes (R20) after editing.
    pub fn refresh(&mut self) {
        for p in 0..2 {
            self.recompute_active(p);
            self.territory_changed(p);
        }
        self.occupied = self.compute_occupied();
        self.incomes = [self.compute_income(0), self.compute_income(1)];
        self.recompute_incomes();
    }

    /// Runs R12.1–6 for the player whose phase it is, as the referee does when a phase begins.
    pub fn start_phase(&mut self) -> PhaseStart {
        let p = self.player;
        // R12.1 is a no-op: activity is kept current after every change of ownership.
        let cut_off = self.all_units(p).minus(self.active[p]);
        let mut deaths = 0;
        if !cut_off.is_empty() {
            deaths = cut_off.count();
            for level in &mut self.units[p] {
                *level = level.minus(cut_off);
            }
            self.occupied = self.occupied.minus(cut_off);
        }
        self.recompute_incomes();
        let income = self.incomes[p];
        debug_assert_eq!(income, self.compute_income(p));
        self.gold[p] += income;
        let bankrupt = self.gold[p] < 0;
        if bankrupt {
            // R12.5: the stored income is deliberately not recomputed (Java quirk).
            self.stale_income = Some((p, income));
            self.gold[p] = 0;
            deaths += self.all_units(p).count();
            self.occupied = self.occupied.minus(self.all_units(p));
            self.units[p] = [Bits::EMPTY; 3];
            self.incomes[p] = self.compute_income(p);
        }
        self.moved = Bits::EMPTY;
        self.last_start = PhaseStart { deaths, bankrupt };
        self.last_start
    }

    /// Ends the current phase: either the game ends (R31) or the other player's phase starts.
    pub fn end_phase(&mut self) {
        if self.ending.is_some() {
            return;
        }
        if self.player == 1 && self.turn >= MAX_TURNS {
            self.ending = Some(Ending::TurnLimit);
            return;
        }
        self.player = 1 - self.player;
        if self.player == 0 {
            self.turn += 1;
        }
        self.start_phase();
    }

    // ----- queries -----

    pub fn map(&self) -> &Map {
        &self.map
    }

    pub fn shared_map(&self) -> Arc<Map> {
        Arc::clone(&self.map)
    }

    pub fn league(&self) -> League {
        self.league
    }

    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Whose phase it is (also after the game ended: the player who acted last).
    pub fn player(&self) -> PlayerId {
        self.player
    }

    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    pub fn last_phase_start(&self) -> PhaseStart {
        self.last_start
    }

    #[inline]
    pub fn gold(&self, p: PlayerId) -> i32 {
        self.gold[p]
    }

    /// The stored income (R6).
    pub fn income(&self, p: PlayerId) -> i32 {
        match self.stale_income {
            Some((q, income)) if q == p => income,
            _ => self.incomes[p],
        }
    }

    pub fn owner(&self, cell: Cell) -> Option<PlayerId> {
        (0..2).find(|&p| self.own[p].has(cell))
    }

    #[inline]
    pub fn owned(&self, p: PlayerId) -> Bits {
        self.own[p]
    }

    #[inline]
    pub fn active(&self, p: PlayerId) -> Bits {
        self.active[p]
    }

    pub fn is_active(&self, cell: Cell) -> bool {
        self.active[0].has(cell) || self.active[1].has(cell)
    }

    /// Cells of units that cannot move any more this phase.
    #[inline]
    pub fn moved_units(&self) -> Bits {
        self.moved
    }

    pub fn can_move(&self, cell: Cell) -> bool {
        !self.moved.has(cell)
    }

    /// All units of `p`.
    #[inline]
    pub fn all_units(&self, p: PlayerId) -> Bits {
        let u = &self.units[p];
        u[0].or(u[1]).or(u[2])
    }

    /// Units of `p` of level `level`.
    #[inline]
    pub fn units_of_level(&self, p: PlayerId, level: u8) -> Bits {
        self.units[p][level as usize - 1]
    }

    /// The level of the unit of `p` on `cell`, which must hold one (1 otherwise). The levels
    /// are disjoint sets, so this is a sum rather than a search with unpredictable branches.
    #[inline]
    pub fn unit_level(&self, p: PlayerId, cell: Cell) -> u8 {
        let u = &self.units[p];
        1 + u[1].has(cell) as u8 + 2 * u[2].has(cell) as u8
    }

    pub fn unit_at(&self, cell: Cell) -> Option<Unit> {
        for owner in 0..2 {
            for level in 1..=3u8 {
                if self.units[owner][level as usize - 1].has(cell) {
                    return Some(Unit {
                        owner,
                        id: self.ids[cell.idx()] as u32,
                        level,
                        cell,
                    });
                }
            }
        }
        None
    }

    /// The units of `p`, by id.
    pub fn units(&self, p: PlayerId) -> Vec<Unit> {
        let mut v: Vec<Unit> = self
            .all_units(p)
            .iter()
            .filter_map(|c| self.unit_at(c))
            .collect();
        v.sort_by_key(|u| u.id);
        v
    }

    /// The unit with protocol id `id`, if it is on the board.
    pub fn unit_by_id(&self, id: u32) -> Option<Unit> {
        if id == 0 || id >= self.next_id {
            return None;
        }
        (0..2)
            .flat_map(|p| self.all_units(p).iter())
            .find(|c| self.ids[c.idx()] as u32 == id)
            .and_then(|c| self.unit_at(c))
    }

    pub fn building_at(&self, cell: Cell) -> Option<Building> {
        for (owner, &hq) in HQ.iter().enumerate() {
            let kind = if hq == cell {
                BuildingKind::Hq
            } else if self.mines[owner].has(cell) {
                BuildingKind::Mine
            } else if self.towers[owner].has(cell) {
                BuildingKind::Tower
            } else {
                continue;
            };
            return Some(Building { owner, kind, cell });
        }
        None
    }

    /// The buildings of `p`: HQ, then mines, then towers, each by x then y.
    pub fn buildings(&self, p: PlayerId) -> Vec<Building> {
        let by_x = |b: Bits, kind| {
            let mut v: Vec<Building> = b
                .iter()
                .map(|cell| Building {
                    owner: p,
                    kind,
                    cell,
                })
                .collect();
            v.sort_by_key(|b| (b.cell.x(), b.cell.y()));
            v
        };
        let mut v = vec![Building {
            owner: p,
            kind: BuildingKind::Hq,
            cell: HQ[p],
        }];
        v.extend(by_x(self.mines[p], BuildingKind::Mine));
        v.extend(by_x(self.towers[p], BuildingKind::Tower));
        v
    }

    pub fn mines(&self, p: PlayerId) -> Bits {
        self.mines[p]
    }

    pub fn towers(&self, p: PlayerId) -> Bits {
        self.towers[p]
    }

    /// Cells holding a unit or a building.
    #[inline]
    pub fn occupied(&self) -> Bits {
        self.occupied
    }

    /// `occupied` from the units and buildings.
    fn compute_occupied(&self) -> Bits {
        let buildings = self.mines[0]
            .or(self.mines[1])
            .or(self.towers[0])
            .or(self.towers[1]);
        self.all_units(0)
            .or(self.all_units(1))
            .or(buildings)
            .or(HQ_CELLS)
    }

    /// R32: gold plus the cost of the units on the board.
    pub fn military_power(&self, p: PlayerId) -> i64 {
        let units: i64 = (1..=3)
            .map(|l| self.units[p][l - 1].count() as i64 * UNIT_COST[l] as i64)
            .sum();
        self.gold[p] as i64 + units
    }

    /// R14.
    pub fn protected(&self, cell: Cell) -> bool {
        match self.owner(cell) {
            None => false,
            Some(q) => self.protection(q).has(cell) || self.towers[q].has(cell),
        }
    }

    /// Cells of `q` covered by an active tower of `q` (R14), the active tower cells included.
    fn protection(&self, q: PlayerId) -> Bits {
        let live = self.towers[q].and(self.active[q]);
        // Active cells are owned, so growing within them is growing within owned cells and
        // keeping the active ones.
        live.grow(self.active[q])
    }

    /// R15 for one cell.
    pub fn capturable(&self, cell: Cell, p: PlayerId, level: u8) -> bool {
        self.capture_mask(p, level).has(cell)
    }

    /// R15 for every cell at once: where a level-`level` unit of `p` may enter. For a single
    /// level this computes only what that level needs, and without branches on the level:
    /// the random player draws it.
    #[inline]
    pub fn capture_mask(&self, p: PlayerId, level: u8) -> Bits {
        let q = 1 - p;
        let all_if = |on: bool| Bits([(on as u64).wrapping_neg(); 3]);
        let u = &self.units[q];
        // Enemy units of the level or above, which a unit of the top level may hit all the same.
        let stronger = u[0]
            .and(all_if(level <= 1))
            .or(u[1].and(all_if(level <= 2)))
            .or(u[2])
            .and(all_if(level != self.league.top_level()));
        let free = self.playable.minus(self.occupied);
        let hit = self.playable.and(self.occupied).minus(self.own[p]);
        // R15.1 (active and protected) and R15.2 (any tower cell), below level 3 only.
        let closed = self.guard(q).and(all_if(level < 3));
        free.or(hit.minus(stronger)).minus(closed)
    }

    /// R15 for `p` at every level: the parts shared by all levels, computed once.
    #[inline]
    pub fn capture_masks(&self, p: PlayerId) -> CaptureMasks {
        let q = 1 - p;
        let playable = self.playable;
        let occupied = self.occupied();
        let u = &self.units[q];
        CaptureMasks {
            free: playable.minus(occupied),
            hit: playable.and(occupied).minus(self.own[p]),
            // R15.1 (active and protected) and R15.2 (any tower cell).
            guarded: self.guard(q),
            // Enemy units of level ≥ 1, ≥ 2, ≥ 3.
            at_least: [u[0].or(u[1]).or(u[2]), u[1].or(u[2]), u[2]],
            top: self.league.top_level(),
        }
    }

    /// R16: cells where `p` may TRAIN or BUILD.
    #[inline]
    pub fn playable_mask(&self, p: PlayerId) -> Bits {
        debug_assert_eq!(self.reach[p], self.active[p].grow(self.playable));
        self.reach[p]
    }

    /// Cells of `q` that enemy units below level 3 may not enter (R15.1–2): those an active
    /// tower of `q` protects, and its tower cells.
    pub fn guarded(&self, q: PlayerId) -> Bits {
        self.guard(q)
    }

    /// Cells of `q` that enemy units below level 3 may not enter (R15.1–2).
    #[inline]
    fn guard(&self, q: PlayerId) -> Bits {
        debug_assert_eq!(self.guard[q], self.compute_guard(q));
        self.guard[q]
    }

    /// `guard` from the towers and the active territory.
    fn compute_guard(&self, q: PlayerId) -> Bits {
        self.protection(q).or(self.towers[q])
    }

    /// Brings `reach` and `guard` of `p` up to date after a change of its active territory
    /// or its towers.
    fn territory_changed(&mut self, p: PlayerId) {
        self.reach[p] = self.active[p].grow(self.playable);
        self.guard[p] = self.compute_guard(p);
    }

    /// R20, counted afresh from the current position.
    pub fn compute_income(&self, p: PlayerId) -> i32 {
        self.income_of(p, self.active[p])
    }

    /// `income_of` a single cell.
    fn cell_income(&self, p: PlayerId, cell: Cell) -> i32 {
        let upkeep: i32 = (1..=3)
            .map(|level| UNIT_UPKEEP[level] * self.units[p][level - 1].has(cell) as i32)
            .sum();
        1 + MINE_INCOME * self.mines[p].has(cell) as i32 - upkeep
    }

    /// The share of `cells` (active cells of `p`) in R20 for `p`: R20 adds up over cells.
    fn income_of(&self, p: PlayerId, cells: Bits) -> i32 {
        let [u1, u2, u3] = self.units[p].map(|u| u.and(cells));
        // Weighted per-byte counts, added up once: a byte of `gains` is at most 24 + 4 × 24,
        // one of `upkeep` at most 4 × 24 (levels are disjoint).
        let gains =
            cells.byte_counts() + MINE_INCOME as u64 * self.mines[p].and(cells).byte_counts();
        let upkeep =
            UNIT_UPKEEP[1] as u64 * u1.byte_counts() + UNIT_UPKEEP[2] as u64 * u2.byte_counts();
        let mut income = byte_total(gains) as i32 - byte_total(upkeep) as i32;
        // Level-3 units are rare, and their weight would overflow a byte.
        if !u3.is_empty() {
            income -= UNIT_UPKEEP[3] * u3.count() as i32;
        }
        income
    }

    // ----- actions (R25–R28), each either applied in full or refused with its code -----

    /// R25 + R27 for the player whose phase it is. The level must already have passed the
    /// parse filters (R24).
    pub fn try_train(&mut self, level: u8, at: Cell) -> Result<(), Invalid> {
        let p = self.player;
        if !self.playable_mask(p).has(at) {
            return Err(Invalid::NotPlayable);
        }
        if self.gold[p] < UNIT_COST[level as usize] {
            return Err(Invalid::NoGold);
        }
        if !self.capturable(at, p, level) {
            return Err(Invalid::OccupiedOrProtected);
        }
        self.do_train(level, at);
        Ok(())
    }

    /// The effect of a successful TRAIN.
    fn do_train(&mut self, level: u8, at: Cell) {
        let p = self.player;
        self.enter(p, at);
        self.units[p][level as usize - 1].insert(at);
        if self.active[p].has(at) {
            self.incomes[p] -= UNIT_UPKEEP[level as usize];
        }
        self.occupied.insert(at);
        self.ids[at.idx()] = self.next_id as u16;
        self.next_id += 1;
        self.moved.insert(at);
        self.gold[p] -= UNIT_COST[level as usize];
        self.recompute_incomes();
    }

    /// R26 for the unit of the current player on `from`, towards any playable `target`.
    /// Returns the cell the unit stepped to.
    pub fn try_move(&mut self, from: Cell, target: Cell) -> Result<Cell, Invalid> {
        let p = self.player;
        let Some(unit) = self.unit_at(from).filter(|u| u.owner == p) else {
            return Err(Invalid::BadId);
        };
        if self.moved.has(from) {
            return Err(Invalid::AlreadyMoved);
        }
        let mask = self.capture_mask(p, unit.level);
        if from.manhattan(target) == 1 && !mask.has(target) {
            return Err(Invalid::OccupiedOrProtected);
        }
        let step = if from.manhattan(target) == 1 {
            Some(target)
        } else {
            let dist = self.map.dist_to(target);
            let here = dist[from.idx()];
            let [up, right, down, left] = from.around();
            let order = if p == 0 {
                [up, right, down, left]
            } else {
                [down, left, up, right]
            };
            order.into_iter().flatten().find(|c| {
                let d = dist[c.idx()];
                d != UNREACHABLE && d < here && mask.has(*c)
            })
        };
        let Some(to) = step else {
            return Err(Invalid::NoStep);
        };
        self.do_move(from, to, unit.level);
        Ok(to)
    }

    /// The effect of a successful MOVE of the level-`level` unit on `from` to `to`.
    fn do_move(&mut self, from: Cell, to: Cell, level: u8) {
        let p = self.player;
        self.units[p][level as usize - 1].remove(from);
        // The upkeep counts where the unit stands on an active cell.
        let upkeep = UNIT_UPKEEP[level as usize];
        let from_active = self.active[p].has(from);
        self.enter(p, to);
        self.units[p][level as usize - 1].insert(to);
        self.incomes[p] += upkeep * (from_active as i32 - self.active[p].has(to) as i32);
        self.occupied.remove(from);
        self.occupied.insert(to);
        self.ids[to.idx()] = self.ids[from.idx()];
        self.moved.insert(to);
        self.recompute_incomes();
    }

    /// R25 + R28 for the current player.
    pub fn try_build(&mut self, kind: BuildingKind, at: Cell) -> Result<(), Invalid> {
        let p = self.player;
        if !self.playable_mask(p).has(at) {
            return Err(Invalid::NotPlayable);
        }
        let allowed = match kind {
            BuildingKind::Mine => self.league.has_mines(),
            BuildingKind::Tower => self.league.has_towers(),
            BuildingKind::Hq => false,
        };
        if !allowed {
            return Err(Invalid::League);
        }
        if self.occupied().has(at) {
            return Err(Invalid::OccupiedOrProtected);
        }
        if !self.own[p].has(at) {
            return Err(Invalid::NotOwned);
        }
        if self.gold[p] < BUILD_COST {
            return Err(Invalid::NoGold);
        }
        let spot = self.map.spots().has(at);
        match kind {
            BuildingKind::Mine if !spot => return Err(Invalid::NotMineSpot),
            BuildingKind::Tower if spot => return Err(Invalid::OnMineSpot),
            _ => self.do_build(kind, at),
        }
        Ok(())
    }

    /// The effect of a successful BUILD.
    fn do_build(&mut self, kind: BuildingKind, at: Cell) {
        let p = self.player;
        match kind {
            BuildingKind::Mine => {
                self.mines[p].insert(at);
                if self.active[p].has(at) {
                    self.incomes[p] += MINE_INCOME;
                }
            }
            _ => {
                self.towers[p].insert(at);
                self.guard[p] = self.compute_guard(p);
            }
        }
        self.occupied.insert(at);
        self.gold[p] -= BUILD_COST;
        self.recompute_incomes();
    }

    /// Plays an action known to be legal (from `single_actions`, `random_single_action` or
    /// the same masks) without checking it again: the fast path of `State::apply`.
    #[inline]
    pub fn apply_unchecked(&mut self, action: &Action) {
        debug_assert!(self.is_legal_now(action), "illegal action {action:?}");
        match *action {
            Action::Move { from, to } => self.do_move(from, to, self.unit_level(self.player, from)),
            Action::Train { level, at } => self.do_train(level, at),
            Action::Build { kind, at } => self.do_build(kind, at),
            Action::End => self.end_phase(),
        }
    }

    fn is_legal_now(&self, action: &Action) -> bool {
        self.ending.is_none() && (*action == Action::End || self.clone().play(action).is_ok())
    }

    /// The protocol text of a `State` action (`End` is `WAIT`).
    pub fn command(&self, action: &Action) -> String {
        match *action {
            Action::Move { from, to } => {
                format!("MOVE {} {} {}", self.ids[from.idx()], to.x(), to.y())
            }
            Action::Train { level, at } => format!("TRAIN {level} {} {}", at.x(), at.y()),
            Action::Build { kind, at } => format!("BUILD {} {} {}", kind.name(), at.x(), at.y()),
            Action::End => "WAIT".to_string(),
        }
    }

    /// Plays one `State` action, returning its failure code if it is not legal now.
    pub fn play(&mut self, action: &Action) -> Result<(), Invalid> {
        if self.ending.is_some() {
            return Err(Invalid::NoStep);
        }
        match *action {
            Action::Move { from, to } => {
                if from.manhattan(to) != 1 || !self.map.is_playable(to) {
                    return Err(Invalid::OutOfBounds);
                }
                self.try_move(from, to).map(|_| ())
            }
            Action::Train { level, at } => {
                if !(1..=self.league.top_level()).contains(&level) {
                    return Err(Invalid::BadLevel);
                }
                if !self.map.is_playable(at) {
                    return Err(Invalid::OutOfBounds);
                }
                self.try_train(level, at)
            }
            Action::Build { kind, at } => {
                if !self.map.is_playable(at) {
                    return Err(Invalid::OutOfBounds);
                }
                self.try_build(kind, at)
            }
            Action::End => {
                self.end_phase();
                Ok(())
            }
        }
    }

    /// Every legal single action of the current player except `End` (§8), in a fixed order:
    /// trains by level then cell, builds, then moves by level, direction and unit cell.
    pub fn single_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        for (group, cells) in self.action_groups().iter() {
            for cell in cells.iter() {
                out.push(group.action(cell));
            }
        }
    }

    /// The number of legal single actions (`single_actions(..).len()` without the list).
    pub fn count_single_actions(&self) -> u32 {
        self.action_groups()
            .iter()
            .map(|(_, cells)| cells.count())
            .sum()
    }

    /// A legal single action drawn uniformly with the random number `r`, or `None` when the
    /// player has none. This is `single_actions` without building the list.
    pub fn random_single_action(&self, r: u64) -> Option<Action> {
        let groups = self.action_groups();
        let total: u32 = groups.iter().map(|(_, cells)| cells.count()).sum();
        if total == 0 {
            return None;
        }
        groups.action((r % total as u64) as u32)
    }

    /// `State::random_action`: what the default draws from `legal_actions` (the single
    /// actions, then `End`) with the same random number, without listing them.
    fn random_legal_action(&self, r: u64) -> Option<Action> {
        if self.ending.is_some() {
            return None;
        }
        let groups = self.action_groups();
        let singles: u32 = groups.iter().map(|(_, cells)| cells.count()).sum();
        let k = (r % (singles as u64 + 1)) as u32;
        if k == singles {
            Some(Action::End)
        } else {
            groups.action(k)
        }
    }

    /// The legal single actions as groups of cells sharing one action shape.
    fn action_groups(&self) -> ActionGroups {
        let mut groups = ActionGroups {
            items: [(ActionGroup::Train(0), Bits::EMPTY); 17],
            len: 0,
        };
        if self.ending.is_some() {
            return groups;
        }
        let p = self.player;
        let gold = self.gold[p];
        let ctx = self.capture_masks(p);
        let playable = self.playable_mask(p);
        for level in 1..=self.league.top_level() {
            if gold >= UNIT_COST[level as usize] {
                groups.push(ActionGroup::Train(level), playable.and(ctx.mask(level)));
            }
        }
        if gold >= BUILD_COST && self.league.has_mines() {
            let free = playable.and(self.own[p]).and(ctx.free);
            groups.push(
                ActionGroup::Build(BuildingKind::Mine),
                free.and(self.map.spots()),
            );
            if self.league.has_towers() {
                groups.push(
                    ActionGroup::Build(BuildingKind::Tower),
                    free.minus(self.map.spots()),
                );
            }
        }
        for level in 1..=3u8 {
            let units = self.units[p][level as usize - 1].minus(self.moved);
            if units.is_empty() {
                continue;
            }
            let mask = ctx.mask(level);
            for dir in 0..4 {
                groups.push(ActionGroup::Move(dir), units.and(mask.towards(dir)));
            }
        }
        groups
    }

    // ----- internals -----

    /// R17 for player `p` entering `cell`, then R13's activity update and the HQ check.
    fn enter(&mut self, p: PlayerId, cell: Cell) {
        let q = 1 - p;
        // Units and buildings of q stand on cells of q only: the rest concerns only those.
        if self.own[q].has(cell) {
            self.lose(q, cell);
        }
        if !self.own[p].has(cell) {
            // Cells of p cut off from its HQ, which the new cell may reconnect.
            let cut_off = self.own[p].minus(self.active[p]);
            self.own[p].insert(cell);
            let around = cell.with_neighbours().and(self.playable);
            if !around.and(self.active[p]).is_empty() {
                // The new cell joins the active territory with whatever it reconnects.
                if cut_off.is_empty() {
                    // Nothing of p stands on a cell p did not own.
                    self.active[p].insert(cell);
                    self.incomes[p] += 1;
                    self.reach[p] = self.reach[p].or(around);
                    if !self.towers[p].is_empty() {
                        self.guard[p] = self.compute_guard(p);
                    }
                } else {
                    let inactive = self.own[p].minus(self.active[p]);
                    let joined = Bits::single(cell).flood(inactive);
                    self.active[p] = self.active[p].or(joined);
                    self.incomes[p] += self.income_of(p, joined);
                    self.territory_changed(p);
                }
            }
        }
    }

    /// `q` loses its cell `cell` with whatever stands on it (R17), then its activity is
    /// updated and an HQ capture ends the game.
    fn lose(&mut self, q: PlayerId, cell: Cell) {
        self.own[q].remove(cell);
        let was_active = self.active[q].has(cell);
        let had_tower = self.towers[q].has(cell);
        if was_active {
            let before = self.active[q];
            // If the neighbours of q around the lost cell stay linked inside its 3×3 block,
            // every path through the cell can go around it, so only the cell itself turns
            // inactive; otherwise flood again from the HQ.
            let neighbours = cell.with_neighbours().and(self.own[q]);
            let linked = match neighbours.first() {
                _ if cell == HQ[q] => false,
                None => true,
                Some(first) => {
                    let block = cell.with_neighbours().grow_sideways().and(self.own[q]);
                    Bits::single(first).flood(block).and(neighbours) == neighbours
                }
            };
            // What stands on the cell still counts here, as it did in the stored income.
            if linked {
                self.active[q].remove(cell);
                self.incomes[q] -= self.cell_income(q, cell);
            } else {
                self.recompute_active(q);
                self.incomes[q] -= self.income_of(q, before.minus(self.active[q]));
            }
        }
        for level in &mut self.units[q] {
            level.remove(cell);
        }
        self.mines[q].remove(cell);
        self.towers[q].remove(cell);
        if was_active || had_tower {
            self.territory_changed(q);
        }
        if cell == HQ[q] {
            self.ending = Some(Ending::HqCaptured { loser: q });
        }
    }

    fn recompute_active(&mut self, p: PlayerId) {
        self.active[p] = Bits::single(HQ[p]).flood(self.own[p]);
    }

    /// R13 and R12.3: from now on the stored incomes equal R20 of the position again.
    #[inline]
    fn recompute_incomes(&mut self) {
        self.stale_income = None;
    }

    /// The result: final scores once the game is over. Before that, the scores and ranks the
    /// turn limit would give now, with the detail `in_progress`.
    pub fn outcome(&self) -> Outcome {
        let power = [self.military_power(0), self.military_power(1)];
        match self.ending {
            Some(Ending::HqCaptured { loser }) => {
                loss_outcome(loser, power, EndReason::Finished, "hq_captured")
            }
            Some(Ending::TurnLimit) | None => Outcome {
                scores: power.to_vec(),
                ranks: ranks_from_keys(&power),
                end: EndReason::TurnLimit,
                detail: if self.ending.is_some() {
                    "turn_limit"
                } else {
                    "in_progress"
                }
                .to_string(),
                faults: vec![None, None],
                stats: Vec::new(),
            },
        }
    }
}

/// A shape of single action: the cell of a group completes it.
#[derive(Clone, Copy)]
enum ActionGroup {
    Train(u8),
    Build(BuildingKind),
    /// A move of the unit on the cell in direction 0 up, 1 right, 2 down, 3 left.
    Move(u8),
}

impl ActionGroup {
    #[inline]
    fn action(self, cell: Cell) -> Action {
        match self {
            ActionGroup::Train(level) => Action::Train { level, at: cell },
            ActionGroup::Build(kind) => Action::Build { kind, at: cell },
            ActionGroup::Move(dir) => {
                let to = Cell::from_idx(match dir {
                    0 => cell.idx() - 16,
                    1 => cell.idx() + 1,
                    2 => cell.idx() + 16,
                    _ => cell.idx() - 1,
                });
                Action::Move { from: cell, to }
            }
        }
    }
}

/// Up to 3 train groups, 2 build groups and 12 move groups.
struct ActionGroups {
    items: [(ActionGroup, Bits); 17],
    len: usize,
}

impl ActionGroups {
    #[inline]
    fn push(&mut self, group: ActionGroup, cells: Bits) {
        if !cells.is_empty() {
            self.items[self.len] = (group, cells);
            self.len += 1;
        }
    }

    fn iter(&self) -> std::slice::Iter<'_, (ActionGroup, Bits)> {
        self.items[..self.len].iter()
    }

    /// The `k`-th action in the order of `GameState::single_actions`.
    fn action(&self, mut k: u32) -> Option<Action> {
        for (group, cells) in self.iter() {
            let n = cells.count();
            if k < n {
                return cells.nth(k).map(|cell| group.action(cell));
            }
            k -= n;
        }
        None
    }
}

/// R15 precomputed for one player (`GameState::capture_masks`): `mask(level)` is
/// `capturable` for every cell.
pub struct CaptureMasks {
    /// Playable cells with no unit and no building (R15.3).
    free: Bits,
    /// Playable cells with a unit or a building that `p` does not own (R15.5–6).
    hit: Bits,
    /// Cells only a level-3 unit may enter (R15.1–2).
    guarded: Bits,
    at_least: [Bits; 3],
    top: u8,
}

impl CaptureMasks {
    /// Playable cells with no unit and no building.
    #[inline]
    pub fn free(&self) -> Bits {
        self.free
    }

    /// The cells a level-`level` unit may enter (R15).
    #[inline]
    pub fn mask(&self, level: u8) -> Bits {
        let hit = if level == self.top {
            self.hit
        } else {
            self.hit.minus(self.at_least[level as usize - 1])
        };
        let all = self.free.or(hit);
        if level < 3 {
            all.minus(self.guarded)
        } else {
            all
        }
    }
}

/// An outcome where `loser` scores −1 and the other player its military power (R30, R33, R34);
/// the detail is `<what>_p<loser>_lost`.
pub fn loss_outcome(loser: PlayerId, power: [i64; 2], end: EndReason, what: &str) -> Outcome {
    let mut scores = power.to_vec();
    scores[loser] = -1;
    let mut ranks = vec![1, 1];
    ranks[loser] = 2;
    Outcome {
        scores,
        ranks,
        end,
        detail: format!("{what}_p{loser}_lost"),
        faults: vec![None, None],
        stats: Vec::new(),
    }
}

impl State for GameState {
    type Action = Action;

    fn n_players(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<PlayerId> {
        self.ending.is_none().then_some(self.player)
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.single_actions(out);
        if self.ending.is_none() {
            out.push(Action::End);
        }
    }

    fn is_legal(&self, action: &Action) -> bool {
        self.is_legal_now(action)
    }

    fn apply(&mut self, action: &Action) {
        self.apply_unchecked(action);
    }

    fn random_action(
        &self,
        rng: &mut impl rand_core::RngCore,
        _buf: &mut Vec<Action>,
    ) -> Option<Action> {
        self.random_legal_action(rng.next_u64())
    }

    fn outcome(&self) -> Outcome {
        GameState::outcome(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::random_attempt;
    use rand_core::RngCore;

    /// R5 and R13: the incremental activity updates equal a fresh flood fill from each HQ
    /// after every action of many random games, and the stored income equals R20 except
    /// right after a bankruptcy.
    #[test]
    fn r5_incremental_activity_matches_a_full_recompute() {
        let mut rng = realm_core::chacha_rng(5, 0);
        let mut n_checks = 0;
        for seed in 0..12 {
            let league = League::new(1 + seed as u32 % 4).unwrap();
            let mut s = GameState::new(seed, league);
            while s.ending().is_none() {
                for _ in 0..4 {
                    if let Some(action) = random_attempt(&s, rng.next_u64()) {
                        s.apply_unchecked(&action);
                        for (p, &hq) in HQ.iter().enumerate() {
                            assert_eq!(
                                s.active[p],
                                Bits::single(hq).flood(s.own[p]),
                                "seed {seed}"
                            );
                            assert_eq!(s.income(p), s.compute_income(p));
                            assert_eq!(s.occupied(), s.compute_occupied());
                            assert_eq!(s.reach[p], s.active[p].grow(s.playable));
                            assert_eq!(s.guard[p], s.compute_guard(p));
                            let masks = s.capture_masks(p);
                            for level in 1..=3 {
                                assert_eq!(s.capture_mask(p, level), masks.mask(level));
                            }
                        }
                        n_checks += 1;
                    }
                }
                s.end_phase();
                if !s.last_phase_start().bankrupt {
                    assert_eq!(s.income(s.player()), s.compute_income(s.player()));
                }
            }
        }
        assert!(n_checks > 2000, "{n_checks}");
    }

    /// `random_action` draws what the trait's default would: `legal_actions` indexed by the
    /// same random number.
    #[test]
    fn random_action_matches_the_listed_draw() {
        let mut rng = realm_core::chacha_rng(11, 0);
        let mut listed = Vec::new();
        for seed in 0..8 {
            let mut s = GameState::new(seed, League::new(1 + seed as u32 % 4).unwrap());
            while s.ending().is_none() {
                s.legal_actions(&mut listed);
                for _ in 0..8 {
                    let r = rng.next_u64();
                    let expected = listed[(r % listed.len() as u64) as usize];
                    assert_eq!(s.random_legal_action(r), Some(expected));
                }
                let action = s.random_legal_action(rng.next_u64()).unwrap();
                s.apply(&action);
            }
            assert_eq!(s.random_legal_action(rng.next_u64()), None);
        }
    }

    #[test]
    fn single_actions_are_exactly_the_actions_that_succeed() {
        let mut rng = realm_core::chacha_rng(9, 0);
        let mut all = Vec::new();
        for seed in 0..4 {
            let mut s = GameState::new(seed, League::new(4).unwrap());
            for _ in 0..60 {
                s.single_actions(&mut all);
                for a in &all {
                    assert!(s.clone().play(a).is_ok(), "{a:?} is listed but fails");
                }
                // Every TRAIN, BUILD and adjacent MOVE that is not listed fails.
                let listed = all.len();
                let mut succeeded = 0;
                for cell in s.map().playable().iter() {
                    for level in 1..=3 {
                        succeeded +=
                            s.clone().play(&Action::Train { level, at: cell }).is_ok() as usize;
                    }
                    for kind in [BuildingKind::Mine, BuildingKind::Tower] {
                        succeeded +=
                            s.clone().play(&Action::Build { kind, at: cell }).is_ok() as usize;
                    }
                    for to in s.map().neighbours(cell) {
                        succeeded +=
                            s.clone().play(&Action::Move { from: cell, to }).is_ok() as usize;
                    }
                }
                assert_eq!(succeeded, listed);
                if let Some(a) = random_attempt(&s, rng.next_u64()) {
                    s.apply_unchecked(&a);
                }
                if rng.next_u32() % 3 == 0 {
                    s.end_phase();
                }
            }
        }
    }
}
