//! A person's seat in the browser: matches where the referee asks a person, who answers by
//! choosing among the legal actions of the referee's position (`realm play GAME human BOT`, and
//! the Play page of `realm serve`).
//!
//! The match runs on a thread of its own (the CLI's); when the person's seat is to answer, that
//! thread calls `PlayMatch::ask`, which publishes the call (its input lines, the referee's frame,
//! the legal actions as `{id, text}` from the position, and its `view`: the game's frame keys
//! for the position after the actions chosen so far, when the game's codec draws one) and blocks until the page has chosen the
//! actions of one answer: they are applied one by one to a copy of the position until one closes
//! the answer, and the position's `answer_lines` are what the referee then judges. Nothing here
//! knows a game's rules: legality is the position's (the referee's own state).
//!
//! Routes (JSON unless said; POSTs need the match's token in `X-Realm-Token`):
//!
//! | request | reply |
//! | --- | --- |
//! | `GET /play` | the Play page (a form that starts a match), when a `MatchStarter` is set |
//! | `POST /play/new?game=..&...` | starts a match: `{id, token, url}` (also needs `X-Realm-Play: 1`) |
//! | `GET /play/<id>/` | the match's page (HTML), the token read from the URL's fragment |
//! | `GET /play/<id>/state?since=V` | the state; waits up to 10 s for a version above V |
//! | `POST /play/<id>/act?id=N` | plays legal action N: 200 and the state, 403 bad token, 409 refused |
//! | `POST /play/<id>/undo` | takes back the actions of the current call not yet sent |
//! | `POST /play/<id>/resign` | resigns (the seat faults, as a bot that quits) |
//!
//! **Safety**: the server stays on 127.0.0.1 behind the viewer's Host check; a move needs the
//! per-match token (random, shown only in the URL the CLI prints or the starting form receives)
//! in a header a cross-site page cannot send without a CORS preflight this server never grants;
//! every action is checked against the position; a page that stops polling for
//! `abandon_after` ends the seat as a resignation.

use std::collections::BTreeMap;
use std::io::Read;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use realm_core::{Engine, FaultKind, MatchSpec, Outcome, Request};
use serde::Serialize;
use serde_json::{json, Value};

use crate::html;
use crate::routes::Reply;

/// How long a state request waits for something new before answering anyway.
const LONG_POLL: Duration = Duration::from_secs(10);
/// The header that carries a match's token.
pub const TOKEN_HEADER: &str = "x-realm-token";

/// What a match is, for its page.
#[derive(Clone, Debug, Serialize)]
pub struct MatchInfo {
    pub spec: MatchSpec,
    /// Every seat's player name, in seat order.
    pub names: Vec<String>,
    /// The seats the person plays.
    pub humans: Vec<usize>,
}

/// Starts matches from the Play page's form (the CLI implements it: it knows the games and the
/// bots, the viewer does not).
pub trait MatchStarter: Send + Sync {
    /// What the form offers: `{games: [{slug, name, variants, leagues, players, bots}]}`.
    fn catalog(&self) -> Value;
    /// Starts a match on a thread of its own from the form's fields; its person's seat answers
    /// through the `PlayMatch` it opens in `hall`.
    fn start(
        &self,
        form: &BTreeMap<String, String>,
        hall: &Arc<PlayHall>,
    ) -> Result<Arc<PlayMatch>, String>;
}

/// Every match played from this server.
pub struct PlayHall {
    matches: Mutex<Vec<Arc<PlayMatch>>>,
    starter: Option<Box<dyn MatchStarter>>,
    abandon_after: Duration,
}

impl PlayHall {
    /// `abandon_after`: how long a page may stay away before its seat resigns.
    pub fn new(starter: Option<Box<dyn MatchStarter>>, abandon_after: Duration) -> Arc<PlayHall> {
        Arc::new(PlayHall {
            matches: Mutex::new(Vec::new()),
            starter,
            abandon_after,
        })
    }

    /// Whether this server has the Play page (a form that starts matches).
    pub fn has_form(&self) -> bool {
        self.starter.is_some()
    }

    /// A new match for `info`, with a fresh token.
    pub fn open(&self, info: MatchInfo) -> Arc<PlayMatch> {
        let mut matches = lock(&self.matches);
        let id = matches.len() as u64 + 1;
        let played = Arc::new(PlayMatch {
            id,
            token: new_token(),
            info,
            abandon_after: self.abandon_after,
            desk: Mutex::new(Desk::default()),
            changed: Condvar::new(),
        });
        matches.push(played.clone());
        played
    }

    /// The match of a URL's id, spelled canonically (one URL per match).
    fn find(&self, text: &str) -> Option<Arc<PlayMatch>> {
        let id: u64 = text.parse().ok()?;
        if id.to_string() != text {
            return None;
        }
        lock(&self.matches).iter().find(|m| m.id == id).cloned()
    }
}

