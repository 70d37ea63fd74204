//! The game as a pure state machine (§2): lines, slots, turn order from picked IDs, placing or
//! discarding, picking, eliminations and the end of the game. `Game<B>` is generic over the
//! bitboard of its grid size; `GameState` wraps both sizes behind `realm_core::State`.
//!
//! Text, time limits and answer parsing live in `protocol.rs` and `referee.rs`; this module
//! only offers the primitive steps (`place`, `discard`, `pick`, `eliminate`, `end_slot`) the
//! referee combines, and `apply` for in-process play where every action is legal.

use realm_core::{below, EndReason, Outcome, PlayerId, SplitMix64, Stat, State};

use crate::bits::{coords, Bits, Wide};
use crate::kingdom::{Kingdom, Placement};
use crate::scoring::{displayed_scores, ranks, Standing};
use crate::setup::{deal_line_array, sort_line, Config, Mode, MAX_LINES};
use crate::tiles::{tile, Tile};

/// One tile of a line: its ID (0 for a placeholder) and the seat that picked it, if any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    pub id: u8,
    pub owner: Option<u8>,
}

/// One slot's move in process-free play: the placement (`None` in turn 1 or when the tile has
/// no legal placement) and the pick (`None` in the last turn).
///
/// For the symmetric tiles 1–12 only rotations 0 and 1 are listed, so that every listed action
/// gives a distinct kingdom (R18); the referee still accepts all four rotations.
///
/// Packed into 32 bits (x, y, r, a placement flag and the picked ID, 0 = none) because random
/// playouts write thousands of actions per game.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Action(u32);

const HAS_PUT: u32 = 1 << 23;

impl Action {
    pub fn new(put: Option<Placement>, pick: Option<u8>) -> Self {
        let put_bits = match put {
            Some(p) => HAS_PUT | u32::from(p.x) | u32::from(p.y) << 8 | u32::from(p.r & 3) << 16,
            None => 0,
        };
        Action(put_bits | u32::from(pick.unwrap_or(0)) << 24)
    }

    pub fn put(self) -> Option<Placement> {
        (self.0 & HAS_PUT != 0).then_some(Placement {
            x: self.0 as u8,
            y: (self.0 >> 8) as u8,
            r: ((self.0 >> 16) & 3) as u8,
        })
    }

    pub fn pick(self) -> Option<u8> {
        let id = (self.0 >> 24) as u8;
        (id != 0).then_some(id)
    }
}

impl std::fmt::Debug for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Action")
            .field("put", &self.put())
            .field("pick", &self.pick())
            .finish()
    }
}

const MAX_PLAYERS: usize = 4;

/// A game in progress on grids of side `B::S`.
#[derive(Clone, Debug)]
pub struct Game<B: Bits> {
    config: Config,
    // Cached from `config`: computing them divides, and playouts ask for them every slot.
    n_turns: u32,
    line_len: u8,
    lines: [[u8; 4]; MAX_LINES],
    kingdoms: [Kingdom<B>; MAX_PLAYERS],
    /// 1..=T; stays at T once the game is over.
    turn: u32,
    /// Index into `current` of the slot being played.
    slot: usize,
    current: [Slot; 4],
    next: [Slot; 4],
    /// The IDs of `next` nobody has picked yet: kept by `set_next` and `pick` rather than
    /// gathered from `next` at every listing.
    open: OpenPicks,
    /// `to_move` and `slot_tile` as `advance` last left them: each decision asks for them
    /// several times.
    mover: Option<u8>,
    in_hand: Option<&'static Tile>,
    eliminated: [bool; MAX_PLAYERS],
    placed: [u8; MAX_PLAYERS],
    discarded: [u8; MAX_PLAYERS],
    over: bool,
}

impl<B: Bits> Game<B> {
    /// A new game; `config.size()` must equal `B::S` (use `GameState::new` to choose).
    pub fn new(config: Config, seed: u64) -> Self {
        debug_assert_eq!(config.size(), B::S);
        let lines = deal_line_array(&config, seed);
        let mut current = [Slot { id: 0, owner: None }; 4];
        for (slot, player) in current.iter_mut().zip(config.first_turn_players()) {
            slot.owner = Some(player as u8);
        }
        let mut game = Game {
            config,
            n_turns: config.n_turns(),
            line_len: config.line_len() as u8,
            lines,
            kingdoms: [Kingdom::new(); MAX_PLAYERS],
            turn: 1,
            slot: 0,
            current,
            next: [Slot { id: 0, owner: None }; 4],
            open: OpenPicks(0),
            mover: None,
            in_hand: None,
            eliminated: [false; MAX_PLAYERS],
            placed: [0; MAX_PLAYERS],
            discarded: [0; MAX_PLAYERS],
            over: false,
        };
        game.set_next(game.fresh_line(1));
        game.advance();
        game
    }

