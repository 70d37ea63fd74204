//! An independent oracle for legality and the valid-move list. It knows only the shape
//! drawings of `data/blocking_shapes.txt`, the naming rules S1–S3 and the cell colours of the
//! board it keeps itself; from them it recomputes R8 a–e for every shape, orientation and
//! position, the anchors of R9 and the valid-move list of §4.3 (generation order, first name
//! wins). Random games in every variant and player count are then played through the text
//! referee, and at every turn the oracle's legal placements must equal the engine's (and the
//! `State` actions), its anchors the `x` marks sent, its list the list sent, line for line, and
//! its verdict on random answer names the referee's.

mod common;

use std::collections::BTreeSet;

use common::{board, valid_lines};
use rand_core::RngCore;
use realm_blocking::protocol::{parse_answer, resolve, Name};
use realm_blocking::{BlockingReferee, Config, Variant};
use realm_core::{Referee, State, VerdictKind};

const SHAPES: &str = include_str!("../data/blocking_shapes.txt");

/// A placement as the rules see it: the letter (0 = A) and its cells, sorted.
type Cells = Vec<(usize, usize)>;

/// One letter's drawing squares in reading order (S1), and for each name `Lfr` (index f·4 + r)
/// the squares' positions after S2, numbering kept.
struct Letter {
    names: Vec<Cells>,
    /// The distinct normalised cell sets of the eight names.
    orientations: BTreeSet<Cells>,
}

fn letters() -> Vec<Letter> {
    SHAPES
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let base: Vec<(i64, i64)> = words[3..]
                .iter()
                .enumerate()
                .flat_map(|(y, row)| {
                    row.chars()
                        .enumerate()
                        .filter(|&(_, c)| c == '#')
                        .map(move |(x, _)| (x as i64, y as i64))
                })
                .collect();
            let names: Vec<Cells> = (0..8).map(|fr| orient(&base, fr / 4, fr % 4)).collect();
            let orientations = names
                .iter()
                .map(|cells| {
                    let mut sorted = cells.clone();
                    sorted.sort();
                    sorted
                })
                .collect();
            Letter {
                names,
                orientations,
            }
        })
        .collect()
}

/// S2: swap the coordinates when f = 1, turn r times (x, y) → (−y, x), shift to the origin.
fn orient(base: &[(i64, i64)], f: usize, r: usize) -> Cells {
    let mut cells: Vec<(i64, i64)> = base
        .iter()
        .map(|&(x, y)| if f == 1 { (y, x) } else { (x, y) })
        .collect();
    for _ in 0..r {
        for c in &mut cells {
            *c = (-c.1, c.0);
        }
    }
    let min_x = cells.iter().map(|c| c.0).min().unwrap();
    let min_y = cells.iter().map(|c| c.1).min().unwrap();
    cells
        .iter()
        .map(|&(x, y)| ((x - min_x) as usize, (y - min_y) as usize))
        .collect()
}

/// The oracle's own game record: cell colours, letters used, first placements.
struct Oracle {
    letters: Vec<Letter>,
    variant: Variant,
    n: usize,
    n_players: usize,
    set: u32,
    colour: Vec<Option<usize>>,
    used: Vec<u32>,
    n_placed: Vec<usize>,
    /// Duo: the cells of player 0's first placement (V1).
    duo_first: Cells,
}

impl Oracle {
    fn new(variant: Variant, n_players: usize, set: u32) -> Self {
        let n = match variant {
            Variant::Blocking => 13,
            Variant::Duo => 14,
            Variant::Classic => 20,
        };
        Oracle {
            letters: letters(),
            variant,
            n,
            n_players,
            set,
            colour: vec![None; n * n],
            used: vec![0; n_players],
            n_placed: vec![0; n_players],
            duo_first: Vec::new(),
        }
    }

    fn at(&self, x: i64, y: i64) -> Option<usize> {
        let n = self.n as i64;
        if (0..n).contains(&x) && (0..n).contains(&y) {
            self.colour[(y * n + x) as usize]
        } else {
            None
        }
    }

