//! The map: placed tiles, the frontier of empty cells next to them with their edge constraints,
//! blocks as a union-find over tile parts (§2.4, §2.5) and men (§3.4); `scoring` adds the
//! points (§3.5, §3.6).
//!
//! The board knows nothing of the bag, turn order or protocol; `rules::State` and the bots'
//! observation both build on it. Placement legality is checked by `is_legal`; `place` trusts
//! its caller, which keeps the search path fast.

use crate::tiles::{
    tileset, Edge, Kind, Oriented, L_CASTLE, L_EARTH, L_MINUS, L_PLUS, L_ROAD, NO_PART,
};

/// Rows and columns of the board (§1).
pub const SIZE: usize = 143;
/// Row and column of the start tile.
pub const CENTER: u8 = 71;
/// Men of one player that may be on the board at once.
pub const MEN_PER_PLAYER: u8 = 6;
/// Most players in a match.
pub const MAX_PLAYERS: usize = 4;
/// The man token `40` (the monastery); tokens `s0 s- s+` are `3s`, `3s+1`, `3s+2`.
pub const TOKEN_MONASTERY: u8 = 12;
/// Number of distinct man tokens.
pub const N_TOKENS: u8 = 13;

mod scoring;

pub use scoring::{BlockSize, OpenValue};

const NO_MAN: u8 = u8::MAX;

/// Where a tile goes: cell and clockwise quarter turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Placement {
    pub row: u8,
    pub col: u8,
    pub angle: u8,
}

/// One tile on the board, with the man placed together with it (kept after it returns: §4.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub row: u8,
    pub col: u8,
    pub ty: u8,
    pub angle: u8,
    /// Index of this tile's first part in the union-find.
    pub first_part: u16,
    /// `(player, token)` of the man placed with this tile.
    pub man: Option<(u8, u8)>,
}

/// Why a man was not placed (§3.4). Codes are stable: they appear in verdict details.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManRefusal {
    /// The token names no part of this tile.
    InvalidToken,
    /// The player already has all its men on the board.
    NoManLeft,
    /// The block already holds a man.
    Occupied,
}

impl ManRefusal {
    pub fn code(self) -> &'static str {
        match self {
            ManRefusal::InvalidToken => "invalid_token",
            ManRefusal::NoManLeft => "no_man_left",
            ManRefusal::Occupied => "occupied",
        }
    }
}

/// One tile part in the union-find. Root parts also carry their block's totals.
#[derive(Clone, Copy, Debug)]
struct Part {
    parent: u16,
    /// Next part of the same block (a circular list, so blocks can be walked and merged in O(1)).
    next: u16,
    size: u16,
    /// Root only: castle or road ends whose cell beyond is still empty. Zero means closed.
    open: u16,
    slot: u8,
    kind: Kind,
    /// The man standing on this very part.
    man: u8,
    /// Root only: men of each player on the block.
    men: [u8; MAX_PLAYERS],
}

/// The set angles of each 4-bit mask, lowest first (the tail repeats the last one, unused).
const ANGLES_OF_MASK: [[u8; 4]; 16] = {
    let mut table = [[0u8; 4]; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut n = 0;
        let mut angle = 0;
        while angle < 4 {
            if mask & (1 << angle) != 0 {
                table[mask][n] = angle as u8;
                n += 1;
            }
            angle += 1;
        }
        mask += 1;
    }
    table
};

/// An empty cell next to the map and the edge each of its sides must show (2 bits per side,
/// 0 = no neighbour there).
#[derive(Clone, Copy, Debug)]
struct Front {
    row: u8,
    col: u8,
    constraint: u8,
}

#[derive(Clone, Debug)]
pub struct Board {
    n_players: u8,
    /// Per cell: 0 when empty, else the tile's slot + 1.
    cells: Vec<u8>,
    /// Per cell: 1 + its index in `frontier`, or 0 when it is not on the frontier.
    front_pos: Vec<u8>,
    /// Empty cells with at least one occupied neighbour, with their constraints.
    frontier: Vec<Front>,
    placed: Vec<Placed>,
    parts: Vec<Part>,
    men_on_board: [u8; MAX_PLAYERS],
    /// Parts with a man standing on them (at most 24), so scoring never scans the whole board.
    man_parts: Vec<u16>,
    scores: [i64; MAX_PLAYERS],
    /// Players whose score no longer changes (eliminated, §3.8).
    frozen: [bool; MAX_PLAYERS],
}

fn cell_index(row: u8, col: u8) -> usize {
    row as usize * SIZE + col as usize
}

