//! Positions for fitting the search's valuation (`bots/valuation.rs`): two-player league 3
//! games of the greedy bot against itself (or, with a second argument, against the search bot
//! given that many iterations a move, seats alternating), one CSV row per player per turn with
//! what the valuation reads (score, end-now points of each open-feature kind and the two
//! prospects of `Board::open_value`, men in supply, the bag left) and the player's final
//! score. Fit with `tools/fit_carcassonne_valuation.py`.
//!
//! `cargo run --release -p realm-carcassonne --example valuation_data -- [games [iterations
//! [first game]]] > data.csv`

use rand_chacha::ChaCha8Rng;
use realm_carcassonne::bots::{
    default_params, sampled_state, unseen_tiles, CarcassonneKnowledge, Greedy, Observation,
};
use realm_carcassonne::protocol::parse_token;
use realm_carcassonne::setup::unshuffled_bag;
use realm_carcassonne::{Action, Placement, State};
use realm_core::State as _;
use realm_search::{Budget, Mcts};

const LEAGUE: u32 = 3;

/// One player's position at the start of a turn.
struct Row {
    turn: usize,
    player: usize,
    bag: usize,
    score: i64,
    open: [i64; 6],
    men_left: u8,
}

/// Greedy's answer line as the two actions of a turn.
fn parse_answer(line: &str) -> [Action; 2] {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |i: usize| -> u8 { words[i].parse().expect("greedy answers numbers") };
    let at = Placement {
        row: number(0),
        col: number(1),
        angle: number(2),
    };
    let token = (words[3] != "-1").then(|| parse_token(words[3]).expect("greedy's token"));
    [Action::Place(at), Action::Man(token)]
}

/// The search bot's turn (what `MctsBot` answers, with an iteration budget).
fn search_answer(obs: &Observation, iterations: u64, seed: u64) -> [Action; 2] {
    let unseen = unseen_tiles(LEAGUE, obs).expect("a league 3 board");
    let mut sample = |rng: &mut ChaCha8Rng| sampled_state(LEAGUE, obs, &unseen, rng);
    let mut search = Mcts::new(default_params(), CarcassonneKnowledge, seed);
    let best = search
        .search_sampled(&mut sample, Budget::iterations(iterations))
        .expect("the tile has a placement")
        .best;
    let man = match search.most_visited_after(&[best]) {
        Some(man @ Action::Man(_)) => man,
        _ => Action::Man(None),
    };
    [best, man]
}

fn main() {
    let arg = |i: usize| std::env::args().nth(i).and_then(|a| a.parse::<u64>().ok());
    let games = arg(1).unwrap_or(100);
    let search_iterations = arg(2);
    let full_bag = unshuffled_bag(LEAGUE).len();
    println!("game,turn,player,bag,full_bag,score,castle,road,monastery,field,men_left,final,nearly_closed_castles,field_prospects");
    for game in 0..games {
        let game = game + arg(3).unwrap_or(0);
        let mut state = State::new(LEAGUE, 2, 1000 + game);
        let mut bots = [Greedy::new(2 * game + 1), Greedy::new(2 * game + 2)];
        let mut rows = Vec::new();
        let mut turn = 0;
        while let (Some(me), Some(tile)) = (state.to_move(), state.current_tile()) {
            let board = state.board();
            let terms = board.open_value().terms();
            for player in 0..2 {
                rows.push(Row {
                    turn,
                    player,
                    bag: state.bag_left().len(),
                    score: board.scores()[player],
                    open: terms.map(|term| term[player]),
                    men_left: board.men_left(player),
                });
            }
            let obs = Observation {
                n_players: 2,
                me,
                board: board.clone(),
                tile,
            };
            let actions = match search_iterations {
                Some(iterations) if me as u64 == game % 2 => {
                    search_answer(&obs, iterations, game << 8 | turn as u64)
                }
                _ => parse_answer(&bots[me].answer(&obs).expect("greedy always answers")[0]),
            };
            for action in actions {
                state.apply(&action);
            }
            turn += 1;
        }
        let finals = state.board().scores();
        for r in rows {
            let [castle, road, monastery, field, nearly_closed, prospects] = r.open;
            println!(
                "{game},{},{},{},{full_bag},{},{castle},{road},{monastery},{field},{},{},{nearly_closed},{prospects}",
                r.turn, r.player, r.bag, r.score, r.men_left, finals[r.player]
            );
        }
    }
}
