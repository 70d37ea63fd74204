//! Which URL gives what: a pure function from method and request target to a `Reply`, so the
//! routing and the refusals can be tested without sockets.
//!
//! Routes (GET and HEAD only; other methods get 405, unknown paths 404):
//!
//! | path | reply |
//! | --- | --- |
//! | `/` | index page: replays newest first, latest runs |
//! | `/replay/<path>` | replay page for a file under the replay folder |
//! | `/api/replays` | the replay list as JSON |
//! | `/api/replay/<path>` | the replay file itself |
//! | `/assets/<name>` | embedded CSS, JS and renderers |
//! | `/runs`, `/runs/<id>`, `/runs/<id>/matches?filters&page=N`, `/runs/<id>/matches/<m>` | runs pages |
//! | `/api/runs`, `/api/runs/<id>`, `/api/runs/<id>/matches?filters`, `/api/runs/<id>/matches/<m>/replay` | the same as JSON |
//!
//! `/play...` (a person's seat; GET and POST) is answered by `play::handle` when the server
//! plays matches.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::html;
use crate::listing::{self, ReplayEntry, ReplayQuery, SummaryCache};
use crate::path::{encode_segment, resolve_replay};
use crate::runs::{MatchFilter, RunSource};

/// What the server answers.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// Embedded assets never change while the server runs; everything else may.
    pub cacheable: bool,
    /// Set on 405 replies.
    pub allow: bool,
}

const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json";

impl Reply {
    pub(crate) fn html(status: u16, page: String) -> Reply {
        Reply {
            status,
            content_type: HTML,
            body: page.into_bytes(),
            cacheable: false,
            allow: false,
        }
    }

    fn json_bytes(body: Vec<u8>) -> Reply {
        Reply {
            status: 200,
            content_type: JSON,
            body,
            cacheable: false,
            allow: false,
        }
    }

    pub(crate) fn json<T: Serialize>(value: &T) -> Reply {
        match serde_json::to_vec(value) {
            Ok(body) => Reply::json_bytes(body),
            Err(e) => Reply::html(500, html::error_page(500, &e.to_string(), false)),
        }
    }
}

/// Where replays come from.
pub enum Replays {
    /// Every `.json` file below an absolute folder (which may not exist yet).
    Folder(PathBuf),
    /// One canonical file, reachable as `/replay/<href>`.
    Single { file: PathBuf, href: String },
}

/// Everything the routes read: the replays, the optional run store and the summary cache.
pub struct Site {
    pub replays: Replays,
    pub runs: Option<Box<dyn RunSource>>,
    pub cache: SummaryCache,
}

impl Site {
    /// Answers one request. `target` is the raw request target (path and query).
    pub fn handle(&self, method: &str, target: &str) -> Reply {
        if method != "GET" && method != "HEAD" {
            let mut reply = self.not_found();
            reply.status = 405;
            reply.body =
                html::error_page(405, "this server is read-only", self.has_runs()).into_bytes();
            reply.allow = true;
            return reply;
        }
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        // Only origin-form targets: `*`, `http://...` and anything else are not ours.
        let Some(path) = path.strip_prefix('/') else {
            return self.not_found();
        };
        let result = match path {
            "" => self.index(query),
            "api/replays" => Ok(Reply::json(&self.entries())),
            "runs" => self.runs_list(),
            "api/runs" => self.with_runs(|src| Ok(Reply::json(&src.runs()?))),
            _ => {
                if let Some(rest) = path.strip_prefix("assets/") {
                    Ok(self.asset(rest))
                } else if let Some(rest) = path.strip_prefix("replay/") {
                    Ok(self.replay_page(rest))
                } else if let Some(rest) = path.strip_prefix("api/replay/") {
                    Ok(self.replay_file(rest))
                } else if let Some(rest) = path.strip_prefix("runs/") {
                    self.run_pages(rest, query, false)
                } else if let Some(rest) = path.strip_prefix("api/runs/") {
                    self.run_pages(rest, query, true)
                } else {
                    Ok(self.not_found())
                }
            }
        };
        result.unwrap_or_else(|e| {
            Reply::html(
                500,
                html::error_page(500, &format!("the results store failed: {e}"), true),
            )
        })
    }

    fn has_runs(&self) -> bool {
        self.runs.is_some()
    }

    fn not_found(&self) -> Reply {
        Reply::html(404, html::error_page(404, "nothing here", self.has_runs()))
    }

    fn entries(&self) -> Vec<ReplayEntry> {
        self.entries_page(&ReplayQuery::default(), 0, listing::MAX_LISTED)
            .0
    }

