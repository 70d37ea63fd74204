//! The server-rendered pages: the index (replays and runs), the runs pages and the shell of the
//! replay page (whose board and panels are drawn by `assets/replay.js`).
//!
//! Every piece of text that comes from a file or a store goes through `escape`; URLs are built
//! from percent-encoded parts only. Pages load nothing but `/assets/...`, so they work offline.

use std::fmt::Write;

use crate::listing::{ReplayEntry, ReplayQuery};
use crate::runs::{MatchFilter, MatchRow, ResultFilter, RunDetail, RunSummary};

/// Escapes text for HTML element content and double-quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Wraps a page body in the common layout (header with navigation, stylesheet).
pub fn layout(title: &str, body: &str, has_runs: bool) -> String {
    let runs_link = if has_runs {
        r#"<a href="/runs">Runs</a>"#
    } else {
        ""
    };
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · realm</title>
<link rel="stylesheet" href="/assets/style.css">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
</head>
<body>
<header class="top"><a class="brand" href="/">realm</a><nav><a href="/">Replays</a>{runs_link}</nav></header>
{body}
</body>
</html>
"#,
        title = escape(title),
    )
}

/// The header's link to the Play page, added to every page of a server that plays matches
/// from a form (`realm serve`), after the Replays link.
pub fn with_play_link(page: Vec<u8>) -> Vec<u8> {
    const REPLAYS: &str = r#"<nav><a href="/">Replays</a>"#;
    match String::from_utf8(page) {
        Ok(text) => text
            .replacen(
                REPLAYS,
                &format!(r#"{REPLAYS}<a href="/play" id="nav-play">Play</a>"#),
                1,
            )
            .into_bytes(),
        Err(e) => e.into_bytes(),
    }
}

/// The replay page: a shell the script fills from `src` (a JSON URL built by the server),
/// under `nav` (server-built links, e.g. back to the match's run; may be empty).
pub fn replay_page(title: &str, src: &str, nav: &str, has_runs: bool) -> String {
    // A stored match's page keeps "Run #N match M" in the title the script sets.
    let context = if nav.is_empty() {
        String::new()
    } else {
        format!(r#" data-context="{}""#, escape(title))
    };
    let body = format!(
        r#"{nav}<main id="app" class="replay" data-src="{src}"{context}><p class="loading">Loading replay…</p></main>
<script type="module" src="/assets/replay.js"></script>"#,
        src = escape(src),
    );
    layout(title, &body, has_runs)
}

/// Links from a stored match's replay to its run, its matches and the neighbouring matches
/// that have replays inside `filter` (the one the match was opened from, kept by every link).
pub fn match_nav(
    run_id: i64,
    match_id: i64,
    filter: &MatchFilter,
    prev: Option<i64>,
    next: Option<i64>,
) -> String {
    let query = filter.to_query(1);
    let q = if query.is_empty() {
        String::new()
    } else {
        format!("?{}", escape(&query))
    };
    let within = filter.describe();
    let mut nav = format!(
        r#"<nav class="replay-nav" id="replay-nav"><a href="/runs/{run_id}" id="to-run">Run #{run_id}</a><a href="/runs/{run_id}/matches{q}">its matches</a>"#
    );
    if let Some(p) = prev {
        let _ = write!(
            nav,
            r#"<a href="/runs/{run_id}/matches/{p}{q}" rel="prev" id="prev-match">← match {p}</a>"#
        );
    }
    let _ = write!(nav, "<span>match {match_id}</span>");
    if let Some(n) = next {
        let _ = write!(
            nav,
            r#"<a href="/runs/{run_id}/matches/{n}{q}" rel="next" id="next-match">match {n} →</a>"#
        );
    }
    if !within.is_empty() {
        let _ = write!(
            nav,
            r#"<span class="within" id="nav-filter">kept replays of: {}</span>"#,
            escape(&within)
        );
    }
    nav.push_str("</nav>");
    nav
}

/// Replays per index page: enough to scan, few enough for a page that opens at once.
pub const REPLAYS_PER_PAGE: usize = 100;

/// The index: one page (`page`, 1-based) of the replay folder's `total` files and, with a
/// store, the latest runs.
pub fn index_page(
    entries: &[ReplayEntry],
    total: usize,
    page: usize,
    filter: &ReplayQuery,
    runs: Option<&[RunSummary]>,
) -> String {
    let mut body = String::from(r#"<main class="index">"#);
    if let Some(runs) = runs {
        body.push_str("<h1>Runs</h1>");
        body.push_str(&runs_table(&runs[..runs.len().min(10)]));
        if runs.len() > 10 {
            body.push_str(r#"<p><a href="/runs">All runs…</a></p>"#);
        }
    }
    let _ = write!(body, "<h1>Replays <small>({total})</small></h1>");
    let field = |name: &str, label: &str, value: &Option<String>| {
        format!(
            r#"<label>{label} <input name="{name}" value="{}"></label>"#,
            escape(value.as_deref().unwrap_or(""))
        )
    };
    let _ = write!(
        body,
        r#"<form class="filters" id="replay-filters" method="get" action="/">{}{}{}<button>Filter</button></form>"#,
        field("game", "Game", &filter.game),
        field("bot", "Bot", &filter.bot),
        field("folder", "Folder", &filter.folder),
    );
    // Pager links keep the filter.
    let mut kept = String::new();
    for (key, value) in [
        ("game", &filter.game),
        ("bot", &filter.bot),
        ("folder", &filter.folder),
    ] {
        if let Some(v) = value {
            let _ = write!(kept, "&amp;{key}={}", crate::path::encode_segment(v));
        }
    }
    let pages = total.div_ceil(REPLAYS_PER_PAGE).max(1);
    let pager = if pages > 1 {
        let mut nav = String::from(r#"<nav class="pager" id="replay-pager">"#);
        if page > 1 {
            let _ = write!(
                nav,
                r#"<a href="/?page={}{kept}" rel="prev">← newer</a>"#,
                page - 1
            );
        }
        let _ = write!(nav, "<span>page {page} of {pages}</span>");
        if page < pages {
            let _ = write!(
                nav,
                r#"<a href="/?page={}{kept}" rel="next">older →</a>"#,
                page + 1
            );
        }
        nav.push_str("</nav>");
        nav
    } else {
        String::new()
    };
    body.push_str(&pager);
    if entries.is_empty() {
        body.push_str(r#"<p class="empty">No replays in this folder yet.</p>"#);
    } else {
        body.push_str(
            r#"<table class="list" id="replays"><thead><tr><th>Replay</th><th>Game</th><th>Players</th><th>Result</th><th>Calls</th><th>End</th><th>Modified (UTC)</th></tr></thead><tbody>"#,
        );
        for e in entries {
            replay_row(&mut body, e);
        }
        body.push_str("</tbody></table>");
        body.push_str(&pager);
    }
    body.push_str("</main>");
    layout("Replays", &body, runs.is_some())
}

fn replay_row(body: &mut String, e: &ReplayEntry) {
    let link = format!(
        r#"<a href="/replay/{}">{}</a>"#,
        escape(&e.href),
        escape(&e.name)
    );
    let when = format_time(e.modified);
    match &e.summary {
        Some(s) => {
            let mut game = s.game.clone();
            if let Some(v) = &s.variant {
                let _ = write!(game, " {v}");
            }
            if let Some(l) = s.league {
                let _ = write!(game, " L{l}");
            }
            let _ = write!(
                body,
                r#"<tr data-replay="{href}"><td>{link}</td><td>{game}</td><td>{players}</td><td>{result}</td><td>{calls}</td><td>{end}</td><td>{when}</td></tr>"#,
                href = escape(&e.href),
                game = escape(&game),
                players = players_html(&s.players),
                result = result_html(&s.players, &s.scores, &s.ranks),
                calls = s.n_calls,
                end = escape(&s.end),
            );
        }
        None => {
            let _ = write!(
                body,
                r#"<tr class="broken"><td>{link}</td><td colspan="5">{err}</td><td>{when}</td></tr>"#,
                err = escape(e.error.as_deref().unwrap_or("")),
            );
        }
    }
}

fn players_html(players: &[String]) -> String {
    players
        .iter()
        .enumerate()
        .map(|(i, p)| format!(r#"<span class="p p{i}">{}</span>"#, escape(p)))
        .collect::<Vec<_>>()
        .join(" ")
}

fn result_html(players: &[String], scores: &[i64], ranks: &[u32]) -> String {
    let mut order: Vec<usize> = (0..ranks.len()).collect();
    order.sort_by_key(|&i| (ranks[i], i));
    order
        .iter()
        .map(|&i| {
            let name = players.get(i).map(String::as_str).unwrap_or("?");
            let score = scores.get(i).copied().unwrap_or(0);
            format!(
                r#"<span class="p p{i}" title="{name}">#{} {score}</span>"#,
                ranks[i],
                name = escape(name)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The runs list page.
pub fn runs_page(runs: &[RunSummary]) -> String {
    let body = format!(
        r#"<main class="index"><h1>Runs <small>({})</small></h1>{}</main>"#,
        runs.len(),
        runs_table(runs)
    );
    layout("Runs", &body, true)
}

/// `done/planned`, or just `done` for a run without a planned size (a league); `unit` follows.
fn progress(r: &RunSummary, unit: &str) -> String {
    if r.n_matches_planned > 0 {
        format!("{}/{}{unit}", r.n_matches_done, r.n_matches_planned)
    } else {
        format!("{}{unit}", r.n_matches_done)
    }
}

/// The status and, when known, the time of the run's last activity (escaped).
fn status_text(r: &RunSummary) -> String {
    match &r.last_activity {
        Some(when) => format!(
            "{} <small>(last activity {})</small>",
            escape(&r.status),
            escape(when)
        ),
        None => escape(&r.status),
    }
}

/// A run that may still change: one running, or a league (which may be run again any time).
fn may_change(r: &RunSummary) -> bool {
    r.status == "running" || r.status == "idle"
}

fn runs_table(runs: &[RunSummary]) -> String {
    if runs.is_empty() {
        return r#"<p class="empty">No runs in the store yet.</p>"#.to_string();
    }
    let mut out = String::from(
        r#"<table class="list" id="runs"><thead><tr><th>Run</th><th>Game</th><th>Bots</th><th>Matches</th><th>Status</th><th>Started</th></tr></thead><tbody>"#,
    );
    for r in runs {
        let _ = write!(
            out,
            r#"<tr data-run="{id}"><td><a href="/runs/{id}">#{id} {label}</a></td><td>{game}</td><td>{bots}</td><td>{progress}</td><td data-status="{state}">{status}</td><td>{started}</td></tr>"#,
            id = r.id,
            label = escape(&r.label),
            game = escape(&r.game),
            bots = r.n_bots,
            progress = progress(r, ""),
            state = escape(&r.status),
            status = status_text(r),
            started = escape(&r.started),
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// One run: leaderboard, pairwise matrix and a link to its matches.
pub fn run_page(run: &RunDetail) -> String {
    let s = &run.summary;
    let mut body = format!(
        r#"<main class="index" id="run" data-live="{live}"><h1 id="run-title">Run #{id} <small>{label}</small></h1>
<p class="meta" id="run-meta">{game} · {progress} · <span id="run-status" data-status="{state}">{status}</span> · started {started} · <a href="/runs/{id}/matches">matches</a> · <a href="/runs/{id}/matches?fault=any">faults</a></p>
<h2>Leaderboard</h2>"#,
        // A running run or a league may still be playing: the page follows it.
        live = may_change(s),
        state = escape(&s.status),
        progress = progress(s, " matches"),
        id = s.id,
        label = escape(&s.label),
        game = escape(&s.game),
        status = status_text(s),
        started = escape(&s.started),
    );
    body.push_str(
        r#"<table class="list" id="leaderboard"><thead><tr><th>#</th><th>Bot</th><th>Rating</th><th>Games</th><th>W</th><th>D</th><th>L</th><th title="wins plus half the draws, per game">Win rate</th><th>Faults</th><th title="fault kinds">Kinds</th><th title="median and 99th percentile response time">p50 / p99 ms</th><th title="probability that the bot is better than the next one down">P(&gt;next)</th><th>Version · note</th></tr></thead><tbody>"#,
    );
    for row in &run.leaderboard {
        let rating = match (row.rating, row.rating_error) {
            // No interval until the games can bound it (a bot that won or lost every game).
            (Some(r), Some(e)) if e.is_finite() => format!("{r:.1} ± {e:.1}"),
            (Some(r), _) => format!("{r:.1}"),
            _ => "–".to_string(),
        };
        let games = row.wins + row.draws + row.losses;
        let rate = if games > 0 {
            format!(
                "{:.1}%",
                100.0 * (row.wins as f64 + 0.5 * row.draws as f64) / games as f64
            )
        } else {
            "–".to_string()
        };
        let d = &row.details;
        let status = d.status.as_deref().filter(|s| *s != "active");
        let _ = write!(
            body,
            r#"<tr data-bot="{bot}"{class}><td>{rank}</td><td><a href="/runs/{id}/matches?bot={q}">{bot}</a>{marker}</td><td>{rating}</td><td>{games}</td><td>{w}</td><td>{d}</td><td>{l}</td><td>{rate}</td><td>{faults}</td><td class="kinds">{kinds}</td><td>{times}</td><td class="p-next">{p_next}</td><td class="version">{version}</td></tr>"#,
            class = status
                .map(|s| format!(
                    r#" class="status-{}" data-status="{}""#,
                    escape(s),
                    escape(s)
                ))
                .unwrap_or_default(),
            marker = status
                .map(|s| format!(r#" <small class="bot-status">{}</small>"#, escape(s)))
                .unwrap_or_default(),
            kinds = escape(
                &d.fault_kinds
                    .iter()
                    .map(|(k, n)| format!("{k} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            times = match (d.response_p50_us, d.response_p99_us) {
                (Some(p50), Some(p99)) =>
                    format!("{:.1} / {:.1}", p50 as f64 / 1000.0, p99 as f64 / 1000.0),
                _ => "–".to_string(),
            },
            p_next = d
                .p_better_than_next
                .map(|p| format!("{:.0}%", p * 100.0))
                .unwrap_or_default(),
            version = escape(
                &[d.version.as_deref(), d.note.as_deref()]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join(" · ")
            ),
            bot = escape(&row.bot),
            q = crate::path::encode_segment(&row.bot),
            rank = row.rank,
            id = s.id,
            games = row.games,
            w = row.wins,
            d = row.draws,
            l = row.losses,
            faults = row.faults,
        );
    }
    body.push_str("</tbody></table>");
    // Always present, so a page opened before the first games gets the matrix later.
    body.push_str(r#"<section id="pairwise-section">"#);
    if !run.bots.is_empty() {
        body.push_str(r#"<h2>Pairwise <small>(row's score against column)</small></h2><table class="matrix" id="pairwise"><thead><tr><th></th>"#);
        for b in &run.bots {
            let _ = write!(body, "<th>{}</th>", escape(b));
        }
        body.push_str("</tr></thead><tbody>");
        for (i, b) in run.bots.iter().enumerate() {
            let _ = write!(body, "<tr><th>{}</th>", escape(b));
            for j in 0..run.bots.len() {
                let cell = run
                    .pairwise
                    .get(i)
                    .and_then(|r| r.get(j))
                    .copied()
                    .flatten();
                match cell.and_then(|c| c.score_rate().map(|rate| (c, rate))) {
                    Some((c, rate)) => {
                        // Hue from red (0%) through grey to green (100%) makes the matrix scannable.
                        let _ = write!(
                            body,
                            r#"<td style="--rate:{rate:.3}" title="{w}W {d}D {l}L">{pct:.0}%<small>{w}/{d}/{l}</small></td>"#,
                            pct = rate * 100.0,
                            w = c.wins,
                            d = c.draws,
                            l = c.losses,
                        );
                    }
                    None => body.push_str(r#"<td class="none">–</td>"#),
                }
            }
            body.push_str("</tr>");
        }
        body.push_str("</tbody></table>");
    }
    body.push_str("</section>");
    body.push_str(&report_section(run));
    body.push_str(r#"<p class="note" id="live-note"></p></main><script type="module" src="/assets/live.js"></script>"#);
    layout(&format!("Run #{}", s.id), &body, true)
}

/// What `realm report` adds below the leaderboard: each bot's results per seat and its
/// `[PDATA]` averages, in leaderboard order.
fn report_section(run: &RunDetail) -> String {
    let mut out = String::from(r#"<section id="report">"#);
    let n_seats = run
        .leaderboard
        .iter()
        .flat_map(|r| r.details.seats.iter().map(|s| s.seat + 1))
        .max()
        .unwrap_or(0);
    if n_seats > 0 {
        out.push_str(r#"<h2>Per seat <small>(W/D/L)</small></h2><table class="list" id="per-seat"><thead><tr><th>Bot</th>"#);
        for seat in 0..n_seats {
            let _ = write!(out, "<th>seat {}</th>", seat + 1);
        }
        out.push_str("</tr></thead><tbody>");
        for row in &run.leaderboard {
            let _ = write!(
                out,
                r#"<tr data-bot="{b}"><td>{b}</td>"#,
                b = escape(&row.bot)
            );
            for seat in 0..n_seats {
                match row.details.seats.iter().find(|s| s.seat == seat) {
                    Some(s) if s.games > 0 => {
                        let _ = write!(out, "<td>{}/{}/{}</td>", s.wins, s.draws, s.losses);
                    }
                    _ => out.push_str(r#"<td class="none">–</td>"#),
                }
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table>");
    }
    let mut keys: Vec<&String> = run
        .leaderboard
        .iter()
        .flat_map(|r| r.details.data.keys())
        .collect();
    keys.sort();
    keys.dedup();
    if !keys.is_empty() {
        out.push_str(r#"<h2>Bot data <small>([PDATA] averages)</small></h2><table class="list" id="bot-data"><thead><tr><th>Bot</th>"#);
        for k in &keys {
            let _ = write!(out, "<th>{}</th>", escape(k));
        }
        out.push_str("</tr></thead><tbody>");
        for row in &run.leaderboard {
            let _ = write!(
                out,
                r#"<tr data-bot="{b}"><td>{b}</td>"#,
                b = escape(&row.bot)
            );
            for k in &keys {
                match row.details.data.get(*k) {
                    Some(v) => {
                        let _ = write!(out, "<td>{v:.2}</td>");
                    }
                    None => out.push_str(r#"<td class="none">–</td>"#),
                }
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table>");
    }
    out.push_str("</section>");
    out
}

/// The matches of a run with the filter form, one page of them, and links to the pages before
/// and after (`more`: a next page exists).
pub fn matches_page(
    run: &RunDetail,
    filter: &MatchFilter,
    rows: &[MatchRow],
    more: bool,
) -> String {
    let id = run.summary.id;
    let first = filter.offset + 1;
    let shown = if rows.is_empty() {
        "none".to_string()
    } else {
        format!("{first}–{}", filter.offset + rows.len())
    };
    let mut body = format!(
        r#"<main class="index"><h1><a href="/runs/{id}">Run #{id}</a> · matches <small id="match-range">({shown}{more})</small></h1>
<form class="filters" method="get" action="/runs/{id}/matches">"#,
        more = if more { ", more on the next page" } else { "" },
    );
    body.push_str(r#"<label>Bot <select name="bot"><option value="">any</option>"#);
    for b in &run.bots {
        let _ = write!(
            body,
            r#"<option value="{b}"{selected}>{b}</option>"#,
            b = escape(b),
            selected = selected(filter.bot.as_deref() == Some(b)),
        );
    }
    body.push_str("</select></label>");
    let _ = write!(
        body,
        r#"<label>Seed <input name="seed" inputmode="numeric" value="{}"></label>"#,
        filter.seed.map(|s| s.to_string()).unwrap_or_default()
    );
    // Win and loss are a bot's; `filters.js` enables them once a bot is chosen.
    body.push_str(r#"<label>Result <select name="result"><option value="">any</option>"#);
    for r in ResultFilter::ALL {
        let (label, disabled) = match r {
            ResultFilter::Win => ("win (of the bot)", filter.bot.is_none()),
            ResultFilter::Loss => ("loss (of the bot)", filter.bot.is_none()),
            ResultFilter::Draw => ("draw (shared first place)", false),
            ResultFilter::Decisive => ("decisive (one winner)", false),
        };
        let _ = write!(
            body,
            r#"<option value="{c}"{selected}{disabled}{needs}>{label}</option>"#,
            c = r.code(),
            selected = selected(filter.result == Some(r) && !filter.ignores_result()),
            disabled = if disabled { " disabled" } else { "" },
            needs = if r.needs_bot() { " data-needs-bot" } else { "" },
        );
    }
    body.push_str("</select></label>");
    body.push_str(r#"<label>Fault <select name="fault"><option value="">any or none</option>"#);
    let mut faults = vec![("any", "any fault")];
    faults.extend(run.fault_codes.iter().map(|c| (c.as_str(), c.as_str())));
    if let Some(asked) = filter.fault.as_deref() {
        // A code from a typed URL that the run does not have stays visible as the choice.
        if !faults.iter().any(|(code, _)| *code == asked) {
            faults.push((asked, asked));
        }
    }
    for (code, label) in faults {
        let _ = write!(
            body,
            r#"<option value="{c}"{selected}>{l}</option>"#,
            c = escape(code),
            l = escape(label),
            selected = selected(filter.fault.as_deref() == Some(code)),
        );
    }
    body.push_str(
        r#"</select></label><button>Filter</button></form>
<script type="module" src="/assets/filters.js"></script>"#,
    );
    if filter.ignores_result() {
        body.push_str(r#"<p class="note" id="result-ignored">Win and loss are seen from a bot: choose one to filter by them.</p>"#);
    }
    let pager = pager(id, filter, more);
    body.push_str(&pager);
    // A replay opened from this list steps through the same filter's matches.
    let watch_query = match filter.to_query(1) {
        q if q.is_empty() => String::new(),
        q => format!("?{}", escape(&q)),
    };
    body.push_str(
        r#"<table class="list" id="matches"><thead><tr><th>Match</th><th>Seed</th><th>Seats (rank, score)</th><th>End</th><th title="calls to the bots: one game turn may take several">Calls</th><th>ms</th><th>Replay</th></tr></thead><tbody>"#,
    );
    for m in rows {
        let seats = m
            .seats
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let fault = s
                    .fault
                    .as_deref()
                    .map(|f| format!(r#" <em class="fault">{}</em>"#, escape(f)))
                    .unwrap_or_default();
                format!(
                    r#"<span class="p p{i}">{} #{} {}{fault}</span>"#,
                    escape(&s.bot),
                    s.rank,
                    s.score
                )
            })
            .collect::<Vec<_>>()
            .join(" ");
        let replay = if m.replay_missing {
            r#"<span class="missing" title="the store names a replay file that is gone">missing</span>"#.to_string()
        } else if m.has_replay {
            format!(
                r#"<a href="/runs/{id}/matches/{}{watch_query}">watch</a>"#,
                m.id
            )
        } else {
            String::new()
        };
        let _ = write!(
            body,
            r#"<tr data-match="{mid}"><td>{mid}</td><td>{seed}</td><td>{seats}</td><td>{end}</td><td>{turns}</td><td>{ms}</td><td>{replay}</td></tr>"#,
            mid = m.id,
            seed = m.seed,
            end = escape(&m.end),
            turns = m.turns.map(|t| t.to_string()).unwrap_or_default(),
            ms = m.duration_ms.map(|t| t.to_string()).unwrap_or_default(),
        );
    }
    body.push_str("</tbody></table>");
    body.push_str(&pager);
    body.push_str("</main>");
    layout(&format!("Run #{id} matches"), &body, true)
}

fn selected(yes: bool) -> &'static str {
    if yes {
        " selected"
    } else {
        ""
    }
}

/// Links to the previous and next page of the same filter, when there are such pages.
fn pager(run_id: i64, filter: &MatchFilter, more: bool) -> String {
    let page = filter.page();
    if page == 1 && !more {
        return String::new();
    }
    let link = |p: usize, rel: &str, text: &str| {
        let query = filter.to_query(p);
        let sep = if query.is_empty() { "" } else { "?" };
        format!(
            r#"<a rel="{rel}" href="/runs/{run_id}/matches{sep}{q}">{text}</a>"#,
            q = escape(&query)
        )
    };
    let mut out = String::from(r#"<nav class="pager">"#);
    if page > 1 {
        out.push_str(&link(page - 1, "prev", "← previous page"));
    }
    let _ = write!(out, " <span>page {page}</span> ");
    if more {
        out.push_str(&link(page + 1, "next", "next page →"));
    }
    out.push_str("</nav>");
    out
}

/// A plain error page.
pub fn error_page(status: u16, message: &str, has_runs: bool) -> String {
    let body = format!(
        r#"<main class="index"><h1>{status}</h1><p>{}</p><p><a href="/">Back to the replays</a></p></main>"#,
        escape(message)
    );
    layout(&status.to_string(), &body, has_runs)
}

/// `YYYY-MM-DD HH:MM` in UTC from Unix seconds (civil-from-days, so no date crate is needed).
pub fn format_time(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_covers_markup_and_quotes() {
        assert_eq!(
            escape(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn times_are_utc_calendar_dates() {
        assert_eq!(format_time(0), "1970-01-01 00:00");
        assert_eq!(format_time(951_782_400), "2000-02-29 00:00");
        assert_eq!(format_time(1_795_000_000), "2026-11-18 11:06");
    }
}
