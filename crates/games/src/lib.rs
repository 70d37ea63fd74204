//! The catalog of realm's games: the one place that matches on a game. It maps a slug to the
//! game's description, referee and built-in bots, so the arena, the CLI and the viewer stay
//! game-agnostic.

mod catalog;

pub use catalog::Catalog;
use realm_core::{Bot, GameInfo, MatchSpec, Referee, SetupError};
pub use realm_ice_and_fire::STRONG_OPTIONS_HELP;

/// Every game realm knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Kingdomino,
    Blocking,
    IceAndFire,
    Carcassonne,
    KingdomBuilder,
}

impl GameKind {
    pub const ALL: [GameKind; 5] = [
        GameKind::Kingdomino,
        GameKind::Blocking,
        GameKind::IceAndFire,
        GameKind::Carcassonne,
        GameKind::KingdomBuilder,
    ];

    /// The game's static description.
    pub fn info(self) -> &'static GameInfo {
        match self {
            GameKind::Kingdomino => &realm_kingdomino::INFO,
            GameKind::Blocking => &realm_blocking::INFO,
            GameKind::IceAndFire => &realm_ice_and_fire::INFO,
            GameKind::Carcassonne => &realm_carcassonne::INFO,
            GameKind::KingdomBuilder => &realm_kingdom_builder::INFO,
        }
    }

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

    /// True when matches of this game can be played (Kingdom Builder is a scorer for now).
    pub fn is_playable(self) -> bool {
        self != GameKind::KingdomBuilder
    }

    /// A referee for a new match.
    pub fn new_referee(self, spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
        match self {
            GameKind::Kingdomino => realm_kingdomino::new_referee(spec),
            GameKind::Blocking => realm_blocking::new_referee(spec),
            GameKind::IceAndFire => realm_ice_and_fire::new_referee(spec),
            GameKind::Carcassonne => realm_carcassonne::new_referee(spec),
            GameKind::KingdomBuilder => Err(self.not_playable()),
        }
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
            reason: "only board scoring is implemented (realm score kingdom-builder)".into(),
        }
    }

    /// A built-in bot, seeded for its own randomness.
    pub fn new_bot(
        self,
        name: &str,
        seed: u64,
        league: Option<u32>,
    ) -> Result<Box<dyn Bot>, SetupError> {
        match self {
            GameKind::Kingdomino => realm_kingdomino::new_bot(name, seed, league),
            GameKind::Blocking => realm_blocking::new_bot(name, seed, league),
            GameKind::IceAndFire => realm_ice_and_fire::new_bot(name, seed, league),
            GameKind::Carcassonne => realm_carcassonne::new_bot(name, seed, league),
            GameKind::KingdomBuilder => Err(self.not_playable()),
        }
    }
}

/// A referee for `spec`, whatever its game.
pub fn new_referee(spec: &MatchSpec) -> Result<Box<dyn Referee>, SetupError> {
    GameKind::from_slug(&spec.game)?.new_referee(spec)
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
        assert_eq!(
            err,
            "chess does not exist; known games: kingdomino, blocking, ice-and-fire, carcassonne, kingdom-builder"
        );
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
