//! UCT Monte-Carlo tree search with max-n rewards.
//!
//! One iteration: from the root, select children by UCB1 on the mean reward of the player who
//! moves there (unvisited children first, in the knowledge's order, among the first
//! `widening` children; a child with prior virtual visits counts them into its mean and its
//! exploration term), expand a node's children the first time it is left, play out from
//! the first new node, and add the playout's rewards for every player along the path.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, State};

use crate::budget::Budget;
use crate::knowledge::{playout, Knowledge};
use crate::reward::Rewards;
use crate::tree::{Node, Tree};

/// Progressive widening: a node with `n` visits searches its first
/// `max(1, base * (n + 1)^exponent)` children (in the knowledge's order).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Widening {
    pub base: f32,
    pub exponent: f32,
}

impl Widening {
    fn limit(&self, visits: u32) -> usize {
        ((self.base * ((visits + 1) as f32).powf(self.exponent)) as usize).max(1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsParams {
    /// UCB1's exploration constant for rewards in [0, 1].
    pub exploration: f32,
    /// Playouts stop after this many actions and ask the leaf evaluator (`None`: to the end).
    pub playout_depth: Option<u32>,
    pub widening: Option<Widening>,
    /// Sampled hidden states searched side by side by `search_sampled`.
    pub determinizations: usize,
    /// Virtual visits a new child starts with when the knowledge gives priors: that many
    /// visits at the parent's mean scaled by the child's prior (0: priors unused).
    pub prior_visits: f32,
    /// Visits a node (other than the root) needs before its children are listed: 1 lists
    /// them on its second visit; more saves the listing and ordering where it is costly, at
    /// the price of playouts from shallower leaves.
    pub expand_visits: u32,
}

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams {
            exploration: 0.7,
            playout_depth: None,
            widening: None,
            determinizations: 1,
            prior_visits: 0.0,
            expand_visits: 1,
        }
    }
}

/// A root action's statistics after a search.
#[derive(Clone, Debug, PartialEq)]
pub struct RootStat<A> {
    pub action: A,
    pub visits: u32,
    /// Mean reward of the player to move at the root.
    pub mean: f32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<A> {
    /// The most visited root action (ties: the higher mean, then the earlier listed).
    pub best: A,
    pub iterations: u64,
    /// Every root action searched, most visited first.
    pub stats: Vec<RootStat<A>>,
}

/// A search engine that keeps its node arenas (and, after `advance`, its tree) between
/// searches.
pub struct Mcts<S: State, K: Knowledge<S>> {
    pub params: MctsParams,
    pub knowledge: K,
    rng: ChaCha8Rng,
    trees: Vec<Tree<S::Action>>,
    /// True when `trees[0]` describes the root the next `search` gets (after `advance`).
    reusable: bool,
    /// True when `trees[0]`'s root is the root of the last `search`.
    searched: bool,
    buf: Vec<S::Action>,
    priors: Vec<f32>,
    path: Vec<u32>,
    /// How many trees the last search grew.
    last_trees: usize,
}

impl<S: State, K: Knowledge<S>> Mcts<S, K> {
    pub fn new(params: MctsParams, knowledge: K, seed: u64) -> Self {
        Mcts {
            params,
            knowledge,
            rng: chacha_rng(seed, 0x6d63_7473),
            trees: Vec::new(),
            reusable: false,
            searched: false,
            buf: Vec::new(),
            priors: Vec::new(),
            path: Vec::new(),
            last_trees: 0,
        }
    }

    /// Searches a position of perfect information. When `advance` found the position in the
    /// previous search's tree, that subtree's statistics are kept and extended.
    ///
    /// `None` when the root has no legal action (the game is over).
    pub fn search(&mut self, root: &S, budget: Budget) -> Option<SearchResult<S::Action>> {
        self.ensure_trees(1);
        if !self.reusable {
            self.trees[0].reset();
        }
        let mut iterations = 0;
        while !budget.exhausted(iterations) {
            self.iterate(0, root);
            iterations += 1;
        }
        self.reusable = false;
        self.searched = true;
        self.last_trees = 1;
        result(&[&self.trees[0]], iterations)
    }