    /// A game in turn `turn` at slot `slot` of `current`, as a player sees it, with the
    /// hidden future lines given (`future[0]` is line `turn + 1`): what a search bot samples.
    /// Kingdoms are in seat order; a player's placed tiles are counted from its kingdom and
    /// its discards are unknown (0), which only the result figures show.
    pub fn from_parts(
        config: Config,
        kingdoms: &[Kingdom<B>],
        turn: u32,
        slot: usize,
        current: [Slot; 4],
        next: [Slot; 4],
        future: &[[u8; 4]],
    ) -> Self {
        let mut lines = [[0u8; 4]; MAX_LINES];
        for (k, line) in future.iter().enumerate() {
            if let Some(l) = lines.get_mut(turn as usize + k) {
                *l = *line;
            }
        }
        let mut all = [Kingdom::new(); MAX_PLAYERS];
        let mut placed = [0u8; MAX_PLAYERS];
        for (p, k) in kingdoms.iter().enumerate().take(MAX_PLAYERS) {
            all[p] = *k;
            placed[p] = (k.territory() / 2) as u8;
        }
        let n_turns = config.n_turns();
        let mut game = Game {
            config,
            n_turns,
            line_len: config.line_len() as u8,
            lines,
            kingdoms: all,
            turn: turn.clamp(1, n_turns),
            slot,
            current,
            next,
            open: OpenPicks(0),
            mover: None,
            in_hand: None,
            eliminated: [false; MAX_PLAYERS],
            placed,
            discarded: [0; MAX_PLAYERS],
            over: false,
        };
        game.set_next(next);
        game.advance();
        game
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The dealt lines, line k at index k - 1 (lines not dealt yet included: they are the
    /// hidden part of the game).
    pub fn lines(&self) -> &[[u8; 4]] {
        &self.lines[..self.config.n_lines()]
    }

    /// The current turn, 1..=T.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The tiles being played this turn (placeholders in turn 1), `line_len` of them.
    pub fn current(&self) -> &[Slot] {
        &self.current[..self.line_len as usize]
    }

    /// The tiles to pick from this turn (placeholders in the last turn).
    pub fn next(&self) -> &[Slot] {
        &self.next[..self.line_len as usize]
    }

    /// Index in `current` of the slot being played.
    pub fn slot_index(&self) -> usize {
        self.slot
    }

    pub fn kingdom(&self, player: PlayerId) -> &Kingdom<B> {
        &self.kingdoms[player]
    }

    pub fn is_eliminated(&self, player: PlayerId) -> bool {
        self.eliminated[player]
    }

    pub fn tiles_placed(&self, player: PlayerId) -> u32 {
        self.placed[player] as u32
    }

    pub fn tiles_discarded(&self, player: PlayerId) -> u32 {
        self.discarded[player] as u32
    }

    /// The player of the current slot, or `None` when the game is over.
    pub fn to_move(&self) -> Option<PlayerId> {
        self.mover.map(usize::from)
    }

    /// The tile to place in the current slot (`None` in turn 1).
    pub fn slot_tile(&self) -> Option<&'static Tile> {
        self.in_hand
    }

    /// True when this turn has a line to pick from (t < T, R10).
    pub fn picks_this_turn(&self) -> bool {
        self.turn < self.n_turns
    }

    /// True when the current slot's tile has a legal placement (R15); false in turn 1.
    pub fn can_place(&self) -> bool {
        match (self.slot_tile(), self.to_move()) {
            (Some(t), Some(p)) => self.kingdoms[p].can_place(t, self.config.rules),
            _ => false,
        }
    }

    /// True when `placement` of the slot's tile is legal for the player to move (R14).
    pub fn is_legal_placement(&self, placement: Placement) -> bool {
        match (self.slot_tile(), self.to_move()) {
            (Some(t), Some(p)) => self.kingdoms[p].is_legal(t, placement, self.config.rules),
            _ => false,
        }
    }

    /// True when `id` may be picked now (R19): in the line and not yet taken this turn.
    pub fn is_valid_pick(&self, id: i64) -> bool {
        self.picks_this_turn()
            && self
                .next()
                .iter()
                .any(|s| i64::from(s.id) == id && s.owner.is_none())
    }

    /// Lays the slot's tile at `placement` (the caller checked legality).
    // Inlined: a step of every playout (4% faster games; BENCHMARKS.md).
    #[inline(always)]
    pub fn place(&mut self, placement: Placement) {
        if let (Some(t), Some(p)) = (self.slot_tile(), self.to_move()) {
            self.kingdoms[p].place(t, placement);
            self.placed[p] += 1;
        }
    }

    /// Throws the slot's tile away (R15, R16).
    pub fn discard(&mut self) {
        if let (Some(_), Some(p)) = (self.slot_tile(), self.to_move()) {
            self.discarded[p] += 1;
        }
    }

    /// Records the player to move as the owner of tile `id` (the caller checked validity).
    // The slot is found without a branch per slot: which one holds `id` is random to the
    // branch predictor, and a playout picks at every decision.
    #[inline(always)]
    pub fn pick(&mut self, id: u8) {
        let Some(player) = self.to_move() else { return };
        let k = first_byte_equal(u32::from_le_bytes(self.next.map(|s| s.id)), id) as usize;
        if id != 0 && k < 4 {
            self.next[k].owner = Some(player as u8);
            self.open = self.open.without(id);
        }
    }

    /// Lays out the line to pick from and its open IDs.
    fn set_next(&mut self, next: [Slot; 4]) {
        self.next = next;
        let mut packed = 0u32;
        let mut n = 0;
        for s in &next {
            if s.owner.is_none() && s.id != 0 {
                packed |= u32::from(s.id) << (8 * n);
                n += 1;
            }
        }
        self.open = OpenPicks(packed);
    }

    /// Eliminates `player` (R29, R30): it gets no more slots; its kingdom stays as it is.
    pub fn eliminate(&mut self, player: PlayerId) {
        if player < self.config.n_players {
            self.eliminated[player] = true;
        }
    }

    /// Closes the current slot and moves to the next one that has an active owner.
    pub fn end_slot(&mut self) {
        if !self.over {
            self.slot += 1;
            self.advance();
        }
    }

    /// Skips slots without an active owner (R11), turning over lines at the end of each turn,
    /// and ends the game after turn T or when nobody is active (R28).
    // Inlined: a step of every playout (4% faster games; BENCHMARKS.md).
    #[inline(always)]
    fn advance(&mut self) {
        self.advance_slot();
        let slot = (!self.over).then(|| self.current[self.slot]);
        self.mover = slot.and_then(|s| s.owner);
        self.in_hand = slot.filter(|_| self.turn > 1).and_then(|s| tile(s.id));
    }

    #[inline(always)]
    fn advance_slot(&mut self) {
        let n = self.config.n_players;
        let len = self.line_len as usize;
        loop {
            if self.eliminated[..n].iter().all(|&e| e) {
                self.over = true;
                return;
            }
            while self.slot < len {
                if let Some(owner) = self.current[self.slot].owner {
                    if !self.eliminated[owner as usize] {
                        return;
                    }
                }
                self.slot += 1;
            }
            if self.turn >= self.n_turns {
                self.over = true;
                return;
            }
            self.turn += 1;
            self.current = self.next;
            self.set_next(self.fresh_line(self.turn));
            self.slot = 0;
        }
    }

    /// Deals the lines no player has seen yet (after `next`) anew from the same tiles, in a
    /// seeded random order, each line sorted by ID as dealt (R5): a determinization of the
    /// hidden part of the game, for sampling search and for checking what observations hide.
    pub fn reshuffle_hidden(&mut self, seed: u64) {
        let len = self.line_len as usize;
        let n_lines = self.config.n_lines();
        // In the last turn (n_lines + 1) every line has been dealt: nothing is hidden.
        let first_hidden = (self.turn as usize).min(n_lines);
        let hidden = &mut self.lines[first_hidden..n_lines];
        let mut ids: Vec<u8> = hidden
            .iter()
            .flat_map(|l| l[..len].iter().copied())
            .collect();
        SplitMix64::new(seed).shuffle(&mut ids);
        for (line, chunk) in hidden.iter_mut().zip(ids.chunks(len)) {
            line[..len].copy_from_slice(chunk);
            sort_line(&mut line[..len]);
        }
    }

    // Line `k` (1-based) without owners, or placeholders when there is none.
    fn fresh_line(&self, k: u32) -> [Slot; 4] {
        let mut line = [Slot { id: 0, owner: None }; 4];
        if k < self.n_turns {
            for (slot, &id) in line.iter_mut().zip(&self.lines[k as usize - 1]) {
                slot.id = id;
            }
        }
        line
    }

    /// Zone score plus enabled bonuses, territory and crowns of `player` (R22, R23, §6.2).
    pub fn standing(&self, player: PlayerId) -> Standing {
        let k = &self.kingdoms[player];
        Standing {
            score: score_with_bonuses(k, self.tiles_placed(player), &self.config),
            territory: k.territory(),
            crowns: k.crowns(),
        }
    }

    /// Every seat's score (zones plus enabled bonuses, R22), without allocating; seats past
    /// the player count hold 0. What a playout that only needs the scores asks for.
    pub fn scores(&self) -> [u32; MAX_PLAYERS] {
        let mut scores = [0; MAX_PLAYERS];
        for (p, score) in scores[..self.config.n_players].iter_mut().enumerate() {
            *score = score_with_bonuses(&self.kingdoms[p], self.tiles_placed(p), &self.config);
        }
        scores
    }

    pub fn standings(&self) -> Vec<Standing> {
        (0..self.config.n_players)
            .map(|p| self.standing(p))
            .collect()
    }

    /// Displayed scores (R25) of every player.
    pub fn displayed_scores(&self) -> Vec<u32> {
        displayed_scores(&self.standings())
    }

    /// Outcome without faults: displayed scores, ranks from the key, the R27 figures in `stats`.
    /// The referee adds faults.
    pub fn base_outcome(&self) -> Outcome {
        let standings = self.standings();
        let mut outcome = self.result_of(&standings);
        outcome.stats = self.stats(&standings);
        outcome
    }

    /// `base_outcome` without the R27 figures (`stats` empty): the scores and ranks a search
    /// needs at the end of every playout, at a fraction of the allocations.
    pub fn result(&self) -> Outcome {
        let n = self.config.n_players;
        let mut standings = [Standing::default(); MAX_PLAYERS];
        for (p, standing) in standings[..n].iter_mut().enumerate() {
            *standing = self.standing(p);
        }
        self.result_of(&standings[..n])
    }

    fn result_of(&self, standings: &[Standing]) -> Outcome {
        let n = self.config.n_players;
        let all_out = self.eliminated[..n].iter().all(|&e| e);
        let any_out = self.eliminated[..n].iter().any(|&e| e);
        let (end, detail) = if all_out {
            (EndReason::Eliminations, "all_players_eliminated")
        } else if any_out {
            (EndReason::Finished, "all_turns_played_after_eliminations")
        } else {
            (EndReason::Finished, "all_turns_played")
        };
        Outcome {
            scores: displayed_scores(standings)
                .into_iter()
                .map(i64::from)
                .collect(),
            ranks: ranks(standings),
            end,
            detail: detail.to_string(),
            faults: vec![None; n],
            stats: Vec::new(),
        }
    }

    /// The result figures of R27 beyond displayed score and rank, one value per seat: `score`
    /// (zones plus bonuses, before the display points of R25), `territory`, `crowns`,
    /// `tiles_placed` and `tiles_discarded` (tiles lost under R11 count as neither).
    fn stats(&self, standings: &[Standing]) -> Vec<Stat> {
        let n = self.config.n_players;
        let stat = |name: &str, value: &dyn Fn(PlayerId) -> u32| Stat {
            name: name.to_string(),
            values: (0..n).map(|p| i64::from(value(p))).collect(),
        };
        vec![
            stat("raw_score", &|p| standings[p].score),
            stat("territory", &|p| standings[p].territory),
            stat("crowns", &|p| standings[p].crowns),
            stat("tiles_placed", &|p| self.tiles_placed(p)),
            stat("tiles_discarded", &|p| self.tiles_discarded(p)),
        ]
    }

    /// The dominoes the player may pick this turn, packed one ID a byte from the lowest (a
    /// zero byte is no pick), and how many there are: one zero on the last turn, when nobody
    /// picks. Packed in a register, not an array: the IDs are read by variable shifts, and
    /// byte stores at a variable index would stall the wider reads that follow.
    fn open_picks(&self) -> (OpenPicks, usize) {
        if !self.picks_this_turn() {
            return (OpenPicks(0), 1);
        }
        (self.open, self.open.len())
    }

    /// Where `player` may place the domino in hand, per rotation (a symmetric tile only in
    /// rotations 0 and 1, so each placement is listed once); `None` when nothing is in hand.
    // Inlined, as `Kingdom::legal_masks` is (8% faster listings together).
    #[inline(always)]
    fn placement_masks(&self, player: PlayerId) -> Option<[B; 4]> {
        let t = self.slot_tile()?;
        let mut masks = self.kingdoms[player].legal_masks(t, self.config.rules);
        if t.is_symmetric() {
            masks[2] = B::ZERO;
            masks[3] = B::ZERO;
        }
        Some(masks)
    }

    /// The listed legal actions (see `Action`), without allocating beyond `out`'s capacity.
    pub fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        let Some(player) = self.to_move() else { return };
        let (picks, n_picks) = self.open_picks();
        let discards = |out: &mut Vec<Action>| {
            out.extend((0..n_picks).map(|k| Action::new(None, picks.get(k))));
        };
        let Some(masks) = self.placement_masks(player) else {
            return discards(out);
        };
        // Written without capacity checks into room for the most a grid allows, and counted
        // as written rather than first (eight population counts): about half of a random
        // playout that lists its actions is spent here.
        let room = max_listed::<B>();
        out.reserve(room);
        let picks_bits = [0, 8, 16, 24].map(|shift| (picks.0 >> shift) << 24);
        let written = write_actions(
            &masks,
            picks_bits,
            n_picks,
            &mut out.spare_capacity_mut()[..room],
        );
        // SAFETY: `write_actions` initialised the first `written` entries (one per placement
        // and pick).
        unsafe { out.set_len(written) };
        if written == 0 {
            // No legal placement: the tile is discarded (R15).
            discards(out);
        }
    }