/// One match with a person's seat: what its page shows and what the match thread waits on.
pub struct PlayMatch {
    id: u64,
    token: String,
    info: MatchInfo,
    abandon_after: Duration,
    desk: Mutex<Desk>,
    changed: Condvar,
}

/// The shared state between the match thread and the pages.
#[derive(Default)]
struct Desk {
    version: u64,
    frame: Value,
    waiting: Option<Waiting>,
    /// The answer chosen, for the match thread to take.
    chosen: Option<Result<Vec<String>, (FaultKind, String)>>,
    resigned: bool,
    /// When a page holding the token last asked for the state (`None`: never yet).
    seen: Option<Instant>,
    ending: Option<Ending>,
}

/// The person's call being answered.
struct Waiting {
    request: Request,
    /// The referee's position when the call came.
    start: Box<dyn Engine>,
    /// `start` with the actions chosen so far in this call.
    engine: Box<dyn Engine>,
    texts: Vec<String>,
}

struct Ending {
    outcome: Outcome,
    replay: Option<String>,
}

/// Why a page's request was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Wrong or missing token (403).
    Token,
    /// Not the person's call, an illegal action, or the match is over (409).
    Conflict(String),
}

impl PlayMatch {
    pub fn id(&self) -> u64 {
        self.id
    }

    pub fn token(&self) -> &str {
        &self.token
    }

    /// The page's path with the token in its fragment (never sent to a server by a browser).
    pub fn page_path(&self) -> String {
        format!("play/{}/#token={}", self.id, self.token)
    }