    fn touches(&self, p: usize, (x, y): (usize, usize), steps: &[(i64, i64)]) -> bool {
        steps
            .iter()
            .any(|(dx, dy)| self.at(x as i64 + dx, y as i64 + dy) == Some(p))
    }

    fn edge_own(&self, p: usize, cell: (usize, usize)) -> bool {
        self.touches(p, cell, &[(1, 0), (-1, 0), (0, 1), (0, -1)])
    }

    fn diagonal_own(&self, p: usize, cell: (usize, usize)) -> bool {
        self.touches(p, cell, &[(1, 1), (1, -1), (-1, 1), (-1, -1)])
    }

    /// R5, V1 and §7: the cells p's first placement may cover.
    fn starts(&self, p: usize) -> Vec<(usize, usize)> {
        let m = self.n - 1;
        match self.variant {
            Variant::Blocking => vec![[(0, 0), (m, m), (0, m), (m, 0)][p]],
            Variant::Classic => vec![[(0, 0), (m, 0), (m, m), (0, m)][p]],
            Variant::Duo if p == 0 => vec![(4, 4), (9, 9)],
            Variant::Duo => [(4, 4), (9, 9)]
                .into_iter()
                .filter(|c| !self.duo_first.contains(c))
                .collect(),
        }
    }

    /// R8 a–e for player p, letter l on `cells` (any cell may be off the board: i64).
    fn legal(&self, p: usize, l: usize, cells: &[(i64, i64)]) -> bool {
        let n = self.n as i64;
        // a. In the set and not placed yet.
        if self.set >> l & 1 == 0 || self.used[p] >> l & 1 == 1 {
            return false;
        }
        // b. On the board and empty.
        if !cells
            .iter()
            .all(|&(x, y)| (0..n).contains(&x) && (0..n).contains(&y) && self.at(x, y).is_none())
        {
            return false;
        }
        let cells: Vec<(usize, usize)> = cells
            .iter()
            .map(|&(x, y)| (x as usize, y as usize))
            .collect();
        // c. No edge contact with own colour.
        if cells.iter().any(|&c| self.edge_own(p, c)) {
            return false;
        }
        // d. The start cell first, then corner contact.
        let ok = if self.n_placed[p] == 0 {
            self.starts(p).iter().any(|s| cells.contains(s))
        } else {
            cells.iter().any(|&c| self.diagonal_own(p, c))
        };
        // e. 3-player Blocking: players 0 and 1 open with A–D.
        let restricted = self.variant == Variant::Blocking
            && self.n_players == 3
            && p < 2
            && self.n_placed[p] == 0;
        ok && (!restricted || l < 4)
    }

    /// Every legal placement of p: each letter, each distinct orientation, each offset.
    fn placements(&self, p: usize) -> BTreeSet<(usize, Cells)> {
        let mut out = BTreeSet::new();
        for (l, letter) in self.letters.iter().enumerate() {
            for shape in &letter.orientations {
                for y in 0..self.n as i64 {
                    for x in 0..self.n as i64 {
                        let cells: Vec<(i64, i64)> = shape
                            .iter()
                            .map(|&(dx, dy)| (x + dx as i64, y + dy as i64))
                            .collect();
                        if self.legal(p, l, &cells) {
                            let cells = cells
                                .iter()
                                .map(|&(x, y)| (x as usize, y as usize))
                                .collect();
                            out.insert((l, cells));
                        }
                    }
                }
            }
        }
        out
    }