    /// Tells the engine which actions were played from the last searched root; the next
    /// `search` (which must get the position they lead to) reuses the subtree if the tree
    /// has it. Returns true when it does.
    pub fn advance(&mut self, actions: &[S::Action]) -> bool {
        self.reusable = false;
        if !self.searched {
            return false;
        }
        self.searched = false;
        match self.trees[0].find(actions) {
            Some(node) => {
                self.trees[0].reroot(node);
                self.reusable = true;
                true
            }
            None => false,
        }
    }

    /// The most visited action after `path` from the root of the last search, over all its
    /// trees (visits summed by action): the search's choice for a later step of the same turn,
    /// such as Carcassonne's man after the placement. `None` when no tree went there.
    pub fn most_visited_after(&self, path: &[S::Action]) -> Option<S::Action> {
        let mut merged: Vec<(S::Action, u32)> = Vec::new();
        for tree in &self.trees[..self.last_trees] {
            let Some(node) = tree.find(path) else {
                continue;
            };
            for c in tree.nodes[node].children() {
                let child = &tree.nodes[c];
                let action = child.action.clone().expect("children carry their action");
                match merged.iter_mut().find(|m| m.0 == action) {
                    Some(m) => m.1 += child.visits,
                    None => merged.push((action, child.visits)),
                }
            }
        }
        let best = merged.iter().map(|m| m.1).max()?;
        merged.into_iter().find(|m| m.1 == best).map(|m| m.0)
    }

    /// Visits of the current tree's root (what a reused tree starts with).
    pub fn root_visits(&self) -> u32 {
        self.trees
            .first()
            .and_then(|t| t.nodes.first())
            .map_or(0, |n| n.visits)
    }

    /// Determinized search for games with hidden information: `params.determinizations`
    /// states are drawn with `sample` (each a full state consistent with what the searching
    /// player has seen), each gets its own tree, iterations go round-robin, and the root
    /// statistics are merged by action. The root's actions must be the same in every sample
    /// (they are what the player can see it may do).
    pub fn search_sampled(
        &mut self,
        sample: &mut dyn FnMut(&mut ChaCha8Rng) -> S,
        budget: Budget,
    ) -> Option<SearchResult<S::Action>> {
        let k = self.params.determinizations.max(1);
        self.ensure_trees(k);
        let roots: Vec<S> = (0..k).map(|_| sample(&mut self.rng)).collect();
        for tree in &mut self.trees[..k] {
            tree.reset();
        }
        let mut iterations = 0;
        while !budget.exhausted(iterations) {
            let t = (iterations % k as u64) as usize;
            self.iterate(t, &roots[t]);
            iterations += 1;
        }
        self.reusable = false;
        self.searched = false;
        self.last_trees = k;
        let trees: Vec<&Tree<S::Action>> = self.trees[..k].iter().collect();
        result(&trees, iterations)
    }

    fn ensure_trees(&mut self, k: usize) {
        while self.trees.len() < k {
            let mut tree = Tree::new();
            tree.reset();
            self.trees.push(tree);
        }
    }

    fn iterate(&mut self, t: usize, root: &S) {
        let mut state = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        let mut leaf_new = false;
        while let Some(player) = state.to_move() {
            if leaf_new {
                break;
            }
            let here = &self.trees[t].nodes[node];
            if !here.expanded {
                if node != 0 && here.visits < self.params.expand_visits {
                    break;
                }
                self.expand(t, node, &state, player);
            }
            let Some(child) = self.select(t, node) else {
                break;
            };
            let tree = &self.trees[t];
            let action = tree.nodes[child]
                .action
                .as_ref()
                .expect("children carry their action");
            state.apply(action);
            leaf_new = tree.nodes[child].visits == 0;
            node = child;
            self.path.push(child as u32);
        }
        let rewards: Rewards = if state.to_move().is_none() {
            self.knowledge.terminal_rewards(&state)
        } else {
            playout(
                &mut state,
                &mut self.knowledge,
                &mut self.rng,
                &mut self.buf,
                self.params.playout_depth,
            )
        };
        let nodes = &mut self.trees[t].nodes;
        for &i in &self.path {
            let n = &mut nodes[i as usize];
            n.visits += 1;
            for (sum, r) in n.rewards.iter_mut().zip(rewards) {
                *sum += r;
            }
        }
    }

