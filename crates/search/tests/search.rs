//! The search on small games whose best moves are known by hand: a subtraction game (take 1–3
//! stones, taking the last stone wins: leave a multiple of 4), its three-player form, and a
//! hidden-card game for the determinized search.

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use realm_core::{chacha_rng, ranks_from_keys, EndReason, Outcome, PlayerId, State};
use realm_search::{
    flat_monte_carlo, Budget, Knowledge, Mcts, MctsParams, Rewards, Uniform, Widening,
};

/// Take 1..=3 stones in turn; whoever takes the last stone wins.
#[derive(Clone, Debug)]
struct Subtraction {
    stones: u32,
    n_players: usize,
    to_move: usize,
    winner: Option<usize>,
}

impl Subtraction {
    fn new(stones: u32, n_players: usize) -> Self {
        Subtraction {
            stones,
            n_players,
            to_move: 0,
            winner: None,
        }
    }
}

impl State for Subtraction {
    type Action = u32;

    fn n_players(&self) -> usize {
        self.n_players
    }

    fn to_move(&self) -> Option<PlayerId> {
        self.winner.is_none().then_some(self.to_move)
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        out.clear();
        if self.winner.is_none() {
            out.extend((1..=3).filter(|&t| t <= self.stones));
        }
    }

    fn apply(&mut self, take: &u32) {
        self.stones -= take;
        if self.stones == 0 {
            self.winner = Some(self.to_move);
        }
        self.to_move = (self.to_move + 1) % self.n_players;
    }

    fn outcome(&self) -> Outcome {
        let keys: Vec<i64> = (0..self.n_players)
            .map(|p| i64::from(self.winner == Some(p)))
            .collect();
        Outcome {
            scores: keys.clone(),
            ranks: ranks_from_keys(&keys),
            end: EndReason::Finished,
            detail: String::new(),
            faults: vec![None; self.n_players],
            stats: Vec::new(),
        }
    }
}

fn best(stones: u32, n_players: usize, seed: u64, iterations: u64) -> u32 {
    let mut mcts = Mcts::new(MctsParams::default(), Uniform, seed);
    mcts.search(
        &Subtraction::new(stones, n_players),
        Budget::iterations(iterations),
    )
    .expect("a legal move")
    .best
}

#[test]
fn uct_leaves_a_multiple_of_four() {
    for (stones, take) in [(5, 1), (6, 2), (7, 3), (10, 2), (13, 1), (15, 3)] {
        for seed in 0..3 {
            assert_eq!(
                best(stones, 2, seed, 4_000),
                take,
                "{stones} stones, seed {seed}"
            );
        }
    }
}

#[test]
fn the_same_seed_and_budget_give_the_same_search() {
    let run = |seed| {
        let mut mcts = Mcts::new(MctsParams::default(), Uniform, seed);
        mcts.search(&Subtraction::new(21, 2), Budget::iterations(500))
            .unwrap()
    };
    assert_eq!(run(9), run(9));
    assert_eq!(run(9).iterations, 500);
    let visits: u32 = run(9).stats.iter().map(|s| s.visits).sum();
    assert_eq!(visits, 500);
}

#[test]
fn three_players_each_maximise_their_own_reward() {
    // With 3 players and 1..=3 takes, the player to move at 1..=3 stones wins at once.
    for stones in 1..=3 {
        assert_eq!(best(stones, 3, 1, 500), stones);
    }
    // Deeper in the tree each node is judged by its own mover's reward: player 1, left
    // with 3 stones, takes them all.
    let mut state = Subtraction::new(4, 3);
    state.apply(&1);
    assert_eq!(state.to_move(), Some(1));
    let mut mcts = Mcts::new(MctsParams::default(), Uniform, 3);
    assert_eq!(
        mcts.search(&state, Budget::iterations(300)).unwrap().best,
        3
    );
}

