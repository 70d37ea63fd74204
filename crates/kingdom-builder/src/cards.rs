//! The ten scoring cards of R17: numbers, names, and reading a `--cards` list.
//!
//! What each card pays is `score.rs`; this module only names the cards.

use std::fmt;
use std::str::FromStr;

/// A scoring card. Numbers 1 to 8 are the statement's, 9 and 10 the two it left out (R17).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Card {
    Discoverers = 1,
    Knights = 2,
    Fishermen = 3,
    Miners = 4,
    Lords = 5,
    Farmers = 6,
    Hermits = 7,
    Citizens = 8,
    Merchants = 9,
    Workers = 10,
}

impl Card {
    /// All ten cards in ascending number.
    pub const ALL: [Card; 10] = [
        Card::Discoverers,
        Card::Knights,
        Card::Fishermen,
        Card::Miners,
        Card::Lords,
        Card::Farmers,
        Card::Hermits,
        Card::Citizens,
        Card::Merchants,
        Card::Workers,
    ];

    /// The card's number, 1..=10.
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The card with this number.
    pub fn from_number(number: u8) -> Option<Card> {
        Card::ALL.get(usize::from(number).checked_sub(1)?).copied()
    }

    /// The card's lower-case name, as printed by `--detail` and used as a JSON key.
    pub fn name(self) -> &'static str {
        match self {
            Card::Discoverers => "discoverers",
            Card::Knights => "knights",
            Card::Fishermen => "fishermen",
            Card::Miners => "miners",
            Card::Lords => "lords",
            Card::Farmers => "farmers",
            Card::Hermits => "hermits",
            Card::Citizens => "citizens",
            Card::Merchants => "merchants",
            Card::Workers => "workers",
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A card list entry that names no card.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown card '{0}' (cards are 1 to 10 or discoverers, knights, fishermen, miners, lords, farmers, hermits, citizens, merchants, workers)")]
pub struct UnknownCard(pub String);

impl FromStr for Card {
    type Err = UnknownCard;

    /// A card by number (`3`) or by name in any case (`Fishermen`); surrounding blanks are
    /// ignored.
    fn from_str(text: &str) -> Result<Card, UnknownCard> {
        let trimmed = text.trim();
        let by_number = trimmed.parse::<u8>().ok().and_then(Card::from_number);
        by_number
            .or_else(|| {
                Card::ALL
                    .into_iter()
                    .find(|card| card.name().eq_ignore_ascii_case(trimmed))
            })
            .ok_or_else(|| UnknownCard(trimmed.escape_debug().to_string()))
    }
}

/// A `--cards` list that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardListError {
    #[error(transparent)]
    Unknown(#[from] UnknownCard),
    #[error("card {} ({}) is listed twice", .0.number(), .0.name())]
    Duplicate(Card),
}

/// Reads a comma-separated list of 0 to 10 different cards, numbers or names (6.4), and returns
/// them in ascending number. An empty or blank list is no card at all.
pub fn parse_card_list(list: &str) -> Result<Vec<Card>, CardListError> {
    let mut cards = Vec::new();
    if list.trim().is_empty() {
        return Ok(cards);
    }
    for item in list.split(',') {
        let card: Card = item.parse()?;
        if cards.contains(&card) {
            return Err(CardListError::Duplicate(card));
        }
        cards.push(card);
    }
    cards.sort();
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r17_numbers_and_names() {
        for (idx, card) in Card::ALL.into_iter().enumerate() {
            assert_eq!(usize::from(card.number()), idx + 1);
            assert_eq!(Card::from_number(card.number()), Some(card));
            assert_eq!(card.name().parse::<Card>(), Ok(card));
            assert_eq!(card.name().to_uppercase().parse::<Card>(), Ok(card));
            assert_eq!(card.number().to_string().parse::<Card>(), Ok(card));
        }
        assert_eq!(Card::from_number(0), None);
        assert_eq!(Card::from_number(11), None);
        assert_eq!(" Fishermen ".parse::<Card>(), Ok(Card::Fishermen));
    }

    #[test]
    fn r17_card_list_by_number_or_name_sorted() {
        assert_eq!(
            parse_card_list("7,fishermen,1").unwrap(),
            [Card::Discoverers, Card::Fishermen, Card::Hermits]
        );
        assert_eq!(parse_card_list("").unwrap(), []);
        assert_eq!(parse_card_list(" ").unwrap(), []);
        assert_eq!(parse_card_list("10,9,8,7,6,5,4,3,2,1").unwrap(), Card::ALL);
        assert_eq!(parse_card_list("WORKERS").unwrap(), [Card::Workers]);
    }

    #[test]
    fn r17_card_list_errors() {
        let err = |list: &str| parse_card_list(list).unwrap_err().to_string();
        assert_eq!(err("3,Fishermen"), "card 3 (fishermen) is listed twice");
        assert!(err("1,11").starts_with("unknown card '11' (cards are 1 to 10"));
        assert!(err("1,,3").starts_with("unknown card '' "));
        assert!(err("lord").starts_with("unknown card 'lord' "));
        assert!(err("0").starts_with("unknown card '0' "));
        assert!(!err("x\ny").contains('\n'));
    }
}
