//! The plies at which one iteration's actions were first played, for RAVE's updates: one
//! entry per action key (`Knowledge::rave_key` and the player), stamped with the iteration so
//! that nothing is cleared between iterations. (A small hash table sized to the iteration
//! measured 12–15% slower in late Blokus positions: the few thousand keys a search looks up
//! stay in the cache, and a probe's branches cost more than the load.)

#[derive(Default)]
pub(crate) struct FirstPlays {
    /// Per key, the iteration's stamp in the high half and the ply in the low half.
    entries: Vec<u64>,
    stamp: u32,
}

impl FirstPlays {
    /// Empties the table for an iteration over keys below `keys`.
    pub fn start(&mut self, keys: usize) {
        if self.entries.len() != keys {
            self.entries = vec![0; keys];
            self.stamp = 0;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.entries.fill(0);
            self.stamp = 1;
        }
    }

    /// Records `key` as played at `ply`, replacing an earlier record (insert the plies from
    /// the last to the first, and each key keeps its first).
    #[inline]
    pub fn insert(&mut self, key: usize, ply: usize) {
        self.entries[key] = (self.stamp as u64) << 32 | ply as u64;
    }

    /// The ply `key` was last recorded at, if it was this iteration.
    #[inline]
    pub fn get(&self, key: usize) -> Option<usize> {
        let entry = self.entries[key];
        ((entry >> 32) as u32 == self.stamp).then_some(entry as u32 as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_keep_their_latest_ply_and_vanish_with_the_next_iteration() {
        let mut t = FirstPlays::default();
        t.start(300);
        for (ply, key) in [(9, 7usize), (8, 128), (7, 7), (6, 256), (5, 0)] {
            t.insert(key, ply);
        }
        assert_eq!(t.get(7), Some(7));
        assert_eq!(t.get(128), Some(8));
        assert_eq!(t.get(256), Some(6));
        assert_eq!(t.get(0), Some(5));
        assert_eq!(t.get(1), None);
        t.start(300);
        assert_eq!(t.get(7), None);
        t.insert(3, 2);
        assert_eq!((t.get(3), t.get(128)), (Some(2), None));
    }
}
