//! Progressive widening, and the table that spares selection a power per node.

/// Progressive widening: a node with `n` visits searches its first
/// `max(1, base * (n + 1)^exponent)` children (in the knowledge's order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    pub base: f32,
    pub exponent: f32,
}

impl Widening {
    pub(crate) fn limit(&self, visits: u32) -> usize {
        ((self.base * (visits.saturating_add(1) as f32).powf(self.exponent)) as usize).max(1)
    }

    /// The fewest visits at which a node searches `k` children (`u32::MAX` if never):
    /// found by bisection on `limit`, which grows with the visits.
    fn threshold(&self, k: usize) -> u32 {
        if self.limit(u32::MAX) < k {
            return u32::MAX;
        }
        let (mut lo, mut hi) = (0u32, u32::MAX);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.limit(mid) >= k {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }
}

/// How many children selection considers at a node, as `Widening::limit` gives them, read from
/// thresholds computed once and kept in each node (`Node::width`), grown as its visits come
/// in: a power in every selection was a tenth of a late Blokus iteration.
#[derive(Clone, Debug, Default)]
pub(crate) struct WidthTable {
    widening: Option<Widening>,
    /// `thresholds[k]`: the fewest visits at which a node searches `k + 1` children.
    thresholds: Vec<u32>,
}

impl WidthTable {
    /// The widening the table describes.
    pub fn widening(&self) -> Option<Widening> {
        self.widening
    }

    /// Makes the table describe `widening` for nodes of up to `children` children.
    pub fn prepare(&mut self, widening: Option<Widening>, children: usize) {
        if self.widening != widening {
            self.widening = widening;
            self.thresholds.clear();
        }
        if let Some(w) = widening {
            for k in self.thresholds.len()..children {
                self.thresholds.push(w.threshold(k + 1));
            }
        }
    }

    /// The children a node of `children` children and `visits` visits searches.
    pub fn width(&self, children: usize, visits: u32) -> usize {
        let Some(w) = self.widening else {
            return children;
        };
        if children <= self.thresholds.len() {
            // `u32::MAX` marks a child never searched (a node cannot have that many visits).
            let visits = visits.min(u32::MAX - 1);
            self.thresholds[..children].partition_point(|&t| t <= visits)
        } else {
            children.min(w.limit(visits))
        }
    }

    /// `width` for a node whose visits grew since it searched `width` children.
    pub fn grown(&self, mut width: usize, children: usize, visits: u32) -> usize {
        if self.widening.is_none() || children > self.thresholds.len() {
            return self.width(children, visits);
        }
        let visits = visits.min(u32::MAX - 1);
        while width < children && self.thresholds[width] <= visits {
            width += 1;
        }
        width
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOT: Widening = Widening {
        base: 4.0,
        exponent: 0.35,
    };

    #[test]
    fn the_table_gives_the_width_the_power_gives() {
        for w in [
            BOT,
            Widening {
                base: 1.0,
                exponent: 0.5,
            },
            Widening {
                base: 0.5,
                exponent: 0.0,
            },
        ] {
            let mut table = WidthTable::default();
            table.prepare(Some(w), 300);
            let mut grown = [0; 4];
            for visits in (0..200_000).chain([u32::MAX - 1, u32::MAX]) {
                for (i, children) in [0, 1, 7, 300].into_iter().enumerate() {
                    let expected = children.min(w.limit(visits));
                    assert_eq!(
                        table.width(children, visits),
                        expected,
                        "{w:?} {visits} {children}"
                    );
                    grown[i] = table.grown(grown[i], children, visits);
                    assert_eq!(grown[i], expected, "grown: {w:?} {visits} {children}");
                }
            }
        }
    }

    #[test]
    fn more_children_than_the_table_or_no_widening_needs_no_table() {
        let mut table = WidthTable::default();
        table.prepare(Some(BOT), 5);
        assert_eq!(table.width(400, 1_000_000), 400.min(BOT.limit(1_000_000)));
        assert_eq!(
            table.grown(3, 400, 1_000_000),
            400.min(BOT.limit(1_000_000))
        );
        table.prepare(None, 5);
        assert_eq!(table.width(6, 0), 6);
        assert_eq!(table.grown(0, 6, 0), 6);
    }
}
