//! The rows of the store as plain Rust types. JSON columns hold per-seat lists.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer, Serialize};

use crate::StoreError;

/// A run: one arena or SPRT invocation, identified by a key derived from its configuration so
/// that running the same command again resumes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Row id; ignored when inserting.
    pub id: i64,
    pub key: String,
    /// `arena` or `sprt`.
    pub kind: String,
    pub created_at: String,
    pub game: String,
    pub variant: Option<String>,
    pub league: Option<i64>,
    pub n_players: usize,
    pub seed: u64,
    /// Scheduled matches (an SPRT run grows until it decides).
    pub n_matches: u64,
    /// The full configuration as JSON.
    pub config: String,
}

/// An entrant: a built-in bot or a command, with a content hash when the command names a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotRecord {
    pub name: String,
    pub command: String,
    pub hash: String,
}

/// One finished match. Per-seat lists are in seat order; `seats[s]` is the entrant index.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    pub match_idx: u64,
    pub seed: u64,
    pub seats: Vec<usize>,
    pub scores: Vec<i64>,
    pub ranks: Vec<u32>,
    pub end_reason: String,
    pub detail: String,
    /// Per seat: `None`, or the fault code and its reason.
    pub faults: Vec<Option<(String, String)>>,
    pub n_calls: u64,
    pub duration_ms: u64,
    pub replay_path: Option<String>,
    /// Per seat: every response time in microseconds.
    pub times_us: Vec<Vec<u64>>,
    /// Per seat: `[TDATA]`/`[PDATA]` values the bot reported on stderr. Only finite numbers:
    /// anything else is dropped when written and skipped when read (see `lenient_bot_data`).
    #[serde(deserialize_with = "lenient_bot_data")]
    pub data: Vec<BTreeMap<String, f64>>,
    /// Per seat: calls answered after the game's limit but within the run's `--time-margin`
    /// (forgiven, and counted). Empty for matches recorded before schema 3.
    #[serde(default)]
    pub late_calls: Vec<u64>,
}

/// A match that could not be played to its end through no fault of the bots (its external
/// referee crashed, hung or printed no scores). It is not a result: statistics never count it,
/// and resuming the run plays the match again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchErrorRecord {
    pub match_idx: u64,
    pub seed: u64,
    /// `seats[s]` is the entrant in seat `s`.
    pub seats: Vec<usize>,
    pub reason: String,
}

pub(crate) fn run_from_row(r: &rusqlite::Row) -> rusqlite::Result<RunRecord> {
    Ok(RunRecord {
        id: r.get(0)?,
        key: r.get(1)?,
        kind: r.get(2)?,
        created_at: r.get(3)?,
        game: r.get(4)?,
        variant: r.get(5)?,
        league: r.get(6)?,
        n_players: r.get::<_, i64>(7)? as usize,
        seed: r.get::<_, i64>(8)? as u64,
        n_matches: r.get::<_, i64>(9)? as u64,
        config: r.get(10)?,
    })
}

pub(crate) fn match_from_row(
    r: &rusqlite::Row,
) -> rusqlite::Result<Result<MatchRecord, StoreError>> {
    fn parse<T: serde::de::DeserializeOwned>(
        text: String,
        column: &'static str,
    ) -> Result<T, StoreError> {
        serde_json::from_str(&text).map_err(|source| StoreError::Json { column, source })
    }
    let seats: String = r.get(2)?;
    let scores: String = r.get(3)?;
    let ranks: String = r.get(4)?;
    let faults: String = r.get(7)?;
    let times: String = r.get(11)?;
    let data: String = r.get(12)?;
    let late_calls: Option<String> = r.get(13)?;
    let (match_idx, seed): (i64, i64) = (r.get(0)?, r.get(1)?);
    let (end_reason, detail): (String, String) = (r.get(5)?, r.get(6)?);
    let (n_calls, duration_ms): (i64, i64) = (r.get(8)?, r.get(9)?);
    let replay_path: Option<String> = r.get(10)?;
    Ok((|| {
        Ok(MatchRecord {
            match_idx: match_idx as u64,
            seed: seed as u64,
            seats: parse(seats, "seats")?,
            scores: parse(scores, "scores")?,
            ranks: parse(ranks, "ranks")?,
            end_reason,
            detail,
            faults: parse(faults, "faults")?,
            n_calls: n_calls as u64,
            duration_ms: duration_ms as u64,
            replay_path,
            times_us: parse(times, "times_us")?,
            data: parse_bot_data(&data)?,
            late_calls: match late_calls {
                Some(text) => parse(text, "late_calls")?,
                None => Vec::new(),
            },
        })
    })())
}

pub(crate) fn match_error_from_row(
    r: &rusqlite::Row,
) -> rusqlite::Result<Result<MatchErrorRecord, StoreError>> {
    let (match_idx, seed): (i64, i64) = (r.get(0)?, r.get(1)?);
    let seats: String = r.get(2)?;
    let reason: String = r.get(3)?;
    Ok(serde_json::from_str(&seats)
        .map(|seats| MatchErrorRecord {
            match_idx: match_idx as u64,
            seed: seed as u64,
            seats,
            reason,
        })
        .map_err(|source| StoreError::Json {
            column: "seats",
            source,
        }))
}

/// Bot data read back: a value that is not a finite number (the `null` an older realm wrote
/// for an overflowed `[PDATA+]` sum) is skipped, so one bad value never makes the store
/// unreadable.
fn lenient_bot_data<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Vec<BTreeMap<String, f64>>, D::Error> {
    let seats = Vec::<BTreeMap<String, serde_json::Value>>::deserialize(deserializer)?;
    Ok(seats
        .into_iter()
        .map(|values| {
            values
                .into_iter()
                .filter_map(|(key, value)| Some((key, value.as_f64().filter(|v| v.is_finite())?)))
                .collect()
        })
        .collect())
}

fn parse_bot_data(text: &str) -> Result<Vec<BTreeMap<String, f64>>, StoreError> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    lenient_bot_data(&mut deserializer)
        .and_then(|data| deserializer.end().map(|()| data))
        .map_err(|source| StoreError::Json {
            column: "data",
            source,
        })
}

/// The bot data worth storing: finite numbers only (JSON has no infinity; serde writes `null`).
pub(crate) fn finite_bot_data(data: &[BTreeMap<String, f64>]) -> Vec<BTreeMap<String, f64>> {
    data.iter()
        .map(|values| {
            values
                .iter()
                .filter(|(_, v)| v.is_finite())
                .map(|(k, v)| (k.clone(), *v))
                .collect()
        })
        .collect()
}
