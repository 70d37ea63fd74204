//! The bitboard engine (spec §3): a `Position` holds, per player, the cells it may still use
//! (`free`: empty and not edge-adjacent to its own colour) and its diagonal contacts
//! (`corner`), both updated incrementally when a shape is placed. A placement of an
//! orientation at (x, y) is legal exactly when every cell is `free` and at least one cell is a
//! `corner`, so legal moves of one orientation for every position come out of a few shifts,
//! ORs and ANDs per board row, with no allocation and no deduplication (distinct orientation
//! + position = distinct placement).
//!
//! Boards are arrays of row masks: bit x of `rows[y + OFF]` is cell (x, y). The `OFF` guard row
//! above the board and the zero rows below it make halo writes and shifted reads branch-free.
//! This module knows nothing of text; names and protocol live in `protocol.rs`.

use std::mem::MaybeUninit;

use realm_core::{ranks_into, EndReason, Outcome, PlayerId, State};

use crate::movegen::{self, Cells, Found, PackedCells, Rows16Cells};
use crate::setup::{Config, Variant};
use crate::shapes::{tables, Orient, N_LETTERS, SMALL_LETTERS};

/// Row-array length: guard row, up to 20 board rows, zero rows for shifted reads.
pub const ROWS: usize = 32;
/// Array index of board row 0.
pub const OFF: usize = 1;

/// One board-sized bit plane.
pub type Rows = [u32; ROWS];

/// A placement: a distinct orientation at the top-left corner (x, y) of its bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// Index into `shapes::tables().orients`.
    pub orient: u8,
    pub x: u8,
    pub y: u8,
}

impl Placement {
    /// The orientation data of this placement.
    pub fn shape(&self) -> &'static Orient {
        &tables().orients[self.orient as usize]
    }

    /// The letter index (0 = A).
    pub fn letter(&self) -> usize {
        self.shape().letter as usize
    }

    /// The covered cells, row-major.
    pub fn cells(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let o = self.shape();
        o.cells[..o.n as usize]
            .iter()
            .map(move |&(dx, dy)| (self.x as usize + dx as usize, self.y as usize + dy as usize))
    }
}

/// What a playout step's scan found (`Position::answer_or_draw`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Step {
    /// The answers, all of this value (the highest, positive), are in the output list.
    Answers(u32),
    /// No answer: this placement, drawn by weight.
    Drawn(Placement),
    /// No legal placement of the letters.
    #[default]
    Nothing,
}

/// Why a placement is not legal (R8), in the order the checks are made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    NotInSet,
    AlreadyPlaced,
    OpeningRestricted,
    OffBoard,
    Occupied,
    EdgeContact,
    StartNotCovered,
    NoCornerContact,
}

impl Illegal {
    /// A human-readable reason for verdict details.
    pub fn describe(self) -> &'static str {
        match self {
            Illegal::NotInSet => "shape not in this game's set",
            Illegal::AlreadyPlaced => "shape already placed",
            Illegal::OpeningRestricted => "first placement must use A, B, C or D",
            Illegal::OffBoard => "placement leaves the board",
            Illegal::Occupied => "placement overlaps an occupied cell",
            Illegal::EdgeContact => "placement touches own colour along an edge",
            Illegal::StartNotCovered => "first placement must cover the start cell",
            Illegal::NoCornerContact => "placement has no corner contact with own colour",
        }
    }
}

const NONE: u8 = u8::MAX;