#[test]
fn a_reused_tree_keeps_its_statistics_and_agrees_with_a_fresh_search() {
    let root = Subtraction::new(14, 2);
    let mut mcts = Mcts::new(MctsParams::default(), Uniform, 5);
    assert_eq!(
        mcts.search(&root, Budget::iterations(6_000)).unwrap().best,
        2
    );
    // Player 0 took 2 (12 left), player 1 took 1: 11 stones, take 3 to leave 8.
    let mut next = root.clone();
    next.apply(&2);
    next.apply(&1);
    assert!(mcts.advance(&[2, 1]));
    let kept = mcts.root_visits();
    assert!(kept > 0, "the subtree's visits are kept");
    let reused = mcts.search(&next, Budget::iterations(2_000)).unwrap();
    let fresh = Mcts::new(MctsParams::default(), Uniform, 5)
        .search(&next, Budget::iterations(2_000))
        .unwrap();
    assert_eq!((reused.best, fresh.best), (3, 3));
    assert_eq!(mcts.root_visits(), kept + 2_000);
    // A path the tree does not have is not reused.
    assert!(!mcts.advance(&[3, 3, 3, 3]));
    assert!(!mcts.advance(&[1]), "advance needs a search in between");
}

#[test]
fn flat_monte_carlo_takes_the_immediate_win() {
    let root = Subtraction::new(3, 2);
    let mut rng = chacha_rng(1, 0);
    let result = flat_monte_carlo(
        &mut |_: &mut ChaCha8Rng| root.clone(),
        &mut Uniform,
        &mut rng,
        Budget::iterations(300),
        None,
    )
    .unwrap();
    assert_eq!(result.best, 3);
    assert_eq!(result.stats[0].mean, 1.0);
    assert_eq!(result.stats.iter().map(|s| s.visits).sum::<u32>(), 300);
}

#[test]
fn a_finished_game_has_no_search_result() {
    let mut done = Subtraction::new(1, 2);
    done.apply(&1);
    let mut mcts = Mcts::new(MctsParams::default(), Uniform, 0);
    assert!(mcts.search(&done, Budget::iterations(10)).is_none());
}

/// Knowledge that orders the winning reply first and evaluates every cut position as a draw.
struct Ordered {
    evaluations: u32,
}

impl Knowledge<Subtraction> for Ordered {
    fn order(&mut self, state: &Subtraction, actions: &mut Vec<u32>) {
        let good = state.stones % 4;
        actions.sort_by_key(|&a| a != good);
    }

    fn evaluate(&mut self, _state: &Subtraction) -> Option<Rewards> {
        self.evaluations += 1;
        Some([0.5, 0.5, 0.0, 0.0])
    }
}

#[test]
fn widening_searches_the_ordered_prefix_and_depth_cuts_call_the_evaluator() {
    let params = MctsParams {
        widening: Some(Widening {
            base: 1.0,
            exponent: 0.0,
        }),
        playout_depth: Some(0),
        ..MctsParams::default()
    };
    let mut mcts = Mcts::new(params, Ordered { evaluations: 0 }, 2);
    let result = mcts
        .search(&Subtraction::new(30, 2), Budget::iterations(200))
        .unwrap();
    // One child per node: only the ordered first action is ever searched.
    assert_eq!(result.best, 2);
    assert_eq!(result.stats.len(), 3);
    assert_eq!(result.stats[0].visits, 200);
    assert!(mcts.knowledge.evaluations > 0);
}

/// Knowledge that counts the expansions (each lists and orders a node's children once).
struct CountingExpansions {
    expansions: u32,
}

impl Knowledge<Subtraction> for CountingExpansions {
    fn order(&mut self, _state: &Subtraction, _actions: &mut Vec<u32>) {
        self.expansions += 1;
    }
}

