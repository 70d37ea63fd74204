//! The complete board game (9.3-9.7) as a state machine on bitboards: setup from the seed, the
//! mandatory build with its adjacency rule, location tiles, the terrain deck, the end of the
//! game and scoring with the crate's scorer. `GameState` implements `realm_core::State`.
//!
//! What never changes during a game (the map, its terrain sets, the scoring cards) sits behind
//! an `Arc`, so cloning a position copies only what play changes (about 1.3 KB).

use std::sync::Arc;

use realm_core::{ranks_from_keys, EndReason, Outcome, PlayerId, SplitMix64, State};

use crate::board::{Board, Cell, Pos, MAX_PLAYERS, N_CELLS};
use crate::cards::Card;
use crate::score::{score_table_with_water, LordsRule, ScoreRules, ScoreTable};

use super::actions::{
    cell_pos, near_without, paddock_jumps, tavern_line_ends, with_adjacency, Action,
};
use super::bits::{Bits, EDGE, NEIGHBOURS};
use super::deck::{card_terrain, draw_scoring_cards, Deck};
use super::generator::generate_map;
use super::map::{Map, Terrain, TileKind};

/// Settlements in each seat's supply at the start (9.1).
pub const SETTLEMENTS: u8 = 40;
/// Settlements of a full mandatory build (9.4).
pub const BUILD_SIZE: u8 = 3;
/// Tiles on each location hex at the start (9.2).
pub const TILES_PER_LOCATION: u8 = 2;

/// What a game is set up with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameConfig {
    /// 2 to 4 seats (1 is accepted, for analysis).
    pub n_players: usize,
    /// The scoring-card pool of R5 (1, 2 or 3).
    pub league: u32,
    /// Fixed scoring cards instead of R5's draw (`--cards`); nothing is drawn for them.
    pub cards: Option<Vec<Card>>,
    pub lords: LordsRule,
    /// Location hexes hold their tiles (9.2); without them no tile is ever taken (league 1 of
    /// the match protocol, PROTOCOL.md).
    pub tiles: bool,
}

impl GameConfig {
    /// `n_players` seats in `league`, cards drawn, default Lords rule, location tiles from
    /// league 2 on.
    pub fn new(n_players: usize, league: u32) -> GameConfig {
        GameConfig {
            n_players,
            league,
            cards: None,
            lords: LordsRule::default(),
            tiles: league >= 2,
        }
    }
}

/// Where the player to move is in its turn (9.4, D27).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// No settlement of the mandatory build placed yet: builds and tiles.
    BeforeBuild,
    /// Partway through the mandatory build: builds only.
    Building,
    /// The mandatory build is done (or cannot go on): tiles and `EndTurn`.
    AfterBuild,
    /// The game is over.
    Over,
}

/// The part of a game that play never changes.
#[derive(Debug)]
struct Fixed {
    map: Map,
    n_players: usize,
    cards: Vec<Card>,
    lords: LordsRule,
    /// Cells of each terrain, indexed by `Terrain as usize`.
    terrain: [Bits; 9],
    buildable: Bits,
    /// Location hexes of each tile type, indexed by `TileKind as usize`.
    locations: [Bits; 8],
    /// The scoring board of the map without settlements.
    board: Board,
}

impl Fixed {
    fn new(map: Map, n_players: usize, cards: Vec<Card>, lords: LordsRule) -> Fixed {
        let terrain = Terrain::ALL.map(|t| map.terrain_set(t));
        let buildable = Terrain::BUILDABLE
            .iter()
            .fold(Bits::EMPTY, |acc, &t| acc | terrain[t as usize]);
        Fixed {
            locations: TileKind::ALL.map(|k| map.location_set(k)),
            board: map.scoring_board(),
            terrain,
            buildable,
            map,
            n_players: n_players.clamp(1, MAX_PLAYERS),
            cards,
            lords,
        }
    }

    fn kind_of(&self, hex: usize) -> TileKind {
        TileKind::ALL
            .into_iter()
            .find(|&k| self.locations[k as usize].contains(hex))
            .unwrap_or(TileKind::Oracle)
    }
}

