//! The node arena: nodes live in one `Vec` and refer to each other by index, so a warm search
//! allocates nothing per iteration. A node's children are contiguous, created together when
//! the node is first expanded.

use crate::reward::Rewards;

#[derive(Clone, Debug)]
pub(crate) struct Node<A> {
    /// The action that leads here (`None` at the root).
    pub action: Option<A>,
    /// The player who played `action`; its reward sum drives selection at the parent.
    pub mover: u8,
    pub visits: u32,
    /// Reward sums of every player over the visits.
    pub rewards: Rewards,
    pub first_child: u32,
    pub n_children: u32,
    pub expanded: bool,
    /// Virtual visits and reward sum from the knowledge's prior (zero without one); they
    /// steer selection only, never the reported statistics.
    pub prior_visits: f32,
    pub prior_sum: f32,
    /// The knowledge's prior of this action (1 without one), for the PUCT exploration term.
    pub prior: f32,
    /// All-moves-as-first statistics (RAVE): visits in which the mover played this node's
    /// action anywhere after its parent, and the mover's reward sum over them.
    pub amaf_visits: f32,
    pub amaf_sum: f32,
}

impl<A> Node<A> {
    pub fn new(action: Option<A>, mover: u8) -> Self {
        Node {
            action,
            mover,
            visits: 0,
            rewards: [0.0; crate::reward::MAX_PLAYERS],
            first_child: 0,
            n_children: 0,
            expanded: false,
            prior_visits: 0.0,
            prior_sum: 0.0,
            prior: 1.0,
            amaf_visits: 0.0,
            amaf_sum: 0.0,
        }
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