    /// One page of the replays and how many there are.
    fn entries_page(
        &self,
        query: &ReplayQuery,
        offset: usize,
        per_page: usize,
    ) -> (Vec<ReplayEntry>, usize) {
        match &self.replays {
            Replays::Folder(root) => match root.canonicalize() {
                Ok(root) => listing::list_page(&root, &self.cache, query, offset, per_page),
                Err(_) => (Vec::new(), 0),
            },
            Replays::Single { file, href } => {
                let one: Vec<ReplayEntry> = listing::single_entry(file, href, &self.cache)
                    .into_iter()
                    .collect();
                let total = one.len();
                (one.into_iter().skip(offset).take(per_page).collect(), total)
            }
        }
    }

    /// The index, `?page=N` (1-based) of the replays.
    fn index(&self, query: &str) -> Result<Reply, crate::runs::SourceError> {
        let runs = match &self.runs {
            Some(src) => Some(src.runs()?),
            None => None,
        };
        let mut page = 1;
        let mut filter = ReplayQuery::default();
        for pair in query.split('&') {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            let Some(value) = crate::path::percent_decode(&value.replace('+', " ")) else {
                continue;
            };
            let value = value.trim().to_string();
            match key {
                "page" => page = value.parse::<usize>().unwrap_or(1).max(1),
                _ if value.is_empty() => {}
                "folder" => filter.folder = Some(value),
                "game" => filter.game = Some(value),
                "bot" => filter.bot = Some(value),
                _ => {}
            }
        }
        let (entries, total) = self.entries_page(
            &filter,
            (page - 1) * html::REPLAYS_PER_PAGE,
            html::REPLAYS_PER_PAGE,
        );
        Ok(Reply::html(
            200,
            html::index_page(&entries, total, page, &filter, runs.as_deref()),
        ))
    }

    fn asset(&self, name: &str) -> Reply {
        match crate::assets::find(name) {
            Some(asset) => Reply {
                status: 200,
                content_type: asset.content_type,
                body: asset.text.as_bytes().to_vec(),
                cacheable: true,
                allow: false,
            },
            None => self.not_found(),
        }
    }

    /// The file a `/replay/<rest>` or `/api/replay/<rest>` URL names, if it may be served.
    fn resolve(&self, rest: &str) -> Option<PathBuf> {
        match &self.replays {
            // Canonicalized per request: the folder may be created or moved while serving.
            Replays::Folder(root) => resolve_replay(&root.canonicalize().ok()?, rest),
            // Compared decoded, so any spelling of the file's name reaches it.
            Replays::Single { file, href } => {
                let wanted = crate::path::percent_decode(href)?;
                (crate::path::percent_decode(rest)? == wanted).then(|| file.clone())
            }
        }
    }

    fn replay_page(&self, rest: &str) -> Reply {
        match self.resolve(rest) {
            Some(file) => Reply::html(
                200,
                html::replay_page(
                    &file_title(&file),
                    &format!("/api/replay/{rest}"),
                    "",
                    self.has_runs(),
                ),
            ),
            None => self.not_found(),
        }
    }

    fn replay_file(&self, rest: &str) -> Reply {
        match self.resolve(rest).and_then(|f| std::fs::read(f).ok()) {
            Some(bytes) => Reply::json_bytes(bytes),
            None => self.not_found(),
        }
    }

    fn runs_list(&self) -> Result<Reply, crate::runs::SourceError> {
        self.with_runs(|src| Ok(Reply::html(200, html::runs_page(&src.runs()?))))
    }

    fn with_runs(
        &self,
        f: impl FnOnce(&dyn RunSource) -> Result<Reply, crate::runs::SourceError>,
    ) -> Result<Reply, crate::runs::SourceError> {
        match &self.runs {
            Some(src) => f(src.as_ref()),
            None => Ok(self.not_found()),
        }
    }

