//! The terrain deck (9.1, 9.3, 9.4) and the draw of the three scoring cards (R5).
//!
//! A terrain card is the index 0..5 of its terrain in `Terrain::BUILDABLE`. The deck is a
//! fixed array with the top at `next`, so a game state stays `Copy`-sized and cheap to clone.

use realm_core::SplitMix64;

use crate::cards::Card;

use super::generator::below;
use super::map::Terrain;

/// Cards per terrain (9.1).
pub const CARDS_PER_TERRAIN: usize = 5;
/// Cards in the deck (9.1).
pub const DECK_SIZE: usize = CARDS_PER_TERRAIN * Terrain::BUILDABLE.len();

/// The terrain of a card.
pub fn card_terrain(card: u8) -> Terrain {
    Terrain::BUILDABLE[usize::from(card)]
}

/// The draw pile and the discard pile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deck {
    /// `cards[next..len]` is the draw pile, top first.
    cards: [u8; DECK_SIZE],
    next: u8,
    len: u8,
    /// `discards[..n_discards]`, oldest first.
    discards: [u8; DECK_SIZE],
    n_discards: u8,
}

impl Deck {
    /// The 25 cards in order (5 grass, 5 canyon, 5 desert, 5 flower, 5 forest), shuffled by
    /// `SplitMix64::shuffle` (D1 of RULES.md's full game).
    pub fn shuffled(rng: &mut SplitMix64) -> Deck {
        let mut cards = [0; DECK_SIZE];
        for (i, card) in cards.iter_mut().enumerate() {
            *card = (i / CARDS_PER_TERRAIN) as u8;
        }
        rng.shuffle(&mut cards);
        Deck {
            cards,
            next: 0,
            len: DECK_SIZE as u8,
            discards: [0; DECK_SIZE],
            n_discards: 0,
        }
    }

    /// A deck with these piles (draw pile top first, discards oldest first), for edited
    /// positions; together they hold at most 25 cards.
    pub fn from_piles(pile: &[u8], discards: &[u8]) -> Deck {
        let mut deck = Deck {
            cards: [0; DECK_SIZE],
            next: 0,
            len: pile.len() as u8,
            discards: [0; DECK_SIZE],
            n_discards: discards.len() as u8,
        };
        deck.cards[..pile.len()].copy_from_slice(pile);
        deck.discards[..discards.len()].copy_from_slice(discards);
        deck
    }

    /// The draw pile, top first.
    pub fn pile(&self) -> &[u8] {
        &self.cards[usize::from(self.next)..usize::from(self.len)]
    }

    /// The discard pile, oldest first (public information).
    pub fn discards(&self) -> &[u8] {
        &self.discards[..usize::from(self.n_discards)]
    }

    /// Takes the top card; an empty pile first becomes the discards shuffled by `rng` (9.4).
    /// Both piles empty cannot happen in a game: at most four cards are in hands.
    pub fn draw(&mut self, rng: &mut SplitMix64) -> u8 {
        if self.next == self.len {
            let n = usize::from(self.n_discards);
            self.cards[..n].copy_from_slice(&self.discards[..n]);
            rng.shuffle(&mut self.cards[..n]);
            self.next = 0;
            self.len = self.n_discards;
            self.n_discards = 0;
        }
        let card = self.cards[usize::from(self.next)];
        self.next += 1;
        card
    }

    pub fn discard(&mut self, card: u8) {
        self.discards[usize::from(self.n_discards)] = card;
        self.n_discards += 1;
    }

    /// The draw pile as a mutable slice, for re-dealing hidden cards.
    pub(crate) fn pile_mut(&mut self) -> &mut [u8] {
        &mut self.cards[usize::from(self.next)..usize::from(self.len)]
    }
}

/// R5: league 1 plays 1 3 7; league 2 draws one card of each group {1,2}, {3,4,5,6}, {7,8};
/// league 3 (and any other) removes three cards from 1..10 at drawn indexes. Sorted ascending.
pub fn draw_scoring_cards(league: u32, rng: &mut SplitMix64) -> [Card; 3] {
    let numbers: [u8; 3] = match league {
        1 => [1, 3, 7],
        2 => {
            let first = [1, 2][below(rng, 2)];
            let second = [3, 4, 5, 6][below(rng, 4)];
            let third = [7, 8][below(rng, 2)];
            [first, second, third]
        }
        _ => {
            let mut pool: Vec<u8> = (1..=10).collect();
            let mut drawn = [0; 3];
            for slot in &mut drawn {
                *slot = pool.remove(below(rng, pool.len()));
            }
            drawn
        }
    };
    let mut cards = numbers.map(|n| Card::from_number(n).unwrap_or(Card::Discoverers));
    cards.sort();
    cards
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deck_holds_five_of_each_terrain_and_reshuffles_discards() {
        let mut rng = SplitMix64::new(3);
        let mut deck = Deck::shuffled(&mut rng);
        let mut counts = [0; 5];
        for &c in deck.pile() {
            counts[usize::from(c)] += 1;
        }
        assert_eq!(counts, [5; 5]);
        let drawn: Vec<u8> = (0..DECK_SIZE).map(|_| deck.draw(&mut rng)).collect();
        assert!(deck.pile().is_empty());
        for &c in &drawn[..10] {
            deck.discard(c);
        }
        let next = deck.draw(&mut rng);
        assert_eq!(deck.pile().len(), 9);
        assert!(deck.discards().is_empty());
        let mut again: Vec<u8> = deck.pile().to_vec();
        again.push(next);
        again.sort();
        let mut expected = drawn[..10].to_vec();
        expected.sort();
        assert_eq!(again, expected);
    }

    #[test]
    fn r5_scoring_cards_per_league() {
        let numbers =
            |league, seed| draw_scoring_cards(league, &mut SplitMix64::new(seed)).map(Card::number);
        assert_eq!(numbers(1, 5), [1, 3, 7]);
        for seed in 0..200 {
            let [a, b, c] = numbers(2, seed);
            assert!([1, 2].contains(&a) && (3..=6).contains(&b) && [7, 8].contains(&c));
            let [a, b, c] = numbers(3, seed);
            assert!(a < b && b < c && c <= 10);
        }
    }
}