/// A game position with all rules of §3 and §7 (eliminations included, so the referee and
/// search share one turn order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    n: u8,
    n_players: u8,
    variant: Variant,
    /// R8 e applies to players 0 and 1 (3-player Blocking).
    restricted: bool,
    col_mask: u32,
    /// Cells of each colour.
    own: [Rows; 4],
    /// Cells each player may cover: empty, on the board, not edge-adjacent to its colour.
    free: [Rows; 4],
    /// Cells diagonally touching each player's colour (or its start cells before it has
    /// placed anything), restricted to `free`.
    corner: [Rows; 4],
    remaining: [u32; 4],
    squares: [u16; 4],
    n_placed: [u8; 4],
    last_letter: [u8; 4],
    /// Each player's latest placement (what a playout answers locally).
    last_placement: [Option<Placement>; 4],
    /// Each player's placement before its latest.
    previous_placement: [Option<Placement>; 4],
    /// Bit p: p has no legal placement and never will again (R7).
    stuck: u8,
    /// Bit p: p was eliminated (R17).
    eliminated: u8,
    /// Elimination order per player (1 = first), 0 = not eliminated.
    elim_rank: [u8; 4],
    n_eliminated: u8,
    to_move: u8,
    n_placements: u16,
    set: u32,
}

impl Position {
    /// The start position of a configuration.
    ///
    /// Panics unless `config.n_players` is 2..=4 (`new_referee` validates specs before this).
    pub fn new(config: &Config) -> Position {
        assert!(
            (2..=4).contains(&config.n_players),
            "Blocking is played by 2 to 4 players"
        );
        let n = config.variant.size();
        let mut board = [0u32; ROWS];
        for row in board.iter_mut().skip(OFF).take(n) {
            *row = (1u32 << n) - 1;
        }
        let np = config.n_players;
        let mut pos = Position {
            n: n as u8,
            n_players: np as u8,
            variant: config.variant,
            restricted: config.restricted_opening(0),
            col_mask: (1u32 << n) - 1,
            own: [[0; ROWS]; 4],
            free: [board; 4],
            corner: [[0; ROWS]; 4],
            remaining: [0; 4],
            squares: [0; 4],
            n_placed: [0; 4],
            last_letter: [NONE; 4],
            last_placement: [None; 4],
            previous_placement: [None; 4],
            stuck: 0,
            eliminated: 0,
            elim_rank: [0; 4],
            n_eliminated: 0,
            to_move: NONE,
            n_placements: 0,
            set: config.set,
        };
        for p in 0..np {
            pos.remaining[p] = config.set;
            for (x, y) in config.starts(p) {
                pos.corner[p][y + OFF] |= 1 << x;
            }
        }
        pos.advance_from(np - 1);
        pos
    }

    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// Number of players P.
    pub fn player_count(&self) -> usize {
        self.n_players as usize
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The shape set as letter bits.
    pub fn set(&self) -> u32 {
        self.set
    }

    /// The player to move, `None` at the end (R15).
    pub fn current(&self) -> Option<PlayerId> {
        (self.to_move != NONE).then_some(self.to_move as usize)
    }

    /// Placements made so far.
    pub fn n_placements(&self) -> usize {
        self.n_placements as usize
    }

    /// Letters player `p` has not placed, as bits.
    pub fn remaining(&self, p: PlayerId) -> u32 {
        self.remaining[p]
    }

    /// Squares of colour `p` (R13).
    pub fn squares(&self, p: PlayerId) -> u32 {
        self.squares[p] as u32
    }

    pub fn is_eliminated(&self, p: PlayerId) -> bool {
        self.eliminated >> p & 1 == 1
    }

    /// The colour of cell (x, y), if any.
    pub fn owner(&self, x: usize, y: usize) -> Option<PlayerId> {
        (0..self.n_players as usize).find(|&p| self.own[p][y + OFF] >> x & 1 == 1)
    }

    /// R9: is (x, y) an anchor cell of `p`?
    pub fn is_anchor(&self, p: PlayerId, x: usize, y: usize) -> bool {
        (self.corner[p][y + OFF] & self.free[p][y + OFF]) >> x & 1 == 1
    }

    /// Number of anchor cells of `p`.
    pub fn n_anchors(&self, p: PlayerId) -> u32 {
        self.corner[p].iter().map(|r| r.count_ones()).sum()
    }

    /// The anchor plane of `p` (R9): bit x of `[y + OFF]` is cell (x, y).
    pub fn anchors(&self, p: PlayerId) -> &Rows {
        &self.corner[p]
    }

    /// The latest placement of `p`, if it has placed one.
    pub fn last_placement(&self, p: PlayerId) -> Option<Placement> {
        self.last_placement[p]
    }

    /// The placement of `p` before its latest, if it has placed two.
    pub fn previous_placement(&self, p: PlayerId) -> Option<Placement> {
        self.previous_placement[p]
    }

    /// The cells of colour `p`, indexed like `anchors`.
    pub fn colour(&self, p: PlayerId) -> &Rows {
        &self.own[p]
    }

    /// The plane of cells `p` may cover (empty, not edge-adjacent to its colour), indexed like
    /// `anchors`.
    pub fn free_plane(&self, p: PlayerId) -> &Rows {
        &self.free[p]
    }

    /// The score shown for `p`: R13 squares, or V2 for the variants.
    pub fn score(&self, p: PlayerId) -> i64 {
        if !self.variant.official_scoring() {
            return self.squares[p] as i64;
        }
        official_score(self.remaining[p], self.last_letter[p] as usize)
    }

    /// Letters `p` may use right now (R8 a and e).
    fn usable_letters(&self, p: PlayerId) -> u32 {
        if self.restricted && p < 2 && self.n_placed[p] == 0 {
            self.remaining[p] & SMALL_LETTERS
        } else {
            self.remaining[p]
        }
    }

    /// Calls `emit(orient, hits)` for every orientation usable by `p` with legal positions;
    /// stops early when `emit` returns false.
    #[inline(always)]
    fn scan<R: Default>(&self, p: PlayerId, then: impl FnOnce(&Found) -> R) -> R {
        self.scan_letters(p, self.usable_letters(p), then)
    }

    /// `scan` restricted to the letters in `letters` (which must be usable by `p`).
    #[inline(always)]
    fn scan_letters<R: Default>(
        &self,
        p: PlayerId,
        letters: u32,
        then: impl FnOnce(&Found) -> R,
    ) -> R {
        self.scan_from(p, letters, None, then)
    }

    /// `scan_letters` with a plane to cover (`movegen::Job::cover`).
    #[inline(always)]
    fn scan_from<R: Default>(
        &self,
        p: PlayerId,
        letters: u32,
        cover: Option<&Rows>,
        then: impl FnOnce(&Found) -> R,
    ) -> R {
        let corner = &self.corner[p];
        if letters == 0 || corner.iter().all(|&r| r == 0) {
            return R::default();
        }
        let job = movegen::Job {
            n: self.n as usize,
            corner,
            free: &self.free[p],
            letters,
            cover,
        };
        movegen::scan(job, then)
    }

    /// Appends every legal placement of `p` (deduplicated by construction) to `out`.
    pub fn generate(&self, p: PlayerId, out: &mut Vec<Placement>) {
        self.generate_letters(p, u32::MAX, out);
    }

    /// Appends the legal placements of `p` that use a letter of `letters` (a search's playout
    /// asks for one size class at a time, which scans far fewer orientations).
    pub fn generate_letters(&self, p: PlayerId, letters: u32, out: &mut Vec<Placement>) {
        self.scan_letters(p, letters & self.usable_letters(p), |found| {
            push_found(found, out)
        });
    }

    /// A playout's step in one scan, among the legal placements of `p` with a letter of
    /// `letters`: those that cover a cell of `cover` and have the highest positive `value`
    /// go into `out` (cleared first, in `generate_letters`' order); when there are none, one
    /// placement is drawn as `draw_letters` draws it, with the number `u()` gives (called only
    /// then). A playout answers the opponent where it can (worth something only on the cells
    /// around its last placements) and draws any placement otherwise: one scan for both.
    #[allow(clippy::too_many_arguments)]
    pub fn answer_or_draw(
        &self,
        p: PlayerId,
        letters: u32,
        cover: &Rows,
        value: impl Fn(Placement) -> u32,
        weight: &[f32],
        u: impl FnOnce() -> f32,
        out: &mut Vec<Placement>,
    ) -> Step {
        let letters = letters & self.usable_letters(p);
        out.clear();
        self.scan_from(p, letters, Some(cover), |found| {
            let mut best = 1;
            if found.any_covered() {
                if found.is_packed() {
                    keep_best(found, PackedCells, &value, &mut best, out)
                } else {
                    keep_best(found, Rows16Cells, &value, &mut best, out)
                }
            }
            if !out.is_empty() {
                return Step::Answers(best);
            }
            draw_found(found, weight, u()).map_or(Step::Nothing, Step::Drawn)
        })
    }

    /// A legal placement of `p` with a letter of `letters`, drawn with a probability
    /// proportional to `weight[orientation]` by `u` (uniform in [0, 1)): the placement where
    /// the running sum of weights, in `generate_letters`' order, first exceeds `u` times their
    /// total. Nothing is listed: the kernel's bit sets are counted, then walked to the pick.
    /// `None` when there is no such placement.
    pub fn draw_letters(
        &self,
        p: PlayerId,
        letters: u32,
        weight: &[f32],
        u: f32,
    ) -> Option<Placement> {
        self.scan_letters(p, letters & self.usable_letters(p), |found| {
            draw_found(found, weight, u)
        })
    }

    /// Number of legal placements of `p`.
    pub fn count_moves(&self, p: PlayerId) -> usize {
        self.scan(p, Found::count)
    }

    /// True when `p` has at least one legal placement.
    pub fn has_move(&self, p: PlayerId) -> bool {
        let corner = &self.corner[p];
        corner.iter().any(|&r| r != 0)
            && movegen::exists(
                self.n as usize,
                corner,
                &self.free[p],
                self.usable_letters(p),
            )
    }

    /// Checks R8 for player `p` and a placement whose top-left corner may lie off the board.
    pub fn check(&self, p: PlayerId, orient: usize, x: i64, y: i64) -> Result<Placement, Illegal> {
        let t = tables();
        let o = &t.orients[orient];
        let l = o.letter as usize;
        if self.set >> l & 1 == 0 {
            return Err(Illegal::NotInSet);
        }
        if self.remaining[p] >> l & 1 == 0 {
            return Err(Illegal::AlreadyPlaced);
        }
        if self.usable_letters(p) >> l & 1 == 0 {
            return Err(Illegal::OpeningRestricted);
        }
        let n = self.n as i64;
        if x < 0 || y < 0 || x + o.w as i64 > n || y + o.h as i64 > n {
            return Err(Illegal::OffBoard);
        }
        let (x, y) = (x as usize, y as usize);
        let mut occupied = false;
        let mut edge = false;
        let mut corner = false;
        for (r, &mask) in o.rows[..o.h as usize].iter().enumerate() {
            let m = mask << x;
            let i = y + r + OFF;
            if m & !self.free[p][i] != 0 {
                if (0..self.n_players as usize).any(|q| self.own[q][i] & m != 0) {
                    occupied = true;
                } else {
                    edge = true;
                }
            }
            corner |= m & self.corner[p][i] != 0;
        }
        if occupied {
            return Err(Illegal::Occupied);
        }
        if edge {
            return Err(Illegal::EdgeContact);
        }
        if !corner {
            return Err(if self.n_placed[p] == 0 {
                Illegal::StartNotCovered
            } else {
                Illegal::NoCornerContact
            });
        }
        Ok(Placement {
            orient: orient as u8,
            x: x as u8,
            y: y as u8,
        })
    }

    /// Plays a legal placement for the player to move and passes the turn (R11, R6).
    pub fn play(&mut self, mv: Placement) {
        let p = self.to_move as usize;
        self.place(p, mv);
        self.advance_from(p);
    }

    /// `play` when `next` is the player `play` would pass the turn to (found by an earlier
    /// `play` of `mv` here): the players passed over are stuck, and the tests that found so
    /// are not repeated (R6, R15).
    pub fn play_knowing_next(&mut self, mv: Placement, next: Option<PlayerId>) {
        let p = self.to_move as usize;
        self.place(p, mv);
        self.pass_turn(p, |_, q| Some(q) == next);
    }

    /// Colours the cells of `mv` with `p` and updates every plane (R11).
    fn place(&mut self, p: PlayerId, mv: Placement) {
        let o = mv.shape();
        let (x, y) = (mv.x as u32, mv.y as usize);
        let col = self.col_mask;
        for r in 0..o.h as usize {
            let m = o.rows[r] << x;
            let i = y + r + OFF;
            self.own[p][i] |= m;
            for q in 0..self.n_players as usize {
                self.free[q][i] &= !m;
                self.corner[q][i] &= !m;
            }
        }
        // Halo rows run from y - 1 to y + h, i.e. array indices y .. y + h + 2.
        for r in 0..o.h as usize + 2 {
            let i = y + r;
            let edge = ((o.edge[r] as u64) << x >> 1) as u32 & col;
            let diag = ((o.diag[r] as u64) << x >> 1) as u32 & col;
            self.free[p][i] &= !edge;
            self.corner[p][i] = (self.corner[p][i] & !edge) | (diag & self.free[p][i]);
        }
        let l = o.letter as usize;
        self.remaining[p] &= !(1 << l);
        self.squares[p] += o.n as u16;
        self.n_placed[p] += 1;
        self.last_letter[p] = l as u8;
        self.previous_placement[p] = self.last_placement[p];
        self.last_placement[p] = Some(mv);
        self.n_placements += 1;
    }

    /// Removes the player to move from the game (R17) and passes the turn.
    pub fn eliminate_current(&mut self) {
        let p = self.to_move as usize;
        if self.to_move == NONE {
            return;
        }
        self.eliminated |= 1 << p;
        self.n_eliminated += 1;
        self.elim_rank[p] = self.n_eliminated;
        self.advance_from(p);
    }

    /// R6 and R15: finds the next player after `p` (p itself last) who is in the game and has
    /// a legal placement, or ends the game.
    fn advance_from(&mut self, p: PlayerId) {
        self.pass_turn(p, |pos, q| pos.has_move(q));
    }

    /// Passes the turn to the first player after `p` (p itself last), neither eliminated nor
    /// stuck, that `can_place` accepts; the players it refuses become stuck. Ends the game
    /// when none is accepted or fewer than two players remain.
    fn pass_turn(&mut self, p: PlayerId, can_place: impl Fn(&Self, PlayerId) -> bool) {
        let np = self.n_players as usize;
        self.to_move = NONE;
        if np - (self.n_eliminated as usize) < 2 {
            return;
        }
        for step in 1..=np {
            let q = (p + step) % np;
            if (self.eliminated | self.stuck) >> q & 1 == 1 {
                continue;
            }
            if can_place(self, q) {
                self.to_move = q as u8;
                return;
            }
            self.stuck |= 1 << q;
        }
    }

    /// True when the game ended because fewer than two players remain (R15 b).
    pub fn ended_by_eliminations(&self) -> bool {
        self.to_move == NONE && (self.n_players - self.n_eliminated) < 2
    }

    /// Final (or current) scores and R14 ranks.
    pub fn outcome(&self) -> Outcome {
        let np = self.n_players as usize;
        let standing = self.standing();
        let (end, detail) = if self.ended_by_eliminations() {
            (EndReason::Eliminations, "one_player_left")
        } else {
            (EndReason::Finished, "no_moves_left")
        };
        Outcome {
            scores: standing.scores().to_vec(),
            ranks: standing.ranks().to_vec(),
            end,
            detail: detail.to_string(),
            faults: vec![None; np],
            stats: Vec::new(),
        }
    }

    /// The scores and ranks `outcome` reports, without allocating (what a search's playouts
    /// end with): players in the game rank by score above the eliminated, who rank by when
    /// they went (R15, R17); ties share a rank.
    pub fn standing(&self) -> Standing {
        let np = self.n_players as usize;
        let mut scores = [0i64; 4];
        let mut keys = [(0i64, 0i64); 4];
        for p in 0..np {
            scores[p] = self.score(p);
            keys[p] = if self.is_eliminated(p) {
                (0, self.elim_rank[p] as i64)
            } else {
                (1, scores[p])
            };
        }
        let mut ranks = [0u32; 4];
        ranks_into(&keys[..np], &mut ranks);
        Standing {
            n_players: np,
            scores,
            ranks,
        }
    }
}

/// `Position::standing`: each player's score and rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    n_players: usize,
    scores: [i64; 4],
    ranks: [u32; 4],
}

