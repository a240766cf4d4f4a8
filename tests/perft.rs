//! Perft counts: the published Othello values, BrainKing's first plies worked out by hand, and
//! deeper counts checked against the independent generator in tests/common.

use crate::common::{engine, Plain};

#[test]
fn othello_matches_published_perft() {
    // Published values for the standard start (forced pass = one ply, ended game = one leaf).
    let published = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    let e = engine("games/othello.rules", &[]);
    let s = e.start().unwrap();
    for (i, &n) in published.iter().enumerate() {
        assert_eq!(e.perft(&s, i as u32 + 1).unwrap(), n, "depth {}", i + 1);
    }
}

/// Worked out from the rules: any of the 4 centre squares, then 3, 2, 1 (4! = 24 openings).
/// After them Black has 2 discs and White 2. If Black's are diagonal (8 of the 24 orders) the
/// position is an Othello cross with 4 outflanking replies; if they are side by side (16 orders)
/// Black again has exactly 4 (two straight, two diagonal). So depth 5 = 24 * 4 = 96.
#[test]
fn brainking_first_plies_by_reasoning() {
    for size in ["6x6", "8x8", "10x10"] {
        let e = engine(&format!("games/reversi-{size}.rules"), &[]);
        let s = e.start().unwrap();
        let counts: Vec<u64> = (1..=5).map(|d| e.perft(&s, d).unwrap()).collect();
        assert_eq!(counts, [4, 12, 24, 24, 96], "reversi-{size}");
    }
}

/// Perft of `file` (with `size` set, if given) at every depth up to `depth` equals the
/// independent generator's from `plain`.
fn perft_matches(file: &str, size: Option<usize>, plain: Plain, depth: u32) {
    let size_text = size.map(|n| n.to_string());
    let set: Vec<(&str, &str)> = size_text.iter().map(|n| ("size", n.as_str())).collect();
    let e = engine(file, &set);
    let s = e.start().unwrap();
    for d in 1..=depth {
        assert_eq!(
            e.perft(&s, d).unwrap(),
            plain.perft(d),
            "{file} {size:?} depth {d}"
        );
    }
}

#[test]
fn brainking_deeper_perft_matches_independent_generator() {
    for (file, size, depth) in [("6x6", 6, 8), ("8x8", 8, 7), ("10x10", 10, 6)] {
        let file = format!("games/reversi-{file}.rules");
        perft_matches(&file, None, Plain::brainking(size), depth);
    }
}

#[test]
fn othello_on_other_sizes_matches_independent_generator() {
    for (size, depth) in [(4usize, 12u32), (6, 7), (10, 5)] {
        perft_matches(
            "games/othello.rules",
            Some(size),
            Plain::othello(size),
            depth,
        );
    }
}

#[test]
fn gravity_othello_matches_independent_generator() {
    // Gravity leaves few drops a turn (about 3.6), so the depths go far.
    for (size, depth) in [(4usize, 16u32), (6, 15), (8, 15)] {
        let plain = Plain::gravity(size);
        perft_matches("games/gravity-othello.rules", Some(size), plain, depth);
    }
    // Black's two first drops on 8 x 8 (d6 and f8, see the file's first example).
    let e = engine("games/gravity-othello.rules", &[]);
    assert_eq!(e.perft(&e.start().unwrap(), 1).unwrap(), 2);
}

#[test]
fn cylinder_and_torus_othello_match_independent_generator() {
    // Where lines start: rotations of one word up to 64 cells, walks beyond (10 x 10 takes
    // two words). Each placement's captures come from the moved frame at every size here.
    for (size, depth) in [(4usize, 12u32), (6, 7), (8, 6), (10, 5)] {
        let cylinder = Plain::wrapped(size, false);
        perft_matches("games/cylinder-othello.rules", Some(size), cylinder, depth);
        let torus = Plain::wrapped(size, true);
        perft_matches("games/torus-othello.rules", Some(size), torus, depth);
    }
}

#[test]
fn jokers_and_stones_match_independent_generator() {
    // Jokers on f4 and c7, stones on c4 and g6 (see the files). The first file gives the
    // jokers the role of a friend; the second gives them none, and a second line names them
    // as the end of a run.
    for file in ["joker-and-stones", "kinds-in-lines"] {
        let plain = Plain::othello(8).with_pieces(&[(5, 3), (2, 6)], &[(2, 3), (6, 5)]);
        let file = format!("tests/fixtures/valid/{file}.rules");
        let e = engine(&file, &[]);
        assert_eq!(e.board_rows(&e.start().unwrap()), plain.rows());
        perft_matches(&file, None, plain, 8);
    }
}

#[test]
fn octagon_othello_matches_independent_generator() {
    perft_matches("games/octagon-othello.rules", None, Plain::octagon(), 7);
}

#[test]
fn divide_sums_to_perft() {
    let e = engine("games/othello.rules", &[]);
    let s = e.start().unwrap();
    let split = e.perft_divide(&s, 5).unwrap();
    let names: Vec<&str> = split.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    // The start is symmetric: each first move leads to the same count.
    assert!(split.iter().all(|(_, n)| *n == 1396 / 4));
}

/// The speed yardstick in benches/ (a hand-written Othello, run by benches/vs-reference.sh) is
/// only worth comparing with if it plays the same game: built here without machine-specific
/// instructions, its perft must give the published counts.
#[test]
fn the_reference_engine_counts_the_published_perft() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let binary = dir.join("reference-othello");
    let built = std::process::Command::new("cc")
        .args(["-O2", "-Wall", "-Wextra", "-Werror", "-Wno-psabi", "-o"])
        .arg(&binary)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/benches/reference-othello.c"
        ))
        .output()
        .expect("a C compiler (cc), which cargo needs for linking anyway");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let published = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    for (i, n) in published.iter().enumerate() {
        let depth = (i + 1).to_string();
        let o = std::process::Command::new(&binary)
            .args(["perft", &depth])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            text.starts_with(&format!("reference: perft {depth} = {n} leaves")),
            "{text}"
        );
    }
    let o = std::process::Command::new(&binary)
        .args(["playouts", "0.05"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    // Random games of standard Othello last about 60 moves (passes included).
    let plies: f64 = text
        .split('(')
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!((55.0..66.0).contains(&plies), "{text}");
}