    /// A uniformly random legal action drawn from the bits of `r`, without listing them: the
    /// same choice as picking from `legal_actions_into`, at a fraction of the cost.
    pub fn random_action(&self, r: u64) -> Option<Action> {
        let player = self.to_move()?;
        let (picks, n_picks) = self.open_picks();
        let pick = |k: usize| picks.get(k);
        let Some(masks) = self.placement_masks(player) else {
            return Some(Action::new(None, pick(below(r, n_picks))));
        };
        let counts = masks.map(|m| m.count() as usize);
        let n_placements: usize = counts.iter().sum();
        if n_placements == 0 {
            return Some(Action::new(None, pick(below(r, n_picks))));
        }
        // Placement-major, as listed: choice k is placement k / n_picks with pick k % n_picks.
        let k = below(r, n_placements * n_picks);
        let mut placement = k / n_picks;
        for (rotation, (mask, count)) in masks.iter().zip(counts).enumerate() {
            if placement < count {
                let i = mask.iter().nth(placement).expect("counted bit");
                let (x, y) = coords::<B>(i);
                let put = Placement {
                    x: x as u8,
                    y: y as u8,
                    r: rotation as u8,
                };
                return Some(Action::new(Some(put), pick(k % n_picks)));
            }
            placement -= count;
        }
        unreachable!("the placement index is below the total count")
    }