/// A position of the full game.
#[derive(Clone, Debug)]
pub struct GameState {
    fixed: Arc<Fixed>,
    occupied: Bits,
    mine: [Bits; MAX_PLAYERS],
    /// Cells next to at least one settlement of each seat.
    near: [Bits; MAX_PLAYERS],
    supply: [u8; MAX_PLAYERS],
    /// Location hexes with at least one tile left, and with two.
    tiles_one: Bits,
    tiles_two: Bits,
    /// Hexes each seat has taken a tile from (never again, 9.5), and those whose tile it holds.
    taken: [Bits; MAX_PLAYERS],
    held: [Bits; MAX_PLAYERS],
    /// The mover's tiles taken this turn (usable from its next turn) and used this turn.
    fresh: Bits,
    used: Bits,
    /// Each seat's terrain card; the mover's is revealed.
    hands: [u8; MAX_PLAYERS],
    deck: Deck,
    /// The setup stream, continued for the reshuffles of the deck.
    rng: SplitMix64,
    mover: u8,
    /// Turns started, 1-based.
    turn: u32,
    /// Settlements of the mandatory build still to place this turn, and placed so far.
    build_left: u8,
    built: u8,
    /// A seat has placed its last settlement (or a build found no empty buildable cell): the
    /// game ends with this round.
    ending: bool,
    over: bool,
    final_gold: [u32; MAX_PLAYERS],
    /// 0 for a seat in the game, k for the k-th seat eliminated (R21; the referee's faults).
    eliminated: [u8; MAX_PLAYERS],
    tiles_in_play: bool,
}

impl GameState {
    /// A game on a map generated from `seed` (9.2), then the cards and the deck (9.3; the order
    /// of draws is RULES.md's G1-G7).
    pub fn new(config: &GameConfig, seed: u64) -> GameState {
        let mut rng = SplitMix64::new(seed);
        let (map, _) = generate_map(&mut rng);
        GameState::start(config, map, rng)
    }

    /// A game on a given map: the seed draws only the cards and the deck.
    pub fn with_map(config: &GameConfig, map: Map, seed: u64) -> GameState {
        GameState::start(config, map, SplitMix64::new(seed))
    }

    fn start(config: &GameConfig, map: Map, mut rng: SplitMix64) -> GameState {
        let cards = match &config.cards {
            Some(cards) => cards.clone(),
            None => draw_scoring_cards(config.league, &mut rng).to_vec(),
        };
        let fixed = Fixed::new(map, config.n_players, cards, config.lords);
        let mut deck = Deck::shuffled(&mut rng);
        let mut hands = [0; MAX_PLAYERS];
        for hand in hands.iter_mut().take(fixed.n_players) {
            *hand = deck.draw(&mut rng);
        }
        let all_locations = if config.tiles {
            fixed.locations.iter().fold(Bits::EMPTY, |a, &b| a | b)
        } else {
            Bits::EMPTY
        };
        let mut state = GameState {
            occupied: Bits::EMPTY,
            mine: [Bits::EMPTY; MAX_PLAYERS],
            near: [Bits::EMPTY; MAX_PLAYERS],
            supply: [SETTLEMENTS; MAX_PLAYERS],
            tiles_one: all_locations,
            tiles_two: all_locations,
            taken: [Bits::EMPTY; MAX_PLAYERS],
            held: [Bits::EMPTY; MAX_PLAYERS],
            fresh: Bits::EMPTY,
            used: Bits::EMPTY,
            hands,
            deck,
            rng,
            mover: 0,
            turn: 0,
            build_left: 0,
            built: 0,
            ending: false,
            over: false,
            final_gold: [0; MAX_PLAYERS],
            eliminated: [0; MAX_PLAYERS],
            tiles_in_play: config.tiles,
            fixed: Arc::new(fixed),
        };
        state.start_turn();
        state
    }

    // ---- what a position shows ----

    pub fn map(&self) -> &Map {
        &self.fixed.map
    }

