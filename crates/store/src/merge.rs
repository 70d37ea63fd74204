//! Merging stores: the shards of one run, or copies of a league that went separate ways.

use std::collections::BTreeSet;

use rusqlite::{params, OptionalExtension, Transaction};

use crate::{
    delete_matches_with, ensure_run_in, insert_match_error, insert_matches_in, upsert_bot,
    BotRecord, Result, Store, StoreError,
};

impl Store {
    /// Copies every run, match, unresolved match error, verdict and league roster (each
    /// entrant's status and note) of `others` into this store, in one transaction: a merge that
    /// fails leaves the store as it was. Runs are matched by key, entrants by index, matches by
    /// (run key, index), so merging the same shard twice changes nothing; an error is copied
    /// only for a match this store does not have, and a verdict only to a run without one. An
    /// entrant removed in either store is removed in the merge, and its matches go with it (as
    /// `league remove` does). Returns the matches each of `others` added.
    pub fn merge_all(&mut self, others: &[&Store]) -> Result<Vec<usize>> {
        let tx = self.write_transaction()?;
        let added = others
            .iter()
            .map(|other| merge_one(&tx, other))
            .collect::<Result<Vec<_>>>()?;
        tx.commit()?;
        Ok(added)
    }

    /// `merge_all` from one store; returns the matches added.
    pub fn merge_from(&mut self, other: &Store) -> Result<usize> {
        Ok(self.merge_all(&[other])?[0])
    }
}

fn merge_one(tx: &Transaction, other: &Store) -> Result<usize> {
    let mut added = 0;
    for run in other.runs()? {
        let run_id = ensure_run_in(tx, &run, &[])?;
        let roster = other.run_bots(run.id)?;
        let statuses = other.run_bot_statuses(run.id)?;
        let removed = merge_roster(tx, run_id, &run.key, &roster, &statuses)?;
        let sat_removed = |seats: &[usize]| seats.iter().any(|s| removed.contains(s));
        let matches: Vec<_> = other
            .matches(run.id)?
            .into_iter()
            .filter(|m| !sat_removed(&m.seats))
            .collect();
        added += insert_matches_in(tx, run_id, &matches)?;
        delete_matches_with(tx, run_id, &removed)?;
        for error in other.match_errors(run.id)? {
            if !sat_removed(&error.seats) {
                insert_match_error(tx, run_id, &error)?;
            }
        }
        if let Some(verdict) = other.verdict(run.id)? {
            tx.execute(
                "UPDATE runs SET verdict = ?2 WHERE id = ?1 AND verdict IS NULL",
                params![run_id, verdict],
            )?;
        }
    }
    Ok(added)
}

/// An entrant's status and note.
type Standing = (String, Option<String>);

/// Brings the other store's entrants of a run into this one: a missing entrant is added with
/// its status and note, one both stores have keeps the later decision (`later_decision`). An
/// index that names different bots in the two stores (copies of a league that each took a
/// different bot) cannot be merged. Returns the entrants removed after the merge.
fn merge_roster(
    tx: &Transaction,
    run_id: i64,
    key: &str,
    bots: &[BotRecord],
    standings: &[Standing],
) -> Result<BTreeSet<usize>> {
    let mut removed = BTreeSet::new();
    for (idx, (bot, theirs)) in bots.iter().zip(standings).enumerate() {
        let here = tx
            .query_row(
                "SELECT rb.name, b.command, b.hash, rb.status, rb.note FROM run_bots rb \
                 JOIN bots b ON b.id = rb.bot_id WHERE rb.run_id = ?1 AND rb.idx = ?2",
                params![run_id, idx as i64],
                |r| {
                    let bot = BotRecord {
                        name: r.get(0)?,
                        command: r.get(1)?,
                        hash: r.get(2)?,
                    };
                    Ok((bot, (r.get(3)?, r.get(4)?)))
                },
            )
            .optional()?;
        let status = match here {
            None => {
                let bot_id = upsert_bot(tx, bot)?;
                tx.execute(
                    "INSERT INTO run_bots (run_id, idx, bot_id, name, status, note) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![run_id, idx as i64, bot_id, bot.name, theirs.0, theirs.1],
                )?;
                theirs.0.clone()
            }
            Some((ours, _)) if ours != *bot => {
                return Err(StoreError::Invalid(format!(
                    "cannot merge run {key}: its entrant {idx} is `{}` ({}) in one store and \
                     `{}` ({}) in the other",
                    ours.name, ours.command, bot.name, bot.command
                )))
            }
            Some((_, ours)) => {
                let (status, note) = later_decision(ours, theirs.clone());
                tx.execute(
                    "UPDATE run_bots SET status = ?3, note = ?4 WHERE run_id = ?1 AND idx = ?2",
                    params![run_id, idx as i64, status, note],
                )?;
                status
            }
        };
        if status == "removed" {
            removed.insert(idx);
        }
    }
    Ok(removed)
}

/// Which of an entrant's two standings a merge keeps. Stores do not record when a status was
/// set, so the later decision is taken to be the one further along a bot's life: `pending` (its
/// self-play check under way, where every bot starts) < `active` < `retired` < `rejected` <
/// `removed`. So a non-active decision wins over `active`, and any decision over `pending`.
/// The note goes with the status kept, or is the other one's when that has none.
fn later_decision(ours: Standing, theirs: Standing) -> Standing {
    fn rank(status: &str) -> u8 {
        match status {
            "pending" => 0,
            "retired" => 2,
            "rejected" => 3,
            "removed" => 4,
            _ => 1,
        }
    }
    let (kept, other) = if rank(&theirs.0) > rank(&ours.0) {
        (theirs, ours)
    } else {
        (ours, theirs)
    };
    (kept.0, kept.1.or(other.1))
}
