//! Final standings: the ranking key (R24) and the displayed score with the statement's +1
//! tie-break points (R25). Pure functions over per-player numbers.

use realm_core::ranks_from_keys;

/// One player's result numbers. The derived order is the ranking key of R24: score, then
/// territory, then crowns, higher first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Standing {
    /// Zone score plus enabled bonuses (R22).
    pub score: u32,
    /// Placed squares (R23).
    pub territory: u32,
    /// Total crowns (R23).
    pub crowns: u32,
}

/// Ranks from the key: 1 + number of players with a strictly greater key (R24).
pub fn ranks(standings: &[Standing]) -> Vec<u32> {
    ranks_from_keys(standings)
}

/// Displayed scores (R25): inside each group of two or more players with the same score, +1 to
/// those with the group's largest territory, and if several share it, +1 more to those of them
/// with the most crowns.
pub fn displayed_scores(standings: &[Standing]) -> Vec<u32> {
    standings
        .iter()
        .map(|me| {
            let group = standings.iter().filter(|o| o.score == me.score);
            if group.clone().count() < 2 {
                return me.score;
            }
            let best_territory = group.clone().map(|o| o.territory).max().unwrap_or(0);
            if me.territory != best_territory {
                return me.score;
            }
            let leaders = group.filter(|o| o.territory == best_territory);
            let best_crowns = leaders.clone().map(|o| o.crowns).max().unwrap_or(0);
            if leaders.count() >= 2 && me.crowns == best_crowns {
                me.score + 2
            } else {
                me.score + 1
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(score: u32, territory: u32, crowns: u32) -> Standing {
        Standing {
            score,
            territory,
            crowns,
        }
    }

    #[test]
    fn r24_r25_tie_breaks_k9() {
        let cases: [(Vec<Standing>, Vec<u32>, Vec<u32>); 5] = [
            (
                vec![st(20, 22, 5), st(20, 20, 9), st(18, 24, 9)],
                vec![21, 20, 18],
                vec![1, 2, 3],
            ),
            (vec![st(15, 24, 6), st(15, 24, 5)], vec![17, 16], vec![1, 2]),
            (vec![st(15, 24, 6), st(15, 24, 6)], vec![17, 17], vec![1, 1]),
            (
                vec![st(20, 24, 3), st(20, 22, 3), st(21, 20, 3)],
                vec![21, 20, 21],
                vec![2, 3, 1],
            ),
            (
                vec![st(30, 24, 7), st(30, 24, 9), st(30, 22, 9), st(12, 10, 2)],
                vec![31, 32, 30, 12],
                vec![2, 1, 3, 4],
            ),
        ];
        for (standings, displayed, expected_ranks) in cases {
            assert_eq!(displayed_scores(&standings), displayed, "{standings:?}");
            assert_eq!(ranks(&standings), expected_ranks, "{standings:?}");
        }
    }

    #[test]
    fn r25_no_points_without_a_score_tie() {
        assert_eq!(displayed_scores(&[st(5, 1, 1), st(6, 1, 1)]), vec![5, 6]);
    }
}