    fn expand(&mut self, t: usize, node: usize, state: &S, player: usize) {
        state.legal_actions(&mut self.buf);
        // Shuffle so that the knowledge's stable order breaks ties at random.
        for i in (1..self.buf.len()).rev() {
            let j = (self.rng.next_u64() % (i as u64 + 1)) as usize;
            self.buf.swap(i, j);
        }
        self.knowledge.order(state, &mut self.buf);
        self.priors.clear();
        if self.params.prior_visits > 0.0 {
            self.knowledge.priors(state, &self.buf, &mut self.priors);
        }
        let nodes = &mut self.trees[t].nodes;
        // The mean reward of the player to move here, what a child's prior scales.
        let parent = &nodes[node];
        let base = if parent.visits == 0 {
            0.5
        } else {
            parent.rewards[player] / parent.visits as f32
        };
        let virtual_visits = self.params.prior_visits;
        let first = nodes.len() as u32;
        for (i, action) in self.buf.drain(..).enumerate() {
            let mut child = Node::new(Some(action), player as u8);
            if let Some(&prior) = self.priors.get(i) {
                child.prior_visits = virtual_visits;
                child.prior_sum = virtual_visits * base * prior;
            }
            nodes.push(child);
        }
        let n_children = nodes.len() as u32 - first;
        let n = &mut nodes[node];
        n.first_child = first;
        n.n_children = n_children;
        n.expanded = true;
    }

    fn select(&self, t: usize, node: usize) -> Option<usize> {
        let nodes = &self.trees[t].nodes;
        let parent = &nodes[node];
        let mut range = parent.children();
        if range.is_empty() {
            return None;
        }
        if let Some(w) = self.params.widening {
            range.end = range.end.min(range.start + w.limit(parent.visits));
        }
        let log_n = (parent.visits.max(1) as f32).ln();
        let c = self.params.exploration;
        let mut best = range.start;
        let mut best_value = f32::NEG_INFINITY;
        for i in range {
            let child = &nodes[i];
            if child.visits == 0 && child.prior_visits == 0.0 {
                return Some(i);
            }
            let n = child.visits as f32 + child.prior_visits;
            let mean = (child.rewards[child.mover as usize] + child.prior_sum) / n;
            let value = mean + c * (log_n / n).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        Some(best)
    }
}

/// Merges the root children of `trees` by action (`None` when the root has none).
pub(crate) fn result<A: Clone + PartialEq>(
    trees: &[&Tree<A>],
    iterations: u64,
) -> Option<SearchResult<A>> {
    let mut merged: Vec<(A, u32, f32)> = Vec::new();
    for tree in trees {
        for c in tree.nodes[0].children() {
            let node = &tree.nodes[c];
            let action = node.action.clone().expect("children carry their action");
            let reward = node.rewards[node.mover as usize];
            match merged.iter_mut().find(|m| m.0 == action) {
                Some(m) => {
                    m.1 += node.visits;
                    m.2 += reward;
                }
                None => merged.push((action, node.visits, reward)),
            }
        }
    }
    let mut stats: Vec<RootStat<A>> = merged
        .into_iter()
        .map(|(action, visits, sum)| RootStat {
            action,
            visits,
            mean: if visits == 0 {
                0.0
            } else {
                sum / visits as f32
            },
        })
        .collect();
    // Stable: equal visits and means keep the listed order.
    stats.sort_by(|a, b| {
        b.visits.cmp(&a.visits).then(
            b.mean
                .partial_cmp(&a.mean)
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
    Some(SearchResult {
        best: stats.first()?.action.clone(),
        iterations,
        stats,
    })
}