impl Standing {
    pub fn scores(&self) -> &[i64] {
        &self.scores[..self.n_players]
    }

    pub fn ranks(&self) -> &[u32] {
        &self.ranks[..self.n_players]
    }
}

/// Appends the placements of `found` to `out`. The positions of a word are written four at a
/// time without a branch per position, the first four unconditionally: a word rarely holds
/// more, so the loop seldom mispredicts. Entries past a word's count are scratch space,
/// overwritten by the next word or left past the length.
#[inline(always)]
fn push_found(found: &Found, out: &mut Vec<Placement>) {
    if found.is_packed() {
        push_cells(found, PackedCells, out);
    } else {
        push_cells(found, Rows16Cells, out);
    }
}

#[inline(always)]
fn push_cells(found: &Found, cells: impl Cells, out: &mut Vec<Placement>) {
    let total = found.count();
    let len = out.len();
    out.reserve(total + 4);
    let spare = out.spare_capacity_mut();
    let mut at = 0;
    found.for_each_word(|orient, mut bits, base| {
        let count = bits.count_ones() as usize;
        let mut done = 0;
        loop {
            let group: &mut [_; 4] = (&mut spare[at + done..at + done + 4])
                .try_into()
                .expect("4 slots");
            for slot in group {
                // Past the word's last position the index is out of range: scratch.
                let (x, y) = cells.cell(base + bits.trailing_zeros());
                slot.write(Placement { orient, x, y });
                bits &= bits.wrapping_sub(1);
            }
            done += 4;
            if done >= count {
                break;
            }
        }
        at += count;
    });
    // SAFETY: the first `total` spare slots were written above.
    unsafe { out.set_len(len + total) };
}

