//! Scoring on the board: closing blocks during play (§3.5), block sizes, majorities, returning
//! men, and the final scoring of open features and fields (§3.6). It reads the union-find of
//! `board.rs` and never changes block structure.

use super::{Board, MAX_PLAYERS, NO_MAN, SIZE};
use crate::tiles::{tileset, Kind};

/// What final scoring would pay now, and prospects it does not pay yet (`Board::open_value`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenValue {
    /// `[castles, roads, monasteries, fields]`, per player: `final_bonus` split by kind.
    pub by_kind: [[i64; MAX_PLAYERS]; 4],
    /// The part of the open castles' points that is on castles one open edge from closing.
    pub nearly_closed_castles: [i64; MAX_PLAYERS],
    /// 3 points for each open castle a field touches, to the field's majority: what the
    /// field would pay if those castles closed.
    pub field_prospects: [i64; MAX_PLAYERS],
}

impl OpenValue {
    /// Every term per player, in one order: the four kinds of `by_kind`, then
    /// `nearly_closed_castles` and `field_prospects`.
    pub fn terms(&self) -> [[i64; MAX_PLAYERS]; 6] {
        let [castles, roads, monasteries, fields] = self.by_kind;
        [
            castles,
            roads,
            monasteries,
            fields,
            self.nearly_closed_castles,
            self.field_prospects,
        ]
    }
}

/// A block's score data (§2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockSize {
    pub tiles: u32,
    pub shields: u32,
}

impl Board {
    /// Scores every castle, road and monastery the tile in `slot` closed, then returns their men
    /// (§3.5). Returns the number of blocks closed that held men.
    pub fn score_closed(&mut self, slot: usize) -> usize {
        let p = self.placed[slot];
        let tile = tileset().oriented(p.ty, p.angle);
        let mut roots = [0u16; 8];
        let mut n_roots = 0;
        for local in 0..tile.n_parts as usize {
            if matches!(tile.kinds[local], Kind::Castle | Kind::Road) {
                let r = self.find(p.first_part + local as u16);
                if !roots[..n_roots].contains(&r) {
                    roots[n_roots] = r;
                    n_roots += 1;
                }
            }
        }
        let mut n_scored = 0;
        for &r in &roots[..n_roots] {
            let part = self.parts[r as usize];
            if part.open != 0 || part.men.iter().all(|&m| m == 0) {
                continue;
            }
            let size = self.block_size(r);
            let value = match part.kind {
                Kind::Castle => 2 * (size.tiles + size.shields),
                _ => size.tiles,
            };
            self.award(r, value as i64);
            self.release(r);
            n_scored += 1;
        }
        // Monasteries with a monk in the 3×3 square around the new tile.
        let mut i = 0;
        while i < self.man_parts.len() {
            let id = self.man_parts[i];
            i += 1;
            let part = self.parts[id as usize];
            if part.kind != Kind::Monastery {
                continue;
            }
            let m = self.placed[part.slot as usize];
            let near = m.row.abs_diff(p.row) <= 1 && m.col.abs_diff(p.col) <= 1;
            if near && self.around(part.slot as usize) == 9 {
                self.award(id, 9);
                self.release(id);
                n_scored += 1;
                i = 0;
            }
        }
        n_scored
    }

    /// Occupied cells in the 3×3 square around the tile in `slot`, itself included.
    fn around(&self, slot: usize) -> u32 {
        let p = &self.placed[slot];
        let mut n = 0;
        for dr in -1..=1i32 {
            for dc in -1..=1i32 {
                let (r, c) = (p.row as i32 + dr, p.col as i32 + dc);
                if (0..SIZE as i32).contains(&r) && (0..SIZE as i32).contains(&c) {
                    n += u32::from(self.tile_at(r as u8, c as u8).is_some());
                }
            }
        }
        n
    }

    /// Distinct tiles and shielded tiles of the block rooted at `root`.
    fn block_size(&self, root: u16) -> BlockSize {
        let set = tileset();
        let mut seen = 0u128;
        let mut shields = 0;
        let mut x = root;
        loop {
            let slot = self.parts[x as usize].slot;
            if seen & (1 << slot) == 0 {
                seen |= 1 << slot;
                shields += u32::from(set.get(self.placed[slot as usize].ty).shield);
            }
            x = self.parts[x as usize].next;
            if x == root {
                break;
            }
        }
        BlockSize {
            tiles: seen.count_ones(),
            shields,
        }
    }

    /// The size of the block holding local part `local` of the tile in `slot`.
    pub fn block_of(&self, slot: usize, local: u8) -> BlockSize {
        self.block_size(self.root(self.placed[slot].first_part + local as u16))
    }