    /// R9: the anchor cells of p, row-major.
    fn anchors(&self, p: usize) -> Vec<(usize, usize)> {
        if self.n_placed[p] == 0 {
            let mut starts: Vec<_> = self
                .starts(p)
                .into_iter()
                .filter(|&(x, y)| self.at(x as i64, y as i64).is_none())
                .collect();
            starts.sort_by_key(|&(x, y)| (y, x));
            return starts;
        }
        let mut out = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                let empty = self.at(x as i64, y as i64).is_none();
                if empty && self.diagonal_own(p, (x, y)) && !self.edge_own(p, (x, y)) {
                    out.push((x, y));
                }
            }
        }
        out
    }

    /// The cells named by `X Y Lfrk` (S3), possibly off the board.
    fn cells_of(&self, x: i64, y: i64, l: usize, fr: usize, k: usize) -> Vec<(i64, i64)> {
        let squares = &self.letters[l].names[fr];
        let (kx, ky) = squares[k - 1];
        squares
            .iter()
            .map(|&(sx, sy)| (x + sx as i64 - kx as i64, y + sy as i64 - ky as i64))
            .collect()
    }

    /// §4.3 "equivalent generation": letters alphabetically, f, r, k, anchors row-major; a line
    /// for each legal placement not emitted before.
    fn valid_list(&self, p: usize) -> Vec<String> {
        let anchors = self.anchors(p);
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for l in 0..self.letters.len() {
            for fr in 0..8 {
                for k in 1..=self.letters[l].names[fr].len() {
                    for &(x, y) in &anchors {
                        let cells = self.cells_of(x as i64, y as i64, l, fr, k);
                        if !self.legal(p, l, &cells) {
                            continue;
                        }
                        let mut key = cells.clone();
                        key.sort();
                        if seen.insert((l, key)) {
                            let letter = (b'A' + l as u8) as char;
                            out.push(format!("{x} {y} {letter}{}{}{k}", fr / 4, fr % 4));
                        }
                    }
                }
            }
        }
        out
    }

    /// R10 for any name `X Y Lfrk`: the cells it places when accepted, `None` when invalid.
    fn accepts(&self, p: usize, x: i64, y: i64, name: [u8; 4]) -> Option<Vec<(i64, i64)>> {
        let [letter, f, r, k] = name;
        let l = letter.checked_sub(b'A')? as usize;
        let n_squares = self.letters.get(l)?.names[0].len();
        if f > 1 || r > 3 || !(1..=n_squares).contains(&(k as usize)) {
            return None;
        }
        let cells = self.cells_of(x, y, l, f as usize * 4 + r as usize, k as usize);
        self.legal(p, l, &cells).then_some(cells)
    }

    /// Plays a line of the valid-move list for p.
    fn play(&mut self, p: usize, line: &str) {
        let words: Vec<&str> = line.split(' ').collect();
        let (x, y) = (words[0].parse().unwrap(), words[1].parse().unwrap());
        let name = words[2].as_bytes();
        let l = (name[0] - b'A') as usize;
        let fr = (name[1] - b'0') as usize * 4 + (name[2] - b'0') as usize;
        let k = (name[3] - b'0') as usize;
        let cells = self.cells_of(x, y, l, fr, k);
        assert!(self.legal(p, l, &cells), "{line}");
        for &(cx, cy) in &cells {
            self.colour[cy as usize * self.n + cx as usize] = Some(p);
        }
        if self.variant == Variant::Duo && p == 0 && self.n_placed[0] == 0 {
            self.duo_first = cells
                .iter()
                .map(|&(x, y)| (x as usize, y as usize))
                .collect();
        }
        self.used[p] |= 1 << l;
        self.n_placed[p] += 1;
    }

    /// R6, R15: the next player after `last` (in seat order) with a legal placement.
    fn next_player(&self, last: Option<usize>) -> Option<usize> {
        let start = last.map_or(0, |p| p + 1);
        (0..self.n_players)
            .map(|i| (start + i) % self.n_players)
            .find(|&p| !self.placements(p).is_empty())
    }
}

/// The engine's legal placements of p as (letter, sorted cells).
fn engine_placements(referee: &BlockingReferee, p: usize) -> BTreeSet<(usize, Cells)> {
    let mut moves = Vec::new();
    referee.position().generate(p, &mut moves);
    let set: BTreeSet<(usize, Cells)> = moves
        .iter()
        .map(|mv| {
            let mut cells: Cells = mv.cells().collect();
            cells.sort();
            (mv.letter(), cells)
        })
        .collect();
    assert_eq!(set.len(), moves.len(), "the engine lists a placement twice");
    set
}