/// The cell beyond side `side` of (row, col), if it is on the board.
fn neighbour(row: u8, col: u8, side: usize) -> Option<(u8, u8)> {
    let (r, c) = (row as i32, col as i32);
    let (r, c) = match side {
        0 => (r - 1, c),
        1 => (r, c + 1),
        2 => (r + 1, c),
        _ => (r, c - 1),
    };
    let inside = (0..SIZE as i32).contains(&r) && (0..SIZE as i32).contains(&c);
    inside.then_some((r as u8, c as u8))
}

impl Board {
    /// A board holding only the start tile `ty` at (71, 71), angle 0 (§3.1.3).
    pub fn new(n_players: usize, start_ty: u8) -> Board {
        Board::with_first(
            n_players,
            start_ty,
            Placement {
                row: CENTER,
                col: CENTER,
                angle: 0,
            },
        )
    }

    /// A board whose first tile is `ty` at `at` (bots rebuild the board from what they read).
    pub fn with_first(n_players: usize, ty: u8, at: Placement) -> Board {
        let mut board = Board {
            n_players: n_players.min(MAX_PLAYERS) as u8,
            cells: vec![0; SIZE * SIZE],
            front_pos: vec![0; SIZE * SIZE],
            frontier: Vec::with_capacity(128),
            placed: Vec::with_capacity(72),
            parts: Vec::with_capacity(72 * 4),
            men_on_board: [0; MAX_PLAYERS],
            man_parts: Vec::with_capacity(MAX_PLAYERS * MEN_PER_PLAYER as usize),
            scores: [0; MAX_PLAYERS],
            frozen: [false; MAX_PLAYERS],
        };
        board.place(ty, at);
        board
    }

    pub fn n_players(&self) -> usize {
        self.n_players as usize
    }

    pub fn placed(&self) -> &[Placed] {
        &self.placed
    }

    pub fn scores(&self) -> &[i64] {
        &self.scores[..self.n_players()]
    }

    pub fn men_left(&self, player: usize) -> u8 {
        MEN_PER_PLAYER - self.men_on_board[player]
    }

    /// Stops `player`'s score from changing; its men stay and still count (§3.8).
    pub fn freeze(&mut self, player: usize) {
        self.frozen[player] = true;
    }

    /// The slot of the tile at (row, col), if any.
    pub fn tile_at(&self, row: u8, col: u8) -> Option<usize> {
        let v = *self.cells.get(cell_index(row, col))?;
        (v != 0).then(|| v as usize - 1)
    }

    /// The angles (bit k = angle k) at which `ty` fits on the cell `idx`.
    fn angles_at(&self, idx: usize, ty: u8) -> u8 {
        match self.front_pos[idx] {
            0 => 0,
            pos => {
                tileset().compat[ty as usize][self.frontier[pos as usize - 1].constraint as usize]
            }
        }
    }

    /// §3.3, on raw integers so that any parsed answer can be checked.
    pub fn is_legal(&self, ty: u8, row: i64, col: i64, angle: i64) -> bool {
        let size = 0..SIZE as i64;
        if !size.contains(&row) || !size.contains(&col) || !(0..4).contains(&angle) {
            return false;
        }
        self.angles_at(cell_index(row as u8, col as u8), ty) & (1 << angle) != 0
    }

    /// Calls `f` with every legal placement of `ty`, in frontier order (deterministic, not
    /// sorted). This is the hot loop of random playouts.
    #[inline]
    pub fn for_each_placement(&self, ty: u8, mut f: impl FnMut(Placement)) {
        let compat = &tileset().compat[ty as usize];
        for front in &self.frontier {
            let mut mask = compat[front.constraint as usize];
            while mask != 0 {
                let angle = mask.trailing_zeros() as u8;
                mask &= mask - 1;
                f(Placement {
                    row: front.row,
                    col: front.col,
                    angle,
                });
            }
        }
    }

    /// Appends `make(p)` for every legal placement `p` of `ty` to `out`, in the order of
    /// `for_each_placement`. Branch-free over the frontier: every cell writes four slots and
    /// advances by its number of fitting angles, which avoids a mispredicted branch per cell
    /// in random playouts.
    pub fn extend_placements<T: Copy>(
        &self,
        ty: u8,
        out: &mut Vec<T>,
        make: impl Fn(Placement) -> T,
    ) {
        let compat = &tileset().compat[ty as usize];
        let start = out.len();
        let filler = make(Placement {
            row: 0,
            col: 0,
            angle: 0,
        });
        out.resize(start + 4 * self.frontier.len() + 4, filler);
        let mut n = start;
        for front in &self.frontier {
            let mask = compat[front.constraint as usize] as usize;
            let angles = &ANGLES_OF_MASK[mask];
            for (i, &angle) in angles.iter().enumerate() {
                out[n + i] = make(Placement {
                    row: front.row,
                    col: front.col,
                    angle,
                });
            }
            n += mask.count_ones() as usize;
        }
        out.truncate(n);
    }

