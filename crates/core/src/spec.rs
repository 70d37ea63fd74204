//! What a match is: the game, its variant, league, player count, seed and game options, plus
//! the static description of each game (`GameInfo`) that `realm games` lists.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Everything needed to set up one match. Together with the bots' answers it determines the
/// whole game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchSpec {
    /// The game's slug, e.g. `kingdomino`.
    pub game: String,
    /// The variant name, or `None` for the game's standard rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The league, or `None` for the game's default (its full rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub league: Option<u32>,
    pub n_players: usize,
    /// The match seed. Games that take a signed seed (Ice and Fire) read the same 64 bits as `i64`.
    pub seed: u64,
    /// Game-specific `key=value` options, e.g. `invalid_put=discard` for Kingdomino.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

impl MatchSpec {
    pub fn new(game: &str, n_players: usize, seed: u64) -> Self {
        MatchSpec {
            game: game.to_string(),
            variant: None,
            league: None,
            n_players,
            seed,
            options: BTreeMap::new(),
        }
    }

    pub fn with_variant(mut self, variant: &str) -> Self {
        self.variant = Some(variant.to_string());
        self
    }

    pub fn with_league(mut self, league: u32) -> Self {
        self.league = Some(league);
        self
    }

    pub fn with_option(mut self, key: &str, value: &str) -> Self {
        self.options.insert(key.to_string(), value.to_string());
        self
    }

    /// The seed read as the signed 64-bit value it was written as (e.g. `-99`).
    pub fn signed_seed(&self) -> i64 {
        self.seed as i64
    }

    /// Rejects options not in `known`, so a typo is an error instead of a silent default.
    pub fn check_options(&self, known: &[&str]) -> Result<(), SetupError> {
        match self.options.keys().find(|k| !known.contains(&k.as_str())) {
            Some(key) => Err(SetupError::UnknownOption {
                game: self.game.clone(),
                key: key.clone(),
                known: known.join(", "),
            }),
            None => Ok(()),
        }
    }
}

/// A match that cannot be set up as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error("{game} does not exist; known games: {known}")]
    UnknownGame { game: String, known: String },
    #[error("{game}{variant} is played by {allowed} players, not {got}")]
    PlayerCount {
        game: String,
        variant: String,
        allowed: String,
        got: usize,
    },
    #[error("{game} has no variant `{variant}`; known variants: {known}")]
    UnknownVariant {
        game: String,
        variant: String,
        known: String,
    },
    #[error("{game} has no league {league}; leagues: {known}")]
    UnknownLeague {
        game: String,
        league: u32,
        known: String,
    },
    #[error("{game} has no option `{key}`; options: {known}")]
    UnknownOption {
        game: String,
        key: String,
        known: String,
    },
    #[error("option `{key}` of {game}: {reason}")]
    BadOption {
        game: String,
        key: String,
        reason: String,
    },
    #[error("{game} cannot be played as a match yet: {reason}")]
    NotPlayable { game: String, reason: String },
    #[error("built-in bot `{bot}` of {game}: {reason}")]
    BadBotOptions {
        game: String,
        bot: String,
        reason: String,
    },
    #[error("{game} has no built-in bot `{name}`; built-in bots: {known}")]
    UnknownBot {
        game: String,
        name: String,
        known: String,
    },
}

/// A variant of a game and the player counts it allows.
#[derive(Clone, Copy, Debug)]
pub struct VariantInfo {
    /// `None` is the standard game.
    pub name: Option<&'static str>,
    pub players: &'static [usize],
    pub summary: &'static str,
}

/// The static description of a game: what `realm games` prints and what the CLI validates.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    pub slug: &'static str,
    pub title: &'static str,
    pub variants: &'static [VariantInfo],
    pub leagues: &'static [u32],
    pub default_league: u32,
    /// Whether a league above the highest listed one is accepted and plays as the highest (for
    /// games whose higher CodinGame leagues add no rules).
    pub higher_leagues_play_top: bool,
    /// Names accepted in `MatchSpec::options`.
    pub options: &'static [&'static str],
    /// Names of the built-in bots (`builtin:NAME`), strongest first, so that `realm games`
    /// names the one to measure against first.
    pub bots: &'static [&'static str],
}

impl GameInfo {
    /// The variant named `name` (`None` or `standard` = the standard game), or an error listing
    /// the known ones.
    pub fn variant(&self, name: Option<&str>) -> Result<&VariantInfo, SetupError> {
        let name = name.filter(|n| *n != "standard");
        self.variants
            .iter()
            .find(|v| v.name == name)
            .ok_or_else(|| SetupError::UnknownVariant {
                game: self.slug.to_string(),
                variant: name.unwrap_or("standard").to_string(),
                known: self
                    .variants
                    .iter()
                    .filter_map(|v| v.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// Checks the variant, player count and league of `spec` against this description and
    /// returns the league to play.
    pub fn validate(&self, spec: &MatchSpec) -> Result<u32, SetupError> {
        let variant = self.variant(spec.variant.as_deref())?;
        if !variant.players.contains(&spec.n_players) {
            return Err(SetupError::PlayerCount {
                game: self.slug.to_string(),
                variant: variant.name.map(|v| format!(" {v}")).unwrap_or_default(),
                allowed: join_numbers(variant.players),
                got: spec.n_players,
            });
        }
        let mut league = spec.league.unwrap_or(self.default_league);
        let top = self.leagues.iter().copied().max().unwrap_or(league);
        if self.higher_leagues_play_top && league > top {
            league = top;
        }
        if !self.leagues.contains(&league) {
            return Err(SetupError::UnknownLeague {
                game: self.slug.to_string(),
                league,
                known: join_numbers(self.leagues),
            });
        }
        spec.check_options(self.options)?;
        Ok(league)
    }
}

fn join_numbers<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
