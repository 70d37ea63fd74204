//! Classifies the games a built-in bot lost in a folder of kept Ice and Fire replays
//! (`realm arena ... --keep-replays all --replay-dir DIR`), by the first cause that applies:
//!
//! 1. **lethal missed**: in one of its phases the cheapest TRAIN chain to the enemy HQ cost
//!    no more than its gold (`needs a move`: only when the cells its units could step into
//!    are counted free);
//! 2. **cut suffered**: one opponent phase took a quarter or more of its active cells (at
//!    least 6) while its income was at least 90% of the opponent's;
//! 3. **economy behind**: when the opponent's chain first became affordable, its income was
//!    below 80% of the opponent's;
//! 4. **tower wall**: the opponent had towers and its own chain stayed out of reach (over its
//!    gold plus 3 turns of income) at the end although its income was not behind;
//! 5. **lethal allowed**: otherwise; the opponent's chain came while the game was even.
//!
//! Usage: `cargo run --release -p realm-ice-and-fire --example iaf_losses -- DIR [NEEDLE]`,
//! NEEDLE (default `bot ice-and-fire`) picking the bot's seat by its command.

use std::collections::BTreeMap;

use realm_core::LinesInput;
use realm_ice_and_fire::bots::{chain_cost, chain_cost_with_steps, Tracker};
use realm_ice_and_fire::GameState;
use serde_json::Value;

fn states(replay: &Value, seat: usize) -> Vec<GameState> {
    let mut tracker = Tracker::new(Some(4));
    let mut out = Vec::new();
    for turn in replay["turns"].as_array().into_iter().flatten() {
        if turn["player"].as_u64() != Some(seat as u64) {
            continue;
        }
        let lines: Vec<String> = turn["input"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|l| l.as_str().map(str::to_string))
            .collect();
        match tracker.read(&mut LinesInput::new(&lines)) {
            Ok((state, _)) => out.push(state),
            Err(_) => break,
        }
    }
    out
}

fn classify(mine: &[GameState]) -> &'static str {
    let me = mine[0].player();
    let opp = 1 - me;
    if mine.iter().any(|s| chain_cost(s, me) <= s.gold(me)) {
        return "lethal missed";
    }
    if mine
        .iter()
        .any(|s| chain_cost_with_steps(s, me) <= s.gold(me))
    {
        return "lethal missed (needs a move)";
    }
    for pair in mine.windows(2) {
        let (before, after) = (&pair[0], &pair[1]);
        let had = before.active(me).count() as i32;
        let lost = had - after.active(me).count() as i32;
        if lost >= 6 && lost * 4 >= had && 10 * before.income(me) >= 9 * before.income(opp) {
            return "cut suffered";
        }
    }
    let first_threat = mine
        .iter()
        .find(|s| chain_cost_with_steps(s, opp) <= s.gold(opp) + s.income(opp));
    if let Some(s) = first_threat {
        if (s.income(me) as f32) < 0.8 * s.income(opp) as f32 {
            return "economy behind";
        }
    }
    let last = mine.last().expect("one phase at least");
    if !last.towers(opp).is_empty()
        && chain_cost(last, me) > last.gold(me) + 3 * last.income(me).max(0)
        && last.income(me) >= last.income(opp)
    {
        return "tower wall";
    }
    "lethal allowed"
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).expect("usage: iaf_losses DIR [NEEDLE]");
    let needle = args.get(2).map_or("bot ice-and-fire", String::as_str);
    let mut counts: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let (mut games, mut losses) = (0, 0);
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("a replay folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable replay");
        let replay: Value = serde_json::from_str(&text).expect("a JSON replay");
        let players = replay["players"].as_array().cloned().unwrap_or_default();
        let Some(seat) = players
            .iter()
            .position(|p| p["command"].as_str().is_some_and(|c| c.contains(needle)))
        else {
            continue;
        };
        games += 1;
        let ranks = &replay["outcome"]["ranks"];
        if ranks[seat].as_u64() == Some(1) {
            continue;
        }
        losses += 1;
        let mine = states(&replay, seat);
        let class = if mine.is_empty() {
            "unreadable"
        } else {
            classify(&mine)
        };
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        counts.entry(class).or_default().push(name);
    }
    println!("{losses} losses in {games} games");
    for (class, names) in &counts {
        println!("{:>4}  {class}  ({})", names.len(), names.join(" "));
    }
}