    /// True when `action` is one of the listed legal actions.
    pub fn is_legal_action(&self, action: &Action) -> bool {
        if self.over {
            return false;
        }
        let pick_ok = match action.pick() {
            Some(id) => self.is_valid_pick(i64::from(id)),
            None => !self.picks_this_turn(),
        };
        let put_ok = match (self.slot_tile(), action.put()) {
            (None, put) => put.is_none(),
            (Some(t), Some(p)) => !(t.is_symmetric() && p.r >= 2) && self.is_legal_placement(p),
            (Some(_), None) => !self.can_place(),
        };
        pick_ok && put_ok
    }

    /// Plays a legal action: place or discard, pick, next slot.
    // Inlined: a step of every playout (4% faster games; BENCHMARKS.md).
    #[inline(always)]
    pub fn apply_action(&mut self, action: &Action) {
        if self.slot_tile().is_some() {
            match action.put() {
                Some(p) => self.place(p),
                None => self.discard(),
            }
        }
        if let Some(id) = action.pick() {
            self.pick(id);
        }
        self.end_slot();
    }
}

/// Zone score plus the enabled bonuses (R22, §6.2): Middle Kingdom +10 when every placed
/// square is within (E − 1) / 2 of the castle, Harmony +5 when all the player's tiles were
/// placed.
pub fn score_with_bonuses<B: Bits>(
    kingdom: &Kingdom<B>,
    tiles_placed: u32,
    config: &Config,
) -> u32 {
    let mut score = kingdom.zone_score();
    if config.middle_kingdom && kingdom.is_centred() {
        score += 10;
    }
    if config.harmony && tiles_placed == config.tiles_per_player() {
        score += 5;
    }
    score
}

