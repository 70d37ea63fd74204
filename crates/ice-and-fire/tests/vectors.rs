//! Replays the reference data in tests/data/ice_and_fire_vectors/ (a byte-for-byte copy of the
//! project's shared test vectors, so a clean clone tests on its own), plus every game file dropped
//! into ../shared/data/ice_and_fire_vectors/ when that folder exists next to the repository:
//! every map of maps_league3plus.txt in all four leagues (the shared file when present, else the
//! vendored one), and every game_*.txt file through the referee (input lines, end reason, scores,
//! and the commentary of every verdict when the file has commentary, §7 step 4).

use std::path::{Path, PathBuf};

use realm_core::{MatchSpec, Referee};
use realm_ice_and_fire::geom::{Cell, SIZE};
use realm_ice_and_fire::{new_referee, IceAndFireReferee, League, Map};

fn vectors_dir() -> PathBuf {
    Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/ice_and_fire_vectors"
    ))
    .to_path_buf()
}

fn render(map: &Map) -> (Vec<String>, String) {
    let rows = (0..SIZE)
        .map(|y| {
            (0..SIZE)
                .map(|x| {
                    let c = Cell::new(x, y);
                    if !map.is_playable(c) {
                        '#'
                    } else if (x, y) == (0, 0) {
                        '0'
                    } else if (x, y) == (11, 11) || (x, y) == (11, 10) {
                        '1'
                    } else if map.spots().has(c) {
                        'M'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let spots: Vec<String> = map
        .spots()
        .iter()
        .map(|c| format!("{},{}", c.x(), c.y()))
        .collect();
    let mines = format!("mines {} {}", spots.len(), spots.join(" "))
        .trim_end()
        .to_string();
    (rows, mines)
}

/// Stops the test on a broken data file, naming the file and the 1-based line.
fn broken(path: &Path, line: usize, what: &str) -> ! {
    panic!("{}:{}: {what}", path.display(), line + 1)
}

/// The maps file: the project's shared copy when the repository sits next to it, else the
/// vendored one.
fn maps_file() -> PathBuf {
    shared_vectors_dir()
        .map(|dir| dir.join("maps_league3plus.txt"))
        .filter(|path| path.is_file())
        .unwrap_or_else(|| vectors_dir().join("maps_league3plus.txt"))
}

/// One block of the maps file: the seed, the 12 rows and the `mines ...` line.
struct MapBlock {
    seed: i64,
    rows: Vec<String>,
    mines: String,
}

fn parse_maps(path: &Path) -> Vec<MapBlock> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim().is_empty() {
            i += 1;
            continue;
        }
        let Some(seed) = lines[i].strip_prefix("seed ") else {
            broken(path, i, "expected `seed <java long>`");
        };
        let seed: i64 = seed
            .trim()
            .parse()
            .unwrap_or_else(|_| broken(path, i, "the seed is not a Java long"));
        if i + 13 >= lines.len() {
            broken(path, i, "the block has fewer than 12 rows and a mines line");
        }
        let rows: Vec<String> = lines[i + 1..i + 13].iter().map(|s| s.to_string()).collect();
        for (k, row) in rows.iter().enumerate() {
            let ok = row.len() == SIZE && row.chars().all(|c| "#.M01".contains(c));
            if !ok {
                broken(path, i + 1 + k, "expected 12 characters of `#.M01`");
            }
        }
        let mines = lines[i + 13].trim_end().to_string();
        let words: Vec<&str> = mines.split(' ').collect();
        let count_ok = words.len() >= 2
            && words[0] == "mines"
            && words[1].parse::<usize>().ok() == Some(words.len() - 2);
        if !count_ok {
            broken(path, i + 13, "expected `mines <count> x,y ...`");
        }
        blocks.push(MapBlock { seed, rows, mines });
        i += 14;
    }
    blocks
}

#[test]
fn r9_every_reference_map_in_every_league() {
    let path = maps_file();
    let blocks = parse_maps(&path);
    // The spec's file has 80 blocks; more may be added.
    assert!(
        blocks.len() >= 80,
        "{}: {} blocks",
        path.display(),
        blocks.len()
    );
    for MapBlock { seed, rows, mines } in &blocks {
        for league in [3, 4] {
            let (got_rows, got_mines) = render(&Map::generate(*seed, League::new(league).unwrap()));
            assert_eq!(&got_rows, rows, "seed {seed} league {league}");
            assert_eq!(&got_mines, mines, "seed {seed} league {league}");
        }
        let plain: Vec<String> = rows.iter().map(|r| r.replace('M', ".")).collect();
        for league in [1, 2] {
            let (got_rows, got_mines) = render(&Map::generate(*seed, League::new(league).unwrap()));
            assert_eq!(got_rows, plain, "seed {seed} league {league}");
            assert_eq!(got_mines, "mines 0", "seed {seed} league {league}");
        }
    }
}

#[test]
fn the_maps_parser_reads_extra_blocks_and_names_broken_lines() {
    let dir = std::env::temp_dir();
    let path = dir.join(format!("ice-and-fire-maps-{}.txt", std::process::id()));
    let vendored = std::fs::read_to_string(vectors_dir().join("maps_league3plus.txt")).unwrap();
    let first_block: Vec<&str> = vendored.lines().take(14).collect();
    std::fs::write(&path, format!("{vendored}\n{}\n", first_block.join("\n"))).unwrap();
    assert_eq!(parse_maps(&path).len(), 81);
    std::fs::write(&path, "seed 3\n0M.\n").unwrap();
    let err = std::panic::catch_unwind(|| parse_maps(&path))
        .err()
        .expect("a broken maps file panics");
    let message = err.downcast_ref::<String>().unwrap().clone();
    std::fs::remove_file(&path).unwrap();
    assert!(
        message.ends_with(":1: the block has fewer than 12 rows and a mines line"),
        "{message}"
    );
}

/// One reference game: header, blocks, the commentary (empty when the file has none) and the
/// END line.
struct Vector {
    seed: i64,
    league: u32,
    blocks: Vec<Block>,
    comments: Vec<String>,
    end: (String, [i64; 2]),
}

struct Block {
    turn: u32,
    player: usize,
    input: Vec<String>,
    answer: String,
}

/// Reads a game file in the format of spec §7: `//` commentary (with or without a space after
/// the slashes), `TURN t PLAYER p` / `IN n` / n lines / `OUT answer` blocks (a bare `OUT` is the
/// empty answer) and the `END` line. A broken file stops the test naming the file and line.
fn parse_vector(path: &Path) -> Vector {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let lines: Vec<&str> = text.lines().collect();
    let number = |i: usize, word: Option<&str>| -> i64 {
        word.and_then(|w| w.parse().ok())
            .unwrap_or_else(|| broken(path, i, "expected a number"))
    };
    let header: Vec<&str> = lines
        .first()
        .and_then(|l| l.strip_prefix("//"))
        .unwrap_or_else(|| broken(path, 0, "expected `// seed S league L`"))
        .split_whitespace()
        .collect();
    if header.len() != 4 || header[0] != "seed" || header[2] != "league" {
        broken(path, 0, "expected `// seed S league L`");
    }
    let seed = number(0, Some(header[1]));
    let league = number(0, Some(header[3])) as u32;
    let mut blocks = Vec::new();
    let mut comments = Vec::new();
    let mut end = None;
    let mut i = 1;
    while i < lines.len() {
        let line = lines[i];
        if let Some(c) = line.strip_prefix("//") {
            comments.push(c.strip_prefix(' ').unwrap_or(c).to_string());
            i += 1;
        } else if line.starts_with("TURN ") {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() != 4 || w[2] != "PLAYER" {
                broken(path, i, "expected `TURN t PLAYER p`");
            }
            let (turn, player) = (number(i, Some(w[1])), number(i, Some(w[3])));
            let n = match lines.get(i + 1).and_then(|l| l.strip_prefix("IN ")) {
                Some(n) => number(i + 1, Some(n.trim())) as usize,
                None => broken(path, i + 1, "expected `IN n`"),
            };
            let out_at = i + 2 + n;
            let answer = match lines.get(out_at) {
                Some(&"OUT") => "",
                Some(out) => out
                    .strip_prefix("OUT ")
                    .unwrap_or_else(|| broken(path, out_at, "expected `OUT answer`")),
                None => broken(path, out_at, "the file ends inside a block"),
            };
            blocks.push(Block {
                turn: turn as u32,
                player: player as usize,
                input: lines[i + 2..out_at].iter().map(|s| s.to_string()).collect(),
                answer: answer.to_string(),
            });
            i = out_at + 1;
        } else if line.starts_with("END ") {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() != 5 || w[2] != "scores" {
                broken(path, i, "expected `END reason scores s0 s1`");
            }
            end = Some((
                w[1].to_string(),
                [number(i, Some(w[3])), number(i, Some(w[4]))],
            ));
            i += 1;
        } else if line.trim().is_empty() {
            i += 1;
        } else {
            broken(path, i, "unexpected line");
        }
    }
    Vector {
        seed,
        league,
        blocks,
        comments,
        end: end.unwrap_or_else(|| broken(path, lines.len(), "no END line")),
    }
}

fn replay(path: &Path) {
    let v = parse_vector(path);
    let spec = MatchSpec::new("ice-and-fire", 2, v.seed as u64).with_league(v.league);
    let mut referee = IceAndFireReferee::new(realm_ice_and_fire::GameState::new(
        v.seed,
        League::new(v.league).unwrap(),
    ));
    // The catalog entry point builds the same referee.
    assert!(new_referee(&spec).is_ok());
    let mut comments = Vec::new();
    for (k, block) in v.blocks.iter().enumerate() {
        let name = format!(
            "{path:?} block {k} (TURN {} PLAYER {})",
            block.turn, block.player
        );
        let request = referee
            .next_request()
            .unwrap_or_else(|| panic!("{name}: the game ended early"));
        assert_eq!(
            (request.turn, request.player),
            (block.turn, block.player),
            "{name}"
        );
        assert_eq!(request.lines.len(), block.input.len(), "{name}: line count");
        for (j, (got, want)) in request.lines.iter().zip(&block.input).enumerate() {
            assert_eq!(got, want, "{name}: input line {j}");
        }
        comments.extend(referee.log().iter().cloned());
        let before = referee.log().len();
        if block.answer == "<timeout>" {
            // D12: no answer within the time limit (the fault line is not commentary).
            let fault = realm_core::Fault {
                kind: realm_core::FaultKind::Timeout,
                turn: block.turn,
                detail: "no answer".into(),
            };
            referee.fault(block.player, fault);
        } else {
            referee.answer(block.player, std::slice::from_ref(&block.answer));
            comments.extend(referee.log()[before..].iter().cloned());
        }
    }
    assert!(
        referee.next_request().is_none(),
        "{path:?}: the game goes on after the last block"
    );
    let outcome = referee.outcome();
    assert_eq!(outcome.detail, v.end.0, "{path:?}: end reason");
    assert_eq!(outcome.scores, v.end.1.to_vec(), "{path:?}: scores");
    // Step 4 of §7 is optional: a file without commentary is checked on its text and result.
    if v.comments.is_empty() {
        return;
    }
    for (j, (got, want)) in comments.iter().zip(&v.comments).enumerate() {
        assert_eq!(got, want, "{path:?}: commentary line {j}");
    }
    assert_eq!(
        comments.len(),
        v.comments.len(),
        "{path:?}: commentary length"
    );
}

/// Replays `file` up to the block `TURN turn PLAYER player` and starts that phase.
fn replay_until(file: &str, turn: u32, player: usize) -> IceAndFireReferee {
    let v = parse_vector(&vectors_dir().join(file));
    let mut referee = IceAndFireReferee::new(realm_ice_and_fire::GameState::new(
        v.seed,
        League::new(v.league).unwrap(),
    ));
    for block in &v.blocks {
        let request = referee.next_request().expect("the game goes on");
        if (block.turn, block.player) == (turn, player) {
            assert_eq!(request.lines, block.input);
            return referee;
        }
        referee.answer(block.player, std::slice::from_ref(&block.answer));
    }
    panic!("{file} has no block TURN {turn} PLAYER {player}");
}

#[test]
fn e9_legal_action_counts_in_reference_games() {
    for (file, turn, player, counts) in [
        ("game_seed42_league1.txt", 20, 0, (29, 0, 25)),
        ("game_seed7_league2.txt", 20, 0, (48, 0, 37)),
        ("game_seed42_league3.txt", 15, 1, (147, 1, 18)),
        ("game_seed42_league4.txt", 10, 1, (25, 12, 15)),
        ("game_seed7_league4_turnlimit.txt", 50, 0, (0, 0, 3)),
        ("game_seed7_league4_turnlimit.txt", 50, 1, (119, 30, 23)),
    ] {
        let referee = replay_until(file, turn, player);
        let mut actions = Vec::new();
        referee.state().single_actions(&mut actions);
        let n =
            |f: fn(&realm_ice_and_fire::Action) -> bool| actions.iter().filter(|a| f(a)).count();
        let got = (
            n(|a| matches!(a, realm_ice_and_fire::Action::Train { .. })),
            n(|a| matches!(a, realm_ice_and_fire::Action::Build { .. })),
            n(|a| matches!(a, realm_ice_and_fire::Action::Move { .. })),
        );
        assert_eq!(got, counts, "{file} TURN {turn} PLAYER {player}");
        assert_eq!(
            referee.state().count_single_actions() as usize,
            actions.len()
        );
    }
}

/// The whole protocol text of a game between built-in bots, in the vector format.
fn playthrough(seed: i64, league: u32, names: [&str; 2]) -> String {
    use realm_core::{Bot, LinesInput};
    let mut referee = IceAndFireReferee::new(realm_ice_and_fire::GameState::new(
        seed,
        League::new(league).unwrap(),
    ));
    let mut bots: Vec<Box<dyn Bot>> = names
        .iter()
        .enumerate()
        .map(|(i, n)| realm_ice_and_fire::new_bot(n, i as u64 + 1, None).unwrap())
        .collect();
    let mut out = vec![format!("// seed {seed} league {league}")];
    while let Some(request) = referee.next_request() {
        out.extend(referee.log().iter().map(|l| format!("// {l}")));
        out.push(format!("TURN {} PLAYER {}", request.turn, request.player));
        out.push(format!("IN {}", request.lines.len()));
        out.extend(request.lines.iter().cloned());
        let answer = bots[request.player]
            .play_turn(&mut LinesInput::new(&request.lines))
            .unwrap();
        out.push(format!("OUT {}", answer[0]));
        let before = referee.log().len();
        referee.answer(request.player, &answer);
        out.extend(referee.log()[before..].iter().map(|l| format!("// {l}")));
    }
    let outcome = referee.outcome();
    out.push(format!(
        "END {} scores {} {}",
        outcome.detail, outcome.scores[0], outcome.scores[1]
    ));
    out.push(String::new());
    out.join("\n")
}

#[test]
fn golden_playthrough_greedy_vs_random() {
    let path = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/playthroughs/greedy_vs_random_seed3_league4.txt"
    ));
    let text = playthrough(3, 4, ["greedy", "random"]);
    if std::env::var("REALM_BLESS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &text).unwrap();
    }
    let golden = std::fs::read_to_string(path).expect("golden file (REALM_BLESS=1 writes it)");
    for (i, (got, want)) in text.lines().zip(golden.lines()).enumerate() {
        assert_eq!(got, want, "line {}", i + 1);
    }
    assert_eq!(text.lines().count(), golden.lines().count());
    // The golden file is also a valid vector: replaying its answers gives the same game.
    replay(path);
}

/// The project's shared vectors folder, when the repository sits next to it.
fn shared_vectors_dir() -> Option<PathBuf> {
    let dir = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/ice_and_fire_vectors"
    ));
    dir.is_dir().then(|| dir.to_path_buf())
}

