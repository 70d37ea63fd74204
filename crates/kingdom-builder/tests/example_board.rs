//! Spec 7.1: the statement's example board against the reference CSV (copies of the shared data
//! files kept in data/), plus the further checks of 7.1's table.

use realm_kingdom_builder::{
    groups, parse_board, run_scorer, score_card, score_castles, score_table, Board, Card, Cell,
    Component, LordsRule, Pos, ScoreFormat, ScoreOptions, ScoreRules,
};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/");

fn shared(name: &str) -> String {
    let path = format!("{DATA}{name}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

fn example() -> Board {
    parse_board(&shared("kingdom_builder_example_board.txt")).unwrap()
}

/// The CSV rows: label and the four values.
fn csv() -> Vec<(String, Vec<u32>)> {
    let text = shared("kingdom_builder_example_scores.csv");
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("scores,p1,p2,p3,p4"));
    lines
        .map(|line| {
            let mut fields = line.split(',');
            let label = fields.next().unwrap().to_string();
            let values = fields.map(|v| v.parse().unwrap()).collect::<Vec<u32>>();
            assert_eq!(values.len(), 4, "{line}");
            (label, values)
        })
        .collect()
}

fn rules() -> ScoreRules {
    ScoreRules::new(4)
}

#[test]
fn r16_r17_every_single_card_row_of_the_csv() {
    let board = example();
    let rows = csv();
    let mut checked = 0;
    for (label, values) in &rows {
        let got = if label == "core" {
            score_castles(&board, rules())
        } else if let Some(number) = label.strip_prefix('s') {
            let card = Card::from_number(number.parse().unwrap()).unwrap();
            score_card(&board, card, rules())
        } else {
            continue;
        };
        assert_eq!(&got, values, "row {label}");
        checked += 1;
    }
    assert_eq!(checked, 9);
}

#[test]
fn r18_every_combination_of_the_csv_through_the_library_and_the_command() {
    let board = example();
    let text = shared("kingdom_builder_example_board.txt");
    let mut checked = 0;
    for (label, values) in csv() {
        if label == "core" || label.starts_with('s') {
            continue;
        }
        let cards: Vec<Card> = label.split(' ').map(|c| c.parse().unwrap()).collect();
        assert_eq!(cards.len(), 3, "{label}");
        let table = score_table(&board, &cards, rules());
        assert_eq!(table.totals(), values, "combination {label}");

        // The command, once by numbers and once by names, prints the same totals.
        let expected = format!(
            "{}\n",
            values
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        for list in [
            label.replace(' ', ","),
            cards.iter().map(|c| c.name()).collect::<Vec<_>>().join(","),
        ] {
            let options = ScoreOptions {
                cards: Some(list.clone()),
                ..ScoreOptions::default()
            };
            assert_eq!(
                run_scorer(&text, &options).unwrap(),
                expected,
                "--cards {list}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 16);
}

#[test]
fn r19_the_statement_misprints_player_3_miners() {
    // The statement prints 8; the eleven settlements of R19's table touch a mountain.
    let board = example();
    assert_eq!(score_card(&board, Card::Miners, rules())[2], 11);
    let listed = [
        (0, 1),
        (1, 0),
        (2, 0),
        (10, 7),
        (10, 8),
        (10, 9),
        (11, 1),
        (16, 19),
        (17, 4),
        (18, 7),
        (19, 7),
    ];
    let touching: Vec<(usize, usize)> = board
        .cells()
        .filter(|&(pos, cell)| {
            cell == Cell::Settlement(3) && pos.neighbours().any(|n| board.cell(n) == Cell::Mountain)
        })
        .map(|(pos, _)| (pos.row, pos.col))
        .collect();
    assert_eq!(touching, listed);
}

#[test]
fn spec_6_4_exact_detail_output() {
    let text = shared("kingdom_builder_example_board.txt");
    let options = ScoreOptions {
        cards: Some("1,3,7".into()),
        format: ScoreFormat::Detail,
        ..ScoreOptions::default()
    };
    assert_eq!(
        run_scorer(&text, &options).unwrap(),
        "castles 18 0 15 12\n\
         discoverers 14 20 12 16\n\
         fishermen 13 21 10 5\n\
         hermits 7 5 6 29\n\
         total 52 46 43 62\n"
    );
}

#[test]
fn spec_7_1_settlement_and_quadrant_counts() {
    let board = example();
    let count = |cell: Cell| board.cells().filter(|&(_, c)| c == cell).count();
    let settlements: Vec<usize> = (1..=4).map(|d| count(Cell::Settlement(d))).collect();
    assert_eq!(settlements, [40, 39, 37, 40]);
    assert_eq!(count(Cell::Empty), 166);
    let quadrants: Vec<[usize; 4]> = (1..=4)
        .map(|d| {
            let mut q = [0; 4];
            for (pos, _) in board.cells().filter(|&(_, c)| c == Cell::Settlement(d)) {
                q[pos.quadrant()] += 1;
            }
            q
        })
        .collect();
    assert_eq!(
        quadrants,
        [
            [9, 6, 13, 12],
            [10, 15, 0, 14],
            [5, 5, 19, 8],
            [10, 11, 9, 10]
        ]
    );
}

#[test]
fn spec_7_1_lords_with_and_without_zero_counts() {
    let board = example();
    let plain = score_card(&board, Card::Lords, rules());
    let zero = score_card(
        &board,
        Card::Lords,
        ScoreRules {
            n_players: 4,
            lords: LordsRule::ZeroCountsRank,
        },
    );
    assert_eq!(plain, [18, 36, 12, 18]);
    assert_eq!(zero, plain);
}

#[test]
fn spec_7_1_group_sizes() {
    let board = example();
    let all = groups(&board, 4);
    let sizes = |player: u8| {
        let mut s: Vec<usize> = all
            .iter()
            .filter(|g| g.player == player)
            .map(|g| g.cells.len())
            .collect();
        s.sort_unstable_by(|a, b| b.cmp(a));
        s
    };
    assert_eq!(sizes(1), [9, 9, 6, 5, 5, 4, 2]);
    assert_eq!(sizes(2), [21, 11, 4, 2, 1]);
    assert_eq!(sizes(3), [16, 10, 5, 4, 1, 1]);
    let mut p4 = vec![4, 3, 3, 2, 2, 2, 2];
    p4.extend([1; 22]);
    assert_eq!(sizes(4), p4);
}

#[test]
fn spec_7_1_players_next_to_each_castle_and_special_hexes() {
    let board = example();
    let castles: Vec<(Pos, Vec<u8>)> = board
        .cells()
        .filter(|&(_, c)| c == Cell::Castle)
        .map(|(pos, _)| {
            let mut players: Vec<u8> = pos
                .neighbours()
                .filter_map(|n| board.cell(n).player())
                .collect();
            players.sort_unstable();
            players.dedup();
            (pos, players)
        })
        .collect();
    let expected = [
        ((1, 14), vec![1, 3, 4]),
        ((5, 12), vec![1, 3]),
        ((7, 5), vec![1, 4]),
        ((12, 3), vec![1, 3]),
        ((16, 18), vec![1, 3, 4]),
        ((17, 0), vec![1, 3, 4]),
    ];
    let expected: Vec<(Pos, Vec<u8>)> = expected
        .into_iter()
        .map(|((r, c), p)| (Pos::new(r, c), p))
        .collect();
    assert_eq!(castles, expected);
    let towns: Vec<Pos> = board
        .cells()
        .filter(|&(_, c)| c == Cell::Town)
        .map(|(pos, _)| pos)
        .collect();
    let expected_towns = [(2, 8), (4, 17), (6, 1), (11, 13), (15, 6), (15, 12)];
    assert_eq!(towns, expected_towns.map(|(r, c)| Pos::new(r, c)));
}

#[test]
fn spec_7_1_merchants_and_workers() {
    let board = example();
    assert_eq!(score_card(&board, Card::Workers, rules()), [16, 5, 10, 8]);
    assert_eq!(score_card(&board, Card::Merchants, rules()), [40, 8, 24, 0]);
    // Which special hexes each player links (the groups touching two or more of them).
    let linked = |player: u8| {
        let mut hexes: Vec<(usize, usize)> = groups(&board, 4)
            .into_iter()
            .filter(|g| g.player == player && g.specials.len() >= 2)
            .flat_map(|g| g.specials)
            .map(|p| (p.row, p.col))
            .collect();
        hexes.sort_unstable();
        hexes.dedup();
        hexes
    };
    let p1 = linked(1);
    assert_eq!(p1.len(), 10);
    assert!(!p1.contains(&(2, 8)) && !p1.contains(&(16, 18)));
    assert_eq!(linked(2), [(11, 13), (15, 12)]);
    assert_eq!(
        linked(3),
        [(1, 14), (5, 12), (11, 13), (12, 3), (15, 6), (17, 0)]
    );
    assert_eq!(linked(4), []);
}

#[test]
fn spec_7_1_knights_and_farmers_ties_do_not_change_gold() {
    // p2's best rows are 3, 4 and 5 (4 each); p3's weakest quadrants are Q1 and Q2 (5 each).
    let board = example();
    assert_eq!(score_card(&board, Card::Knights, rules()), [14, 8, 28, 10]);
    assert_eq!(score_card(&board, Card::Farmers, rules()), [18, 0, 15, 27]);
}

#[test]
fn all_ten_cards_table_in_order() {
    let board = example();
    let table = score_table(&board, &Card::ALL, rules());
    let names: Vec<&str> = table.rows().iter().map(|r| r.component.name()).collect();
    assert_eq!(
        names,
        [
            "castles",
            "discoverers",
            "knights",
            "fishermen",
            "miners",
            "lords",
            "farmers",
            "hermits",
            "citizens",
            "merchants",
            "workers"
        ]
    );
    assert_eq!(table.gold(Component::Castles), Some(&[18, 0, 15, 12][..]));
    // Sum of the CSV's per-card rows plus Merchants and Workers.
    assert_eq!(
        table.totals(),
        [
            18 + 14 + 14 + 13 + 4 + 18 + 18 + 7 + 4 + 40 + 16,
            20 + 8 + 21 + 12 + 36 + 5 + 10 + 8 + 5,
            15 + 12 + 28 + 10 + 11 + 12 + 15 + 6 + 8 + 24 + 10,
            12 + 16 + 10 + 5 + 4 + 18 + 27 + 29 + 2 + 8,
        ]
    );
}