/// The in-process `State` view of the same position: the listed actions, their count and
/// `has_move` agree with the oracle's number of placements.
fn check_state_api(referee: &BlockingReferee, p: usize, n_legal: usize) {
    let pos = referee.position();
    let mut actions = Vec::new();
    State::legal_actions(pos, &mut actions);
    let mut generated = Vec::new();
    pos.generate(p, &mut generated);
    assert_eq!(actions, generated);
    assert_eq!(pos.count_moves(p), n_legal);
    assert!(pos.has_move(p));
    assert!(actions.iter().all(|a| State::is_legal(pos, a)));
}

/// The referee's reading of answer names (R10, through `resolve`) agrees with the oracle: same
/// accept / refuse, and the same cells when accepted. A third of the names are other names in
/// the bounding box of a listed move (many denote legal placements), a third well-formed names
/// near an anchor, a third anything, fields out of range and cells off the board included.
fn check_answers(
    referee: &BlockingReferee,
    oracle: &Oracle,
    p: usize,
    listed: &[String],
    rng: &mut impl RngCore,
    label: &str,
) {
    let anchors = oracle.anchors(p);
    let n = oracle.n as u64;
    let mut draw = |bound: u64| rng.next_u64() % bound;
    let jitter = |v: u32, d: u64| (v as i64 + d as i64 - 2).max(0) as u32;
    let mut n_accepted = 0;
    for i in 0..210 {
        let name = match i % 3 {
            0 => {
                // Another name with the same bounding box as a listed placement: the same
                // placement when the orientation matches, a near miss otherwise.
                let line = &listed[draw(listed.len() as u64) as usize];
                let listed_name = parse_answer(line).expect("a listed line parses");
                let l = (listed_name.letter - b'A') as usize;
                let fr = (listed_name.f * 4 + listed_name.r) as usize;
                let cells = oracle.cells_of(
                    listed_name.x as i64,
                    listed_name.y as i64,
                    l,
                    fr,
                    listed_name.k as usize,
                );
                let min_x = cells.iter().map(|c| c.0).min().unwrap();
                let min_y = cells.iter().map(|c| c.1).min().unwrap();
                let other_fr = draw(8) as usize;
                let k = 1 + draw(cells.len() as u64) as usize;
                let (sx, sy) = oracle.letters[l].names[other_fr][k - 1];
                Name {
                    x: (min_x + sx as i64) as u32,
                    y: (min_y + sy as i64) as u32,
                    f: (other_fr / 4) as u8,
                    r: (other_fr % 4) as u8,
                    k: k as u8,
                    ..listed_name
                }
            }
            1 => {
                let (ax, ay) = anchors[draw(anchors.len() as u64) as usize];
                Name {
                    x: jitter(ax as u32, draw(5)),
                    y: jitter(ay as u32, draw(5)),
                    letter: b'A' + draw(21) as u8,
                    f: draw(2) as u8,
                    r: draw(4) as u8,
                    k: 1 + draw(5) as u8,
                }
            }
            _ => Name {
                x: draw(n + 2) as u32,
                y: draw(n + 2) as u32,
                letter: b'A' + draw(23) as u8,
                f: draw(3) as u8,
                r: draw(5) as u8,
                k: draw(7) as u8,
            },
        };
        let code = [name.letter, name.f, name.r, name.k];
        let expected = oracle.accepts(p, name.x as i64, name.y as i64, code);
        let got = resolve(referee.position(), p, &name);
        match (&expected, &got) {
            (Some(cells), Ok(mv)) => {
                let mut cells: Cells = cells
                    .iter()
                    .map(|&(x, y)| (x as usize, y as usize))
                    .collect();
                cells.sort();
                let mut engine: Cells = mv.cells().collect();
                engine.sort();
                assert_eq!(engine, cells, "{label}: {name}");
                n_accepted += 1;
            }
            (None, Err(_)) => {}
            _ => panic!("{label}: {name}: oracle {expected:?}, referee {got:?}"),
        }
    }
    assert!(n_accepted > 0, "{label}: no accepted name drawn");
}