fn game_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("game_") && name.ends_with(".txt")
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_reference_game_replays_exactly() {
    let files = game_files(&vectors_dir());
    assert!(
        files.len() >= 7,
        "expected the 7 reference games, found {}",
        files.len()
    );
    for file in &files {
        replay(file);
    }
}

#[test]
fn every_game_dropped_into_the_shared_folder_replays_exactly() {
    let Some(dir) = shared_vectors_dir() else {
        eprintln!("no ../shared/data/ice_and_fire_vectors next to the repository; the vendored copy is checked by every_reference_game_replays_exactly");
        return;
    };
    for file in game_files(&dir) {
        replay(&file);
    }
}

#[test]
fn d12_timeout_blocks_replay_as_runner_faults() {
    let mut referee = IceAndFireReferee::new(realm_ice_and_fire::GameState::new(
        42,
        League::new(4).unwrap(),
    ));
    let request = referee.next_request().unwrap();
    let mut text = vec![
        "// seed 42 league 4".to_string(),
        "TURN 1 PLAYER 0".to_string(),
    ];
    text.push(format!("IN {}", request.lines.len()));
    text.extend(request.lines);
    text.push("OUT <timeout>".to_string());
    text.push("END timeout_p0_lost scores -1 20".to_string());
    let path = std::env::temp_dir().join(format!("ice-and-fire-d12-{}.txt", std::process::id()));
    std::fs::write(&path, text.join("\n") + "\n").unwrap();
    replay(&path);
    std::fs::remove_file(&path).unwrap();
}

