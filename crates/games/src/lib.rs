//! The catalog of realm's games: the one place that matches on a game. It maps a slug to the
//! game's description, referee, built-in bots and table (the referee with its position as an
//! `Engine`), so the arena, the CLI, the viewer and the Python package stay game-agnostic.

mod catalog;

pub use catalog::Catalog;
use realm_core::{Bot, Engine, GameInfo, MatchSpec, Referee, SetupError, Table};
pub use realm_ice_and_fire::STRONG_OPTIONS_HELP;

/// Every game realm knows, one line each: its `GameKind` variant and its crate, which exports
/// `INFO`, `new_referee`, `new_bot` and `new_table` (see docs/adding-a-game.md). A game with
/// board scoring only (no match play yet) is listed under `scoring_only`, with its `INFO`.
macro_rules! games {
    (
        playable { $($game:ident => $krate:ident,)* }
        scoring_only { $($scorer:ident => $scorer_krate:ident,)* }
    ) => {
        /// Every game realm knows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum GameKind {
            $($game,)*
            $($scorer,)*
        }

        impl GameKind {
            pub const ALL: [GameKind; [$(GameKind::$game,)* $(GameKind::$scorer,)*].len()] =
                [$(GameKind::$game,)* $(GameKind::$scorer,)*];

            /// The game's static description.
            pub fn info(self) -> &'static GameInfo {
                match self {
                    $(GameKind::$game => &$krate::INFO,)*
                    $(GameKind::$scorer => &$scorer_krate::INFO,)*
                }
            }

            /// How matches of this game start, if it has match play.
            fn match_play(self) -> Option<MatchPlay> {
                match self {
                    $(GameKind::$game => Some(MatchPlay {
                        referee: $krate::new_referee,
                        bot: $krate::new_bot,
                        table: $krate::new_table,
                    }),)*
                    $(GameKind::$scorer => None,)*
                }
            }
        }
    };
}

games! {
    playable {
        Kingdomino => realm_kingdomino,
        Blocking => realm_blocking,
        IceAndFire => realm_ice_and_fire,
        Carcassonne => realm_carcassonne,
        KingdomBuilder => realm_kingdom_builder,
    }
    scoring_only {}
}

/// A game crate's `new_bot`: a built-in bot by name, seed and league.
type NewBot = fn(&str, u64, Option<u32>) -> Result<Box<dyn Bot>, SetupError>;

/// A playable game's constructors.
struct MatchPlay {
    referee: fn(&MatchSpec) -> Result<Box<dyn Referee>, SetupError>,
    bot: NewBot,
    table: fn(&MatchSpec) -> Result<Box<dyn Table>, SetupError>,
}

impl GameKind {
    pub fn slug(self) -> &'static str {
        self.info().slug
    }

    /// Finds a game by its slug.
    pub fn from_slug(slug: &str) -> Result<GameKind, SetupError> {
        GameKind::ALL
            .into_iter()
            .find(|g| g.slug() == slug)
            .ok_or_else(|| SetupError::UnknownGame {
                game: slug.to_string(),
                known: GameKind::ALL.map(GameKind::slug).join(", "),
            })
    }

    /// True when matches of this game can be played (every game but one listed as scoring only).
    pub fn is_playable(self) -> bool {
        self.match_play().is_some()
    }

    fn playable(self) -> Result<MatchPlay, SetupError> {
        self.match_play().ok_or_else(|| self.not_playable())
    }

    /// A referee for a new match.
    pub fn new_referee(self, spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
        (self.playable()?.referee)(spec)
    }

    /// A referee for a new match with the position it holds, as an `Engine` (integer action
    /// ids, protocol text, observations): what a seat played action by action needs.
    pub fn new_table(self, spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
        (self.playable()?.table)(spec)
    }

    /// The player count a variant (`None`: the standard game) plays by default: the first it
    /// allows, 2 if the variant is unknown (the spec check then names the problem).
    pub fn default_players(self, variant: Option<&str>) -> usize {
        self.info()
            .variants
            .iter()
            .find(|v| v.name == variant)
            .and_then(|v| v.players.first().copied())
            .unwrap_or(2)
    }

    /// Why a game without match play has no referee and no bots.
    pub fn not_playable(self) -> SetupError {
        SetupError::NotPlayable {
            game: self.slug().to_string(),
            reason: format!(
                "only board scoring is implemented (realm score {})",
                self.slug()
            ),
        }
    }

    /// A built-in bot, seeded for its own randomness.
    pub fn new_bot(
        self,
        name: &str,
        seed: u64,
        league: Option<u32>,
    ) -> Result<Box<dyn Bot>, SetupError> {
        (self.playable()?.bot)(name, seed, league)
    }
}

/// A referee for `spec`, whatever its game.
pub fn new_referee(spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
    GameKind::from_slug(&spec.game)?.new_referee(spec)
}

/// A referee for `spec` with the position it holds, whatever its game.
pub fn new_table(spec: &MatchSpec) -> Result<Box<dyn Table>, SetupError> {
    GameKind::from_slug(&spec.game)?.new_table(spec)
}

/// The start position of `spec`, exactly as its referee starts.
pub fn new_engine(spec: &MatchSpec) -> Result<Box<dyn Engine>, SetupError> {
    Ok(new_table(spec)?.engine())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_unique_and_round_trip() {
        for game in GameKind::ALL {
            assert_eq!(GameKind::from_slug(game.slug()), Ok(game));
        }
        let err = GameKind::from_slug("chess").unwrap_err().to_string();
        let known = GameKind::ALL.map(GameKind::slug).join(", ");
        assert_eq!(err, format!("chess does not exist; known games: {known}"));
    }

    #[test]
    fn line_rules_are_part_of_the_referee_api_at_realm_cores_root() {
        let spec = MatchSpec::new("ice-and-fire", 2, 1);
        let rules: realm_core::LineRules = new_referee(&spec).unwrap().line_rules();
        assert_eq!(
            rules,
            realm_core::LineRules::CODINGAME.with_max_line_bytes(9_999)
        );
        assert_eq!(rules.ends, realm_core::LineEnds::LfCrCrlf);
    }

    #[test]
    fn every_playable_game_plays_a_match_between_its_builtin_bots() {
        for game in GameKind::ALL.into_iter().filter(|g| g.is_playable()) {
            let info = game.info();
            let players = info.variants[0].players[0];
            let spec = MatchSpec::new(info.slug, players, 7);
            let mut referee = game.new_referee(&spec).unwrap();
            let mut bots: Vec<_> = (0..players)
                .map(|p| game.new_bot(info.bots[0], p as u64, None).unwrap())
                .collect();
            let mut calls = 0;
            while let Some(request) = referee.next_request() {
                let answer = bots[request.player]
                    .play_turn(&mut realm_core::LinesInput::new(&request.lines))
                    .unwrap();
                let verdict = referee.answer(request.player, &answer[..request.expected_lines]);
                assert!(!verdict.is_fault(), "{}: {verdict:?}", info.slug);
                calls += 1;
            }
            assert!(calls > 0, "{}", info.slug);
            assert_eq!(referee.outcome().ranks.len(), players);
        }
    }
}
