//! The game crates keep byte-for-byte copies of the project's shared data files (tile tables,
//! shapes, reference vectors) so a clean clone builds and tests on its own. When the shared
//! folder sits next to the repository (../shared/data), every copy must still equal it.

use std::path::{Path, PathBuf};

const WORKSPACE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// (copy inside the repository, name in ../shared/data)
const COPIES: &[(&str, &str)] = &[
    (
        "crates/kingdomino/data/kingdomino_tiles.csv",
        "kingdomino_tiles.csv",
    ),
    (
        "crates/blocking/data/blocking_shapes.txt",
        "blocking_shapes.txt",
    ),
    (
        "crates/carcassonne/data/carcassonne_tiles.csv",
        "carcassonne_tiles.csv",
    ),
    (
        "crates/kingdom-builder/data/kingdom_builder_example_board.txt",
        "kingdom_builder_example_board.txt",
    ),
    (
        "crates/kingdom-builder/data/kingdom_builder_example_scores.csv",
        "kingdom_builder_example_scores.csv",
    ),
    (
        "crates/ice-and-fire/tests/data/ice_and_fire_vectors",
        "ice_and_fire_vectors",
    ),
];

fn files_under(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .flat_map(|e| files_under(&e.unwrap().path()))
        .collect();
    files.sort();
    files
}

#[test]
fn every_copy_exists_in_the_repository() {
    for (copy, _) in COPIES {
        let path = Path::new(WORKSPACE).join(copy);
        assert!(
            !files_under(&path).is_empty(),
            "{} is missing",
            path.display()
        );
    }
}

#[test]
fn copies_equal_the_shared_data_when_it_is_present() {
    let shared = Path::new(WORKSPACE).join("../shared/data");
    if !shared.is_dir() {
        eprintln!("no ../shared/data next to the repository; nothing to compare");
        return;
    }
    for (copy, name) in COPIES {
        let copy = Path::new(WORKSPACE).join(copy);
        let original = shared.join(name);
        let relative = |root: &Path, files: Vec<PathBuf>| -> Vec<PathBuf> {
            files
                .into_iter()
                .map(|f| f.strip_prefix(root).unwrap().to_path_buf())
                .collect()
        };
        let copied = relative(&copy, files_under(&copy));
        let shared_files = relative(&original, files_under(&original));
        assert_eq!(copied, shared_files, "{name}: different file lists");
        // A single file has one empty relative path; joining it would add a trailing slash.
        let under = |root: &Path, file: &Path| {
            if file.as_os_str().is_empty() {
                root.to_path_buf()
            } else {
                root.join(file)
            }
        };
        for file in &copied {
            assert!(
                std::fs::read(under(&copy, file)).unwrap()
                    == std::fs::read(under(&original, file)).unwrap(),
                "{}: the copy differs from ../shared/data",
                under(Path::new(name), file).display()
            );
        }
    }
}