    /// The scoring cards in play, ascending.
    pub fn cards(&self) -> &[Card] {
        &self.fixed.cards
    }

    pub fn lords_rule(&self) -> LordsRule {
        self.fixed.lords
    }

    /// The seat whose turn it is (also after the end: the last mover).
    pub fn mover(&self) -> PlayerId {
        usize::from(self.mover)
    }

    /// Turns started so far, 1-based.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The round of the current turn, 1-based.
    pub fn round(&self) -> u32 {
        (self.turn - 1) / self.fixed.n_players as u32 + 1
    }

    pub fn phase(&self) -> Phase {
        if self.over {
            Phase::Over
        } else if self.build_left == 0 {
            Phase::AfterBuild
        } else if self.built == 0 {
            Phase::BeforeBuild
        } else {
            Phase::Building
        }
    }

    /// Settlements of the mandatory build placed this turn, and still to place.
    pub fn build_progress(&self) -> (u8, u8) {
        (self.built, self.build_left)
    }

    /// True once the game ends with the current round (9.7).
    pub fn is_last_round(&self) -> bool {
        self.ending
    }

    /// The mover's revealed terrain card.
    pub fn revealed(&self) -> Terrain {
        card_terrain(self.hands[usize::from(self.mover)])
    }

    /// A seat's terrain card: the revealed one for the mover, hidden from the others otherwise.
    pub fn hand(&self, seat: PlayerId) -> Terrain {
        card_terrain(self.hands[seat])
    }

    pub fn deck(&self) -> &Deck {
        &self.deck
    }

    pub fn supply(&self, seat: PlayerId) -> u8 {
        self.supply[seat]
    }

    /// A seat's settlements.
    pub fn settlements(&self, seat: PlayerId) -> Bits {
        self.mine[seat]
    }

    /// Every occupied cell.
    pub fn occupied(&self) -> Bits {
        self.occupied
    }

    /// The seat whose settlement stands on `cell`.
    pub fn occupant(&self, cell: usize) -> Option<PlayerId> {
        (0..self.fixed.n_players).find(|&p| self.mine[p].contains(cell))
    }

    /// The cells of one terrain.
    pub fn terrain_cells(&self, terrain: Terrain) -> Bits {
        self.fixed.terrain[terrain as usize]
    }

    /// Tiles left on a location hex (0 for any other cell).
    pub fn tiles_left(&self, hex: usize) -> u8 {
        u8::from(self.tiles_one.contains(hex)) + u8::from(self.tiles_two.contains(hex))
    }

    /// The location hexes whose tile `seat` holds.
    pub fn held_tiles(&self, seat: PlayerId) -> Bits {
        self.held[seat]
    }

    /// The location hexes `seat` has taken a tile from, held or not.
    pub fn taken_tiles(&self, seat: PlayerId) -> Bits {
        self.taken[seat]
    }

    /// The tile type of a location hex.
    pub fn tile_kind(&self, hex: usize) -> TileKind {
        self.fixed.kind_of(hex)
    }

    /// The mover's tiles it may still use this turn (9.5): held, not taken this turn, not used.
    pub fn usable_tiles(&self) -> Bits {
        self.held[usize::from(self.mover)] - self.fresh - self.used
    }

    /// The mover's tiles taken this turn and those used this turn.
    pub fn fresh_and_used_tiles(&self) -> (Bits, Bits) {
        (self.fresh, self.used)
    }

    /// The scoring board of this position: map specials and every settlement (B4 cells).
    pub fn scoring_board(&self) -> Board {
        let mut board = self.fixed.board.clone();
        for (p, mine) in self.mine.iter().enumerate().take(self.fixed.n_players) {
            for cell in mine.iter() {
                board.set(Pos::from_index(cell), Cell::Settlement(p as u8 + 1));
            }
        }
        board
    }

    /// Settlements standing on water (Harbor), for D32.
    pub fn settlements_on_water(&self) -> Vec<Pos> {
        (self.occupied & self.fixed.terrain[Terrain::Water as usize])
            .iter()
            .map(Pos::from_index)
            .collect()
    }