/// `answer_or_draw`'s walk of the covering positions: the placements of the highest value so
/// far (at least `best`) in `out`.
#[inline(always)]
fn keep_best(
    found: &Found,
    cells: impl Cells,
    value: &impl Fn(Placement) -> u32,
    best: &mut u32,
    out: &mut Vec<Placement>,
) {
    found.for_each_covered_word(|orient, mut bits, base| {
        while bits != 0 {
            let (x, y) = cells.cell(base + bits.trailing_zeros());
            bits &= bits - 1;
            let mv = Placement { orient, x, y };
            let v = value(mv);
            if v > *best {
                *best = v;
                out.clear();
            }
            if v == *best {
                out.push(mv);
            }
        }
    })
}

/// `draw_letters`' walk of `found`.
#[inline(always)]
fn draw_found(found: &Found, weight: &[f32], u: f32) -> Option<Placement> {
    if found.is_packed() {
        draw_cells(found, PackedCells, weight, u)
    } else {
        draw_cells(found, Rows16Cells, weight, u)
    }
}

/// `draw_found` in one layout: one pass over the words keeps each one's key and the running
/// total of weighted counts after it, then the first word whose running total passes the
/// target is the one walked to the pick (a second pass of counts was a tenth of an opening
/// iteration). The sums are added in the same order either way, so the pick is the same.
#[inline(always)]
fn draw_cells(found: &Found, cells: impl Cells, weight: &[f32], u: f32) -> Option<Placement> {
    let mut keys = [MaybeUninit::<u16>::uninit(); movegen::MAX_WORDS];
    let mut ends = [MaybeUninit::<f32>::uninit(); movegen::MAX_WORDS];
    let mut len = 0;
    let mut total = 0.0f32;
    found.for_each_keyed_word(|key, orient, bits, _| {
        total += weight[orient as usize] * bits.count_ones() as f32;
        keys[len].write(key);
        ends[len].write(total);
        len += 1;
    });
    if len == 0 {
        return None;
    }
    // SAFETY: the walk wrote the first `len` entries of both.
    let (keys, ends) = unsafe {
        (
            std::slice::from_raw_parts(keys.as_ptr().cast::<u16>(), len),
            std::slice::from_raw_parts(ends.as_ptr().cast::<f32>(), len),
        )
    };
    let target = u * total;
    // Weights are not negative, so the running totals rise: the first past the target.
    let i = ends.partition_point(|&end| end <= target);
    if i == len {
        // Rounding left the target past the last sum: the last placement then.
        let (orient, bits, base) = found.word(keys[len - 1]);
        let (x, y) = cells.cell(base + 63 - bits.leading_zeros());
        return Some(Placement { orient, x, y });
    }
    let (orient, mut bits, base) = found.word(keys[i]);
    let sum = if i == 0 { 0.0 } else { ends[i - 1] };
    // The k-th position of this word (k counted from 0), within the word's count.
    let k = (((target - sum) / weight[orient as usize]) as u32).min(bits.count_ones() - 1);
    for _ in 0..k {
        bits &= bits - 1;
    }
    let (x, y) = cells.cell(base + bits.trailing_zeros());
    Some(Placement { orient, x, y })
}

