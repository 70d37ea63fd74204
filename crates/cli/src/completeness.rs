//! What `realm report` and `realm merge` say loudly about a run that is not whole: matches
//! without a result (a shard that never ran, a run still going, failed matches), and runs that
//! are the same run but for the content of a bot (a bot file edited between shards).

use anyhow::Result;
use realm_store::{RunRecord, Store};

/// Why a run is not complete, in one line; `None` when every scheduled match has a result (or
/// an SPRT decided).
pub fn incompleteness(store: &Store, run: &RunRecord) -> Result<Option<String>> {
    if store.verdict(run.id)?.is_some() {
        return Ok(None);
    }
    let done = store.done_matches(run.id)?;
    let missing = missing_ranges(&done, run.n_matches);
    if missing.is_empty() {
        return Ok(None);
    }
    let n_missing = run.n_matches - done.len() as u64;
    let shown: Vec<String> = missing.iter().take(6).map(range_text).collect();
    let more = if missing.len() > shown.len() {
        ", ..."
    } else {
        ""
    };
    Ok(Some(format!(
        "run {} is incomplete: {}/{} matches have a result; missing {n_missing}: {}{more} (a \
         shard that never ran, a run still going, or matches without a result)",
        run.id,
        done.len(),
        run.n_matches,
        shown.join(", ")
    )))
}

fn range_text(&(first, last): &(u64, u64)) -> String {
    if first == last {
        format!("{first}")
    } else {
        format!("{first}-{last}")
    }
}

/// The index ranges in `0..n` that `done` (sorted) does not hold.
fn missing_ranges(done: &[u64], n: u64) -> Vec<(u64, u64)> {
    let mut ranges = Vec::new();
    let mut next = 0;
    for &i in done.iter().filter(|&&i| i < n) {
        if i > next {
            ranges.push((next, i - 1));
        }
        next = i + 1;
    }
    if next < n {
        ranges.push((next, n - 1));
    }
    ranges
}

/// The configuration of a run with bot content hashes left out.
fn config_without_hashes(run: &RunRecord) -> Option<serde_json::Value> {
    let mut config: serde_json::Value = serde_json::from_str(&run.config).ok()?;
    let bots = config.get_mut("bots")?.as_array_mut()?;
    for bot in bots.iter_mut() {
        if let Some(pair) = bot.as_array_mut() {
            pair.truncate(1);
        }
    }
    Some(config)
}

/// Warnings for runs of `store` that are one run but for the content of some bots, e.g.
/// `runs 2 and 5 are the same run except for the content of ./bots/candidate: ...`.
pub fn content_splits(store: &Store) -> Result<Vec<String>> {
    let runs = store.runs()?;
    let mut warnings = Vec::new();
    for (i, a) in runs.iter().enumerate() {
        for b in &runs[i + 1..] {
            let (Some(ca), Some(cb)) = (config_without_hashes(a), config_without_hashes(b)) else {
                continue;
            };
            if a.key == b.key || ca != cb {
                continue;
            }
            let (bots_a, bots_b) = (store.run_bots(a.id)?, store.run_bots(b.id)?);
            let changed: Vec<String> = bots_a
                .iter()
                .zip(&bots_b)
                .filter(|(x, y)| x.hash != y.hash)
                .map(|(x, _)| x.command.clone())
                .collect();
            let (older, newer) = (b.id.min(a.id), b.id.max(a.id));
            warnings.push(format!(
                "runs {older} and {newer} are the same run except for the content of {}: a bot \
                 changed between shards or resumptions, so their matches are not pooled; \
                 `realm report --run {older}` and `realm report --run {newer}` show each",
                changed.join(", ")
            ));
        }
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_ranges_compress_the_gaps() {
        assert_eq!(missing_ranges(&[0, 1, 2, 3], 4), vec![]);
        assert_eq!(missing_ranges(&[2, 3, 6], 8), vec![(0, 1), (4, 5), (7, 7)]);
        assert_eq!(missing_ranges(&[], 3), vec![(0, 2)]);
        assert_eq!(range_text(&(7, 7)), "7");
        assert_eq!(range_text(&(0, 1)), "0-1");
    }
}