/// The index of the first byte of `packed` (from the lowest) equal to `byte`, or 4 when none
/// is; found without a branch per byte, since where an ID sits is random.
fn first_byte_equal(packed: u32, byte: u8) -> u32 {
    const ONES: u32 = 0x0101_0101;
    let differ = packed ^ (u32::from(byte) * ONES);
    // The lowest flagged byte is the first zero byte of `differ` (higher flags may be false).
    let zero_bytes = differ.wrapping_sub(ONES) & !differ & 0x8080_8080;
    zero_bytes.trailing_zeros() / 8
}

/// Up to four domino IDs, one a byte from the lowest; 0 is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OpenPicks(u32);

impl OpenPicks {
    fn get(self, k: usize) -> Option<u8> {
        let id = (self.0 >> (8 * k)) as u8;
        (id != 0).then_some(id)
    }

    /// How many IDs there are: they fill the bytes from the lowest, and none is 0.
    fn len(self) -> usize {
        (32 - self.0.leading_zeros() as usize).div_ceil(8)
    }

    /// The IDs without `id` (which must be one of them), the later ones moved down a byte;
    /// found without a branch per byte, since where a pick sits is random.
    fn without(self, id: u8) -> OpenPicks {
        let below = (1u64 << (8 * first_byte_equal(self.0, id))) - 1;
        let packed = u64::from(self.0);
        OpenPicks(((packed & below) | (packed >> 8 & !below)) as u32)
    }
}