/// Spec A2: the number of placements (letter + cells) of `letters` that fit an empty
/// `size` × `size` board (`size` ≤ 20), counted by the move-generation kernel with every cell
/// both free and a corner.
pub fn count_fitting(size: usize, letters: u32) -> usize {
    let mut full: Rows = [0; ROWS];
    for row in full.iter_mut().skip(OFF).take(size) {
        *row = (1u32 << size) - 1;
    }
    let job = movegen::Job {
        n: size,
        corner: &full,
        free: &full,
        letters,
        cover: None,
    };
    movegen::scan(job, Found::count)
}

/// V2: minus the squares of the unplaced shapes, plus 15 when all 21 are placed, plus 5 more
/// when the last one placed was A (`last_letter` 0).
pub fn official_score(remaining: u32, last_letter: usize) -> i64 {
    let t = tables();
    let left: i64 = (0..N_LETTERS)
        .filter(|l| remaining >> l & 1 == 1)
        .map(|l| t.sizes[l] as i64)
        .sum();
    match remaining {
        0 if last_letter == 0 => 20,
        0 => 15,
        _ => -left,
    }
}

impl State for Position {
    type Action = Placement;

    fn n_players(&self) -> usize {
        self.n_players as usize
    }

    fn to_move(&self) -> Option<PlayerId> {
        self.current()
    }

    fn legal_actions(&self, out: &mut Vec<Placement>) {
        out.clear();
        if let Some(p) = self.current() {
            self.generate(p, out);
        }
    }

    fn is_legal(&self, action: &Placement) -> bool {
        match self.current() {
            Some(p) if (action.orient as usize) < tables().orients.len() => self
                .check(p, action.orient as usize, action.x as i64, action.y as i64)
                .is_ok(),
            _ => false,
        }
    }

    fn apply(&mut self, action: &Placement) {
        self.play(*action);
    }

    fn apply_knowing_next(&mut self, action: &Placement, next: Option<PlayerId>) {
        self.play_knowing_next(*action, next);
    }

    fn outcome(&self) -> Outcome {
        Position::outcome(self)
    }
}