    /// Called by the match thread on the person's call: publishes it and blocks until the page
    /// has chosen a whole answer (its lines), the person resigned, or the page went away.
    pub fn ask(
        &self,
        request: &Request,
        position: Box<dyn Engine>,
        frame: &Value,
    ) -> Result<Vec<String>, (FaultKind, String)> {
        let mut desk = lock(&self.desk);
        desk.frame = frame.clone();
        desk.waiting = Some(Waiting {
            request: request.clone(),
            start: position.clone_box(),
            engine: position,
            texts: Vec::new(),
        });
        desk.chosen = None;
        self.publish(&mut desk);
        loop {
            if let Some(answer) = desk.chosen.take() {
                return answer;
            }
            let gone = desk
                .seen
                .is_some_and(|seen| seen.elapsed() > self.abandon_after);
            if desk.resigned || gone {
                desk.waiting = None;
                self.publish(&mut desk);
                return Err(if gone {
                    (
                        FaultKind::ClosedInput,
                        format!(
                            "the page was closed for more than {} s: resigned",
                            self.abandon_after.as_secs()
                        ),
                    )
                } else {
                    (FaultKind::ClosedOutput, "the person resigned".to_string())
                });
            }
            desk = self
                .changed
                .wait_timeout(desk, Duration::from_millis(500))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// Called by the match thread at the end: the final frame, the outcome and where the
    /// replay is served (if it is).
    pub fn finish(&self, frame: &Value, outcome: &Outcome, replay: Option<String>) {
        let mut desk = lock(&self.desk);
        desk.frame = frame.clone();
        desk.waiting = None;
        desk.ending = Some(Ending {
            outcome: outcome.clone(),
            replay,
        });
        self.publish(&mut desk);
    }

    /// Whether a page holding the token has asked for the state lately.
    pub fn watched(&self) -> bool {
        lock(&self.desk)
            .seen
            .is_some_and(|seen| seen.elapsed() <= self.abandon_after)
    }

    /// After `finish`: serves while a page holding the token still asks for the state (so its
    /// link to the replay works), and returns once none has for `abandon_after`, or at once if
    /// no page ever came.
    pub fn wait_while_watched(&self) {
        let mut desk = lock(&self.desk);
        while desk
            .seen
            .is_some_and(|seen| seen.elapsed() <= self.abandon_after)
        {
            desk = self
                .changed
                .wait_timeout(desk, Duration::from_millis(200))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// Plays legal action `id` of the person's call.
    pub fn act(&self, token: Option<&str>, id: u32) -> Result<(), Refusal> {
        self.check(token)?;
        let mut desk = lock(&self.desk);
        if desk.waiting.is_none() {
            return Err(self.idle(&desk));
        }
        let waiting = desk.waiting.as_mut().expect("checked above");
        let text = waiting.engine.text(id).ok_or_else(|| {
            Refusal::Conflict(format!("action {id} is not legal in this position"))
        })?;
        let closes = waiting.engine.closes_answer(id);
        waiting.engine.apply(id).map_err(Refusal::Conflict)?;
        waiting.texts.push(text);
        if closes {
            let waiting = desk.waiting.take().expect("checked above");
            desk.chosen = Some(Ok(waiting.engine.answer_lines(&waiting.texts)));
        }
        self.publish(&mut desk);
        Ok(())
    }

    /// Takes back the actions of the current call (nothing has been sent yet).
    pub fn undo(&self, token: Option<&str>) -> Result<(), Refusal> {
        self.check(token)?;
        let mut desk = lock(&self.desk);
        if desk.waiting.is_none() {
            return Err(self.idle(&desk));
        }
        let waiting = desk.waiting.as_mut().expect("checked above");
        waiting.engine = waiting.start.clone_box();
        waiting.texts.clear();
        self.publish(&mut desk);
        Ok(())
    }

    pub fn resign(&self, token: Option<&str>) -> Result<(), Refusal> {
        self.check(token)?;
        let mut desk = lock(&self.desk);
        if desk.ending.is_some() {
            return Err(self.idle(&desk));
        }
        desk.resigned = true;
        self.publish(&mut desk);
        Ok(())
    }

    /// The state as the page reads it, once its version is above `since` or `wait` has passed.
    /// A request with the token counts as the page being there.
    pub fn state(&self, token: Option<&str>, since: Option<u64>, wait: Duration) -> Value {
        let owner = self.check(token).is_ok();
        let started = Instant::now();
        let mut desk = lock(&self.desk);
        loop {
            if owner {
                desk.seen = Some(Instant::now());
            }
            let fresh = since.is_none_or(|v| desk.version > v);
            if fresh || started.elapsed() >= wait {
                break;
            }
            desk = self
                .changed
                .wait_timeout(desk, Duration::from_millis(500))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
        self.describe(&desk)
    }

    fn describe(&self, desk: &Desk) -> Value {
        let (status, call, legal, chosen) = match &desk.waiting {
            Some(w) => (
                "waiting",
                json!({"player": w.request.player, "turn": w.request.turn, "lines": w.request.lines}),
                w.engine
                    .legal_ids()
                    .into_iter()
                    .filter_map(|id| Some(json!({"id": id, "text": w.engine.text(id)?})))
                    .collect(),
                w.texts.clone(),
            ),
            None if desk.ending.is_some() => ("over", Value::Null, Vec::new(), Vec::new()),
            None => ("thinking", Value::Null, Vec::new(), Vec::new()),
        };
        // What the position looks like after the actions chosen so far (Ice and Fire: gold,
        // income and units as the commands change them), drawn over the referee's frame.
        let view = desk.waiting.as_ref().and_then(|w| w.engine.view());
        json!({
            "version": desk.version,
            "match": self.id,
            "spec": self.info.spec,
            "names": self.info.names,
            "humans": self.info.humans,
            "status": status,
            "call": call,
            "frame": desk.frame,
            "legal": legal,
            "chosen": chosen,
            "view": view,
            "resigned": desk.resigned,
            "outcome": desk.ending.as_ref().map(|e| &e.outcome),
            "replay": desk.ending.as_ref().and_then(|e| e.replay.clone()),
            "abandon_after_s": self.abandon_after.as_secs(),
        })
    }

    fn check(&self, token: Option<&str>) -> Result<(), Refusal> {
        match token {
            Some(t) if constant_time_eq(t.as_bytes(), self.token.as_bytes()) => Ok(()),
            _ => Err(Refusal::Token),
        }
    }

    /// Why an action is refused while the person has no call to answer.
    fn idle(&self, desk: &Desk) -> Refusal {
        Refusal::Conflict(if desk.ending.is_some() {
            "the match is over".to_string()
        } else {
            "it is not your turn".to_string()
        })
    }

    fn publish(&self, desk: &mut MutexGuard<'_, Desk>) {
        desk.version += 1;
        self.changed.notify_all();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// 128 random bits as hex, from the kernel.
fn new_token() -> String {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut bytes));
    if read.is_err() {
        // No /dev/urandom: the clock and the address of a local still make a token that a
        // page on another origin cannot guess in time (it cannot send the header anyway).
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let local = &bytes as *const _ as usize as u128;
        bytes = (nanos ^ local.rotate_left(64)).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What a `/play` request carries.
pub struct PlayRequest<'a> {
    pub method: &'a str,
    /// The path after `/play` (empty, `/new`, `/<id>/...`).
    pub rest: &'a str,
    pub query: &'a str,
    pub token: Option<&'a str>,
    /// `X-Realm-Play` (the form's fetch sets it; a cross-site form cannot).
    pub from_script: bool,
    pub has_runs: bool,
}

/// Answers a request under `/play`.
pub fn handle(hall: &Arc<PlayHall>, request: &PlayRequest) -> Reply {
    let parts: Vec<&str> = request.rest.trim_start_matches('/').split('/').collect();
    match (request.method, parts.as_slice()) {
        ("GET" | "HEAD", [""]) if hall.starter.is_some() => {
            Reply::html(200, play_form_page(request.has_runs))
        }
        ("GET" | "HEAD", ["catalog"]) => match &hall.starter {
            Some(starter) => Reply::json(&starter.catalog()),
            None => not_found(),
        },
        ("POST", ["new"]) => start_from_form(hall, request),
        (method, [id, rest @ ..]) => match hall.find(id) {
            Some(played) => match_route(&played, method, rest, request),
            None => not_found(),
        },
        _ => not_found(),
    }
}

fn match_route(played: &PlayMatch, method: &str, rest: &[&str], request: &PlayRequest) -> Reply {
    let token = request.token;
    let acted = match (method, rest) {
        ("GET" | "HEAD", [""]) => {
            return Reply::html(
                200,
                play_page(&played.info.spec.game, played.id, request.has_runs),
            )
        }
        ("GET" | "HEAD", ["state"]) => {
            let since = query_value(request.query, "since").and_then(|v| v.parse().ok());
            return Reply::json(&played.state(token, since, LONG_POLL));
        }
        ("POST", ["act"]) => match query_value(request.query, "id").and_then(|v| v.parse().ok()) {
            Some(id) => played.act(token, id),
            None => Err(Refusal::Conflict("no action id (?id=N)".to_string())),
        },
        ("POST", ["undo"]) => played.undo(token),
        ("POST", ["resign"]) => played.resign(token),
        (_, [""] | ["state"] | ["act"] | ["undo"] | ["resign"]) => {
            return json_status(405, "method not allowed")
        }
        _ => return not_found(),
    };
    match acted {
        Ok(()) => Reply::json(&played.state(token, None, Duration::ZERO)),
        Err(Refusal::Token) => json_status(403, "this page does not hold the match's token"),
        Err(Refusal::Conflict(why)) => json_status(409, &why),
    }
}

fn start_from_form(hall: &Arc<PlayHall>, request: &PlayRequest) -> Reply {
    let Some(starter) = &hall.starter else {
        return not_found();
    };
    if !request.from_script {
        return json_status(403, "matches start from the Play page");
    }
    let form: BTreeMap<String, String> = request
        .query
        .split('&')
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=')?;
            let v = crate::path::percent_decode(&v.replace('+', " "))?;
            Some((k.to_string(), v))
        })
        .collect();
    match starter.start(&form, hall) {
        Ok(played) => Reply::json(&json!({
            "id": played.id,
            "token": played.token,
            "url": format!("/{}", played.page_path()),
        })),
        Err(why) => json_status(400, &why),
    }
}

/// The match page's shell; `assets/play.js` draws it from the state.
fn play_page(game: &str, id: u64, has_runs: bool) -> String {
    let body = format!(
        r#"<main id="play" class="play" data-match="{id}" data-game="{game}"><p class="loading">Loading the match…</p></main>
<script type="module" src="/assets/play.js"></script>"#,
        game = html::escape(game),
    );
    html::layout(&format!("Play {game}"), &body, has_runs)
}

/// The Play page: a form that starts a match (`assets/play-form.js` fills it from the catalog).
fn play_form_page(has_runs: bool) -> String {
    let body = r#"<main id="play-form" class="play-form"><h1>Play against a bot</h1><p class="loading">Loading the games…</p></main>
<script type="module" src="/assets/play-form.js"></script>"#;
    html::layout("Play", body, has_runs)
}

fn query_value<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
}

fn json_status(status: u16, error: &str) -> Reply {
    let mut reply = Reply::json(&json!({ "error": error }));
    reply.status = status;
    reply
}

fn not_found() -> Reply {
    json_status(404, "no such match")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> MatchInfo {
        MatchInfo {
            spec: MatchSpec::new("race", 2, 1),
            names: vec!["you".into(), "bot".into()],
            humans: vec![0],
        }
    }

    #[test]
    fn tokens_are_random_hex_and_checked_exactly() {
        let hall = PlayHall::new(None, Duration::from_secs(60));
        let (a, b) = (hall.open(info()), hall.open(info()));
        assert_eq!(a.token().len(), 32);
        assert_ne!(a.token(), b.token());
        assert_eq!((a.id(), b.id()), (1, 2));
        assert_eq!(a.act(None, 0), Err(Refusal::Token));
        assert_eq!(a.act(Some(b.token()), 0), Err(Refusal::Token));
        assert_eq!(
            a.act(Some(a.token()), 0),
            Err(Refusal::Conflict("it is not your turn".into()))
        );
        assert!(hall.find("01").is_none() && hall.find("+1").is_none());
        assert_eq!(hall.find("2").map(|m| m.id()), Some(2));
    }

    #[test]
    fn query_values_are_found_by_exact_key() {
        assert_eq!(query_value("since=3&id=4", "id"), Some("4"));
        assert_eq!(query_value("idx=3", "id"), None);
    }
}