/// Room for any four masks of `B`: four picks for each set bit of each, and the three
/// entries of slack `write_actions` needs.
const fn max_listed<B: Bits>() -> usize {
    4 * B::BITS * 4 + 3
}

/// Writes placement × pick actions into `out`, `n_picks` per placement, placement-major, and
/// returns how many it wrote. All four picks of a placement are written at once (one vector
/// store) and the position then advances by `n_picks`, so `out` needs three entries of slack
/// past the last action; the entries past the count are left as scratch.
fn write_actions<B: Bits>(
    masks: &[B; 4],
    picks_bits: [u32; 4],
    n_picks: usize,
    out: &mut [std::mem::MaybeUninit<Action>],
) -> usize {
    assert!(out.len() >= max_listed::<B>() && n_picks <= 4);
    let out = out.as_mut_ptr().cast::<Action>();
    let mut at = 0;
    let picks = PickGroup::new(picks_bits);
    let mut write = |put: u32| {
        // SAFETY: at most 4 × BITS placements advance `at` by at most 4 each, so `at + 4`
        // stays within the `max_listed` entries asserted above. Written through a pointer
        // because the slice's two bounds checks a placement cost 4% of a listing game.
        unsafe { picks.write(put, out.add(at)) };
        at += n_picks;
    };
    for (r, mask) in masks.iter().enumerate() {
        let rotation = HAS_PUT | (r as u32) << 16;
        for i in mask.iter() {
            write(rotation | B::packed_cell(i));
        }
    }
    at
}

/// The four pick bits of a listing, held where one instruction combines them with a
/// placement and one store writes the four actions: on x86-64 an SSE2 register (SSE2 is part
/// of x86-64), where the compiler wrote four 4-byte stores (a 16-byte store made listing
/// games 5-7% faster).
#[derive(Clone, Copy)]
struct PickGroup {
    #[cfg(target_arch = "x86_64")]
    bits: std::arch::x86_64::__m128i,
    #[cfg(not(target_arch = "x86_64"))]
    bits: [u32; 4],
}

impl PickGroup {
    #[inline(always)]
    fn new(picks_bits: [u32; 4]) -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            // SAFETY: SSE2 is part of x86-64, and the load reads the four u32 of the array.
            let bits = unsafe { std::arch::x86_64::_mm_loadu_si128(picks_bits.as_ptr().cast()) };
            PickGroup { bits }
        }
        #[cfg(not(target_arch = "x86_64"))]
        PickGroup { bits: picks_bits }
    }

    /// Writes the four actions `put | pick` from `to` on.
    ///
    /// # Safety
    /// `to` must be valid for writing four actions.
    #[inline(always)]
    unsafe fn write(self, put: u32, to: *mut Action) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_or_si128, _mm_set1_epi32, _mm_storeu_si128};
            // SAFETY: SSE2 is part of x86-64; the caller vouches for the four actions at `to`
            // (an unaligned store; Action is a transparent u32).
            unsafe {
                let group = _mm_or_si128(_mm_set1_epi32(put as i32), self.bits);
                _mm_storeu_si128(to.cast(), group);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let group = self.bits.map(|pick| Action(put | pick));
            // SAFETY: the caller vouches for the four actions at `to`.
            unsafe { to.cast::<[Action; 4]>().write_unaligned(group) };
        }
    }
}

/// Either grid size behind one `State`, for search bots and benchmarks.
// Both variants stay inline: boxing the Duel would turn every clone a search makes into an
// allocation, while the size difference only costs some bytes per standard state.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum GameState {
    Standard(Game<u128>),
    Duel(Game<Wide>),
}

impl GameState {
    pub fn new(config: Config, seed: u64) -> Self {
        match config.mode {
            Mode::Standard => GameState::Standard(Game::new(config, seed)),
            Mode::Duel => GameState::Duel(Game::new(config, seed)),
        }
    }

    pub fn config(&self) -> &Config {
        match self {
            GameState::Standard(g) => g.config(),
            GameState::Duel(g) => g.config(),
        }
    }

    /// See `Game::reshuffle_hidden`.
    pub fn reshuffle_hidden(&mut self, seed: u64) {
        match self {
            GameState::Standard(g) => g.reshuffle_hidden(seed),
            GameState::Duel(g) => g.reshuffle_hidden(seed),
        }
    }

    pub fn standings(&self) -> Vec<Standing> {
        match self {
            GameState::Standard(g) => g.standings(),
            GameState::Duel(g) => g.standings(),
        }
    }

    /// See `Game::scores`.
    pub fn scores(&self) -> [u32; MAX_PLAYERS] {
        match self {
            GameState::Standard(g) => g.scores(),
            GameState::Duel(g) => g.scores(),
        }
    }
}

