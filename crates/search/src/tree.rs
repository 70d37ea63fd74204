//! The node arena: nodes live in one `Vec` and refer to each other by index, so a warm search
//! allocates nothing per iteration. A node's children are contiguous. Under progressive
//! widening only the best-ordered few are created when the node is expanded, and the block is
//! moved to the arena's end with more when the node's width outgrows it (the old block is left
//! unreachable; `reroot` drops it).

use realm_core::PlayerId;

const NEXT_UNKNOWN: u8 = 254;
const GAME_OVER: u8 = 255;

/// At most 64 bytes, a cache line's size, for actions of up to four bytes: selection reads
/// hundreds of children a step. (Aligning it to the line as well measured no faster in Blokus, and would
/// double the nodes of games whose actions are larger.)
#[derive(Clone, Debug)]
pub(crate) struct Node<A> {
    /// The action that leads here (`None` at the root).
    pub action: Option<A>,
    /// The player who played `action`; its reward sum drives selection at the parent.
    pub mover: u8,
    /// The player to move after `action` (`NEXT_UNKNOWN` until the first visit, `GAME_OVER`
    /// at the end), so that later visits replay the action with `State::apply_knowing_next`.
    next: u8,
    pub visits: u32,
    /// The sum over the visits of the mover's rewards (what selection at the parent and the
    /// reported means use) and of the rewards of the player to move here (what the mean that
    /// scales the children's priors uses): two sums where a sum per player took four.
    pub mover_sum: f32,
    pub turn_sum: f32,
    pub first_child: u32,
    /// The children created so far (a prefix of the knowledge's order, see the module
    /// comment) and the legal actions there are in all, what the widening counts.
    pub n_children: u32,
    pub n_legal: u32,
    /// The first `width` children are the ones selection considers (progressive widening,
    /// `WidthTable`); all of them without widening. It may exceed `n_children` until the
    /// next visit creates more.
    pub width: u32,
    pub expanded: bool,
    /// With a prior from the knowledge, the node has `MctsParams::prior_visits` virtual
    /// visits with reward sum `prior_sum`; they steer selection only, never the reported
    /// statistics. (The count is the search's, not kept here, to keep a node small.)
    pub has_prior: bool,
    pub prior_sum: f32,
    /// The knowledge's prior of this action (1 without one), for the PUCT exploration term.
    pub prior: f32,
    /// All-moves-as-first statistics (RAVE): visits in which the mover played this node's
    /// action anywhere after its parent, and the mover's reward sum over them.
    pub amaf_visits: f32,
    pub amaf_sum: f32,
    /// What selection reads, kept by `refresh` whenever the visits or the prior change, so
    /// that scoring a child is a multiply-add rather than two divisions and a square root
    /// (hundreds of children a selection in a grown tree): the mover's mean with the prior's
    /// virtual visits (infinite while the node has neither visits nor prior, so that
    /// selection takes it first) and `1 / √n` over those visits.
    pub mean: f32,
    pub inv_sqrt_n: f32,
}

impl<A> Node<A> {
    pub fn new(action: Option<A>, mover: u8) -> Self {
        Node {
            action,
            mover,
            next: NEXT_UNKNOWN,
            visits: 0,
            mover_sum: 0.0,
            turn_sum: 0.0,
            first_child: 0,
            n_children: 0,
            n_legal: 0,
            width: 0,
            expanded: false,
            has_prior: false,
            prior_sum: 0.0,
            prior: 1.0,
            amaf_visits: 0.0,
            amaf_sum: 0.0,
            mean: f32::INFINITY,
            inv_sqrt_n: 0.0,
        }
    }

    /// What `State::to_move` said after `action` (`None` inside: the game was over), or
    /// `None` before the first visit.
    pub fn next(&self) -> Option<Option<PlayerId>> {
        match self.next {
            NEXT_UNKNOWN => None,
            GAME_OVER => Some(None),
            p => Some(Some(p as PlayerId)),
        }
    }

    pub fn set_next(&mut self, next: Option<PlayerId>) {
        self.next = next.map_or(GAME_OVER, |p| {
            u8::try_from(p)
                .ok()
                .filter(|&p| p < NEXT_UNKNOWN)
                .expect("fewer than 254 players")
        });
    }

    /// Virtual visits included (`prior_visits` of them with a prior): what UCB's mean and
    /// exploration divide by.
    pub fn selection_visits(&self, prior_visits: f32) -> f32 {
        if self.has_prior {
            self.visits as f32 + prior_visits
        } else {
            self.visits as f32
        }
    }

    /// Recomputes `mean` and `inv_sqrt_n` after a change of the visits, the prior or (with
    /// `merged_rave`, `MctsParams::rave_weight`) the weighted AMAF statistics, which then
    /// count as visits.
    pub fn refresh(&mut self, prior_visits: f32, merged_rave: bool) {
        let (mut n, mut sum) = (
            self.selection_visits(prior_visits),
            self.mover_sum + self.prior_sum,
        );
        if merged_rave {
            n += self.amaf_visits;
            sum += self.amaf_sum;
        }
        if n == 0.0 {
            self.mean = f32::INFINITY;
            self.inv_sqrt_n = 0.0;
        } else {
            self.mean = sum / n;
            self.inv_sqrt_n = 1.0 / n.sqrt();
        }
    }

    /// The children selection considers.
    pub fn searched_children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.width.min(self.n_children) as usize
    }

    /// True when the width reaches past the children created so far.
    pub fn needs_children(&self) -> bool {
        self.width > self.n_children
    }

    pub fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + self.n_children as usize
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Tree<A> {
    pub nodes: Vec<Node<A>>,
}

impl<A: Clone + PartialEq> Tree<A> {
    pub fn new() -> Self {
        Tree { nodes: Vec::new() }
    }

    /// Empties the arena (keeping its memory) and puts a fresh root in it.
    pub fn reset(&mut self) {
        self.nodes.clear();
        self.nodes.push(Node::new(None, 0));
    }

    /// The node reached from the root by `actions`, if the tree has it.
    pub fn find(&self, actions: &[A]) -> Option<usize> {
        let mut node = 0;
        for action in actions {
            let children = self.nodes.get(node)?.children();
            node = children
                .into_iter()
                .find(|&c| self.nodes[c].action.as_ref() == Some(action))?;
        }
        Some(node)
    }

    /// Makes the subtree under `new_root` the whole tree (breadth first, so children stay
    /// contiguous), dropping everything else.
    pub fn reroot(&mut self, new_root: usize) {
        if new_root == 0 {
            return;
        }
        let old = std::mem::take(&mut self.nodes);
        let mut root = old[new_root].clone();
        root.action = None;
        self.nodes.push(root);
        let mut next = 0;
        while next < self.nodes.len() {
            let range = self.nodes[next].children();
            if !range.is_empty() {
                self.nodes[next].first_child = self.nodes.len() as u32;
                for c in range {
                    self.nodes.push(old[c].clone());
                }
            }
            next += 1;
        }
    }
}
