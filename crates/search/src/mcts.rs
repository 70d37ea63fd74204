//! UCT Monte-Carlo tree search with max-n rewards.
//!
//! One iteration: from the root, select children by UCB1 on the mean reward of the player who
//! moves there (unvisited children first, in the knowledge's order, among the first
//! `widening` children; a child with prior virtual visits counts them into its mean and its
//! exploration term), expand a node's children once it has `expand_visits` visits, play out
//! from the first new node, and add the playout's rewards for every player along the path.
//! Options: RAVE blends each child's mean with its all-moves-as-first mean (`rave_equiv`),
//! and PUCT explores by the knowledge's prior instead of UCB1 (`puct`).

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, State};

use crate::amaf::FirstPlays;
use crate::budget::{Budget, Pacer};
use crate::knowledge::{playout, Knowledge};
use crate::reward::{Rewards, MAX_PLAYERS};
use crate::tree::{Node, Tree};
pub use crate::widening::Widening;
use crate::widening::WidthTable;

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
    /// With `d` > 0, a node `k·d` plies below the root needs `k` visits more than
    /// `expand_visits` (0: the same everywhere). Deep nodes are visited less and decide less:
    /// listing their children later saves most listings (Pentobi's threshold grows half a
    /// visit a ply).
    pub expand_deeper: u32,
    /// RAVE: a child's mean blends with its all-moves-as-first mean (the mover's reward
    /// whenever it played the same action later in the iteration), weighted
    /// `ñ / (n + ñ + n·ñ / rave_equiv)` for `n` visits and `ñ` AMAF visits, so the shared
    /// statistics guide young children and fade as real visits come in (0: off; only for
    /// knowledge that gives `rave_key`s).
    pub rave_equiv: f32,
    /// PUCT exploration instead of UCB1's when positive (Pentobi's form of AlphaGo's term):
    /// `puct · prior · √N · ln(N + 1) / n` for a child of prior `prior` with `n` visits
    /// (virtual ones included) under a parent with `N`.
    pub puct: f32,
    /// Pentobi's RAVE instead of the blend when positive: each AMAF hit adds the mover's
    /// reward to the child's own statistics with this weight, scaled down with how much later
    /// the action was played (`1 − (f − d) / (L − d)` for a child at depth `d`, first played
    /// at ply `f` of an iteration of `L` actions), so that the hits count as (fractional)
    /// visits in the mean and in the exploration term. Nodes of more than `RAVE_PARENT_MAX`
    /// visits and children of more than `RAVE_CHILD_MAX` (visits, virtual and AMAF) get none.
    pub rave_weight: f32,
}

/// Visits past which a node's children get no more merged AMAF hits (Pentobi's Duo setting).
const RAVE_PARENT_MAX: u32 = 25_000;
/// Selection visits past which a child gets no more merged AMAF hits (Pentobi's).
const RAVE_CHILD_MAX: f32 = 2_000.0;

