//! The acceptance examples of §8 (E3–E7; E1, E2 and E8 are unit tests, E9 is in vectors.rs),
//! the worked example of §3.5, and hand-built positions for the rules with surprising edges.

mod common;

use common::{action_counts, c, Builder};
use realm_core::{EndReason, Referee};
use realm_ice_and_fire::rules::Ending;
use realm_ice_and_fire::{BuildingKind, GameState, IceAndFireReferee, League};

fn log(referee: &IceAndFireReferee) -> Vec<String> {
    referee.log().to_vec()
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn e3_opening_action_counts() {
    for (league, p0, p1) in [(1, 2, 4), (2, 4, 8), (3, 4, 8), (4, 4, 9)] {
        let mut state = GameState::new(42, League::new(league).unwrap());
        let (t, b, m) = action_counts(&state);
        assert_eq!(t + b + m, p0, "league {league} P0");
        state.end_phase();
        let (t, b, m) = action_counts(&state);
        assert_eq!(t + b + m, p1, "league {league} P1");
        if league == 1 {
            let mut v = Vec::new();
            state.single_actions(&mut v);
            let cells: Vec<_> = v.iter().map(|a| state.command(a)).collect();
            let mut want = strings(&[
                "TRAIN 1 11 10",
                "TRAIN 1 10 11",
                "TRAIN 1 10 10",
                "TRAIN 1 11 9",
            ]);
            let mut got = cells.clone();
            got.sort();
            want.sort();
            assert_eq!(got, want);
        }
        if league == 4 {
            assert_eq!(b, 1, "BUILD TOWER 11 10");
        }
    }
}

const E4_ROWS: [&str; 12] = [
    "aaaa........",
    "...a........",
    "...ab.......",
    "....b.......",
    "....b.......",
    "....b.......",
    "....b.......",
    "....b.......",
    "....b.......",
    "....b.......",
    "....b......b",
    "....bbbbbbbb",
];

fn e4() -> GameState {
    Builder::new(4, &E4_ROWS, &[])
        .building(BuildingKind::Tower, 3, 1)
        .unit(1, 3, 0)
        .gold(1, 100)
        .gold(0, 0)
        .acting(7, 1)
        .build()
}

const E4_ANSWER: &str =
    "TRAIN 1 3 2;TRAIN 1 3 3;TRAIN 1 2 3;TRAIN 1 2 2;TRAIN 1 2 1;TRAIN 1 2 0;TRAIN 1 3 2;TRAIN 1 3 1;TRAIN 3 3 1;TRAIN 1 3 0";

#[test]
fn e4_chain_through_a_tower_line() {
    let state = e4();
    assert_eq!((state.income(0), state.income(1)), (5, 18));
    assert_eq!(action_counts(&state), (127, 17, 0));
    let mut referee = IceAndFireReferee::new(state);
    let request = referee.next_request().unwrap();
    assert_eq!(request.player, 1);
    referee.execute_line(E4_ANSWER);
    assert_eq!(
        log(&referee),
        strings(&[
            "P1 invalid [occupied_or_protected] TRAIN 1 3 2",
            "P1 ok train at 3,3",
            "P1 ok train at 2,3",
            "P1 ok train at 2,2",
            "P1 ok train at 2,1",
            "P1 ok train at 2,0",
            "P1 ok train at 3,2",
            "P1 invalid [occupied_or_protected] TRAIN 1 3 1",
            "P1 ok train at 3,1",
            "P1 invalid [occupied_or_protected] TRAIN 1 3 0",
        ])
    );
    let s = referee.state();
    assert_eq!((s.gold(1), s.income(1), s.income(0)), (10, -1, 2));
    let tower_killer = s.unit_at(c(3, 1)).unwrap();
    assert_eq!(
        (tower_killer.id, tower_killer.level, tower_killer.owner),
        (8, 3, 1)
    );
    assert!(s.building_at(c(3, 1)).is_none());
    assert_eq!(
        s.unit_at(c(3, 0)).map(|u| (u.owner, u.id)),
        Some((0, 1)),
        "R12.2: not removed yet"
    );
    assert_eq!((s.military_power(0), s.military_power(1)), (10, 100));
    // Ending the phase starts P0's: unit 1 dies (cut off) and P0 earns its income.
    referee.answer(1, &["WAIT".to_string()]);
    let request = referee.next_request().unwrap();
    assert_eq!(request.player, 0);
    // P0's first call: the initial line (no spots) comes first.
    assert_eq!(request.lines[..5], strings(&["0", "2", "2", "10", "-1"]));
    assert!(referee.state().unit_at(c(3, 0)).is_none());
    assert_eq!(log(&referee), strings(&["P0 turn-start deaths: 1 unit(s)"]));
}

#[test]
fn e4_lines_of_p0_after_the_cut() {
    let mut referee = IceAndFireReferee::new(e4());
    referee.next_request().unwrap();
    referee.answer(1, &[E4_ANSWER.to_string()]);
    let request = referee.next_request().unwrap();
    // First call of P0: "0" (no mine spots), then the phase lines.
    assert_eq!(request.lines[0], "0");
    assert_eq!(request.lines[1..5], strings(&["2", "2", "10", "-1"]));
    assert_eq!(request.lines[5], "OOXo........");
}

const E5_ROWS: [&str; 12] = [
    "aaa#........",
    "aaa#........",
    "aaa.........",
    ".bb.........",
    "............",
    "............",
    "............",
    "............",
    "............",
    "............",
    "........#..b",
    "........#..b",
];

fn e5(mirrored: bool) -> Builder {
    let b = Builder::with_symmetry(4, &E5_ROWS, &[], mirrored)
        .unit(1, 2, 0)
        .unit(2, 1, 2)
        .unit(1, 2, 2)
        .unit(2, 2, 3)
        .unit(1, 1, 3)
        .unit(1, 0, 2)
        .gold(0, 50)
        .gold(1, 50)
        .acting(3, 0);
    let mirrored = b.mirrored;
    let state = b.build();
    Builder { state, mirrored }
}

#[test]
fn e5_move_rules_in_both_seats() {
    for mirrored in [false, true] {
        let b = e5(mirrored);
        let (p, q) = (b.player(0), b.player(1));
        let m = |x: usize, y: usize| if mirrored { (11 - x, 11 - y) } else { (x, y) };
        let mv = |id: u32, x: usize, y: usize| {
            let (x, y) = m(x, y);
            format!("MOVE {id} {x} {y}")
        };
        let at = |x: usize, y: usize| {
            let (x, y) = m(x, y);
            format!("{x},{y}")
        };
        assert_eq!((b.state.income(p), b.state.income(q)), (2, 2));
        let answer = [
            mv(1, 4, 0),
            mv(3, 2, 3),
            mv(2, 1, 3),
            mv(3, 1, 4),
            mv(2, 0, 0),
            mv(6, 0, 2),
            mv(7, 0, 0),
            {
                let (x, y) = m(0, 3);
                format!("TRAIN 1 {x} {y}")
            },
            mv(7, 0, 4),
        ]
        .join(";");
        let mut referee = IceAndFireReferee::new(b.state.clone());
        assert_eq!(referee.next_request().unwrap().player, p);
        referee.execute_line(&answer);
        let want = vec![
            format!("P{p} invalid [bad_id] {}", mv(7, 0, 0)),
            format!("P{p} invalid [bad_id] {}", mv(7, 0, 4)),
            format!("P{p} ok move unit 1 -> {}", at(2, 1)),
            format!("P{p} invalid [occupied_or_protected] {}", mv(3, 2, 3)),
            format!("P{p} ok move unit 2 -> {}", at(1, 3)),
            format!("P{p} ok move unit 3 -> {}", at(1, 2)),
            format!("P{p} invalid [already_moved] {}", mv(2, 0, 0)),
            format!("P{p} invalid [no_step] {}", mv(6, 0, 2)),
            format!("P{p} ok train at {}", at(0, 3)),
        ];
        assert_eq!(log(&referee), want, "mirrored {mirrored}");
        let s = referee.state();
        assert_eq!(s.gold(p), 40);
        assert_eq!((s.income(p), s.income(q)), (3, 2));
        assert_eq!((s.military_power(p), s.military_power(q)), (100, 70));
        let cell_of = |id| s.unit_by_id(id).map(|u| (u.cell.x(), u.cell.y()));
        assert_eq!(cell_of(1), Some(m(2, 1)));
        assert_eq!(cell_of(2), Some(m(1, 3)));
        assert_eq!(cell_of(3), Some(m(1, 2)));
        assert_eq!(cell_of(5), None, "unit 5 was killed");
        assert_eq!(cell_of(7), Some(m(0, 3)));
    }
}

const E6_ROWS: [&str; 12] = [
    "aaa.........",
    "aa..........",
    "............",
    "............",
    "....a.......",
    ".....a......",
    "............",
    "............",
    "............",
    "............",
    "...........b",
    "...........b",
];

fn e6(gold: i32) -> GameState {
    let mut s = Builder::new(3, &E6_ROWS, &[(1, 0), (10, 11), (5, 5), (6, 6)])
        .building(BuildingKind::Mine, 1, 0)
        .building(BuildingKind::Mine, 5, 5)
        .unit(3, 0, 1)
        .unit(1, 1, 1)
        .unit(1, 4, 4)
        .gold(1, 20)
        .gold(0, gold)
        .acting(5, 0)
        .build();
    s.start_phase();
    s
}

#[test]
fn e6_income_and_bankruptcy() {
    let state = e6(11);
    let start = state.last_phase_start();
    assert_eq!((start.deaths, start.bankrupt), (3, true));
    let mut referee = IceAndFireReferee::new(state);
    let request = referee.next_request().unwrap();
    assert_eq!(
        request.lines[..5],
        strings(&["4", "1 0", "5 5", "6 6", "10 11"])
    );
    let lines = &request.lines[5..];
    assert_eq!(
        lines[..4],
        strings(&["0", "-12", "20", "2"]),
        "R12.5: the income line is stale"
    );
    assert_eq!(lines[4], "OOO.........");
    assert_eq!(lines[5], "OO..........");
    assert_eq!(lines[8], "....o.......");
    assert_eq!(lines[9], ".....o......");
    assert_eq!(
        lines[16..],
        strings(&["4", "0 0 0 0", "0 1 1 0", "0 1 5 5", "1 0 11 11", "0"])
    );
    assert_eq!(
        log(&referee),
        strings(&["P0 turn-start deaths: 3 unit(s) [bankruptcy]"])
    );
    referee.answer(0, &["WAIT".to_string()]);
    let request = referee.next_request().unwrap();
    assert_eq!(request.lines[5..9], strings(&["22", "2", "0", "9"]));

    let state = e6(12);
    assert_eq!((state.last_phase_start().deaths, state.gold(0)), (1, 0));
    let mut referee = IceAndFireReferee::new(state);
    let request = referee.next_request().unwrap();
    let units: Vec<_> = request.lines.iter().rev().take(3).rev().cloned().collect();
    assert_eq!(units, strings(&["2", "0 1 3 0 1", "0 2 1 1 1"]));
    referee.answer(0, &["WAIT".to_string()]);
    let request = referee.next_request().unwrap();
    assert_eq!(request.lines[5..9], strings(&["22", "2", "0", "-12"]));
}

const E7_ROWS: [&str; 12] = [
    "aaaaaaaaaaaa",
    ".........a..",
    ".........a..",
    ".........a..",
    ".........a..",
    ".........a..",
    ".........a..",
    ".........a..",
    ".........a..",
    ".........a..",
    ".........abb",
    ".........abb",
];

fn e7(league: u32, gold: i32, tower: bool) -> IceAndFireReferee {
    let mut b = Builder::new(league, &E7_ROWS, &[])
        .unit(1, 9, 11)
        .unit(1, 10, 11)
        .gold(0, gold)
        .gold(1, 20);
    if tower {
        b = b.building(BuildingKind::Tower, 11, 10);
    }
    let state = b.acting(9, 0).build();
    assert_eq!((state.income(0), state.income(1)), (22, 3));
    let mut referee = IceAndFireReferee::new(state);
    referee.next_request().unwrap();
    referee
}

#[test]
fn e7_kill_rule_per_league_and_hq_capture() {
    let answer_a = "MOVE 1 10 11;TRAIN 2 10 11;TRAIN 1 11 11;TRAIN 1 0 1".to_string();
    let mut r = e7(1, 50, false);
    r.answer(0, std::slice::from_ref(&answer_a));
    assert_eq!(
        log(&r),
        strings(&[
            "P0 invalid [league] TRAIN 2 10 11",
            "P0 ok move unit 1 -> 10,11",
            "P0 ok train at 11,11"
        ])
    );
    assert!(r.next_request().is_none());
    let outcome = r.outcome();
    assert_eq!(
        (outcome.scores.clone(), outcome.detail.as_str()),
        (vec![60, -1], "hq_captured_p1_lost")
    );
    assert_eq!(
        (outcome.ranks.clone(), outcome.end),
        (vec![1, 2], EndReason::Finished)
    );
    assert!(
        r.state().unit_at(c(0, 1)).is_none(),
        "the rest of the queue is dropped"
    );

    let mut r = e7(2, 50, false);
    r.answer(0, std::slice::from_ref(&answer_a));
    assert_eq!(
        log(&r),
        strings(&[
            "P0 invalid [occupied_or_protected] MOVE 1 10 11",
            "P0 ok train at 10,11",
            "P0 ok train at 11,11"
        ])
    );
    assert_eq!(r.outcome().scores, vec![60, -1]);

    let answer_b = "MOVE 1 10 11;TRAIN 2 10 11;TRAIN 1 11 11;TRAIN 3 11 11;TRAIN 1 0 1";
    let mut r = e7(4, 49, true);
    r.execute_line(answer_b);
    assert_eq!(
        log(&r),
        strings(&[
            "P0 invalid [occupied_or_protected] MOVE 1 10 11",
            "P0 ok train at 10,11",
            "P0 invalid [occupied_or_protected] TRAIN 1 11 11",
            "P0 invalid [no_gold] TRAIN 3 11 11",
            "P0 ok train at 0,1",
        ])
    );
    assert_eq!((r.state().gold(0), r.state().ending()), (19, None));

    let mut r = e7(4, 50, true);
    r.answer(0, &[answer_b.to_string()]);
    assert_eq!(r.state().ending(), Some(Ending::HqCaptured { loser: 1 }));
    assert_eq!(r.outcome().scores, vec![60, -1]);
}

#[test]
fn s3_5_worked_example_seed42() {
    let mut referee = IceAndFireReferee::new(GameState::new(42, League::new(4).unwrap()));
    let request = referee.next_request().unwrap();
    assert_eq!(
        (request.player, request.turn, request.lines.len()),
        (0, 1, 35)
    );
    assert_eq!(request.time_limit.as_millis(), 1000);
    assert_eq!(request.lines[15..19], strings(&["21", "1", "20", "2"]));
    let verdict = referee.answer(
        0,
        &["TRAIN 1 1 0;TRAIN 1 0 1;TRAIN 1 2 0;MSG go".to_string()],
    );
    assert_eq!(verdict.detail, "no_gold (TRAIN 1 2 0)");
    assert_eq!(
        log(&referee),
        strings(&[
            "P0 ok train at 1,0",
            "P0 ok train at 0,1",
            "P0 invalid [no_gold] TRAIN 1 2 0"
        ])
    );
    assert_eq!(referee.messages()[0], "go");
    assert_eq!(referee.state().gold(0), 1);
    let request = referee.next_request().unwrap();
    assert_eq!((request.player, request.lines.len()), (1, 37));
    assert_eq!(
        request.time_limit.as_millis(),
        1000,
        "R40: P1's first answer too"
    );
    assert_eq!(request.lines[15..19], strings(&["22", "2", "1", "1"]));
    assert!(request.lines[19].starts_with("XX.......###"));
    assert!(request.lines[20].starts_with("X.........##"));
    assert_eq!(
        request.lines[31..],
        strings(&["2", "0 0 11 11", "1 0 0 0", "2", "1 1 1 1 0", "1 2 1 0 1"])
    );
    referee.answer(1, &["WAIT".to_string()]);
    let request = referee.next_request().unwrap();
    assert_eq!(
        (request.player, request.turn, request.time_limit.as_millis()),
        (0, 2, 50)
    );
    assert_eq!(
        request.lines.len(),
        22,
        "no initial lines after the first call"
    );
}

#[test]
fn r14_an_inactive_tower_covers_only_its_own_cell() {
    // P0's tower at (3,1) is cut off from its HQ; its active neighbour (3,0)... is not P0's
    // active territory either, so take a tower next to an active cell of P0 that is inactive.
    let rows = [
        "aa.a........",
        "...a........",
        "...a........",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "...........b",
        "...........b",
    ];
    let s = Builder::new(4, &rows, &[])
        .building(BuildingKind::Tower, 3, 1)
        .acting(2, 1)
        .build();
    assert!(!s.is_active(c(3, 1)));
    assert!(s.protected(c(3, 1)), "a tower always covers its own cell");
    assert!(
        !s.protected(c(3, 0)) && !s.protected(c(3, 2)),
        "an inactive tower covers no neighbour"
    );
    assert!(
        !s.capturable(c(3, 1), 1, 2),
        "R15.2: a tower cell needs level 3 even when inactive"
    );
    assert!(s.capturable(c(3, 1), 1, 3));
    assert!(s.capturable(c(3, 2), 1, 1));
    // The same tower, active: its orthogonal own cells are covered, diagonals and neutral cells are not.
    let rows = [
        "aaaa........",
        "...a........",
        "...aa.......",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "...........b",
        "...........b",
    ];
    let s = Builder::new(4, &rows, &[])
        .building(BuildingKind::Tower, 3, 1)
        .unit(3, 3, 2)
        .acting(2, 1)
        .build();
    assert!(s.protected(c(3, 0)) && s.protected(c(3, 2)));
    assert!(!s.protected(c(4, 2)), "diagonal");
    assert!(
        !s.protected(c(2, 1)) && !s.protected(c(4, 1)),
        "neutral cells are never protected"
    );
    assert!(
        !s.capturable(c(3, 0), 1, 2),
        "R15.1: active and protected needs level 3"
    );
    assert!(
        s.capturable(c(3, 0), 1, 3),
        "level 3 enters protected cells"
    );
    assert!(s.capturable(c(3, 2), 1, 3), "level 3 kills level 3");
    assert!(!s.capturable(c(3, 2), 1, 2));
}

#[test]
fn r12_2_cut_off_units_die_at_their_owners_phase_start_only() {
    // P1 cuts P0's (2,0) off; P0's unit there survives P1's phase and dies when P0's starts.
    let rows = [
        "aaa.........",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "...........b",
        "...........b",
    ];
    let mut s = Builder::new(2, &rows, &[])
        .unit(1, 2, 0)
        .gold(1, 50)
        .acting(4, 1)
        .build();
    // A P1 unit trained at (1,0) is playable only through P1 territory; give P1 (1,1).
    s.set_owner(c(1, 1), Some(1));
    s.set_owner(c(1, 2), Some(1));
    s.refresh();
    assert!(
        s.try_train(1, c(1, 0)).is_err(),
        "(1,0) is not playable for P1 while (1,1) is inactive"
    );
    let mut s = Builder::new(2, &rows, &[])
        .unit(1, 2, 0)
        .gold(1, 50)
        .acting(4, 1)
        .build();
    s.set_owner(c(2, 1), Some(1));
    for y in 1..12 {
        s.set_owner(c(2, y), Some(1));
    }
    for x in 2..12 {
        s.set_owner(c(x, 11), Some(1));
    }
    s.refresh();
    assert_eq!(
        s.try_train(2, c(1, 0)),
        Err(realm_ice_and_fire::Invalid::NotPlayable)
    );
    assert_eq!(s.try_train(1, c(1, 1)), Ok(()));
    assert_eq!(
        s.try_train(1, c(1, 0)),
        Ok(()),
        "chained through the fresh cell (1,1)"
    );
    assert!(!s.active(0).has(c(2, 0)));
    assert!(
        s.unit_at(c(2, 0)).is_some(),
        "P0's cut-off unit stays during P1's phase"
    );
    assert!(
        !s.capturable(c(2, 0), 1, 1),
        "and still needs a higher level to kill (league 2)"
    );
    s.end_phase();
    assert!(s.unit_at(c(2, 0)).is_none());
    assert_eq!(s.last_phase_start().deaths, 1);
}

#[test]
fn r12_2_the_opponents_cut_off_units_survive_the_phase_start() {
    // Both players have a level-1 unit on a cut-off cell: P0 at (5,0), P1 at (5,11). When P1's
    // phase starts only P1's unit dies; P0's stays through P1's whole phase and dies when P0's
    // own phase starts.
    let rows = [
        "aaa..a......",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "............",
        "...........b",
        ".....b.....b",
    ];
    let state = Builder::new(2, &rows, &[])
        .unit(1, 5, 0)
        .unit(1, 5, 11)
        .gold(0, 30)
        .gold(1, 30)
        .acting(4, 0)
        .build();
    assert!(!state.active(0).has(c(5, 0)) && !state.active(1).has(c(5, 11)));
    let mut referee = IceAndFireReferee::new(state);
    referee.next_request().unwrap();
    referee.answer(0, &["WAIT".to_string()]);
    let request = referee.next_request().unwrap();
    assert_eq!(request.player, 1);
    assert_eq!(log(&referee), strings(&["P1 turn-start deaths: 1 unit(s)"]));
    let s = referee.state();
    assert!(s.unit_at(c(5, 11)).is_none(), "P1's own cut-off unit died");
    assert_eq!(
        s.unit_at(c(5, 0)).map(|u| (u.owner, u.level)),
        Some((0, 1)),
        "R12.2: the opponent's cut-off unit is not removed"
    );
    // P1 reads it: its cell is an inactive enemy cell and the unit is listed (owner 1 = enemy).
    let row0 = request.lines.iter().find(|l| l.starts_with("XXX")).unwrap();
    assert_eq!(row0, "XXX..x......");
    assert!(request
        .lines
        .iter()
        .any(|l| l.starts_with("1 ") && l.ends_with(" 1 5 0")));
    referee.answer(1, &["WAIT".to_string()]);
    referee.next_request().unwrap();
    assert_eq!(log(&referee), strings(&["P0 turn-start deaths: 1 unit(s)"]));
    assert!(referee.state().unit_at(c(5, 0)).is_none());
}

#[test]
fn r31_turn_limit_counts_units_cut_off_in_the_last_phase() {
    let rows = [
        "aaa.........",
        "..b.........",
        "..b.........",
        "..b.........",
        "..b.........",
        "..b.........",
        "..b.........",
        "..b.........",
        "..b.........",
        "..b.........",
        "..b........b",
        "..bbbbbbbbbb",
    ];
    let s = Builder::new(4, &rows, &[])
        .unit(2, 2, 0)
        .gold(0, 5)
        .gold(1, 40)
        .acting(100, 1)
        .build();
    let mut referee = IceAndFireReferee::new(s);
    referee.next_request().unwrap();
    referee.answer(1, &["TRAIN 1 1 1;TRAIN 1 1 0".to_string()]);
    assert!(referee.next_request().is_none());
    let s = referee.state();
    assert!(!s.active(0).has(c(2, 0)) && s.unit_at(c(2, 0)).is_some());
    let outcome = referee.outcome();
    assert_eq!(
        outcome.scores,
        vec![25, 40],
        "P0: 5 gold + 20 for the cut-off level-2 unit; P1: 20 + 2 units"
    );
    assert_eq!(
        (outcome.end, outcome.detail.as_str(), outcome.ranks),
        (EndReason::TurnLimit, "turn_limit", vec![2, 1])
    );
}

#[test]
fn r31_equal_military_power_is_a_draw() {
    let mut s = GameState::new(42, League::new(1).unwrap());
    s.set_phase(100, 0);
    s.set_gold(0, 7);
    s.set_gold(1, 7);
    let mut referee = IceAndFireReferee::new(s);
    referee.next_request().unwrap();
    referee.answer(0, &["WAIT".to_string()]);
    referee.next_request().unwrap();
    // P1 earns its income of 2 at its phase start; P0 does not get another phase.
    referee.answer(1, &["WAIT".to_string()]);
    assert!(referee.next_request().is_none());
    let outcome = referee.outcome();
    assert_eq!(outcome.scores, vec![7, 9]);
    let mut s = GameState::new(42, League::new(1).unwrap());
    s.set_phase(100, 1);
    s.set_gold(0, 9);
    s.set_gold(1, 9);
    s.end_phase();
    assert_eq!(s.ending(), Some(Ending::TurnLimit));
    let outcome = s.outcome();
    assert_eq!((outcome.scores, outcome.ranks), (vec![9, 9], vec![1, 1]));
}

#[test]
fn r34_an_unrecognised_piece_cancels_the_whole_line() {
    let mut referee = IceAndFireReferee::new(GameState::new(42, League::new(4).unwrap()));
    referee.next_request().unwrap();
    let verdict = referee.answer(
        0,
        &["TRAIN 1 1 0;MSG hi;TRAIN 1 0 1;train 1 0 1".to_string()],
    );
    assert!(verdict.is_fault());
    assert!(
        referee.state().unit_at(c(1, 0)).is_none(),
        "valid pieces before the bad one do not run"
    );
    assert!(referee.next_request().is_none());
    let outcome = referee.outcome();
    assert_eq!(
        (outcome.scores.clone(), outcome.detail.as_str()),
        (vec![-1, 20], "unrecognised_p0_lost")
    );
    assert_eq!(
        outcome.end,
        EndReason::Fault {
            player: 0,
            fault: realm_core::FaultKind::Malformed
        }
    );
    assert!(outcome.faults[0].is_some() && outcome.faults[1].is_none());
}

#[test]
fn r33_runner_faults_lose_as_a_timeout_with_the_precise_reason() {
    use realm_core::{Fault, FaultKind};
    for kind in [
        FaultKind::Timeout,
        FaultKind::Crashed,
        FaultKind::ClosedOutput,
        FaultKind::ClosedInput,
        FaultKind::OutputFlood,
    ] {
        let mut referee = IceAndFireReferee::new(GameState::new(7, League::new(4).unwrap()));
        referee.next_request().unwrap();
        referee.answer(0, &["TRAIN 1 1 0".to_string()]);
        let request = referee.next_request().unwrap();
        referee.fault(
            1,
            Fault {
                kind,
                turn: request.turn,
                detail: "no answer".into(),
            },
        );
        assert!(referee.next_request().is_none());
        let outcome = referee.outcome();
        assert_eq!(outcome.scores, vec![21, -1], "P0: 11 gold + a level-1 unit");
        // The END reason of §7 is the timeout's; the fault records what really happened.
        assert_eq!(outcome.detail, "timeout_p1_lost");
        assert_eq!(
            outcome.end,
            EndReason::Fault {
                player: 1,
                fault: kind
            }
        );
        assert_eq!(outcome.faults[1].as_ref().map(|f| f.kind), Some(kind));
        assert_eq!(
            referee.log().last().map(String::as_str),
            Some(format!("P1 fault [{}] no answer", kind.code()).as_str())
        );
    }
}

#[test]
fn r24_filters_and_r28_build_checks() {
    let mut referee = IceAndFireReferee::new(GameState::new(42, League::new(3).unwrap()));
    referee.next_request().unwrap();
    referee.answer(
        0,
        &[
            "TRAIN 0 1 1;TRAIN 4 1 1;MOVE 1 0 0;TRAIN 1 12 3;TRAIN 1 11 0;BUILD TOWER 0 0"
                .to_string(),
        ],
    );
    assert_eq!(
        log(&referee),
        strings(&[
            "P0 invalid [bad_level] TRAIN 0 1 1",
            "P0 invalid [bad_level] TRAIN 4 1 1",
            "P0 invalid [bad_id] MOVE 1 0 0",
            "P0 invalid [out_of_bounds] TRAIN 1 12 3",
            "P0 invalid [out_of_bounds] TRAIN 1 11 0",
            "P0 invalid [league] BUILD TOWER 0 0",
        ])
    );
    referee.next_request().unwrap();
    referee.answer(
        1,
        &["MOVE 1 1 1;BUILD MINE 11 10;BUILD TOWER 11 10;BUILD MINE 10 11".to_string()],
    );
    assert_eq!(
        log(&referee),
        strings(&[
            "P1 invalid [bad_id] MOVE 1 1 1",
            "P1 invalid [not_mine_spot] BUILD MINE 11 10",
            "P1 invalid [league] BUILD TOWER 11 10",
            "P1 invalid [not_owned] BUILD MINE 10 11",
        ])
    );
    assert_eq!(referee.state().gold(1), 22);
}
