//! Entrants of a match or tournament as the user names them: `builtin:NAME` or a shell command.
//! A command's identity includes a content hash of every file it names, so a rebuilt bot is a
//! different bot in the results store.

use std::path::Path;

use sha2::{Digest, Sha256};

/// A bot as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entrant {
    Builtin(String),
    Command(String),
}

impl Entrant {
    pub fn parse(text: &str) -> Entrant {
        match text.strip_prefix("builtin:") {
            Some(name) => Entrant::Builtin(name.to_string()),
            None => Entrant::Command(text.to_string()),
        }
    }

    /// A bot argument of the command line; an empty command is an error, not a bot.
    pub fn from_arg(text: &str) -> Result<Entrant, String> {
        if text.trim().is_empty() {
            return Err("a bot argument is empty: give `builtin:NAME` or a command to run".into());
        }
        Ok(Entrant::parse(text))
    }

    /// Exactly what the user wrote.
    pub fn command(&self) -> String {
        match self {
            Entrant::Builtin(name) => format!("builtin:{name}"),
            Entrant::Command(cmd) => cmd.clone(),
        }
    }

    /// A short display name: `builtin:greedy`, or the command shortened to its last path parts.
    pub fn label(&self) -> String {
        match self {
            Entrant::Builtin(name) => format!("builtin:{name}"),
            Entrant::Command(cmd) => {
                let short: String = cmd
                    .split_whitespace()
                    .map(file_name)
                    .collect::<Vec<_>>()
                    .join(" ");
                if short.chars().count() > 40 {
                    format!("{}…", short.chars().take(39).collect::<String>())
                } else {
                    short
                }
            }
        }
    }

    /// SHA-256 over the contents of every existing file the command names (empty for built-ins
    /// and for commands naming no file).
    pub fn content_hash(&self) -> String {
        let Entrant::Command(cmd) = self else {
            return String::new();
        };
        let mut hasher = Sha256::new();
        let mut any = false;
        for word in cmd.split_whitespace() {
            let path = Path::new(word.trim_matches(|c| c == '"' || c == '\''));
            if path.is_file() {
                if let Ok(bytes) = std::fs::read(path) {
                    hasher.update(word.as_bytes());
                    hasher.update(&bytes);
                    any = true;
                }
            }
        }
        if any {
            hasher
                .finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()[..16]
                .to_string()
        } else {
            String::new()
        }
    }
}

fn file_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// Labels made unique by appending `#2`, `#3` to repeats, so two copies of one bot stay apart.
pub fn unique_labels(entrants: &[Entrant]) -> Vec<String> {
    unique_names(entrants.iter().map(Entrant::label))
}

/// Names made unique as `unique_labels` does, for seats that are not all entrants.
pub fn unique_names(bases: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut labels: Vec<String> = Vec::new();
    for base in bases {
        let repeats = labels
            .iter()
            .filter(|l| **l == base || l.starts_with(&format!("{base}#")))
            .count();
        labels.push(if repeats == 0 {
            base
        } else {
            format!("{base}#{}", repeats + 1)
        });
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_and_commands_are_told_apart() {
        assert_eq!(
            Entrant::parse("builtin:greedy"),
            Entrant::Builtin("greedy".into())
        );
        assert_eq!(
            Entrant::parse("python3 bot.py"),
            Entrant::Command("python3 bot.py".into())
        );
        assert_eq!(
            Entrant::parse("python3 /home/me/bots/v2.py").label(),
            "python3 v2.py"
        );
    }

    #[test]
    fn repeated_bots_get_distinct_labels() {
        let e = [
            Entrant::parse("builtin:random"),
            Entrant::parse("builtin:random"),
        ];
        assert_eq!(
            unique_labels(&e),
            vec!["builtin:random", "builtin:random#2"]
        );
    }

    #[test]
    fn the_hash_follows_the_files_content() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("bot.py");
        std::fs::write(&file, "print(1)").unwrap();
        let entrant = Entrant::parse(&format!("python3 {}", file.display()));
        let first = entrant.content_hash();
        assert_eq!(first.len(), 16);
        std::fs::write(&file, "print(2)").unwrap();
        assert_ne!(entrant.content_hash(), first);
        assert_eq!(Entrant::parse("builtin:x").content_hash(), "");
    }
}