fn x_marks(rows: &[String]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        out.extend(row.match_indices('x').map(|(x, _)| (x, y)));
    }
    out
}

/// Plays one random game through the referee and checks every turn against the oracle.
/// Returns the number of placements.
fn check_game(variant: Variant, n_players: usize, seed: u64) -> usize {
    let config = Config::new(variant, n_players, seed);
    let mut referee = BlockingReferee::new(&config);
    let mut oracle = Oracle::new(variant, n_players, config.set);
    let mut rng = realm_core::chacha_rng(seed, 77);
    let mut last = None;
    let mut turns = 0;
    let label = format!("{variant:?} {n_players}p seed {seed}");
    loop {
        let expected = oracle.next_player(last);
        let Some(request) = referee.next_request() else {
            assert_eq!(expected, None, "{label}: the game ended early");
            return turns;
        };
        let p = request.player;
        assert_eq!(Some(p), expected, "{label} turn {turns}: wrong player");
        assert_eq!(
            engine_placements(&referee, p),
            oracle.placements(p),
            "{label} turn {turns}: legal placements differ"
        );
        assert_eq!(
            x_marks(&board(&request, oracle.n)),
            oracle.anchors(p),
            "{label} turn {turns}: anchors differ"
        );
        check_state_api(&referee, p, oracle.placements(p).len());
        let listed = valid_lines(&request);
        assert_eq!(
            listed,
            oracle.valid_list(p),
            "{label} turn {turns}: list differs"
        );
        check_answers(&referee, &oracle, p, &listed, &mut rng, &label);
        let line = listed[(rng.next_u64() % listed.len() as u64) as usize].clone();
        assert_eq!(
            referee.answer(p, std::slice::from_ref(&line)).kind,
            VerdictKind::Ok
        );
        oracle.play(p, &line);
        last = Some(p);
        turns += 1;
    }
}

#[test]
fn blocking_two_players_matches_the_oracle() {
    for seed in 0..4 {
        assert!(check_game(Variant::Blocking, 2, seed) >= 10);
    }
}

#[test]
fn blocking_three_players_matches_the_oracle() {
    for seed in 0..4 {
        assert!(check_game(Variant::Blocking, 3, seed) >= 10);
    }
}

#[test]
fn blocking_four_players_matches_the_oracle() {
    for seed in 0..4 {
        assert!(check_game(Variant::Blocking, 4, seed) >= 10);
    }
}

#[test]
fn duo_matches_the_oracle() {
    for seed in 0..3 {
        assert!(check_game(Variant::Duo, 2, seed) >= 10);
    }
}

#[test]
fn classic_matches_the_oracle() {
    for seed in 0..2 {
        assert!(check_game(Variant::Classic, 4, seed) >= 20);
    }
}

/// The oracle itself on the spec's worked example (§4.5, A6): 49 and then 176 lines.
#[test]
fn the_oracle_reproduces_the_worked_example() {
    let config = Config::new(Variant::Blocking, 2, 3);
    let mut oracle = Oracle::new(Variant::Blocking, 2, config.set);
    let first = oracle.valid_list(0);
    assert_eq!(first.len(), 49);
    assert_eq!(first[43..45], ["0 0 Q001", "0 0 Q033"]);
    oracle.play(0, "0 0 Q001");
    oracle.play(1, "12 12 S005");
    assert_eq!(oracle.anchors(0), [(3, 1), (0, 3), (2, 3)]);
    let second = oracle.valid_list(0);
    assert_eq!(second.len(), 176);
    assert_eq!(second[..3], ["3 1 A001", "0 3 A001", "2 3 A001"]);
}