    /// Each seat's gold on the current board (R16-R18 with D32).
    pub fn gold(&self) -> Vec<u32> {
        self.score_table().totals()
    }

    /// The score table of the current board: castles and each card in play, per seat.
    pub fn score_table(&self) -> ScoreTable {
        let rules = ScoreRules {
            n_players: self.fixed.n_players,
            lords: self.fixed.lords,
        };
        score_table_with_water(
            &self.scoring_board(),
            &self.settlements_on_water(),
            &self.fixed.cards,
            rules,
        )
    }

    // ---- targets ----

    fn empty_of(&self, cells: Bits) -> Bits {
        cells - self.occupied
    }

    /// The cells the next settlement of the mandatory build may go to (9.4).
    pub fn build_targets(&self) -> Bits {
        let p = usize::from(self.mover);
        let kind = self.fixed.terrain[self.revealed() as usize];
        with_adjacency(self.empty_of(kind), self.near[p])
    }

    /// The targets of a build tile (9.6) for the mover, ignoring whether it holds the tile.
    pub fn build_tile_targets(&self, tile: TileKind) -> Bits {
        let p = usize::from(self.mover);
        let terrain = |t: Terrain| self.fixed.terrain[t as usize];
        let adjacent = |cells: Bits| with_adjacency(self.empty_of(cells), self.near[p]);
        match tile {
            TileKind::Oracle => adjacent(terrain(self.revealed())),
            TileKind::Farm => adjacent(terrain(Terrain::Grass)),
            TileKind::Oasis => adjacent(terrain(Terrain::Desert)),
            TileKind::Tower => adjacent(self.fixed.buildable & EDGE),
            TileKind::Tavern => {
                self.empty_of(self.fixed.buildable) & tavern_line_ends(self.mine[p])
            }
            TileKind::Barn | TileKind::Harbor | TileKind::Paddock => Bits::EMPTY,
        }
    }

    /// The targets of a move tile (9.6) for the mover's settlement on `from`, which is lifted
    /// first (D30); the origin itself is never a target.
    pub fn move_tile_targets(&self, tile: TileKind, from: usize) -> Bits {
        let (once, twice) = self.mine[usize::from(self.mover)].neighbourhood_counts();
        self.move_targets_given(tile, from, once, twice)
    }

    fn move_targets_given(&self, tile: TileKind, from: usize, once: Bits, twice: Bits) -> Bits {
        let terrain = |t: Terrain| self.fixed.terrain[t as usize];
        let near = near_without(once, twice, from);
        match tile {
            TileKind::Barn => with_adjacency(self.empty_of(terrain(self.revealed())), near),
            TileKind::Harbor => with_adjacency(self.empty_of(terrain(Terrain::Water)), near),
            TileKind::Paddock => self.empty_of(self.fixed.buildable) & paddock_jumps(from),
            _ => Bits::EMPTY,
        }
    }

