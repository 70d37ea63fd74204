//! Gold on a finished board (R15-R18): groups, the castle score, the ten cards and the table
//! that adds them up.
//!
//! Everything is recomputed from the board alone. This module does not read text or choose the
//! player count; `scorer.rs` does that for the command.

use crate::board::{Board, Cell, Pos, MAX_PLAYERS, N_CELLS, SIZE};
use crate::cards::Card;

/// Who takes part in the Lords ranking of a quadrant (R17 card 5, variant 6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LordsRule {
    /// Only players with at least one settlement in the quadrant (the default, D15).
    #[default]
    NonZeroCounts,
    /// Every player, a count of 0 included (`--lords-zero`).
    ZeroCountsRank,
}

/// The parameters of a scoring: how many players and which Lords rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreRules {
    /// Players 1..=n_players are scored (1..=4; a higher value counts as 4). Settlements with a
    /// higher digit are ignored.
    pub n_players: usize,
    pub lords: LordsRule,
}

impl ScoreRules {
    /// `n_players` players, default Lords rule.
    pub fn new(n_players: usize) -> Self {
        ScoreRules {
            n_players,
            lords: LordsRule::default(),
        }
    }
}

/// One line of a score table: the castle score or a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    Castles,
    Card(Card),
}

impl Component {
    /// `castles` or the card's name.
    pub fn name(self) -> &'static str {
        match self {
            Component::Castles => "castles",
            Component::Card(card) => card.name(),
        }
    }
}

/// The gold of one component, one value per player (index 0 = player 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreRow {
    pub component: Component,
    pub gold: Vec<u32>,
}

/// The castle score and each card in play, in that order with cards ascending (R18).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreTable {
    n_players: usize,
    rows: Vec<ScoreRow>,
}

impl ScoreTable {
    pub fn n_players(&self) -> usize {
        self.n_players
    }

    /// `castles` first, then the cards by ascending number.
    pub fn rows(&self) -> &[ScoreRow] {
        &self.rows
    }

    /// The gold of one component, if it is in the table.
    pub fn gold(&self, component: Component) -> Option<&[u32]> {
        self.rows
            .iter()
            .find(|row| row.component == component)
            .map(|row| row.gold.as_slice())
    }

    /// Each player's gold: the sum of every row (R18).
    pub fn totals(&self) -> Vec<u32> {
        (0..self.n_players)
            .map(|p| self.rows.iter().map(|row| row.gold[p]).sum())
            .collect()
    }
}

/// Scores `board` with the castle score and `cards` (in any order, without repeats; the table
/// lists them ascending).
pub fn score_table(board: &Board, cards: &[Card], rules: ScoreRules) -> ScoreTable {
    score_table_with_water(board, &[], cards, rules)
}

/// `score_table` for a board of the full game, where settlements can stand on water (Harbor):
/// `on_water` lists those settlements. Their cells still count as water for their neighbours'
/// Fishermen, and they score nothing for Fishermen themselves (9.7, D32); every other card
/// counts them like any settlement.
pub fn score_table_with_water(
    board: &Board,
    on_water: &[Pos],
    cards: &[Card],
    rules: ScoreRules,
) -> ScoreTable {
    let mut analysis = Analysis::new(board, rules.n_players);
    analysis.on_water = on_water;
    let mut sorted = cards.to_vec();
    sorted.sort();
    sorted.dedup();
    let mut rows = vec![ScoreRow {
        component: Component::Castles,
        gold: analysis.castles(),
    }];
    rows.extend(sorted.into_iter().map(|card| ScoreRow {
        component: Component::Card(card),
        gold: analysis.card(card, rules.lords),
    }));
    ScoreTable {
        n_players: analysis.n_players,
        rows,
    }
}

/// The castle score of R16 for each player.
pub fn score_castles(board: &Board, rules: ScoreRules) -> Vec<u32> {
    Analysis::new(board, rules.n_players).castles()
}

/// One card's gold for each player (R17).
pub fn score_card(board: &Board, card: Card, rules: ScoreRules) -> Vec<u32> {
    Analysis::new(board, rules.n_players).card(card, rules.lords)
}