    /// `<id>`, `<id>/matches` and `<id>/matches/<m>` (`/replay` appended under `/api`).
    fn run_pages(
        &self,
        rest: &str,
        query: &str,
        api: bool,
    ) -> Result<Reply, crate::runs::SourceError> {
        let Some(src) = &self.runs else {
            return Ok(self.not_found());
        };
        let parts: Vec<&str> = rest.split('/').collect();
        let Some(run_id) = parse_id(parts[0]) else {
            return Ok(self.not_found());
        };
        let Some(run) = src.run(run_id)? else {
            return Ok(self.not_found());
        };
        match (&parts[1..], api) {
            ([], false) => Ok(Reply::html(200, html::run_page(&run))),
            ([], true) => Ok(Reply::json(&run)),
            (["matches"], _) => {
                let filter = MatchFilter::from_query(query);
                // One row more than a page tells whether a next page exists.
                let probe = MatchFilter {
                    limit: filter.limit + 1,
                    ..filter.clone()
                };
                let mut rows = src.matches(run_id, &probe)?;
                let more = rows.len() > filter.limit;
                rows.truncate(filter.limit);
                Ok(if api {
                    Reply::json(&rows)
                } else {
                    Reply::html(200, html::matches_page(&run, &filter, &rows, more))
                })
            }
            (["matches", m], false) => {
                let Some(match_id) = parse_id(m) else {
                    return Ok(self.not_found());
                };
                if let Err(reply) = self.stored_replay(src.as_ref(), run_id, match_id)? {
                    return Ok(reply);
                }
                // Previous and next stay inside the filter the match was opened from.
                let filter = MatchFilter::from_query(query);
                let (prev, next) = src.replay_neighbours(run_id, match_id, &filter)?;
                Ok(Reply::html(
                    200,
                    html::replay_page(
                        &format!("Run #{run_id} match {match_id}"),
                        &format!("/api/runs/{run_id}/matches/{}/replay", encode_segment(m)),
                        &html::match_nav(run_id, match_id, &filter, prev, next),
                        true,
                    ),
                ))
            }
            (["matches", m, "replay"], true) => {
                let Some(match_id) = parse_id(m) else {
                    return Ok(self.not_found());
                };
                Ok(match self.stored_replay(src.as_ref(), run_id, match_id)? {
                    Ok(file) => match std::fs::read(&file) {
                        Ok(bytes) => Reply::json_bytes(bytes),
                        Err(e) => missing_replay(run_id, match_id, &file, &e.to_string()),
                    },
                    Err(reply) => reply,
                })
            }
            _ => Ok(self.not_found()),
        }
    }
}

impl Site {
    /// The kept replay file of a match, or the page that says why there is none: 404 for a
    /// match without one, and a 404 that names the file when the store references one that
    /// is gone.
    fn stored_replay(
        &self,
        src: &dyn RunSource,
        run_id: i64,
        match_id: i64,
    ) -> Result<Result<PathBuf, Reply>, crate::runs::SourceError> {
        Ok(match src.replay_file(run_id, match_id)? {
            Some(file) if file.is_file() => Ok(file),
            Some(file) => Err(missing_replay(
                run_id,
                match_id,
                &file,
                "no such file (moved or deleted?)",
            )),
            None => Err(Reply::html(
                404,
                html::error_page(
                    404,
                    &format!("match {match_id} of run #{run_id} kept no replay"),
                    true,
                ),
            )),
        })
    }
}

/// The 404 of a replay the store references but that cannot be read.
fn missing_replay(run_id: i64, match_id: i64, file: &Path, why: &str) -> Reply {
    Reply::html(
        404,
        html::error_page(
            404,
            &format!(
                "the results store references {} as the replay of match {match_id} of run \
                 #{run_id}, but it cannot be read: {why}",
                file.display()
            ),
            true,
        ),
    )
}

/// Plain decimal ids only (no sign, no leading `+`, no escapes), so each id has one URL.
fn parse_id(text: &str) -> Option<i64> {
    if text.is_empty() || text.len() > 18 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn file_title(file: &Path) -> String {
    file.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "replay".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(root: &Path) -> Site {
        Site {
            replays: Replays::Folder(root.canonicalize().unwrap()),
            runs: None,
            cache: SummaryCache::default(),
        }
    }

    #[test]
    fn only_get_and_head_are_allowed() {
        let dir = tempfile::tempdir().unwrap();
        let s = site(dir.path());
        assert_eq!(s.handle("GET", "/").status, 200);
        assert_eq!(s.handle("HEAD", "/").status, 200);
        for m in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH"] {
            let r = s.handle(m, "/");
            assert_eq!(r.status, 405, "{m}");
            assert!(r.allow);
        }
    }

    #[test]
    fn unknown_targets_are_404() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.json"), "{}").unwrap();
        let s = site(dir.path());
        for t in [
            "*",
            "http://127.0.0.1/",
            "/nope",
            "/assets/",
            "/assets/../Cargo.toml",
            "/assets/renderers%2fblocking.js",
            "/replay/",
            "/api/replay/b.json",
            "/runs",
            "/runs/1",
            "/api/runs",
        ] {
            assert_eq!(s.handle("GET", t).status, 404, "{t}");
        }
        assert_eq!(s.handle("GET", "/api/replay/a.json").status, 200);
        assert_eq!(s.handle("GET", "/api/replay/a.json?x=1").status, 200);
        assert_eq!(s.handle("GET", "/assets/renderers/blocking.js").status, 200);
    }

    #[test]
    fn ids_have_one_spelling() {
        assert_eq!(parse_id("12"), Some(12));
        for bad in ["", "+1", "-1", "1e3", "%31", "1234567890123456789"] {
            assert_eq!(parse_id(bad), None, "{bad}");
        }
    }
}