    /// The mover's usable tile types, each once (two tiles of a type are one listing).
    fn usable_kinds(&self) -> impl Iterator<Item = TileKind> + '_ {
        let usable = self.usable_tiles();
        let can_build = self.supply[usize::from(self.mover)] > 0;
        TileKind::ALL.into_iter().filter(move |&k| {
            !(usable & self.fixed.locations[k as usize]).is_empty() && (k.is_move() || can_build)
        })
    }

    fn push_tile_actions(&self, out: &mut Vec<Action>) {
        let mine = self.mine[usize::from(self.mover)];
        let mut counts = None;
        for tile in self.usable_kinds() {
            if !tile.is_move() {
                for to in self.build_tile_targets(tile).iter() {
                    out.push(Action::UseTile {
                        tile,
                        from: None,
                        to: to as u16,
                    });
                }
                continue;
            }
            let (once, twice) = *counts.get_or_insert_with(|| mine.neighbourhood_counts());
            for from in mine.iter() {
                for to in self.move_targets_given(tile, from, once, twice).iter() {
                    out.push(Action::UseTile {
                        tile,
                        from: Some(from as u16),
                        to: to as u16,
                    });
                }
            }
        }
    }

    // ---- playing ----

    fn start_turn(&mut self) {
        self.turn += 1;
        self.built = 0;
        self.build_left = BUILD_SIZE;
        self.fresh = Bits::EMPTY;
        self.used = Bits::EMPTY;
        self.prepare_build();
    }

    /// Before each settlement of the mandatory build: the build is over without supply (9.4:
    /// all that remain), or when no card left could be used (no empty buildable cell: the game
    /// ends with the round, G9); a revealed terrain without an empty cell is discarded and cards
    /// drawn until one has one (D28).
    fn prepare_build(&mut self) {
        let p = usize::from(self.mover);
        if self.supply[p] == 0 {
            self.build_left = 0;
        }
        if self.build_left == 0 {
            return;
        }
        if self.usable_card(self.hands[p]) {
            return;
        }
        // In a game each terrain has at least two cards outside the other seats' hands, so a
        // usable card comes if any terrain has an empty cell; an edited deck may lack it.
        let cards = self.deck.pile().iter().chain(self.deck.discards());
        if !cards.copied().any(|card| self.usable_card(card)) {
            self.build_left = 0;
            self.ending = true;
            return;
        }
        while !self.usable_card(self.hands[p]) {
            self.deck.discard(self.hands[p]);
            self.hands[p] = self.deck.draw(&mut self.rng);
        }
    }

    /// True when the card's terrain has an empty cell.
    fn usable_card(&self, card: u8) -> bool {
        !self
            .empty_of(self.fixed.terrain[card_terrain(card) as usize])
            .is_empty()
    }

    /// A settlement from the supply onto `cell`, taking the tiles it comes next to.
    fn put(&mut self, p: usize, cell: usize) {
        self.occupy(p, cell);
        self.supply[p] -= 1;
        if self.supply[p] == 0 {
            self.ending = true;
        }
        self.take_tiles(p, cell);
    }

    fn occupy(&mut self, p: usize, cell: usize) {
        self.occupied.insert(cell);
        self.mine[p].insert(cell);
        self.near[p] |= NEIGHBOURS[cell];
    }

    /// One tile off a location hex for `p`, who holds it from now on.
    fn take_one_tile(&mut self, p: usize, hex: usize) {
        if self.tiles_two.contains(hex) {
            self.tiles_two.remove(hex);
        } else {
            self.tiles_one.remove(hex);
        }
        self.taken[p].insert(hex);
        self.held[p].insert(hex);
    }

    /// A settlement moved from `from` to `to` (9.6): tiles next to `to` are taken, tiles of
    /// hexes left without a neighbour of the seat are lost (D29).
    fn relocate(&mut self, p: usize, from: usize, to: usize) {
        self.occupied.remove(from);
        self.mine[p].remove(from);
        self.occupied.insert(to);
        self.mine[p].insert(to);
        // Lifting can take cells out of the neighbourhood, so it is recomputed.
        self.near[p] = self.mine[p].neighbourhood();
        self.take_tiles(p, to);
        for hex in (NEIGHBOURS[from] & self.held[p]).iter() {
            if (NEIGHBOURS[hex] & self.mine[p]).is_empty() {
                self.held[p].remove(hex);
                self.fresh.remove(hex);
                self.used.remove(hex);
            }
        }
    }

    /// 9.5: one tile from each location hex next to `cell` that has tiles and that the seat
    /// never took from.
    fn take_tiles(&mut self, p: usize, cell: usize) {
        let hexes = (NEIGHBOURS[cell] & self.tiles_one) - self.taken[p];
        for hex in hexes.iter() {
            self.take_one_tile(p, hex);
            self.fresh.insert(hex);
        }
    }

    /// Marks one usable tile of `tile`'s type used: the one from the lowest hex (G8).
    fn spend_tile(&mut self, tile: TileKind) {
        let usable = self.usable_tiles() & self.fixed.locations[tile as usize];
        if let Some(hex) = usable.first() {
            self.used.insert(hex);
        }
    }

    fn end_turn(&mut self) {
        let p = usize::from(self.mover);
        self.deck.discard(self.hands[p]);
        self.hands[p] = self.deck.draw(&mut self.rng);
        self.pass_turn_from(p);
    }

    /// The next seat in the game after `p` starts its turn, unless the round wraps in the last
    /// round (9.7) or nobody is left.
    fn pass_turn_from(&mut self, p: usize) {
        let n = self.fixed.n_players;
        let next = (1..=n)
            .map(|step| (p + step) % n)
            .find(|&q| self.eliminated[q] == 0);
        match next {
            Some(q) if !(self.ending && q <= p) => {
                self.mover = q as u8;
                self.start_turn();
            }
            _ => self.finish(),
        }
    }

    fn finish(&mut self) {
        self.over = true;
        let gold = self.gold();
        self.final_gold[..gold.len()].copy_from_slice(&gold);
    }

    /// Takes `seat` out of the game (R21, the referee's faults): it gets no more turns, its
    /// settlements stay and still score for the others' cards, its card stays out of play.
    /// When at most one seat is left the game ends at once; when the mover is eliminated the
    /// next seat starts its turn (the caller undoes the mover's partial turn first, if any).
    pub fn eliminate(&mut self, seat: PlayerId) {
        if self.over || seat >= self.fixed.n_players || self.eliminated[seat] != 0 {
            return;
        }
        let order = self.eliminated.iter().filter(|&&e| e != 0).count() as u8 + 1;
        self.eliminated[seat] = order;
        let left = (0..self.fixed.n_players)
            .filter(|&p| self.eliminated[p] == 0)
            .count();
        if left <= 1 {
            self.finish();
        } else if seat == usize::from(self.mover) {
            self.pass_turn_from(seat);
        }
    }

    /// True once `seat` was eliminated.
    pub fn is_eliminated(&self, seat: PlayerId) -> bool {
        self.eliminated[seat] != 0
    }

    /// True when the location hexes started with their tiles (`GameConfig::tiles`).
    pub fn has_tiles(&self) -> bool {
        self.tiles_in_play
    }

    /// Deals the hidden cards anew (seeded): the draw pile and the other seats' cards are
    /// shuffled together and dealt back, the other seats first in seat order. The future
    /// reshuffles of the deck continue from the new stream too. What the mover sees (its
    /// revealed card, the discards, every count) does not change: a determinization for search.
    pub fn reshuffle_hidden(&mut self, seed: u64) {
        if self.over {
            return;
        }
        let mover = usize::from(self.mover);
        let others: Vec<usize> = (0..self.fixed.n_players).filter(|&p| p != mover).collect();
        let mut pool: Vec<u8> = others.iter().map(|&p| self.hands[p]).collect();
        pool.extend_from_slice(self.deck.pile());
        let mut rng = SplitMix64::new(seed);
        rng.shuffle(&mut pool);
        for (&p, &card) in others.iter().zip(&pool) {
            self.hands[p] = card;
        }
        self.deck.pile_mut().copy_from_slice(&pool[others.len()..]);
        self.rng = rng;
    }

    /// What `seat` sees of this position: everything but the draw pile's order and the other
    /// seats' cards (the mover's card is revealed).
    pub fn observation(&self, seat: PlayerId) -> Observation {
        let n = self.fixed.n_players;
        let mover = usize::from(self.mover);
        Observation {
            seat,
            mover,
            turn: self.turn,
            phase: self.phase(),
            build_progress: self.build_progress(),
            last_round: self.ending,
            own_card: self.hand(seat),
            revealed: self.revealed(),
            settlements: self.mine[..n].to_vec(),
            supply: self.supply[..n].to_vec(),
            taken: self.taken[..n].to_vec(),
            held: self.held[..n].to_vec(),
            tiles: (self.tiles_one, self.tiles_two),
            fresh_and_used: (self.fresh, self.used),
            discards: self.deck.discards().to_vec(),
            pile_len: self.deck.pile().len(),
            cards: self.fixed.cards.clone(),
        }
    }

    // ---- editing positions (tests, analysis, rebuilding a position from protocol text) ----

    /// Puts a settlement of `seat` from its supply on `cell` without any rule (no tile taken).
    pub fn edit_place(&mut self, seat: PlayerId, cell: usize) {
        self.occupy(seat, cell);
        self.supply[seat] = self.supply[seat].saturating_sub(1);
    }

    /// Sets a seat's supply.
    pub fn edit_supply(&mut self, seat: PlayerId, supply: u8) {
        self.supply[seat] = supply;
    }

    /// Gives `seat` the tile of location hex `hex` (taken earlier, so usable now).
    pub fn edit_give_tile(&mut self, seat: PlayerId, hex: usize) {
        self.take_one_tile(seat, hex);
    }

    /// Sets a seat's card, swapping it with a card of that terrain from the draw pile when the
    /// pile has one (so the deck keeps five of each terrain).
    pub fn edit_hand(&mut self, seat: PlayerId, terrain: Terrain) {
        let card = terrain as u8;
        let old = self.hands[seat];
        if let Some(slot) = self.deck.pile_mut().iter_mut().find(|c| **c == card) {
            *slot = old;
        }
        self.hands[seat] = card;
    }

    /// Replaces both piles (draw pile top first, discards oldest first).
    pub fn edit_piles(&mut self, pile: &[Terrain], discards: &[Terrain]) {
        self.deck = Deck::from_piles(
            &pile.iter().map(|&t| t as u8).collect::<Vec<_>>(),
            &discards.iter().map(|&t| t as u8).collect::<Vec<_>>(),
        );
    }

    /// Restarts the mover's turn after edits: nothing built, no tile fresh or used, the revealed
    /// card checked as at the start of a turn.
    pub fn edit_restart_turn(&mut self) {
        self.turn -= 1;
        self.start_turn();
    }

    /// Makes `seat` the mover (call `edit_restart_turn` after the other edits).
    pub fn edit_mover(&mut self, seat: PlayerId) {
        self.mover = seat as u8;
    }

    /// Sets the tiles left on a location hex (0, 1 or 2).
    pub fn edit_tiles_left(&mut self, hex: usize, left: u8) {
        self.tiles_one.remove(hex);
        self.tiles_two.remove(hex);
        if left >= 1 {
            self.tiles_one.insert(hex);
        }
        if left >= 2 {
            self.tiles_two.insert(hex);
        }
    }

    /// Records that `seat` took a tile from `hex` (tiles left unchanged), and holds it or lost it.
    pub fn edit_took_tile(&mut self, seat: PlayerId, hex: usize, holds: bool) {
        self.taken[seat].insert(hex);
        if holds {
            self.held[seat].insert(hex);
        } else {
            self.held[seat].remove(hex);
        }
    }

    /// Every seat's card and both piles (draw pile top first, discards oldest first).
    pub fn edit_cards(&mut self, hands: &[Terrain], pile: &[Terrain], discards: &[Terrain]) {
        for (hand, &terrain) in self.hands.iter_mut().zip(hands) {
            *hand = terrain as u8;
        }
        self.edit_piles(pile, discards);
    }

    /// Marks the game as ending with the current round (a seat placed its last settlement).
    pub fn edit_last_round(&mut self, last: bool) {
        self.ending = last;
    }

    /// Sets the mandatory build's progress in the mover's turn (placed, still to place) and
    /// the mover's tiles already taken or used this turn, for a turn resumed partway.
    pub fn edit_turn_progress(&mut self, built: u8, left: u8, unusable: Bits) {
        self.built = built;
        self.build_left = left;
        self.used = unusable & self.held[usize::from(self.mover)];
    }
}