impl Default for MctsParams {
    fn default() -> Self {
        MctsParams {
            exploration: 0.7,
            playout_depth: None,
            widening: None,
            determinizations: 1,
            prior_visits: 0.0,
            expand_visits: 1,
            expand_deeper: 0,
            rave_equiv: 0.0,
            puct: 0.0,
            rave_weight: 0.0,
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
    /// The iteration's actions with their players (tree part, then playout), for RAVE.
    played: Vec<(u8, S::Action)>,
    /// RAVE's record of the plies the iteration's actions were played at, by `rave_key *
    /// MAX_PLAYERS + player`.
    first_plays: FirstPlays,
    widths: WidthTable,
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
            played: Vec::new(),
            first_plays: FirstPlays::default(),
            widths: WidthTable::default(),
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
        self.sync_widths();
        let mut pacer = Pacer::new(budget);
        let mut iterations = 0;
        while !pacer.exhausted(iterations) {
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

    /// Drops the kept tree, so that the next `search` starts afresh: for when the player
    /// moved without searching (a book move), which leaves the tree's root behind.
    pub fn forget(&mut self) {
        self.searched = false;
        self.reusable = false;
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
        self.sync_widths();
        let mut pacer = Pacer::new(budget);
        let mut iterations = 0;
        while !pacer.exhausted(iterations) {
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

    /// After a change of `params.widening`, describes the new widening and gives the kept
    /// tree's nodes their new widths.
    fn sync_widths(&mut self) {
        if self.widths.widening() == self.params.widening {
            return;
        }
        let most = self
            .trees
            .iter()
            .flat_map(|t| &t.nodes)
            .map(|n| n.n_legal as usize)
            .max()
            .unwrap_or(0);
        self.widths = WidthTable::default();
        self.widths.prepare(self.params.widening, most);
        for tree in &mut self.trees {
            for node in tree.nodes.iter_mut().filter(|n| n.expanded) {
                node.width = self.widths.width(node.n_legal as usize, node.visits) as u32;
            }
        }
    }

    /// The visits a node `depth` plies below the root needs before its children are listed.
    fn expand_threshold(&self, depth: usize) -> u32 {
        let deeper = match self.params.expand_deeper {
            0 => 0,
            d => depth as u32 / d,
        };
        self.params.expand_visits + deeper
    }

    fn rave_on(&self) -> bool {
        (self.params.rave_equiv > 0.0 || self.merged_rave()) && self.knowledge.rave_keys() > 0
    }

    /// True when AMAF hits go into the children's own statistics (`rave_weight`).
    fn merged_rave(&self) -> bool {
        self.params.rave_weight > 0.0
    }

    fn iterate(&mut self, t: usize, root: &S) {
        let rave = self.rave_on();
        let merged = self.merged_rave();
        let mut state = root.clone();
        self.path.clear();
        self.path.push(0);
        self.played.clear();
        let mut node = 0usize;
        let mut leaf_new = false;
        while let Some(player) = state.to_move() {
            if leaf_new {
                break;
            }
            let here = &self.trees[t].nodes[node];
            if !here.expanded {
                if node != 0 && here.visits < self.expand_threshold(self.path.len() - 1) {
                    break;
                }
                self.expand(t, node, &state, player);
            } else if here.needs_children() {
                self.add_children(t, node, &state, player);
            }
            let Some(child) = self.select(t, node) else {
                break;
            };
            let tree = &self.trees[t];
            let here = &tree.nodes[child];
            let action = here.action.as_ref().expect("children carry their action");
            if rave {
                self.played.push((player as u8, action.clone()));
            }
            leaf_new = here.visits == 0;
            match here.next() {
                Some(next) => state.apply_knowing_next(action, next),
                None => {
                    state.apply(action);
                    let next = state.to_move();
                    self.trees[t].nodes[child].set_next(next);
                }
            }
            node = child;
            self.path.push(child as u32);
        }
        // The player to move where the tree part stopped: the last path node's turn.
        let leaf_turn = state.to_move();
        let rewards: Rewards = if leaf_turn.is_none() {
            self.knowledge.terminal_rewards(&state)
        } else {
            playout(
                &mut state,
                &mut self.knowledge,
                &mut self.rng,
                &mut self.buf,
                self.params.playout_depth,
                rave.then_some(&mut self.played),
            )
        };
        if rave {
            self.update_amaf(t, &rewards);
        }
        let nodes = &mut self.trees[t].nodes;
        for (d, &i) in self.path.iter().enumerate() {
            // The player to move at path node d is the mover of node d + 1.
            let turn = match self.path.get(d + 1) {
                Some(&below) => Some(nodes[below as usize].mover as usize),
                None => leaf_turn,
            };
            let n = &mut nodes[i as usize];
            n.visits += 1;
            n.mover_sum += rewards[n.mover as usize];
            if let Some(turn) = turn {
                n.turn_sum += rewards[turn];
            }
            n.refresh(self.params.prior_visits, merged);
            if n.expanded {
                n.width = self
                    .widths
                    .grown(n.width as usize, n.n_legal as usize, n.visits)
                    as u32;
            }
        }
    }

    /// RAVE's update. Walking the path up from the leaf, each node's children that selection
    /// considers or soon will (twice the searched width) get the iteration's reward for their
    /// mover when the mover played the child's action later in the iteration: as AMAF
    /// statistics blended at selection (`rave_equiv`, the child's own action on the path
    /// included), or merged into the child's own statistics with a weight that falls with how
    /// much later it was played (`rave_weight`, Pentobi's, only for actions played below the
    /// child's depth).
    fn update_amaf(&mut self, t: usize, rewards: &Rewards) {
        let merged = self.merged_rave();
        let key = |k: &K, player: u8, action: &S::Action| {
            k.rave_key(action) * MAX_PLAYERS + player as usize
        };
        let (depth, length) = (self.path.len(), self.played.len());
        self.first_plays
            .start(self.knowledge.rave_keys() * MAX_PLAYERS);
        // `played[d]` leaves the path's node d; the playout's later actions follow them all
        // (none when the tree's path reached the end of the game).
        for ply in (depth..length).rev() {
            let (player, action) = &self.played[ply];
            self.first_plays
                .insert(key(&self.knowledge, *player, action), ply);
        }
        let (weight, prior_visits) = (self.params.rave_weight, self.params.prior_visits);
        for d in (0..depth).rev() {
            let leaving = self
                .played
                .get(d)
                .map(|(player, action)| key(&self.knowledge, *player, action));
            if let (Some(k), false) = (leaving, merged) {
                self.first_plays.insert(k, d);
            }
            let node = &self.trees[t].nodes[self.path[d] as usize];
            if !(merged && node.visits > RAVE_PARENT_MAX) {
                let mut range = node.children();
                range.end = range.end.min(range.start + 2 * node.width as usize);
                let span = (length - d) as f32;
                for c in range {
                    let child = &self.trees[t].nodes[c];
                    let action = child.action.as_ref().expect("children carry their action");
                    let Some(first) =
                        self.first_plays
                            .get(key(&self.knowledge, child.mover, action))
                    else {
                        continue;
                    };
                    let mover = child.mover as usize;
                    if merged {
                        if child.selection_visits(prior_visits) + child.amaf_visits > RAVE_CHILD_MAX
                        {
                            continue;
                        }
                        let w = weight * (1.0 - (first - d) as f32 / span);
                        let child = &mut self.trees[t].nodes[c];
                        child.amaf_visits += w;
                        child.amaf_sum += w * rewards[mover];
                        child.refresh(prior_visits, true);
                    } else {
                        let child = &mut self.trees[t].nodes[c];
                        child.amaf_visits += 1.0;
                        child.amaf_sum += rewards[mover];
                    }
                }
            }
            if let (Some(k), true) = (leaving, merged) {
                self.first_plays.insert(k, d);
            }
        }
    }

    /// Lists the node's actions, orders them and creates the first children: under widening
    /// twice the node's width (at least `MIN_CHILDREN`), the rest when the width needs them
    /// (`add_children`); listing hundreds of Blokus placements as nodes that are never
    /// visited cost their sorting, their memory and its page faults.
    fn expand(&mut self, t: usize, node: usize, state: &S, player: usize) {
        self.list_shuffled(state);
        let visits = self.trees[t].nodes[node].visits;
        let wanted = match self.params.widening {
            Some(w) => children_for(w.limit(visits)),
            None => usize::MAX,
        };
        self.knowledge.order_prefix(state, &mut self.buf, wanted);
        let n_legal = self.buf.len();
        self.buf.truncate(wanted);
        self.list_priors(state);
        self.widths.prepare(self.params.widening, n_legal);
        let first = self.trees[t].nodes.len() as u32;
        let made = self.push_children(t, node, player, wanted);
        let width = self.widths.width(n_legal, visits) as u32;
        let n = &mut self.trees[t].nodes[node];
        n.first_child = first;
        n.n_children = made;
        n.n_legal = n_legal as u32;
        n.width = width;
        n.expanded = true;
    }

    /// Creates more children for a node whose width outgrew them: the next actions in the
    /// knowledge's order that are not children yet, up to twice the width. The block moves
    /// to the arena's end (copies; the children's own subtrees stay where they are).
    fn add_children(&mut self, t: usize, node: usize, state: &S, player: usize) {
        self.list_shuffled(state);
        self.knowledge.order(state, &mut self.buf);
        self.list_priors(state);
        let old = self.trees[t].nodes[node].children();
        let nodes = &self.trees[t].nodes;
        let mut kept = 0;
        for i in 0..self.buf.len() {
            let action = &self.buf[i];
            if nodes[old.clone()]
                .iter()
                .any(|c| c.action.as_ref() == Some(action))
            {
                continue;
            }
            self.buf.swap(kept, i);
            if i < self.priors.len() {
                self.priors.swap(kept, i);
            }
            kept += 1;
        }
        self.buf.truncate(kept);
        self.priors.truncate(kept);
        let n_legal = old.len() + kept;
        let width = self.trees[t].nodes[node].width as usize;
        let wanted = children_for(width).min(n_legal) - old.len();
        let nodes = &mut self.trees[t].nodes;
        let first = nodes.len() as u32;
        for c in old.clone() {
            let moved = nodes[c].clone();
            nodes.push(moved);
        }
        let made = old.len() as u32 + self.push_children(t, node, player, wanted);
        self.widths.prepare(self.params.widening, n_legal);
        let n = &mut self.trees[t].nodes[node];
        n.first_child = first;
        n.n_children = made;
        n.n_legal = n_legal as u32;
        n.width = n.width.min(n_legal as u32);
    }

    /// The knowledge's priors of `buf`'s actions into `priors` when the search uses them
    /// (virtual visits or PUCT), otherwise nothing.
    fn list_priors(&mut self, state: &S) {
        self.priors.clear();
        if self.params.prior_visits > 0.0 || self.params.puct > 0.0 {
            self.knowledge.priors(state, &self.buf, &mut self.priors);
        }
    }

    /// The node's legal actions into `buf`, shuffled so that the knowledge's stable order
    /// breaks ties at random.
    fn list_shuffled(&mut self, state: &S) {
        state.legal_actions(&mut self.buf);
        for i in (1..self.buf.len()).rev() {
            let j = (self.rng.next_u64() % (i as u64 + 1)) as usize;
            self.buf.swap(i, j);
        }
    }

    /// Pushes children for the first `k` actions of `buf` (with their `priors`, if any) at
    /// the arena's end and empties `buf`; returns how many.
    fn push_children(&mut self, t: usize, node: usize, player: usize, k: usize) -> u32 {
        let nodes = &mut self.trees[t].nodes;
        // The mean reward of the player to move here, what a child's prior scales.
        let parent = &nodes[node];
        let base = if parent.visits == 0 {
            0.5
        } else {
            parent.turn_sum / parent.visits as f32
        };
        let virtual_visits = self.params.prior_visits;
        let k = k.min(self.buf.len());
        for (i, action) in self.buf.drain(..k).enumerate() {
            let mut child = Node::new(Some(action), player as u8);
            if let Some(&prior) = self.priors.get(i) {
                child.has_prior = true;
                child.prior_sum = virtual_visits * base * prior;
                child.prior = prior;
                child.refresh(virtual_visits, false);
            }
            nodes.push(child);
        }
        // What was not made a child is no scratch for the playout that follows.
        self.buf.clear();
        k as u32
    }

    fn select(&self, t: usize, node: usize) -> Option<usize> {
        let nodes = &self.trees[t].nodes;
        let parent = &nodes[node];
        let range = parent.searched_children();
        if range.is_empty() {
            return None;
        }
        let ucb_factor = self.params.exploration * sqrt_ln(parent.visits.max(1));
        let puct = self.params.puct;
        // The blend only for the blended form: the merged one is in the mean already.
        let blend = self.rave_on() && !self.merged_rave();
        if puct <= 0.0 && !blend {
            return Some(range.start + best_ucb1(&nodes[range], ucb_factor));
        }
        let rave_equiv = self.params.rave_equiv;
        let puct_factor = if puct > 0.0 {
            let parent_n = parent.visits.max(1) as f32;
            puct * parent_n.sqrt() * (parent_n + 1.0).ln()
        } else {
            // (Not computed unless used: a logarithm a selection was a tenth of a late
            // Blokus iteration.)
            0.0
        };
        let mut best = range.start;
        let mut best_value = f32::NEG_INFINITY;
        for i in range {
            let child = &nodes[i];
            if child.mean == f32::INFINITY {
                return Some(i);
            }
            let mut mean = child.mean;
            let amaf_n = child.amaf_visits;
            if blend && amaf_n > 0.0 {
                let n = child.selection_visits(self.params.prior_visits);
                let beta = amaf_n / (amaf_n + n + n * amaf_n / rave_equiv);
                mean += beta * (child.amaf_sum / amaf_n - mean);
            }
            let explore = if puct > 0.0 {
                puct_factor * child.prior * child.inv_sqrt_n * child.inv_sqrt_n
            } else {
                ucb_factor * child.inv_sqrt_n
            };
            let value = mean + explore;
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        Some(best)
    }
}

/// Plain UCB1 (neither RAVE nor PUCT) over `children`: the first without visits or prior,
/// else the first of the highest `mean + factor / √n`. Four running maxima over interleaved
/// children, merged at the end by value and then position (what one pass chooses): with one,
/// each comparison waited on the one before, and scanning the children of a Blokus node after
/// 14 placements was a sixth of an iteration.
fn best_ucb1<A>(children: &[Node<A>], factor: f32) -> usize {
    const LANES: usize = 4;
    let mut best = [0usize; LANES];
    let mut best_value = [f32::NEG_INFINITY; LANES];
    let mut offer = |i: usize, child: &Node<A>| {
        let value = child.mean + factor * child.inv_sqrt_n;
        let lane = i % LANES;
        if value > best_value[lane] {
            best_value[lane] = value;
            best[lane] = i;
        }
    };
    let chunks = children.chunks_exact(LANES);
    let rest = chunks.remainder();
    for (c, chunk) in chunks.enumerate() {
        if let Some(k) = chunk.iter().position(|n| n.mean == f32::INFINITY) {
            return c * LANES + k;
        }
        for (k, child) in chunk.iter().enumerate() {
            offer(c * LANES + k, child);
        }
    }
    let done = children.len() - rest.len();
    for (k, child) in rest.iter().enumerate() {
        if child.mean == f32::INFINITY {
            return done + k;
        }
        offer(done + k, child);
    }
    let mut pick = 0;
    for lane in 1..LANES {
        let (v, p) = (best_value[lane], best_value[pick]);
        if v > p || (v == p && best[lane] < best[pick]) {
            pick = lane;
        }
    }
    best[pick]
}

/// `√ln n` for UCB1's exploration, with the logarithm read from a table: a logarithm in every
/// selection was a seventh of a late Blokus iteration. Below `EXACT` visits the table holds
/// the very values `ln` gives; above, `ln` of the count's top 12 bits plus the shift's
/// `s · ln 2`, within 5·10⁻⁴ of the logarithm (the dropped bits are under 1/2048 of the count).
fn sqrt_ln(n: u32) -> f32 {
    const EXACT: u32 = 4096;
    static LN: std::sync::OnceLock<Vec<f32>> = std::sync::OnceLock::new();
    let ln = LN.get_or_init(|| (0..EXACT).map(|n| (n as f32).ln()).collect());
    if n < EXACT {
        return ln[n as usize].sqrt();
    }
    let shift = 32 - n.leading_zeros() - 12;
    (ln[(n >> shift) as usize] + shift as f32 * std::f32::consts::LN_2).sqrt()
}

/// The fewest children a node under widening gets at once.
const MIN_CHILDREN: usize = 8;

/// How many children to create for a node that searches `width`: twice that, so that the
/// block moves seldom as the width grows.
fn children_for(width: usize) -> usize {
    width.saturating_mul(2).max(MIN_CHILDREN)
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
            let reward = node.mover_sum;
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

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use realm_core::{ranks_from_keys, EndReason, Outcome, PlayerId};

    use super::*;

    proptest! {
        /// The four-lane scan picks what one pass in order picks: the first child without
        /// visits, else the first of the highest values (means drawn from few values, so
        /// that ties are common).
        #[test]
        fn ucb1_lanes_choose_as_one_pass_does(
            children in prop::collection::vec((0u8..6, 0u8..4, any::<bool>()), 1..40),
            factor in 0.0f32..2.0,
        ) {
            let nodes: Vec<Node<u8>> = children
                .iter()
                .map(|&(mean, n, unvisited)| {
                    let mut node = Node::new(Some(0), 0);
                    node.mean = if unvisited && mean == 0 { f32::INFINITY } else { mean as f32 / 5.0 };
                    node.inv_sqrt_n = 1.0 / (1.0 + n as f32).sqrt();
                    node
                })
                .collect();
            let one_pass = nodes
                .iter()
                .position(|n| n.mean == f32::INFINITY)
                .unwrap_or_else(|| {
                    let mut best = (0, f32::NEG_INFINITY);
                    for (i, n) in nodes.iter().enumerate() {
                        let value = n.mean + factor * n.inv_sqrt_n;
                        if value > best.1 {
                            best = (i, value);
                        }
                    }
                    best.0
                });
            prop_assert_eq!(best_ucb1(&nodes, factor), one_pass);
        }
    }

    /// Two players pick distinct numbers below `N` in turn until none is left; the larger
    /// sum wins. Every action is played at most once, and who played it matters.
    #[derive(Clone, Debug, Default)]
    struct Pick {
        taken: [Option<u8>; Pick::N],
        turn: usize,
    }

    impl Pick {
        const N: usize = 7;
    }

    impl State for Pick {
        type Action = u8;

        fn n_players(&self) -> usize {
            2
        }

        fn to_move(&self) -> Option<PlayerId> {
            (self.turn < Pick::N).then_some(self.turn % 2)
        }

        fn legal_actions(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend((0..Pick::N as u8).filter(|&a| self.taken[a as usize].is_none()));
        }

        fn apply(&mut self, a: &u8) {
            self.taken[*a as usize] = Some((self.turn % 2) as u8);
            self.turn += 1;
        }

        fn outcome(&self) -> Outcome {
            let mut sums = vec![0i64; 2];
            for (a, by) in self.taken.iter().enumerate() {
                if let Some(p) = by {
                    sums[*p as usize] += a as i64;
                }
            }
            Outcome {
                ranks: ranks_from_keys(&sums),
                scores: sums,
                end: EndReason::Finished,
                detail: String::new(),
                faults: vec![None; 2],
                stats: Vec::new(),
            }
        }
    }

    struct Keyed;

    impl Knowledge<Pick> for Keyed {
        fn rave_keys(&self) -> usize {
            Pick::N
        }

        fn rave_key(&self, a: &u8) -> usize {
            *a as usize
        }
    }

    /// Runs 300 iterations of `params` on `Pick` and checks every node's AMAF statistics
    /// against a brute-force recount: after each iteration, a child of the path's node `d`
    /// gains `weight(played, d, child)` visits and that weight times its mover's reward.
    fn recount_amaf(
        params: MctsParams,
        weight: impl Fn(&[(u8, u8)], usize, &Node<u8>) -> Option<f32>,
    ) -> Mcts<Pick, Keyed> {
        let mut mcts = Mcts::new(params, Keyed, 9);
        let root = Pick::default();
        mcts.ensure_trees(1);
        mcts.trees[0].reset();
        let mut expected: Vec<(f32, f32)> = Vec::new();
        for _ in 0..300 {
            mcts.iterate(0, &root);
            expected.resize(mcts.trees[0].nodes.len(), (0.0, 0.0));
            let mut state = root.clone();
            for (mover, a) in &mcts.played {
                assert_eq!(state.to_move(), Some(*mover as usize));
                state.apply(a);
            }
            let rewards = crate::reward::rank_rewards(&state.outcome().ranks);
            let nodes = &mcts.trees[0].nodes;
            for (d, &n) in mcts.path.iter().enumerate() {
                for c in nodes[n as usize].children() {
                    let child = &nodes[c];
                    if let Some(w) = weight(&mcts.played, d, child) {
                        expected[c].0 += w;
                        expected[c].1 += w * rewards[child.mover as usize];
                    }
                }
            }
        }
        for (i, node) in mcts.trees[0].nodes.iter().enumerate() {
            assert_eq!((node.amaf_visits, node.amaf_sum), expected[i], "node {i}");
        }
        mcts
    }

    /// The first index at or after `from` where `child`'s mover played its action.
    fn played_at(played: &[(u8, u8)], from: usize, child: &Node<u8>) -> Option<usize> {
        (from..played.len()).find(|&f| {
            let (p, a) = &played[f];
            *p == child.mover && Some(a) == child.action.as_ref()
        })
    }

    #[test]
    fn amaf_statistics_count_the_actions_each_mover_played_later_in_the_iteration() {
        let params = MctsParams {
            rave_equiv: 100.0,
            ..MctsParams::default()
        };
        // A child at depth d + 1 is hit when its mover played its action at index d or later.
        let mcts = recount_amaf(params, |played, d, child| {
            played_at(played, d, child).map(|_| 1.0)
        });
        let nodes = &mcts.trees[0].nodes;
        let hits: f32 = nodes.iter().map(|n| n.amaf_visits).sum();
        // The root children's mover, player 0, picks 4 of the 7 numbers every iteration.
        let root_hits: f32 = nodes[0].children().map(|c| nodes[c].amaf_visits).sum();
        assert_eq!(root_hits, 4.0 * 300.0);
        assert!(hits > root_hits);
    }

    #[test]
    fn merged_rave_weighs_each_later_action_by_how_soon_it_followed() {
        let params = MctsParams {
            rave_weight: 0.7,
            ..MctsParams::default()
        };
        // A child of the path's node d is hit when its mover played its action at an index
        // f > d, with weight 0.7 · (1 − (f − d) / (L − d)).
        let mcts = recount_amaf(params, |played, d, child| {
            let f = played_at(played, d + 1, child)?;
            Some(0.7 * (1.0 - (f - d) as f32 / (played.len() - d) as f32))
        });
        // Selection's mean counts the hits as visits.
        let nodes = &mcts.trees[0].nodes;
        let c = nodes[0]
            .children()
            .max_by_key(|&c| nodes[c].visits)
            .unwrap();
        let child = &nodes[c];
        assert!(child.visits > 0 && child.amaf_visits > 0.0);
        let mean = (child.mover_sum + child.amaf_sum) / (child.visits as f32 + child.amaf_visits);
        assert_eq!(child.mean, mean);
    }

    /// With PUCT the merged statistics are not blended in again: a child with AMAF hits and
    /// no visits of its own stays selectable (the blend's `n·ñ/rave_equiv` was 0/0 there).
    #[test]
    fn merged_rave_with_puct_reaches_every_root_child() {
        let params = MctsParams {
            rave_weight: 0.7,
            puct: 0.5,
            ..MctsParams::default()
        };
        let mut mcts = Mcts::new(params, Keyed, 9);
        let root = Pick::default();
        mcts.ensure_trees(1);
        mcts.trees[0].reset();
        for _ in 0..300 {
            mcts.iterate(0, &root);
        }
        let nodes = &mcts.trees[0].nodes;
        for c in nodes[0].children() {
            assert!(nodes[c].visits > 0, "root child {c} never visited");
            assert!(nodes[c].mean.is_finite());
        }
    }

    /// A path that ends the game leaves no playout action to mark: with one number left,
    /// every iteration's leaf is the end, and the one child's AMAF visits are all of them.
    #[test]
    fn amaf_statistics_count_paths_that_end_the_game() {
        let params = MctsParams {
            rave_equiv: 100.0,
            ..MctsParams::default()
        };
        let mut mcts = Mcts::new(params, Keyed, 9);
        let mut root = Pick::default();
        for a in 0..Pick::N as u8 - 1 {
            root.apply(&a);
        }
        let result = mcts.search(&root, Budget::iterations(50)).unwrap();
        assert_eq!(result.best, Pick::N as u8 - 1);
        let tree = &mcts.trees[0];
        let child = tree.nodes[0].children().start;
        assert_eq!(
            (tree.nodes[child].visits, tree.nodes[child].amaf_visits),
            (50, 50.0)
        );
    }

    #[test]
    fn without_rave_no_amaf_statistics_are_kept() {
        let mut mcts = Mcts::new(MctsParams::default(), Keyed, 9);
        mcts.search(&Pick::default(), Budget::iterations(200));
        assert!(mcts.trees[0]
            .nodes
            .iter()
            .all(|n| n.amaf_visits == 0.0 && n.amaf_sum == 0.0));
    }

    /// Every expanded node searches the children its visits allow under the widening of
    /// the search that grew it, also when a kept tree is searched on with another widening.
    #[test]
    fn node_widths_follow_the_widening_also_after_it_changes() {
        let check = |mcts: &Mcts<Pick, Keyed>, w: Widening| {
            let nodes = &mcts.trees[0].nodes;
            let expanded: Vec<_> = nodes.iter().filter(|n| n.expanded).collect();
            assert!(expanded.len() > 20);
            for n in expanded {
                let expected = (n.n_legal as usize).min(w.limit(n.visits));
                assert_eq!(n.width as usize, expected, "{} visits", n.visits);
            }
        };
        let narrow = Widening {
            base: 1.0,
            exponent: 0.5,
        };
        let params = MctsParams {
            widening: Some(narrow),
            ..MctsParams::default()
        };
        let mut mcts = Mcts::new(params, Keyed, 3);
        let result = mcts
            .search(&Pick::default(), Budget::iterations(2_000))
            .unwrap();
        check(&mcts, narrow);
        let wide = Widening {
            base: 3.0,
            exponent: 0.5,
        };
        assert!(mcts.advance(&[result.best]));
        mcts.params.widening = Some(wide);
        let mut after = Pick::default();
        after.apply(&result.best);
        mcts.search(&after, Budget::iterations(500));
        check(&mcts, wide);
    }

    /// Two players take turns naming a number below `Wide::N`, three each; the larger sum
    /// wins. Many actions a node, for widening.
    #[derive(Clone, Debug, Default)]
    struct Wide {
        sums: [i64; 2],
        turn: usize,
    }

    impl Wide {
        const N: u8 = 40;
    }

    impl State for Wide {
        type Action = u8;

        fn n_players(&self) -> usize {
            2
        }

        fn to_move(&self) -> Option<PlayerId> {
            (self.turn < 6).then_some(self.turn % 2)
        }

        fn legal_actions(&self, out: &mut Vec<u8>) {
            out.clear();
            out.extend(0..Wide::N);
        }

        fn apply(&mut self, a: &u8) {
            self.sums[self.turn % 2] += *a as i64;
            self.turn += 1;
        }

        fn outcome(&self) -> Outcome {
            Outcome {
                ranks: ranks_from_keys(&self.sums),
                scores: self.sums.to_vec(),
                end: EndReason::Finished,
                detail: String::new(),
                faults: vec![None; 2],
                stats: Vec::new(),
            }
        }
    }

    /// Larger numbers first, each with prior `(a + 1) / N`.
    struct Descending;

    impl Knowledge<Wide> for Descending {
        fn order(&mut self, _state: &Wide, actions: &mut Vec<u8>) {
            actions.sort_by(|a, b| b.cmp(a));
        }

        fn priors(&mut self, _state: &Wide, actions: &[u8], out: &mut Vec<f32>) {
            out.extend(actions.iter().map(|&a| (a as f32 + 1.0) / Wide::N as f32));
        }
    }

    /// Under widening a node has children for a prefix of the knowledge's order, at least as
    /// many as its width, each with its own prior, also after the width outgrew the first
    /// ones; and a node no visit widened keeps far fewer children than actions.
    #[test]
    fn widened_nodes_create_their_children_in_order_as_the_width_needs_them() {
        let widening = Widening {
            base: 2.0,
            exponent: 0.5,
        };
        let params = MctsParams {
            widening: Some(widening),
            prior_visits: 2.0,
            ..MctsParams::default()
        };
        let mut mcts = Mcts::new(params, Descending, 5);
        let result = mcts
            .search(&Wide::default(), Budget::iterations(3_000))
            .unwrap();
        let nodes = &mcts.trees[0].nodes;
        let (mut checked, mut grown, mut few) = (0, 0, 0);
        let mut stack = vec![0usize];
        while let Some(n) = stack.pop() {
            let node = &nodes[n];
            if !node.expanded {
                continue;
            }
            checked += 1;
            assert_eq!(node.n_legal, Wide::N as u32);
            // The last visit saw the width of one visit fewer (it grows after selection).
            let seen = widening.limit(node.visits - 1).min(Wide::N as usize);
            assert!(
                seen <= node.n_children as usize,
                "{seen} of {}",
                node.n_children
            );
            let actions: Vec<u8> = node.children().map(|c| nodes[c].action.unwrap()).collect();
            let expected: Vec<u8> = (0..Wide::N).rev().take(actions.len()).collect();
            assert_eq!(actions, expected);
            for c in node.children() {
                let prior = (nodes[c].action.unwrap() as f32 + 1.0) / Wide::N as f32;
                assert_eq!(nodes[c].prior, prior);
            }
            let first_children = children_for(widening.limit(2)) as u32;
            grown += (node.n_children > first_children) as u32;
            few += (node.n_children < Wide::N as u32 / 2) as u32;
            stack.extend(node.children());
        }
        assert!(
            checked > 50 && grown > 0 && few > 0,
            "{checked} {grown} {few}"
        );
        assert_eq!(result.stats.iter().map(|s| s.visits).sum::<u32>(), 3_000);
    }

    /// With `expand_deeper`, a node `d` plies below the root lists its children on the visit
    /// after its `expand_visits + d / expand_deeper`-th: every expanded node had that many
    /// visits first, every unexpanded one has at most that many, and some nodes that the
    /// plain threshold would have expanded wait.
    #[test]
    fn deeper_nodes_list_their_children_later() {
        let params = MctsParams {
            widening: Some(Widening {
                base: 2.0,
                exponent: 0.5,
            }),
            expand_visits: 1,
            expand_deeper: 1,
            ..MctsParams::default()
        };
        let mut mcts = Mcts::new(params, Descending, 5);
        mcts.search(&Wide::default(), Budget::iterations(3_000))
            .unwrap();
        let nodes = &mcts.trees[0].nodes;
        let (mut expanded_deep, mut waiting) = (0, 0);
        let mut stack = vec![(0usize, 0u32)];
        while let Some((n, depth)) = stack.pop() {
            let node = &nodes[n];
            let threshold = 1 + depth;
            if depth > 0 && node.next().flatten().is_some() {
                if node.expanded {
                    assert!(node.visits > threshold, "depth {depth}: {}", node.visits);
                    expanded_deep += u32::from(depth >= 2);
                } else {
                    assert!(node.visits <= threshold, "depth {depth}: {}", node.visits);
                    waiting += u32::from(node.visits > 1);
                }
            }
            if node.expanded {
                stack.extend(node.children().map(|c| (c, depth + 1)));
            }
        }
        assert!(
            expanded_deep > 5 && waiting > 5,
            "{expanded_deep} {waiting}"
        );
    }

    #[test]
    fn sqrt_ln_is_exact_for_small_counts_and_close_beyond() {
        for n in 1..4096u32 {
            assert_eq!(sqrt_ln(n), (n as f32).ln().sqrt());
        }
        for n in (4096..u32::MAX - 1_000_003)
            .step_by(1_000_003)
            .chain([u32::MAX])
        {
            let exact = (n as f64).ln().sqrt();
            assert!((sqrt_ln(n) as f64 - exact).abs() < 1e-4 * exact, "{n}");
        }
    }

    #[test]
    fn a_node_with_a_small_action_fits_a_cache_line() {
        assert!(std::mem::size_of::<Node<[u8; 3]>>() <= 64);
    }
}