#[test]
fn nodes_list_their_children_only_after_the_expansion_visits() {
    let expansions = |expand_visits: u32| {
        let params = MctsParams {
            expand_visits,
            ..MctsParams::default()
        };
        let mut mcts = Mcts::new(params, CountingExpansions { expansions: 0 }, 4);
        let result = mcts
            .search(&Subtraction::new(30, 2), Budget::iterations(400))
            .unwrap();
        assert_eq!(result.stats.iter().map(|s| s.visits).sum::<u32>(), 400);
        mcts.knowledge.expansions
    };
    // Never expanding below the root: flat UCT over the root's three actions.
    assert_eq!(expansions(u32::MAX), 1);
    // Below the root a node is expanded on its second visit by default, on its fourth with
    // 4: the root's children (about 130 visits each) and some of theirs still are.
    let (second, fourth) = (expansions(1), expansions(4));
    assert!(fourth > 3 && fourth < second, "{second} / {fourth}");
}

/// Knowledge whose prior names the winning reply (prior 1, the others 0.01) and whose cut
/// positions are all draws, so only the prior can tell the actions apart.
struct Prior;

impl Knowledge<Subtraction> for Prior {
    fn order(&mut self, state: &Subtraction, actions: &mut Vec<u32>) {
        let good = state.stones % 4;
        actions.sort_by_key(|&a| a != good);
    }

    fn priors(&mut self, state: &Subtraction, actions: &[u32], out: &mut Vec<f32>) {
        let good = state.stones % 4;
        out.extend(actions.iter().map(|&a| if a == good { 1.0 } else { 0.01 }));
    }

    fn evaluate(&mut self, _state: &Subtraction) -> Option<Rewards> {
        Some([0.5, 0.5, 0.0, 0.0])
    }
}

/// 300 iterations with `Prior` from 30 stones, cut at once (every leaf a draw): each root
/// action's visits (take 1, 2, 3) and the choice.
fn prior_search(params: MctsParams) -> ([u32; 3], u32) {
    let params = MctsParams {
        playout_depth: Some(0),
        ..params
    };
    let mut mcts = Mcts::new(params, Prior, 5);
    let result = mcts
        .search(&Subtraction::new(30, 2), Budget::iterations(300))
        .unwrap();
    assert_eq!(result.stats.iter().map(|s| s.visits).sum::<u32>(), 300);
    let visits_of = |a: u32| result.stats.iter().find(|s| s.action == a).unwrap().visits;
    ([visits_of(1), visits_of(2), visits_of(3)], result.best)
}

#[test]
fn prior_visits_steer_the_search_to_the_likeliest_move_and_stay_out_of_the_statistics() {
    let with_prior_visits = |prior_visits| {
        prior_search(MctsParams {
            prior_visits,
            ..MctsParams::default()
        })
    };
    // Without prior visits the draws leave the three actions even.
    let ([_, even, _], _) = with_prior_visits(0.0);
    assert!((95..=105).contains(&even), "{even} of 300");
    // With them, the prior's move (take 2 of 30) gets half of them: the others start at a
    // loss that their draws only slowly wash out.
    let ([_, steered, _], best) = with_prior_visits(3.0);
    assert!(steered > 130, "{steered} of 300");
    assert_eq!(best, 2);
}

#[test]
fn puct_explores_by_the_prior() {
    // Every reward is a draw, so only the exploration term chooses: PUCT's follows the prior
    // (1 for taking 2, 0.01 for the others), which then get their one visit and little more.
    let ([other, steered, _], best) = prior_search(MctsParams {
        puct: 0.5,
        ..MctsParams::default()
    });
    assert!(steered > 280 && other < 10, "{steered} and {other} of 300");
    assert_eq!(best, 2);
}

/// A hidden card 0..4 decides who wins: player 0 may `Fold` (a sure half point) or `Call`
/// (wins when the card is 3 or more, else loses). Player 0 does not see the card.
#[derive(Clone, Debug)]
struct Hidden {
    card: u32,
    result: Option<f32>,
}

#[derive(Clone, Debug, PartialEq)]
enum Bet {
    Fold,
    Call,
}