/// One grid size's game under the `State` contract (what search bots use, with no dispatch
/// on the size per step).
impl<B: Bits> State for Game<B> {
    type Action = Action;

    fn n_players(&self) -> usize {
        self.config.n_players
    }

    fn to_move(&self) -> Option<PlayerId> {
        Game::to_move(self)
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.legal_actions_into(out);
    }

    fn is_legal(&self, action: &Action) -> bool {
        self.is_legal_action(action)
    }

    fn apply(&mut self, action: &Action) {
        self.apply_action(action);
    }

    fn random_action(
        &self,
        rng: &mut impl rand_core::RngCore,
        _buf: &mut Vec<Action>,
    ) -> Option<Action> {
        Game::random_action(self, rng.next_u64())
    }

    /// Without the R27 figures (see `result`); the referee's outcome has them.
    fn outcome(&self) -> Outcome {
        self.result()
    }
}

impl State for GameState {
    type Action = Action;

    fn n_players(&self) -> usize {
        self.config().n_players
    }

    #[inline]
    fn to_move(&self) -> Option<PlayerId> {
        match self {
            GameState::Standard(g) => g.to_move(),
            GameState::Duel(g) => g.to_move(),
        }
    }

    #[inline]
    fn legal_actions(&self, out: &mut Vec<Action>) {
        match self {
            GameState::Standard(g) => g.legal_actions_into(out),
            GameState::Duel(g) => g.legal_actions_into(out),
        }
    }

    fn is_legal(&self, action: &Action) -> bool {
        match self {
            GameState::Standard(g) => g.is_legal_action(action),
            GameState::Duel(g) => g.is_legal_action(action),
        }
    }

    #[inline]
    fn apply(&mut self, action: &Action) {
        match self {
            GameState::Standard(g) => g.apply_action(action),
            GameState::Duel(g) => g.apply_action(action),
        }
    }

    fn random_action(
        &self,
        rng: &mut impl rand_core::RngCore,
        _buf: &mut Vec<Action>,
    ) -> Option<Action> {
        let r = rng.next_u64();
        match self {
            GameState::Standard(g) => g.random_action(r),
            GameState::Duel(g) => g.random_action(r),
        }
    }

