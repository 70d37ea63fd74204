//! The replay folder as a list: every `.json` file below the root (newest first), each with the
//! few facts the index shows (game, players, result, number of calls).
//!
//! Parsing a replay means reading all of it, so summaries are cached by path, modification
//! time and size; a folder of thousands of replays costs one full read per new file. Symlinks
//! and hidden entries are skipped while walking, which keeps the walk inside the root without
//! canonicalizing every entry. This module does not serve files (see `path`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{de::IgnoredAny, Deserialize, Serialize};

use realm_core::{MatchSpec, Outcome, ReplayPlayer};

/// How deep the walk goes below the root, so a pathological tree cannot stall a page.
const MAX_DEPTH: usize = 8;
/// The most files `/api/replays` lists (the newest ones); the index pages through all.
pub const MAX_LISTED: usize = 2000;

/// One replay file as the index and `/api/replays` show it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplayEntry {
    /// The path relative to the replay folder, `/`-separated, for people.
    pub name: String,
    /// The same path percent-encoded, for URLs (`/replay/<href>`).
    pub href: String,
    /// Seconds since the Unix epoch.
    pub modified: u64,
    pub size: u64,
    /// Present when the file parsed as a replay.
    pub summary: Option<ReplaySummary>,
    /// Why it did not parse, for files that are not replays.
    pub error: Option<String>,
}

/// The facts of a replay shown in lists.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReplaySummary {
    pub game: String,
    pub variant: Option<String>,
    pub league: Option<u32>,
    pub seed: u64,
    pub players: Vec<String>,
    pub n_calls: usize,
    pub scores: Vec<i64>,
    pub ranks: Vec<u32>,
    pub end: String,
}

/// Only the parts of a replay the summary needs; `turns` is skimmed, not built.
#[derive(Deserialize)]
struct ReplayHead {
    spec: MatchSpec,
    players: Vec<ReplayPlayer>,
    turns: Vec<IgnoredAny>,
    outcome: Outcome,
}

/// A file's modification time and size when it was summarized, and the summary (or why it
/// is not a replay).
type Cached = (SystemTime, u64, Result<ReplaySummary, String>);

/// Summaries already computed, keyed by path and checked against modification time and size.
#[derive(Default)]
pub struct SummaryCache {
    entries: Mutex<HashMap<PathBuf, Cached>>,
}

impl SummaryCache {
    fn summary(
        &self,
        path: &Path,
        modified: SystemTime,
        size: u64,
    ) -> Result<ReplaySummary, String> {
        if let Some((m, s, cached)) = self.lock().get(path) {
            if *m == modified && *s == size {
                return cached.clone();
            }
        }
        let fresh = summarize(path);
        self.lock()
            .insert(path.to_path_buf(), (modified, size, fresh.clone()));
        fresh
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<PathBuf, Cached>> {
        // A panic while holding the lock leaves only a cache behind; keep using it.
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Reads one replay's summary.
pub fn summarize(path: &Path) -> Result<ReplaySummary, String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let head: ReplayHead = serde_json::from_reader(std::io::BufReader::new(file))
        .map_err(|e| format!("not a realm replay: {e}"))?;
    Ok(ReplaySummary {
        game: head.spec.game,
        variant: head.spec.variant,
        league: head.spec.league,
        seed: head.spec.seed,
        players: head.players.into_iter().map(|p| p.name).collect(),
        n_calls: head.turns.len(),
        scores: head.outcome.scores,
        ranks: head.outcome.ranks,
        end: head.outcome.end.code().to_string(),
    })
}

/// Which replays the index lists: all, or those under a folder, of a game, with a bot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayQuery {
    /// A folder below the root, `/`-separated (`run-abc`, `a/b`).
    pub folder: Option<String>,
    /// A game slug.
    pub game: Option<String>,
    /// A player name, as the replay records it.
    pub bot: Option<String>,
}

impl ReplayQuery {
    fn needs_summaries(&self) -> bool {
        self.game.is_some() || self.bot.is_some()
    }