impl State for Hidden {
    type Action = Bet;
    fn n_players(&self) -> usize {
        2
    }
    fn to_move(&self) -> Option<PlayerId> {
        self.result.is_none().then_some(0)
    }
    fn legal_actions(&self, out: &mut Vec<Bet>) {
        out.clear();
        if self.result.is_none() {
            out.extend([Bet::Fold, Bet::Call]);
        }
    }
    fn apply(&mut self, bet: &Bet) {
        self.result = Some(match bet {
            Bet::Fold => 0.5,
            Bet::Call if self.card >= 3 => 1.0,
            Bet::Call => 0.0,
        });
    }
    fn outcome(&self) -> Outcome {
        let r = self.result.unwrap_or(0.5);
        let keys = [(2.0 * r) as i64, (2.0 - 2.0 * r) as i64];
        Outcome {
            scores: keys.to_vec(),
            ranks: ranks_from_keys(&keys),
            end: EndReason::Finished,
            detail: String::new(),
            faults: vec![None, None],
            stats: Vec::new(),
        }
    }
}

#[test]
fn determinized_search_merges_the_samples_of_the_hidden_card() {
    // Calling wins with probability 1/4 only, so folding is better on average, although
    // a single determinization with card 3 would call.
    let mut sample = |rng: &mut ChaCha8Rng| Hidden {
        card: (rng.next_u64() % 4) as u32,
        result: None,
    };
    let params = MctsParams {
        determinizations: 16,
        ..MctsParams::default()
    };
    let mut mcts = Mcts::new(params, Uniform, 4);
    let result = mcts
        .search_sampled(&mut sample, Budget::iterations(1_600))
        .unwrap();
    assert_eq!(result.best, Bet::Fold);
    assert_eq!(result.stats.len(), 2, "root actions merged by action");
    assert_eq!(result.stats.iter().map(|s| s.visits).sum::<u32>(), 1_600);
    let mut rng = chacha_rng(4, 0);
    let flat = flat_monte_carlo(
        &mut sample,
        &mut Uniform,
        &mut rng,
        Budget::iterations(800),
        None,
    )
    .unwrap();
    assert_eq!(flat.best, Bet::Fold);
    let call = flat.stats.iter().find(|s| s.action == Bet::Call).unwrap();
    assert!((call.mean - 0.25).abs() < 0.1, "{call:?}");
}

/// The subtraction game that counts and checks the tree's replays: `apply_knowing_next`
/// must be told the player `apply` would have left to move.
#[derive(Clone, Debug)]
struct Replayed {
    game: Subtraction,
    replays: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl State for Replayed {
    type Action = u32;

    fn n_players(&self) -> usize {
        self.game.n_players()
    }

    fn to_move(&self) -> Option<PlayerId> {
        self.game.to_move()
    }

    fn legal_actions(&self, out: &mut Vec<u32>) {
        self.game.legal_actions(out);
    }

    fn apply(&mut self, take: &u32) {
        self.game.apply(take);
    }

    fn apply_knowing_next(&mut self, take: &u32, next: Option<PlayerId>) {
        self.game.apply(take);
        assert_eq!(
            next,
            self.game.to_move(),
            "the next player the tree remembered"
        );
        self.replays
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    fn outcome(&self) -> Outcome {
        self.game.outcome()
    }
}

#[test]
fn the_tree_replays_its_actions_knowing_the_next_player_and_searches_the_same() {
    let replays = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let root = Replayed {
        game: Subtraction::new(17, 3),
        replays: replays.clone(),
    };
    let run = |seed| {
        let mut mcts = Mcts::new(MctsParams::default(), Uniform, seed);
        mcts.search(&root, Budget::iterations(3_000)).unwrap()
    };
    let plain = |seed| {
        let mut mcts = Mcts::new(MctsParams::default(), Uniform, seed);
        mcts.search(&Subtraction::new(17, 3), Budget::iterations(3_000))
            .unwrap()
    };
    for seed in 0..3 {
        assert_eq!(run(seed), plain(seed), "seed {seed}");
    }
    // Every visit after a node's first replays its action: most of 3 × 3,000 iterations'
    // tree steps.
    let replayed = replays.load(std::sync::atomic::Ordering::Relaxed);
    assert!(replayed > 9_000, "{replayed} replays");
}