/// Writes `lines` to a temporary vector file, runs `check` on it and removes it.
fn with_vector_file(name: &str, lines: &[String], check: impl FnOnce(&Path)) {
    let path = std::env::temp_dir().join(format!("ice-and-fire-{name}-{}.txt", std::process::id()));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&path)));
    std::fs::remove_file(&path).unwrap();
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// The first phase of seed 42, league 4, as a vector block answered by `out_line`.
fn first_block(out_line: &str) -> Vec<String> {
    let mut referee = IceAndFireReferee::new(realm_ice_and_fire::GameState::new(
        42,
        League::new(4).unwrap(),
    ));
    let request = referee.next_request().unwrap();
    let mut lines = vec!["TURN 1 PLAYER 0".to_string()];
    lines.push(format!("IN {}", request.lines.len()));
    lines.extend(request.lines);
    lines.push(out_line.to_string());
    lines
}

/// §7 step 4 is optional: a file without commentary replays on its text and result alone; a
/// bare `OUT` is the empty answer; `//` needs no space after it.
#[test]
fn vectors_without_commentary_or_with_terse_lines_replay() {
    // The empty line is unrecognised (R23.5): P0 loses at once.
    let end = "END unrecognised_p0_lost scores -1 20".to_string();
    let mut plain = vec!["// seed 42 league 4".to_string()];
    plain.extend(first_block("OUT"));
    plain.push(end.clone());
    with_vector_file("plain", &plain, |path| {
        let v = parse_vector(path);
        assert_eq!((v.blocks.len(), v.comments.len()), (1, 0));
        assert_eq!(v.blocks[0].answer, "");
        replay(path);
    });
    let mut terse = vec!["//seed 42 league 4".to_string()];
    terse.extend(first_block("OUT"));
    terse.push("//P0 fatal [unrecognised] ".to_string());
    terse.push(end);
    with_vector_file("terse", &terse, |path| {
        assert_eq!(parse_vector(path).comments, ["P0 fatal [unrecognised] "]);
        replay(path);
    });
    // Commentary that is present is still compared.
    let mut wrong = terse.clone();
    let at = wrong.len() - 2;
    wrong[at] = "// P0 ok move unit 1 -> 1,1".to_string();
    with_vector_file("wrong", &wrong, |path| {
        let failure = std::panic::catch_unwind(|| replay(path));
        assert!(failure.is_err(), "a wrong commentary line must fail");
    });
}