    /// True when the block holding local part `local` of the tile in `slot` is closed (§2.5).
    pub fn is_closed(&self, slot: usize, local: u8) -> bool {
        let id = self.placed[slot].first_part + local as u16;
        match self.parts[id as usize].kind {
            Kind::Field => false,
            Kind::Monastery => self.around(slot) == 9,
            _ => self.parts[self.root(id) as usize].open == 0,
        }
    }

    /// Majority rule (§3.5.3): every player with the most men on the block gets `value`.
    fn award_into(&self, root: u16, value: i64, scores: &mut [i64; MAX_PLAYERS]) {
        let men = self.parts[root as usize].men;
        let best = *men.iter().max().unwrap_or(&0);
        if best == 0 {
            return;
        }
        for p in 0..self.n_players() {
            if men[p] == best && !self.frozen[p] {
                scores[p] += value;
            }
        }
    }

    fn award(&mut self, root: u16, value: i64) {
        let mut scores = self.scores;
        self.award_into(root, value, &mut scores);
        self.scores = scores;
    }

    /// Returns every man of the block rooted at `root` to its owner.
    fn release(&mut self, root: u16) {
        let mut x = root;
        loop {
            let man = self.parts[x as usize].man;
            if man != NO_MAN {
                self.men_on_board[man as usize] -= 1;
                self.parts[x as usize].man = NO_MAN;
                if let Some(i) = self.man_parts.iter().position(|&m| m == x) {
                    self.man_parts.swap_remove(i);
                }
            }
            x = self.parts[x as usize].next;
            if x == root {
                break;
            }
        }
        self.parts[root as usize].men = [0; MAX_PLAYERS];
    }

    /// The points final scoring (§3.6) would add to each player now, without changing anything.
    pub fn final_bonus(&self) -> [i64; MAX_PLAYERS] {
        let mut bonus = [0; MAX_PLAYERS];
        for part in self.open_value().by_kind {
            for (b, points) in bonus.iter_mut().zip(part) {
                *b += points;
            }
        }
        bonus
    }

    /// What final scoring would pay each player now, by kind, and two prospects it does not
    /// pay yet (what a search's valuation weighs).
    pub fn open_value(&self) -> OpenValue {
        let mut value = OpenValue::default();
        let mut roots: Vec<u16> = self.man_parts.iter().map(|&id| self.root(id)).collect();
        roots.sort_unstable();
        roots.dedup();
        let set = tileset();
        // (field, castle) pairs that touch, for closed and for open castles.
        let mut closed: Vec<(u16, u16)> = Vec::new();
        let mut open: Vec<(u16, u16)> = Vec::new();
        let has_field_men = roots
            .iter()
            .any(|&r| self.parts[r as usize].kind == Kind::Field);
        for p in self.placed.iter().filter(|_| has_field_men) {
            for &(f, c) in &set.oriented(p.ty, p.angle).touches {
                let field = self.root(p.first_part + f as u16);
                if roots.binary_search(&field).is_ok() {
                    let castle = self.root(p.first_part + c as u16);
                    match self.parts[castle as usize].open {
                        0 => closed.push((field, castle)),
                        _ => open.push((field, castle)),
                    }
                }
            }
        }
        for (contacts, points) in [
            (&mut closed, &mut value.by_kind[3]),
            (&mut open, &mut value.field_prospects),
        ] {
            contacts.sort_unstable();
            contacts.dedup();
            for group in contacts.chunk_by(|a, b| a.0 == b.0) {
                self.award_into(group[0].0, 3 * group.len() as i64, points);
            }
        }
        for &id in &roots {
            let part = &self.parts[id as usize];
            let (kind, points) = match part.kind {
                Kind::Castle if part.open > 0 => {
                    let size = self.block_size(id);
                    (0, size.tiles + size.shields)
                }
                Kind::Road if part.open > 0 => (1, self.block_size(id).tiles),
                Kind::Monastery => (2, self.around(part.slot as usize)),
                _ => continue,
            };
            self.award_into(id, points as i64, &mut value.by_kind[kind]);
            if kind == 0 && part.open == 1 {
                self.award_into(id, points as i64, &mut value.nearly_closed_castles);
            }
        }
        value
    }

    /// Adds the final scoring to the scores (§3.6.2).
    pub fn apply_final_scoring(&mut self) {
        let bonus = self.final_bonus();
        for (score, b) in self.scores.iter_mut().zip(bonus) {
            *score += b;
        }
    }

    /// Scores if the game ended now: current scores plus final scoring.
    pub fn end_now(&self) -> Vec<i64> {
        let bonus = self.final_bonus();
        self.scores()
            .iter()
            .zip(bonus)
            .map(|(s, b)| s + b)
            .collect()
    }
}