    /// Every legal placement of `ty`, in frontier order (deterministic, not sorted).
    pub fn placements(&self, ty: u8, out: &mut Vec<Placement>) {
        out.clear();
        self.extend_placements(ty, out, |p| p);
    }

    /// Every legal placement of `ty`, sorted by (row, col, angle).
    pub fn sorted_placements(&self, ty: u8) -> Vec<Placement> {
        let mut out = Vec::new();
        self.placements(ty, &mut out);
        out.sort_unstable();
        out
    }

    /// True when `ty` has at least one legal placement (§3.2.1).
    pub fn has_placement(&self, ty: u8) -> bool {
        let compat = &tileset().compat[ty as usize];
        self.frontier
            .iter()
            .any(|f| compat[f.constraint as usize] != 0)
    }

    /// Puts `ty` on the board and joins its parts with the neighbours' (§2.4). The caller has
    /// checked the placement with `is_legal` (the first tile needs no neighbour). Returns the
    /// new tile's slot.
    pub fn place(&mut self, ty: u8, at: Placement) -> usize {
        let set = tileset();
        let tile = set.oriented(ty, at.angle);
        let slot = self.placed.len();
        let first = self.parts.len() as u16;
        for local in 0..tile.n_parts as usize {
            let id = first + local as u16;
            self.parts.push(Part {
                parent: id,
                next: id,
                size: 1,
                open: u16::from(tile.n_ends[local]),
                slot: slot as u8,
                kind: tile.kinds[local],
                man: NO_MAN,
                men: [0; MAX_PLAYERS],
            });
        }
        self.placed.push(Placed {
            row: at.row,
            col: at.col,
            ty,
            angle: at.angle,
            first_part: first,
            man: None,
        });
        let idx = cell_index(at.row, at.col);
        self.cells[idx] = slot as u8 + 1;
        if self.front_pos[idx] != 0 {
            let i = self.front_pos[idx] as usize - 1;
            self.front_pos[idx] = 0;
            self.frontier.swap_remove(i);
            if let Some(moved) = self.frontier.get(i) {
                self.front_pos[cell_index(moved.row, moved.col)] = i as u8 + 1;
            }
        }
        for side in 0..4 {
            let Some((nr, nc)) = neighbour(at.row, at.col, side) else {
                continue;
            };
            let n_idx = cell_index(nr, nc);
            let facing = (side + 2) % 4;
            if self.cells[n_idx] == 0 {
                let bits = (tile.edges[side] as u8) << (2 * facing);
                match self.front_pos[n_idx] {
                    0 => {
                        self.frontier.push(Front {
                            row: nr,
                            col: nc,
                            constraint: bits,
                        });
                        self.front_pos[n_idx] = self.frontier.len() as u8;
                    }
                    pos => self.frontier[pos as usize - 1].constraint |= bits,
                }
                continue;
            }
            let other = self.placed[self.cells[n_idx] as usize - 1];
            let other_tile = set.oriented(other.ty, other.angle);
            self.join_side(tile, first, side, other_tile, other.first_part, facing);
        }
        slot
    }

    /// Joins the items of one shared edge (the table of §2.4).
    fn join_side(
        &mut self,
        a: &Oriented,
        a_first: u16,
        side: usize,
        b: &Oriented,
        b_first: u16,
        facing: usize,
    ) {
        let pa = |letter: u8| a.item_part[side][letter as usize];
        let pb = |letter: u8| b.item_part[facing][letter as usize];
        let pairs: &[(u8, u8)] = match a.edges[side] {
            Edge::Castle => &[(L_CASTLE, L_CASTLE)],
            Edge::Earth => &[(L_EARTH, L_EARTH)],
            Edge::Road => &[(L_ROAD, L_ROAD), (L_MINUS, L_PLUS), (L_PLUS, L_MINUS)],
        };
        for &(la, lb) in pairs {
            let (x, y) = (pa(la), pb(lb));
            if x == NO_PART || y == NO_PART {
                continue;
            }
            let (x, y) = (self.find(a_first + x as u16), self.find(b_first + y as u16));
            if la == L_CASTLE || la == L_ROAD {
                // Both ends now face a tile.
                self.parts[x as usize].open -= 1;
                self.parts[y as usize].open -= 1;
            }
            self.union_roots(x, y);
        }
    }