#[test]
fn a_broken_vector_file_names_its_line() {
    let mut lines = vec!["// seed 42 league 4".to_string()];
    lines.extend(first_block("OUT WAIT"));
    lines[2] = "IN many".to_string();
    with_vector_file("broken", &lines, |path| {
        let panic = std::panic::catch_unwind(|| parse_vector(path))
            .err()
            .expect("a broken vector file panics");
        let message = panic.downcast_ref::<String>().unwrap();
        assert!(message.ends_with(":3: expected a number"), "{message}");
    });
}

/// R22–R23 against OpenJDK 17 (see tests/vectors/README.md).
#[test]
fn r23_parsing_agrees_with_java_on_recorded_cases() {
    use realm_ice_and_fire::protocol::{parse_line, Command};
    let unhex = |s: &str| -> String {
        s.split('.')
            .filter(|h| !h.is_empty())
            .map(|h| char::from_u32(u32::from_str_radix(h, 16).unwrap()).unwrap())
            .collect()
    };
    let hex = |s: &str| {
        s.chars()
            .map(|c| format!("{:x}", c as u32))
            .collect::<Vec<_>>()
            .join(".")
    };
    let text = include_str!("vectors/java_parse_cases.txt");
    let mut n = 0;
    for line in text.lines() {
        let (h, want) = line.split_once('\t').unwrap();
        let got = match parse_line(&unhex(h)) {
            Err(bad) => format!("F:{}", hex(bad)),
            Ok(pieces) => pieces
                .iter()
                .map(|(c, _)| match c {
                    Command::Wait => "W".to_string(),
                    Command::Msg(m) => format!("S:{}", hex(m)),
                    Command::Move { id, x, y } => format!("M:{id},{x},{y}"),
                    Command::Train { level, x, y } => format!("T:{level},{x},{y}"),
                    Command::Build { kind, x, y } => format!("B:{},{x},{y}", kind.name()),
                })
                .collect::<Vec<_>>()
                .join("|"),
        };
        assert_eq!(got, want, "case {h}");
        n += 1;
    }
    assert_eq!(n, 2000);
}