/// Everything one seat can see of a position (`GameState::observation`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    pub seat: PlayerId,
    pub mover: PlayerId,
    pub turn: u32,
    pub phase: Phase,
    pub build_progress: (u8, u8),
    pub last_round: bool,
    /// The seat's own card (the revealed card when it is the mover).
    pub own_card: Terrain,
    pub revealed: Terrain,
    pub settlements: Vec<Bits>,
    pub supply: Vec<u8>,
    pub taken: Vec<Bits>,
    pub held: Vec<Bits>,
    /// Location hexes with at least one tile, and with two.
    pub tiles: (Bits, Bits),
    /// The mover's tiles taken and used this turn.
    pub fresh_and_used: (Bits, Bits),
    pub discards: Vec<u8>,
    pub pile_len: usize,
    pub cards: Vec<Card>,
}

impl State for GameState {
    type Action = Action;

    fn n_players(&self) -> usize {
        self.fixed.n_players
    }

    fn to_move(&self) -> Option<PlayerId> {
        (!self.over).then_some(usize::from(self.mover))
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        let phase = self.phase();
        if matches!(phase, Phase::BeforeBuild | Phase::Building) {
            out.extend(self.build_targets().iter().map(|c| Action::Build(c as u16)));
        }
        if matches!(phase, Phase::BeforeBuild | Phase::AfterBuild) {
            self.push_tile_actions(out);
        }
        if phase == Phase::AfterBuild {
            out.push(Action::EndTurn);
        }
    }