/// A group of R15: a maximal set of one player's settlements linked through that player's
/// settlements only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The player's digit.
    pub player: u8,
    /// The group's settlements, row-major.
    pub cells: Vec<Pos>,
    /// The special hexes (towns and castles) next to some cell of the group, row-major.
    pub specials: Vec<Pos>,
}

/// Every group of players 1..=n_players, ordered by player, then by first cell in row-major
/// order.
pub fn groups(board: &Board, n_players: usize) -> Vec<Group> {
    let mut seen = [false; N_CELLS];
    let mut found = Vec::new();
    for player in 1..=n_players.min(MAX_PLAYERS) as u8 {
        for (start, cell) in board.cells() {
            if cell != Cell::Settlement(player) || seen[start.index()] {
                continue;
            }
            seen[start.index()] = true;
            let mut cells = vec![start];
            let mut next = 0;
            while next < cells.len() {
                let pos = cells[next];
                next += 1;
                for n in pos.neighbours() {
                    if board.cell(n) == Cell::Settlement(player) && !seen[n.index()] {
                        seen[n.index()] = true;
                        cells.push(n);
                    }
                }
            }
            cells.sort();
            let mut specials: Vec<Pos> = cells
                .iter()
                .flat_map(|pos| pos.neighbours())
                .filter(|&n| board.cell(n).is_special())
                .collect();
            specials.sort();
            specials.dedup();
            found.push(Group {
                player,
                cells,
                specials,
            });
        }
    }
    found
}

/// The counts every card needs, computed once per board.
struct Analysis<'a> {
    board: &'a Board,
    n_players: usize,
    /// Settlements per player (index digit - 1) and row.
    row_counts: Vec<[u32; SIZE]>,
    /// Settlements per player and quadrant (B3).
    quadrant_counts: Vec<[u32; 4]>,
    groups: Vec<Group>,
    /// Settlements standing on water (full game only).
    on_water: &'a [Pos],
}

impl<'a> Analysis<'a> {
    fn new(board: &'a Board, n_players: usize) -> Self {
        let n_players = n_players.min(MAX_PLAYERS);
        let mut row_counts = vec![[0; SIZE]; n_players];
        let mut quadrant_counts = vec![[0; 4]; n_players];
        for (pos, cell) in board.cells() {
            if let Some(p) = scored_player(cell, n_players) {
                row_counts[p][pos.row] += 1;
                quadrant_counts[p][pos.quadrant()] += 1;
            }
        }
        Analysis {
            board,
            n_players,
            row_counts,
            quadrant_counts,
            groups: groups(board, n_players),
            on_water: &[],
        }
    }

    fn zeros(&self) -> Vec<u32> {
        vec![0; self.n_players]
    }

    /// R16: 3 gold per castle with at least one of the player's settlements next to it.
    fn castles(&self) -> Vec<u32> {
        let mut gold = self.zeros();
        for (pos, _) in self.board.cells().filter(|&(_, c)| c == Cell::Castle) {
            let mut paid = [false; MAX_PLAYERS];
            for n in pos.neighbours() {
                if let Some(p) = scored_player(self.board.cell(n), self.n_players) {
                    paid[p] = true;
                }
            }
            for (g, _) in gold.iter_mut().zip(paid).filter(|&(_, paid)| paid) {
                *g += 3;
            }
        }
        gold
    }

    fn card(&self, card: Card, lords: LordsRule) -> Vec<u32> {
        match card {
            Card::Discoverers => {
                self.per_player(|p| self.row_counts[p].iter().filter(|&&n| n > 0).count() as u32)
            }
            Card::Knights => self.per_player(|p| 2 * self.row_counts[p].iter().max().unwrap_or(&0)),
            Card::Fishermen => self.fishermen(),
            Card::Miners => self.settlements_next_to(|c| c == Cell::Mountain),
            Card::Lords => self.lords(lords),
            Card::Farmers => {
                self.per_player(|p| 3 * self.quadrant_counts[p].iter().min().unwrap_or(&0))
            }
            Card::Hermits => self.per_player(|p| self.player_groups(p).count() as u32),
            Card::Citizens => self.per_player(|p| {
                let largest = self.player_groups(p).map(|g| g.cells.len()).max();
                largest.unwrap_or(0) as u32 / 2
            }),
            Card::Merchants => self.merchants(),
            Card::Workers => self.settlements_next_to(Cell::is_special),
        }
    }

