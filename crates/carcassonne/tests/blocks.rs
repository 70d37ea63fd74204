//! Cross-checks the incremental union-find (§2.4-2.6) and final scoring (§3.6) against a
//! brute-force model recomputed from scratch after every turn of random games: blocks by
//! graph search over tile parts, closure by looking at every end, field values by walking
//! every contact.

use std::collections::{BTreeMap, BTreeSet};

use rand_core::RngCore;
use realm_carcassonne::board::{Board, SIZE};
use realm_carcassonne::tiles::{tileset, Edge, Kind, L_CASTLE, L_EARTH, L_MINUS, L_PLUS, L_ROAD};
use realm_carcassonne::State;
use realm_core::{chacha_rng, State as _};

type Node = (usize, u8);

/// Blocks of the board: node -> component id, and each component's nodes.
fn components(board: &Board) -> (BTreeMap<Node, usize>, Vec<Vec<Node>>) {
    let set = tileset();
    let placed = board.placed();
    let mut adj: BTreeMap<Node, Vec<Node>> = BTreeMap::new();
    for (slot, p) in placed.iter().enumerate() {
        let t = set.oriented(p.ty, p.angle);
        for local in 0..t.n_parts {
            adj.entry((slot, local)).or_default();
        }
        for side in 0..4usize {
            let (dr, dc) = [(-1, 0), (0, 1), (1, 0), (0, -1)][side];
            let (r, c) = (p.row as i32 + dr, p.col as i32 + dc);
            if !(0..SIZE as i32).contains(&r) || !(0..SIZE as i32).contains(&c) {
                continue;
            }
            let Some(other) = board.tile_at(r as u8, c as u8) else {
                continue;
            };
            let q = &placed[other];
            let u = set.oriented(q.ty, q.angle);
            let facing = (side + 2) % 4;
            let pairs: &[(u8, u8)] = match t.edges[side] {
                Edge::Castle => &[(L_CASTLE, L_CASTLE)],
                Edge::Earth => &[(L_EARTH, L_EARTH)],
                Edge::Road => &[(L_ROAD, L_ROAD), (L_MINUS, L_PLUS), (L_PLUS, L_MINUS)],
            };
            for &(a, b) in pairs {
                let x = (slot, t.item_part[side][a as usize]);
                let y = (other, u.item_part[facing][b as usize]);
                adj.get_mut(&x).unwrap().push(y);
            }
        }
    }
    let mut comp = BTreeMap::new();
    let mut comps = Vec::new();
    for &start in adj.keys() {
        if comp.contains_key(&start) {
            continue;
        }
        let id = comps.len();
        let mut stack = vec![start];
        let mut nodes = Vec::new();
        comp.insert(start, id);
        while let Some(n) = stack.pop() {
            nodes.push(n);
            for &m in &adj[&n] {
                if let std::collections::btree_map::Entry::Vacant(e) = comp.entry(m) {
                    e.insert(id);
                    stack.push(m);
                }
            }
        }
        comps.push(nodes);
    }
    (comp, comps)
}

fn around(board: &Board, slot: usize) -> u32 {
    let p = &board.placed()[slot];
    let mut n = 0;
    for dr in -1..=1i32 {
        for dc in -1..=1i32 {
            let (r, c) = (p.row as i32 + dr, p.col as i32 + dc);
            let inside = (0..SIZE as i32).contains(&r) && (0..SIZE as i32).contains(&c);
            n += u32::from(inside && board.tile_at(r as u8, c as u8).is_some());
        }
    }
    n
}

/// Closed by §2.5, checked end by end.
fn closed(board: &Board, nodes: &[Node]) -> bool {
    let set = tileset();
    nodes.iter().all(|&(slot, local)| {
        let p = &board.placed()[slot];
        let t = set.oriented(p.ty, p.angle);
        match t.kinds[local as usize] {
            Kind::Field => false,
            Kind::Monastery => around(board, slot) == 9,
            _ => t.items[local as usize]
                .iter()
                .filter(|&&(_, l)| l == L_CASTLE || l == L_ROAD)
                .all(|&(s, _)| {
                    let (dr, dc) = [(-1, 0), (0, 1), (1, 0), (0, -1)][s as usize];
                    let (r, c) = (p.row as i32 + dr, p.col as i32 + dc);
                    let inside = (0..SIZE as i32).contains(&r) && (0..SIZE as i32).contains(&c);
                    inside && board.tile_at(r as u8, c as u8).is_some()
                }),
        }
    })
}