    fn accepts(&self, e: &ReplayEntry) -> bool {
        let Some(s) = &e.summary else {
            return !self.needs_summaries();
        };
        self.game.as_ref().is_none_or(|g| &s.game == g)
            && self.bot.as_ref().is_none_or(|b| s.players.contains(b))
    }
}

/// One page of the replays below `root` (canonical) that `query` accepts, newest first:
/// `per_page` entries from `offset` on, and how many there are in all. Without a game or bot
/// filter only the page's files are read, so a folder of thousands stays a fast page; with
/// one every file's summary is needed (cached by modification time and size).
pub fn list_page(
    root: &Path,
    cache: &SummaryCache,
    query: &ReplayQuery,
    offset: usize,
    per_page: usize,
) -> (Vec<ReplayEntry>, usize) {
    let mut found = Vec::new();
    walk(root, root, 0, &mut found);
    if let Some(folder) = &query.folder {
        let prefix = folder.trim_matches('/');
        found.retain(|(relative, _, _)| relative.starts_with(prefix));
    }
    // Newest first; equal times fall back to the name so the order is stable.
    found.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let to_entry = |(relative, modified, size): (PathBuf, SystemTime, u64)| {
        let href = crate::path::encode_relative(&relative)?;
        let name = href_to_name(&relative);
        Some(entry(
            root.join(&relative),
            name,
            href,
            modified,
            size,
            cache,
        ))
    };
    if !query.needs_summaries() {
        let total = found.len();
        let page = found
            .into_iter()
            .skip(offset)
            .take(per_page)
            .filter_map(to_entry)
            .collect();
        return (page, total);
    }
    let accepted: Vec<ReplayEntry> = found
        .into_iter()
        .filter_map(to_entry)
        .filter(|e| query.accepts(e))
        .collect();
    let total = accepted.len();
    (
        accepted.into_iter().skip(offset).take(per_page).collect(),
        total,
    )
}

/// The entry of a single replay file served on its own (`realm view`).
pub fn single_entry(file: &Path, href: &str, cache: &SummaryCache) -> Option<ReplayEntry> {
    let meta = std::fs::metadata(file).ok()?;
    let modified = meta.modified().unwrap_or(UNIX_EPOCH);
    let name = file.file_name()?.to_string_lossy().into_owned();
    Some(entry(
        file.to_path_buf(),
        name,
        href.to_string(),
        modified,
        meta.len(),
        cache,
    ))
}

fn entry(
    path: PathBuf,
    name: String,
    href: String,
    modified: SystemTime,
    size: u64,
    cache: &SummaryCache,
) -> ReplayEntry {
    let summary = cache.summary(&path, modified, size);
    ReplayEntry {
        name,
        href,
        modified: modified
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        size,
        error: summary.as_ref().err().cloned(),
        summary: summary.ok(),
    }
}

fn href_to_name(relative: &Path) -> String {
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn walk(root: &Path, dir: &Path, depth: usize, found: &mut Vec<(PathBuf, SystemTime, u64)>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for item in read.flatten() {
        let name = item.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        // `DirEntry::file_type` does not follow symlinks, so links are neither listed nor
        // descended into.
        let Ok(kind) = item.file_type() else { continue };
        let path = item.path();
        if kind.is_dir() && depth < MAX_DEPTH {
            walk(root, &path, depth + 1, found);
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "json") {
            let Ok(meta) = item.metadata() else { continue };
            let Ok(relative) = path.strip_prefix(root) else {
                continue;
            };
            found.push((
                relative.to_path_buf(),
                meta.modified().unwrap_or(UNIX_EPOCH),
                meta.len(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TINY: &str = r#"{"format_version":1,"realm_version":"0.1.0",
        "spec":{"game":"blocking","n_players":2,"seed":5},
        "players":[{"name":"a","command":"builtin:a"},{"name":"b","command":"builtin:b"}],
        "initial_frame":{},"turns":[{"x":1},{"y":[2]}],
        "outcome":{"scores":[3,1],"ranks":[1,2],"end":{"kind":"finished"},"detail":"","faults":[null,null]}}"#;

    #[test]
    fn folder_listing_is_newest_first_and_summarizes() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir(root.join("sub dir")).unwrap();
        std::fs::write(root.join("old.json"), TINY).unwrap();
        std::fs::write(root.join("sub dir/new.json"), "not json").unwrap();
        std::fs::write(root.join("skip.txt"), "x").unwrap();
        std::fs::write(root.join(".hidden.json"), TINY).unwrap();
        let old = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
        std::fs::File::options()
            .write(true)
            .open(root.join("old.json"))
            .unwrap()
            .set_modified(old)
            .unwrap();

        let cache = SummaryCache::default();
        let list = list_page(&root, &cache, &ReplayQuery::default(), 0, MAX_LISTED).0;
        let names: Vec<&str> = list.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["sub dir/new.json", "old.json"]);
        assert_eq!(list[0].href, "sub%20dir/new.json");
        assert!(list[0]
            .error
            .as_deref()
            .unwrap()
            .starts_with("not a realm replay"));
        let summary = list[1].summary.as_ref().unwrap();
        assert_eq!(summary.game, "blocking");
        assert_eq!(summary.players, ["a", "b"]);
        assert_eq!(summary.n_calls, 2);
        assert_eq!(summary.ranks, [1, 2]);
        assert_eq!(summary.end, "finished");
        assert_eq!(list[1].modified, 1_000_000);
    }

    #[test]
    fn pages_hold_their_share_of_the_newest_first_list() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for i in 0..7u64 {
            let path = root.join(format!("r{i}.json"));
            std::fs::write(&path, TINY).unwrap();
            let when = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000 + i);
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(when)
                .unwrap();
        }
        let cache = SummaryCache::default();
        let (first, total) = list_page(&root, &cache, &ReplayQuery::default(), 0, 3);
        let names: Vec<&str> = first.iter().map(|e| e.name.as_str()).collect();
        assert_eq!((names, total), (vec!["r6.json", "r5.json", "r4.json"], 7));
        let (last, _) = list_page(&root, &cache, &ReplayQuery::default(), 6, 3);
        assert_eq!(last.len(), 1);
        assert_eq!(last[0].name, "r0.json");
        assert!(list_page(&root, &cache, &ReplayQuery::default(), 9, 3)
            .0
            .is_empty());
    }

    #[test]
    fn the_cache_notices_a_rewritten_file() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::write(root.join("m.json"), "{}").unwrap();
        let cache = SummaryCache::default();
        assert!(
            list_page(&root, &cache, &ReplayQuery::default(), 0, MAX_LISTED).0[0]
                .summary
                .is_none()
        );
        std::fs::write(root.join("m.json"), TINY).unwrap();
        assert!(
            list_page(&root, &cache, &ReplayQuery::default(), 0, MAX_LISTED).0[0]
                .summary
                .is_some()
        );
    }
}