    fn per_player(&self, gold: impl Fn(usize) -> u32) -> Vec<u32> {
        (0..self.n_players).map(gold).collect()
    }

    fn player_groups(&self, p: usize) -> impl Iterator<Item = &Group> {
        self.groups
            .iter()
            .filter(move |g| usize::from(g.player) == p + 1)
    }

    /// Cards 3, 4 and 10: one gold per settlement with at least one matching neighbour, however
    /// many neighbours match.
    fn settlements_next_to(&self, matches: impl Fn(Cell) -> bool) -> Vec<u32> {
        let mut gold = self.zeros();
        for (pos, cell) in self.board.cells() {
            if let Some(p) = scored_player(cell, self.n_players) {
                if pos.neighbours().any(|n| matches(self.board.cell(n))) {
                    gold[p] += 1;
                }
            }
        }
        gold
    }

    /// Card 3: one gold per settlement with a water neighbour; a settlement on water is itself
    /// a water neighbour but scores nothing (D32).
    fn fishermen(&self) -> Vec<u32> {
        let is_water =
            |pos: Pos| self.board.cell(pos) == Cell::Water || self.on_water.contains(&pos);
        let mut gold = self.zeros();
        for (pos, cell) in self.board.cells() {
            if let Some(p) = scored_player(cell, self.n_players) {
                if !self.on_water.contains(&pos) && pos.neighbours().any(is_water) {
                    gold[p] += 1;
                }
            }
        }
        gold
    }

    /// Card 5: per quadrant, 12 gold to the players on the highest count and 6 to those on the
    /// next lower distinct count, among the players the rule lets take part.
    fn lords(&self, rule: LordsRule) -> Vec<u32> {
        let mut gold = self.zeros();
        for quadrant in 0..4 {
            let counts: Vec<u32> = self.quadrant_counts.iter().map(|q| q[quadrant]).collect();
            for (g, quadrant_gold) in gold.iter_mut().zip(lords_in_quadrant(&counts, rule)) {
                *g += quadrant_gold;
            }
        }
        gold
    }

    /// Card 9: 4 gold per special hex that one of the player's groups touches together with at
    /// least one other special hex; each hex pays a player once.
    fn merchants(&self) -> Vec<u32> {
        self.per_player(|p| {
            let mut linked: Vec<Pos> = self
                .player_groups(p)
                .filter(|g| g.specials.len() >= 2)
                .flat_map(|g| g.specials.iter().copied())
                .collect();
            linked.sort();
            linked.dedup();
            4 * linked.len() as u32
        })
    }
}

/// The Lords gold of one quadrant given each player's count there (dense ranking: ties share a
/// place and the next lower distinct count is second).
pub fn lords_in_quadrant(counts: &[u32], rule: LordsRule) -> Vec<u32> {
    let takes_part = |n: u32| rule == LordsRule::ZeroCountsRank || n > 0;
    let first = counts.iter().copied().filter(|&n| takes_part(n)).max();
    let second = first.and_then(|first| {
        counts
            .iter()
            .copied()
            .filter(|&n| takes_part(n) && n < first)
            .max()
    });
    counts
        .iter()
        .map(|&n| {
            if !takes_part(n) {
                0
            } else if Some(n) == first {
                12
            } else if Some(n) == second {
                6
            } else {
                0
            }
        })
        .collect()
}