    /// The root of `x`, halving the path on the way.
    fn find(&mut self, mut x: u16) -> u16 {
        while self.parts[x as usize].parent != x {
            let grand = self.parts[self.parts[x as usize].parent as usize].parent;
            self.parts[x as usize].parent = grand;
            x = grand;
        }
        x
    }

    /// The root of `x`, without changing anything.
    fn root(&self, mut x: u16) -> u16 {
        while self.parts[x as usize].parent != x {
            x = self.parts[x as usize].parent;
        }
        x
    }

    fn union_roots(&mut self, a: u16, b: u16) {
        if a == b {
            return;
        }
        let (big, small) = if self.parts[a as usize].size >= self.parts[b as usize].size {
            (a, b)
        } else {
            (b, a)
        };
        let s = self.parts[small as usize];
        let g = &mut self.parts[big as usize];
        g.size += s.size;
        g.open += s.open;
        for p in 0..MAX_PLAYERS {
            g.men[p] += s.men[p];
        }
        let big_next = g.next;
        g.next = s.next;
        let s = &mut self.parts[small as usize];
        s.next = big_next;
        s.parent = big;
    }

    /// The local part a man token names on the tile in `slot` (§3.4), if the token is valid there.
    pub fn token_part(&self, slot: usize, token: u8) -> Option<u8> {
        let p = self.placed.get(slot)?;
        let part = *tileset()
            .oriented(p.ty, p.angle)
            .token_part
            .get(token as usize)?;
        (part != NO_PART).then_some(part)
    }

    /// Whether `player` may put a man with `token` on the tile in `slot` (§3.4), and on which part.
    pub fn check_man(&self, player: usize, slot: usize, token: u8) -> Result<u8, ManRefusal> {
        let local = self
            .token_part(slot, token)
            .ok_or(ManRefusal::InvalidToken)?;
        if self.men_on_board[player] >= MEN_PER_PLAYER {
            return Err(ManRefusal::NoManLeft);
        }
        let root = self.root(self.placed[slot].first_part + local as u16);
        if self.parts[root as usize].men.iter().any(|&m| m > 0) {
            return Err(ManRefusal::Occupied);
        }
        Ok(local)
    }

    /// Places `player`'s man on the tile in `slot` if §3.4 allows it.
    pub fn put_man(&mut self, player: usize, slot: usize, token: u8) -> Result<(), ManRefusal> {
        let local = self.check_man(player, slot, token)?;
        let id = self.placed[slot].first_part + local as u16;
        let root = self.find(id);
        self.parts[id as usize].man = player as u8;
        self.parts[root as usize].men[player] += 1;
        self.men_on_board[player] += 1;
        self.man_parts.push(id);
        self.placed[slot].man = Some((player as u8, token));
        Ok(())
    }

    /// The accepted man tokens for `player` on the tile in `slot`, one per distinct part, each
    /// the first in token order that names it.
    pub fn man_options(&self, player: usize, slot: usize, out: &mut Vec<u8>) {
        out.clear();
        self.for_each_man_option(player, slot, |t| out.push(t));
    }

    /// Calls `f` with each token `man_options` would list, without allocating.
    #[inline]
    pub fn for_each_man_option(&self, player: usize, slot: usize, mut f: impl FnMut(u8)) {
        if self.men_on_board[player] >= MEN_PER_PLAYER {
            return;
        }
        let p = &self.placed[slot];
        for &(token, local) in &tileset().oriented(p.ty, p.angle).man_tokens {
            let root = self.root(p.first_part + local as u16);
            if self.parts[root as usize].men == [0; MAX_PLAYERS] {
                f(token);
            }
        }
    }

    /// Men on the board now, as (player, slot, token).
    pub fn men(&self) -> Vec<(usize, usize, u8)> {
        let mut out = Vec::new();
        for (slot, p) in self.placed.iter().enumerate() {
            if let Some((player, token)) = p.man {
                let Some(local) = self.token_part(slot, token) else {
                    continue;
                };
                if self.parts[(p.first_part + local as u16) as usize].man == player {
                    out.push((player as usize, slot, token));
                }
            }
        }
        out
    }

    /// Men each player has on the board.
    pub fn men_on_board(&self, player: usize) -> u8 {
        self.men_on_board[player]
    }
}