    fn is_legal(&self, action: &Action) -> bool {
        let phase = self.phase();
        let on_board = |cell: u16| usize::from(cell) < N_CELLS;
        match *action {
            Action::Build(cell) => {
                matches!(phase, Phase::BeforeBuild | Phase::Building)
                    && on_board(cell)
                    && self.build_targets().contains(usize::from(cell))
            }
            Action::UseTile { tile, from, to } => {
                if !matches!(phase, Phase::BeforeBuild | Phase::AfterBuild)
                    || !on_board(to)
                    || !self.usable_kinds().any(|k| k == tile)
                {
                    return false;
                }
                let mine = self.mine[usize::from(self.mover)];
                let targets = match from {
                    None if !tile.is_move() => self.build_tile_targets(tile),
                    Some(from) if tile.is_move() && on_board(from) => {
                        if !mine.contains(usize::from(from)) {
                            return false;
                        }
                        self.move_tile_targets(tile, usize::from(from))
                    }
                    _ => return false,
                };
                targets.contains(usize::from(to))
            }
            Action::EndTurn => phase == Phase::AfterBuild,
        }
    }

    fn apply(&mut self, action: &Action) {
        let p = usize::from(self.mover);
        match *action {
            Action::Build(cell) => {
                self.put(p, usize::from(cell));
                self.built += 1;
                self.build_left -= 1;
                self.prepare_build();
            }
            Action::UseTile { tile, from, to } => {
                let before = self.phase() == Phase::BeforeBuild;
                self.spend_tile(tile);
                match from {
                    None => self.put(p, usize::from(to)),
                    Some(from) => self.relocate(p, usize::from(from), usize::from(to)),
                }
                if before {
                    self.prepare_build();
                }
            }
            Action::EndTurn => self.end_turn(),
        }
    }

    fn outcome(&self) -> Outcome {
        let n = self.fixed.n_players;
        let gold = if self.over {
            self.final_gold[..n].to_vec()
        } else {
            self.gold()
        };
        // R20: seats in the game by gold, then the eliminated ones, later eliminations first.
        let keys: Vec<(bool, u8, u32)> = (0..n)
            .map(|p| match self.eliminated[p] {
                0 => (true, u8::MAX, gold[p]),
                order => (false, order, 0),
            })
            .collect();
        Outcome {
            scores: (0..n)
                .map(|p| match self.eliminated[p] {
                    0 => i64::from(gold[p]),
                    _ => -1,
                })
                .collect(),
            ranks: ranks_from_keys(&keys),
            end: EndReason::Finished,
            detail: if self.over { "finished" } else { "in_progress" }.to_string(),
            faults: vec![None; n],
            stats: Vec::new(),
        }
    }
}

/// Cells as (row, col) pairs, for messages and tests.
pub fn cells_of(bits: Bits) -> Vec<(usize, usize)> {
    bits.iter()
        .map(|c| {
            let p = cell_pos(c as u16);
            (p.row, p.col)
        })
        .collect()
}