/// The 0-based player index of a settlement that is scored, `None` for other cells and for
/// digits above `n_players`.
fn scored_player(cell: Cell, n_players: usize) -> Option<usize> {
    let digit = usize::from(cell.player()?);
    (digit <= n_players).then(|| digit - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a board from `(cell, [(row, col), ...])` lists on an empty board.
    fn position(cells: &[(Cell, &[(usize, usize)])]) -> Board {
        let mut board = Board::empty();
        for &(cell, places) in cells {
            for &(row, col) in places {
                board.set(Pos::new(row, col), cell);
            }
        }
        board
    }

    fn card(board: &Board, card: Card, n_players: usize) -> Vec<u32> {
        score_card(board, card, ScoreRules::new(n_players))
    }

    const P1: Cell = Cell::Settlement(1);
    const P2: Cell = Cell::Settlement(2);
    const P3: Cell = Cell::Settlement(3);
    const P4: Cell = Cell::Settlement(4);

    #[test]
    fn r15_groups_connect_across_quadrant_borders() {
        // (9,9) Q1, (9,10) Q2, (10,9) Q3, (10,10) Q4: one chain through the centre.
        let board = position(&[(P1, &[(9, 9), (9, 10), (10, 10), (10, 9)])]);
        assert_eq!(card(&board, Card::Hermits, 1), [1]);
        assert_eq!(card(&board, Card::Citizens, 1), [2]);
        // Q1/Q3 border on an odd/even row pair: (9,4) touches (10,4) and (10,5), not (10,3).
        let board = position(&[(P1, &[(9, 4), (10, 5)]), (P2, &[(9, 7), (10, 6)])]);
        assert_eq!(card(&board, Card::Hermits, 2), [1, 2]);
        // Q1/Q2 border on one row.
        let board = position(&[(P1, &[(3, 9), (3, 10)])]);
        assert_eq!(card(&board, Card::Hermits, 1), [1]);
        assert_eq!(card(&board, Card::Lords, 1), [24]);
    }

    #[test]
    fn r15_groups_are_split_by_anything_but_own_settlements() {
        // A row of ones cut by a town, a castle, water, another player and an empty cell.
        let board = position(&[
            (P1, &[(0, 0), (0, 2), (0, 4), (0, 6), (0, 8), (0, 10)]),
            (Cell::Town, &[(0, 1)]),
            (Cell::Castle, &[(0, 3)]),
            (Cell::Water, &[(0, 5)]),
            (P2, &[(0, 7)]),
        ]);
        assert_eq!(card(&board, Card::Hermits, 2), [6, 1]);
        assert_eq!(card(&board, Card::Citizens, 2), [0, 0]);
        // Even rows are not shifted: (0,c) touches (1,c-1) and (1,c), not (1,c+1).
        let board = position(&[(P1, &[(0, 0), (1, 1)]), (P2, &[(0, 5), (1, 6)])]);
        assert_eq!(card(&board, Card::Hermits, 2), [2, 2]);
        let board = position(&[(P1, &[(0, 1), (1, 0)]), (P2, &[(0, 5), (1, 5)])]);
        assert_eq!(card(&board, Card::Hermits, 2), [1, 1]);
    }

    #[test]
    fn d32_a_settlement_on_water_scores_no_fishermen_but_stays_water() {
        // Water at (0,1) and (1,2); player 1 at (0,0) and on the water hex (0,3) (Harbor),
        // player 2 at (0,4), whose only water neighbour is the settled hex (0,3).
        let board = position(&[
            (Cell::Water, &[(0, 1), (1, 2)]),
            (P1, &[(0, 0), (0, 3)]),
            (P2, &[(0, 4)]),
        ]);
        let rules = ScoreRules::new(2);
        let cards = [Card::Fishermen, Card::Hermits];
        let plain = score_table(&board, &cards, rules);
        assert_eq!(
            plain.gold(Component::Card(Card::Fishermen)),
            Some(&[2, 0][..])
        );
        let on_water = [Pos::new(0, 3)];
        let full = score_table_with_water(&board, &on_water, &cards, rules);
        assert_eq!(
            full.gold(Component::Card(Card::Fishermen)),
            Some(&[1, 1][..])
        );
        // Every other card counts it as a settlement.
        assert_eq!(full.gold(Component::Card(Card::Hermits)), Some(&[2, 1][..]));
    }

    #[test]
    fn r16_castle_pays_once_per_castle() {
        let board = position(&[
            (Cell::Castle, &[(5, 5), (15, 15)]),
            (P1, &[(5, 4), (5, 6), (4, 5)]),
            (P2, &[(6, 6), (15, 14)]),
            (P3, &[(0, 0)]),
        ]);
        assert_eq!(score_castles(&board, ScoreRules::new(3)), [3, 6, 0]);
    }

    #[test]
    fn r17_knights_tie_between_rows_gives_the_same_gold() {
        // Player 1 has 3 settlements on rows 2 and 7; player 2 has 1 on each of five rows.
        let board = position(&[
            (
                P1,
                &[(2, 0), (2, 5), (2, 19), (7, 1), (7, 2), (7, 3), (9, 9)],
            ),
            (P2, &[(0, 0), (4, 4), (8, 8), (12, 12), (16, 16)]),
        ]);
        assert_eq!(card(&board, Card::Knights, 3), [6, 2, 0]);
        assert_eq!(card(&board, Card::Discoverers, 3), [3, 5, 0]);
    }

    #[test]
    fn r17_lords_ranks_densely() {
        // The spec's example: counts 9/10/5/10 give 6/12/0/12.
        let plain = LordsRule::NonZeroCounts;
        assert_eq!(lords_in_quadrant(&[9, 10, 5, 10], plain), [6, 12, 0, 12]);
        assert_eq!(lords_in_quadrant(&[7, 7, 7, 7], plain), [12, 12, 12, 12]);
        assert_eq!(lords_in_quadrant(&[7, 3, 3, 1], plain), [12, 6, 6, 0]);
        assert_eq!(lords_in_quadrant(&[0, 0, 2, 0], plain), [0, 0, 12, 0]);
        assert_eq!(lords_in_quadrant(&[0, 1, 2, 0], plain), [0, 6, 12, 0]);
        let zero = LordsRule::ZeroCountsRank;
        assert_eq!(lords_in_quadrant(&[0, 0, 2, 0], zero), [6, 6, 12, 6]);
        assert_eq!(lords_in_quadrant(&[0, 1, 2, 0], zero), [0, 6, 12, 0]);
        // On a board: Q1 counts 9/10/5/10 (rows 0..4 hold them).
        let mut board = Board::empty();
        for (digit, n) in [(1u8, 9usize), (2, 10), (3, 5), (4, 10)] {
            for idx in 0..n {
                let row = usize::from(digit - 1) * 2 + idx / 10;
                board.set(Pos::new(row, idx % 10), Cell::Settlement(digit));
            }
        }
        assert_eq!(card(&board, Card::Lords, 4), [6, 12, 0, 12]);
    }

    #[test]
    fn r17_farmers_weakest_quadrant_ties_and_zero() {
        // Player 1: 2 in every quadrant (a four-way tie); player 2: nothing in Q4.
        let board = position(&[
            (
                P1,
                &[
                    (0, 0),
                    (0, 2),
                    (0, 12),
                    (0, 14),
                    (12, 0),
                    (12, 2),
                    (12, 12),
                    (12, 14),
                ],
            ),
            (P2, &[(5, 5), (5, 15), (15, 5)]),
        ]);
        assert_eq!(card(&board, Card::Farmers, 2), [6, 0]);
        let board = position(&[(P1, &[(1, 1), (1, 11), (11, 1), (11, 11), (11, 13)])]);
        assert_eq!(card(&board, Card::Farmers, 1), [3]);
    }

    #[test]
    fn r17_water_and_mountain_count_settlements_not_pairs() {
        let board = position(&[
            (Cell::Water, &[(4, 3), (4, 5), (5, 4)]),
            (Cell::Mountain, &[(3, 3), (3, 4)]),
            (P1, &[(4, 4)]),
            (P2, &[(6, 4), (6, 6)]),
        ]);
        // (4,4) touches three W and two M; (6,4) touches (5,4); (6,6) does not touch water.
        assert_eq!(card(&board, Card::Fishermen, 2), [1, 1]);
        assert_eq!(card(&board, Card::Miners, 2), [1, 0]);
    }

    #[test]
    fn r17_citizens_round_down() {
        let row_of = |n: usize| (0..n).map(|c| (0, c)).collect::<Vec<_>>();
        for (size, gold) in [(1, 0), (2, 1), (3, 1), (9, 4), (20, 10)] {
            let board = position(&[(P1, &row_of(size))]);
            assert_eq!(card(&board, Card::Citizens, 1), [gold], "size {size}");
        }
        assert_eq!(card(&Board::empty(), Card::Citizens, 2), [0, 0]);
    }

    #[test]
    fn r17_merchants_obvious_boards() {
        // Two castles joined by a chain of player 1: 8. A single settlement of player 2 between
        // a town and a castle: 8. A touching town-castle pair, (17,2) and (17,3), with player
        // 2's (17,1) next to the town only: the pair is not linked through itself, so nothing
        // more (counting it would give player 2 16).
        let board = position(&[
            (Cell::Castle, &[(0, 0), (0, 4)]),
            (P1, &[(0, 1), (0, 2), (0, 3)]),
            (Cell::Town, &[(10, 10), (17, 2)]),
            (Cell::Castle, &[(10, 12), (17, 3)]),
            (P2, &[(10, 11), (17, 1)]),
        ]);
        let p2_lone = Pos::new(17, 1);
        assert!(p2_lone.is_next_to(Pos::new(17, 2)) && !p2_lone.is_next_to(Pos::new(17, 3)));
        assert!(Pos::new(17, 2).is_next_to(Pos::new(17, 3)));
        assert_eq!(card(&board, Card::Merchants, 2), [8, 8]);
        // Once (17,1)'s group also reaches the castle, both hexes of the pair are paid.
        let mut reaching = board.clone();
        reaching.set(Pos::new(18, 2), P2);
        reaching.set(Pos::new(18, 3), P2);
        assert_eq!(card(&reaching, Card::Merchants, 2), [8, 16]);
        // Player 1 adds a second group linking (0,4) to a town: (0,4) is paid once, the town
        // once more.
        let mut more = board.clone();
        more.set(Pos::new(1, 4), P1);
        more.set(Pos::new(2, 5), Cell::Town);
        more.set(Pos::new(0, 1), Cell::Empty);
        // Now (0,2),(0,3),(1,4) link (0,4) and (2,5) but no longer (0,0).
        assert_eq!(card(&more, Card::Merchants, 2), [8, 8]);
        more.set(Pos::new(0, 1), P1);
        assert_eq!(card(&more, Card::Merchants, 2), [12, 8]);
        // Two groups each touching a single special hex link nothing.
        let apart = position(&[(Cell::Castle, &[(5, 5), (5, 9)]), (P1, &[(5, 6), (5, 8)])]);
        assert_eq!(card(&apart, Card::Merchants, 1), [0]);
    }

    #[test]
    fn r17_workers_obvious_boards() {
        // (3,4) touches a town and a castle (counts once); (3,8) touches a castle; (10,10)
        // touches nothing special; player 2's settlement touches the same town.
        let board = position(&[
            (Cell::Town, &[(3, 3)]),
            (Cell::Castle, &[(3, 5), (2, 8)]),
            (P1, &[(3, 4), (3, 8), (10, 10)]),
            (P2, &[(4, 3)]),
        ]);
        assert_eq!(card(&board, Card::Workers, 2), [2, 1]);
    }

    #[test]
    fn r18_digits_above_the_player_count_are_ignored() {
        let board = position(&[(Cell::Castle, &[(5, 5)]), (P1, &[(5, 4)]), (P4, &[(5, 6)])]);
        let table = score_table(&board, &[Card::Hermits, Card::Lords], ScoreRules::new(2));
        assert_eq!(table.n_players(), 2);
        assert_eq!(table.gold(Component::Castles), Some(&[3, 0][..]));
        assert_eq!(table.totals(), [3 + 12 + 1, 0]);
        // More than four players is read as four; no player count panics.
        let table = score_table(&board, &Card::ALL, ScoreRules::new(9));
        assert_eq!(table.totals().len(), 4);
        let nobody = score_table(&board, &Card::ALL, ScoreRules::new(0));
        assert!(nobody.totals().is_empty());
    }

    #[test]
    fn r18_table_orders_cards_and_adds_rows() {
        let board = position(&[(P1, &[(0, 0)])]);
        let table = score_table(
            &board,
            &[Card::Hermits, Card::Discoverers],
            ScoreRules::new(1),
        );
        let components: Vec<Component> = table.rows().iter().map(|r| r.component).collect();
        assert_eq!(
            components,
            [
                Component::Castles,
                Component::Card(Card::Discoverers),
                Component::Card(Card::Hermits)
            ]
        );
        assert_eq!(table.totals(), [2]);
        assert_eq!(table.gold(Component::Card(Card::Lords)), None);
    }
}