fn check(board: &Board) {
    let set = tileset();
    let (comp, comps) = components(board);
    for nodes in &comps {
        let tiles: BTreeSet<usize> = nodes.iter().map(|n| n.0).collect();
        let shields = tiles
            .iter()
            .filter(|&&s| set.get(board.placed()[s].ty).shield)
            .count();
        let is_closed = closed(board, nodes);
        for &(slot, local) in nodes {
            let size = board.block_of(slot, local);
            let kind = set
                .oriented(board.placed()[slot].ty, board.placed()[slot].angle)
                .kinds[local as usize];
            if kind != Kind::Monastery {
                assert_eq!(size.tiles as usize, tiles.len(), "tiles of {slot}/{local}");
                assert_eq!(size.shields as usize, shields, "shields of {slot}/{local}");
            }
            assert_eq!(
                board.is_closed(slot, local),
                is_closed,
                "closure of {slot}/{local}"
            );
        }
    }
    // Final scoring from scratch.
    let n = board.n_players();
    let mut men = vec![vec![0u32; n]; comps.len()];
    for (player, slot, token) in board.men() {
        let local = board.token_part(slot, token).unwrap();
        men[comp[&(slot, local)]][player] += 1;
    }
    let mut bonus = vec![0i64; n];
    for (id, nodes) in comps.iter().enumerate() {
        let best = *men[id].iter().max().unwrap();
        if best == 0 {
            continue;
        }
        let (slot, local) = nodes[0];
        let p = &board.placed()[slot];
        let kind = set.oriented(p.ty, p.angle).kinds[local as usize];
        let tiles: BTreeSet<usize> = nodes.iter().map(|n| n.0).collect();
        let shields = tiles
            .iter()
            .filter(|&&s| set.get(board.placed()[s].ty).shield)
            .count() as i64;
        let value = match kind {
            Kind::Castle => {
                assert!(!closed(board, nodes), "closed castles hold no men");
                tiles.len() as i64 + shields
            }
            Kind::Road => tiles.len() as i64,
            Kind::Monastery => around(board, slot) as i64,
            Kind::Field => {
                let mut castles = BTreeSet::new();
                for &(s, f) in nodes {
                    let q = &board.placed()[s];
                    for &(field, castle) in &set.oriented(q.ty, q.angle).touches {
                        let castle_comp = comp[&(s, castle)];
                        if field == f && closed(board, &comps[castle_comp]) {
                            castles.insert(castle_comp);
                        }
                    }
                }
                3 * castles.len() as i64
            }
        };
        for player in 0..n {
            if men[id][player] == best {
                bonus[player] += value;
            }
        }
    }
    assert_eq!(board.final_bonus()[..n], bonus[..], "final scoring");
}

#[test]
fn union_find_blocks_match_a_brute_force_model() {
    for seed in 0..6u64 {
        let (league, n) = (1 + (seed % 3) as u32, 2 + (seed % 3) as usize);
        let mut state = State::new(league, n, seed);
        let mut rng = chacha_rng(seed, 5);
        let mut legal = Vec::new();
        while state.to_move().is_some() {
            state.legal_actions(&mut legal);
            // Favour placing men so majorities, merges and farmers all occur.
            let pick =
                if legal.len() > 1 && matches!(legal[0], realm_carcassonne::Action::Man(None)) {
                    1 + (rng.next_u64() % (legal.len() as u64 - 1)) as usize
                } else {
                    (rng.next_u64() % legal.len() as u64) as usize
                };
            state.apply(&legal[pick]);
            if state.pending_slot().is_none() {
                check(state.board());
            }
        }
    }
}