    /// Without the R27 figures (see `Game::result`); the referee's outcome has them.
    fn outcome(&self) -> Outcome {
        match self {
            GameState::Standard(g) => g.result(),
            GameState::Duel(g) => g.result(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(slots: &[Slot]) -> Vec<u8> {
        slots.iter().map(|s| s.id).collect()
    }

    #[test]
    fn the_state_outcome_is_the_referee_outcome_without_figures() {
        let mut g: Game<u128> = Game::new(Config::new(Mode::Standard, 4), 3);
        let mut buf = Vec::new();
        while g.to_move().is_some() {
            g.legal_actions_into(&mut buf);
            let pick = buf[buf.len() / 2];
            g.apply_action(&pick);
        }
        let (full, lean) = (g.base_outcome(), State::outcome(&g));
        assert_eq!(full.stats.len(), 5);
        assert!(lean.stats.is_empty());
        assert_eq!(
            Outcome {
                stats: Vec::new(),
                ..full
            },
            lean
        );
    }

    #[test]
    fn r7_r8_turn_order_follows_picked_ids() {
        let mut g: Game<u128> = Game::new(Config::new(Mode::Standard, 2), 1);
        assert_eq!(ids(g.next()), vec![5, 10, 36, 40]);
        // Turn 1 in seat order 0, 1, 0, 1 (R7), picks as in §3.5.
        for (seat, id) in [(0, 40), (1, 36), (0, 5), (1, 10)] {
            assert_eq!(g.to_move(), Some(seat));
            g.apply_action(&Action::new(None, Some(id)));
        }
        assert_eq!(g.turn(), 2);
        assert_eq!(ids(g.current()), vec![5, 10, 36, 40]);
        let order: Vec<Option<u8>> = g.current().iter().map(|s| s.owner).collect();
        assert_eq!(order, vec![Some(0), Some(1), Some(1), Some(0)]);
        assert_eq!(g.to_move(), Some(0));
        assert_eq!(ids(g.next()), vec![11, 13, 27, 48]);
    }

    #[test]
    fn actions_pack_and_unpack() {
        let put = Placement { x: 12, y: 7, r: 3 };
        let a = Action::new(Some(put), Some(48));
        assert_eq!((a.put(), a.pick()), (Some(put), Some(48)));
        let b = Action::new(None, None);
        assert_eq!((b.put(), b.pick()), (None, None));
        assert_ne!(Action::new(Some(Placement { x: 0, y: 0, r: 0 }), None), b);
        assert_eq!(format!("{b:?}"), "Action { put: None, pick: None }");
    }

    #[test]
    fn open_picks_drop_the_picked_id_and_keep_the_order() {
        let open = OpenPicks(u32::from_le_bytes([5, 10, 36, 40]));
        assert_eq!(open.without(5).0, u32::from_le_bytes([10, 36, 40, 0]));
        assert_eq!(open.without(36).0, u32::from_le_bytes([5, 10, 40, 0]));
        assert_eq!(open.without(40).0, u32::from_le_bytes([5, 10, 36, 0]));
        let two = OpenPicks(u32::from_le_bytes([1, 48, 0, 0]));
        assert_eq!(two.without(48).without(1).0, 0);
        // A byte that equals the ID after one that differs from it by 1 (a false flag
        // above the true one must not matter).
        let line = u32::from_le_bytes([7, 1, 0, 6]);
        assert_eq!(first_byte_equal(line, 0), 2);
        assert_eq!(first_byte_equal(line, 6), 3);
        assert_eq!(first_byte_equal(line, 9), 4);
    }

    /// What the game keeps rather than recomputes matches the slots after every action of
    /// random games: the open IDs are the unpicked IDs of the line to pick from, in line
    /// order, and the player to move and the tile in hand are those of the current slot.
    #[test]
    fn kept_picks_player_and_tile_match_the_slots() {
        let mut buf = Vec::new();
        for seed in 0..40u64 {
            let players = 2 + seed as usize % 3;
            let mut g: Game<u128> = Game::new(Config::new(Mode::Standard, players), seed);
            let mut step = seed as usize;
            while g.to_move().is_some() {
                let open: Vec<u8> = g
                    .next
                    .iter()
                    .filter(|s| s.owner.is_none() && s.id != 0)
                    .map(|s| s.id)
                    .collect();
                let kept: Vec<u8> = (0..g.open.len()).filter_map(|k| g.open.get(k)).collect();
                assert_eq!(kept, open, "seed {seed}, turn {}", g.turn);
                // Past the open IDs the bytes are zero.
                assert_eq!(u64::from(g.open.0) >> (8 * open.len()), 0);
                let slot = g.current[g.slot];
                assert_eq!(g.to_move(), slot.owner.map(usize::from));
                let in_hand = tile(slot.id).filter(|_| g.turn > 1);
                assert_eq!(g.slot_tile().map(|t| t.id), in_hand.map(|t| t.id));
                g.legal_actions_into(&mut buf);
                step = step.wrapping_mul(31).wrapping_add(7);
                g.apply_action(&buf[step % buf.len()]);
            }
        }
    }

    #[test]
    fn r11_unowned_and_eliminated_slots_are_skipped() {
        let mut g: Game<u128> = Game::new(Config::new(Mode::Standard, 2), 1);
        g.pick(5);
        g.end_slot();
        g.eliminate(1);
        g.end_slot();
        assert_eq!(g.to_move(), Some(0));
        g.pick(10);
        g.end_slot();
        // Seat 1's second turn-1 slot is skipped; turn 2 starts with seat 0 on tile 5.
        assert_eq!(g.turn(), 2);
        assert_eq!(g.slot_tile().map(|t| t.id), Some(5));
    }

    #[test]
    fn r28_game_ends_when_nobody_is_active() {
        let mut g: Game<u128> = Game::new(Config::new(Mode::Standard, 2), 3);
        g.eliminate(0);
        g.end_slot();
        assert_eq!(g.to_move(), Some(1));
        g.eliminate(1);
        g.end_slot();
        assert!(g.is_over());
        assert_eq!(g.to_move(), None);
        assert_eq!(g.base_outcome().end, EndReason::Eliminations);
    }
}

#[cfg(test)]
mod sampling_tests {
    use super::*;
    use realm_core::chacha_rng;

    /// `random_action` draws every listed action, each about equally often, in every phase of
    /// a game (first turn with picks only, placements with picks, the last turn's placements).
    #[test]
    fn random_action_is_uniform_over_the_listed_actions() {
        for config in [Config::new(Mode::Standard, 2), Config::new(Mode::Duel, 2)] {
            let mut state = GameState::new(config, 7);
            let mut rng = chacha_rng(7, 1);
            let mut listed = Vec::new();
            let mut buf = Vec::new();
            while state.to_move().is_some() {
                state.legal_actions(&mut listed);
                let per_action = 200;
                let mut counts = vec![0u32; listed.len()];
                for _ in 0..per_action * listed.len() {
                    let a = state.random_action(&mut rng, &mut buf).unwrap();
                    counts[listed.iter().position(|l| *l == a).expect("listed")] += 1;
                }
                // 200 expected per action: a fair draw stays well inside 100..300.
                for (action, &n) in listed.iter().zip(&counts) {
                    assert!((100..300).contains(&n), "{action:?} drawn {n} times");
                }
                let next = listed[listed.len() / 2];
                state.apply(&next);
            }
        }
    }
}
