//! Hexagonal Reversi: perft and seeded games against a second generator written here on
//! axial coordinates, and the hexagon's shape, neighbourhoods and groups.

use crate::common;
use crate::common::{engine, engine_from, play_alongside, step_names};
use outflank::agents::game_seed;
use outflank::engine::rng::Rng;

/// Reversi on a hexagon, independent of the engine: cells by axial coordinates (q, r) with
/// |q|, |r| and |q + r| at most side - 1; 0 empty, 1 black, 2 white.
#[derive(Clone)]
struct Hex {
    /// The grid column and row of the cell (0, 0), less one: `side - 1` on a hexagon, whose
    /// centre is (0, 0); -1 on a triangle, whose corner is.
    offset: i32,
    cells: std::collections::BTreeMap<(i32, i32), u8>,
    to_move: u8,
}

const DIRECTIONS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Hex {
    fn start(side: i32) -> Hex {
        let n = side - 1;
        let mut cells = std::collections::BTreeMap::new();
        for q in -n..=n {
            for r in -n..=n {
                if (q + r).abs() <= n {
                    cells.insert((q, r), 0);
                }
            }
        }
        // Around the centre, the colours alternating, black first to the east.
        for (i, d) in DIRECTIONS.iter().enumerate() {
            cells.insert(*d, if i % 2 == 0 { 1 } else { 2 });
        }
        Hex {
            offset: side - 1,
            cells,
            to_move: 1,
        }
    }

    /// A triangle of `side` cells a side, (q, r) with q, r >= 0 and q + r < side, with the
    /// hexagon's opening around (2, 2).
    fn triangle(side: i32) -> Hex {
        let mut cells = std::collections::BTreeMap::new();
        for q in 0..side {
            for r in 0..side - q {
                cells.insert((q, r), 0);
            }
        }
        for (i, (dq, dr)) in DIRECTIONS.iter().enumerate() {
            cells.insert((2 + dq, 2 + dr), if i % 2 == 0 { 1 } else { 2 });
        }
        Hex {
            offset: 0,
            cells,
            to_move: 1,
        }
    }

    fn flips(&self, at: (i32, i32), player: u8) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for (dq, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let mut c = (at.0 + dq, at.1 + dr);
            while let Some(&v) = self.cells.get(&c) {
                if v == 0 {
                    break;
                }
                if v == player {
                    out.extend(run.iter().copied());
                    break;
                }
                run.push(c);
                c = (c.0 + dq, c.1 + dr);
            }
        }
        out
    }

    fn moves(&self, player: u8) -> Vec<(i32, i32)> {
        let cells = self.cells.iter().filter(|(_, &v)| v == 0);
        cells
            .map(|(&c, _)| c)
            .filter(|&c| !self.flips(c, player).is_empty())
            .collect()
    }

    fn play(&mut self, at: Option<(i32, i32)>) {
        if let Some(c) = at {
            for f in self.flips(c, self.to_move) {
                self.cells.insert(f, self.to_move);
            }
            self.cells.insert(c, self.to_move);
        }
        self.to_move = 3 - self.to_move;
    }

    /// The engine's name of a cell: the grid column is q + offset, the row r + offset.
    fn name(&self, (q, r): (i32, i32)) -> String {
        let n = self.offset;
        format!("{}{}", (b'a' + (q + n) as u8) as char, r + n + 1)
    }
}

impl common::Oracle for Hex {
    type Move = (i32, i32);
    fn moves(&self) -> Vec<(i32, i32)> {
        Hex::moves(self, self.to_move)
    }
    fn over(&self) -> bool {
        Hex::moves(self, 1).is_empty() && Hex::moves(self, 2).is_empty()
    }
    fn play_move(&mut self, m: Option<(i32, i32)>) {
        self.play(m)
    }
}

#[test]
fn perft_matches_the_axial_generator() {
    for (side, depth) in [(3, 9), (4, 7), (5, 6), (7, 5)] {
        let size = side.to_string();
        let e = engine("games/hex-reversi.rules", &[("side", &size)]);
        let s = e.start().unwrap();
        let plain = Hex::start(side);
        for d in 1..=depth {
            assert_eq!(
                e.perft(&s, d).unwrap(),
                common::perft_of(&plain, d),
                "side {side} depth {d}"
            );
        }
    }
}

#[test]
fn seeded_games_agree_with_the_axial_generator() {
    let e = engine("games/hex-reversi.rules", &[]);
    let mut positions = 0;
    for game in 0..30 {
        let mut rng = Rng::new(game_seed(41, game));
        let what = format!("game {game}");
        let name = |h: &Hex, c| h.name(c);
        positions += play_alongside(&e, Hex::start(5), &mut rng, &what, name, |_, _| {});
    }
    assert!(positions > 1000, "{positions} positions");
}

#[test]
fn a_hexagon_has_six_neighbours_and_groups_join_along_them() {
    // A hexagon of side 3 is 19 cells on a 5 x 5 grid: the centre c3 has six neighbours,
    // a corner of the hexagon three.
    let cells = |cond: &str| cells_where("board hexagon 3", cond);
    assert_eq!(cells("true").len(), 19);
    assert_eq!(
        cells("c in neighbours(c3)"),
        ["b3", "b4", "c2", "c4", "d2", "d3"]
    );
    assert_eq!(
        cells("count(neighbours(c)) == 3"),
        ["a3", "a5", "c1", "c5", "e1", "e3"]
    );
    // Groups and liberties follow the six directions: b4 touches c3 (southwest of it), and
    // the pair has eight empty neighbours: b3 c2 c4 d2 d3 around c3, a4 a5 b5 around b4.
    let go = "board hexagon 3\nplayer black 'B'\nplayer white 'W'\nsetup {\n  black on c3, b4\n}\nturn {\n  choose c in empty where count(group(c3)) == 2 and count(liberties(group(c3))) == 8 { place c }\n}\nend when none(empty)\nscore p = count(p)\n";
    let e = engine_from(go);
    assert_eq!(step_names(&e, &e.start().unwrap()).len(), 17);
    // With 7 the condition fails everywhere: the only step is the pass of a blocked mover.
    let e = engine_from(&go.replace("== 8", "== 7"));
    assert_eq!(step_names(&e, &e.start().unwrap()), ["pass"]);
}

/// The cells where `cond` holds on `board`, found as the steps of a placement turn.
fn cells_where(board: &str, cond: &str) -> Vec<String> {
    let rules = format!("{board}\nplayer black 'B'\nplayer white 'W'\nturn {{\n  choose c in empty where {cond} {{ place c }}\n}}\nend when none(empty)\nscore p = count(p)\n");
    let e = engine_from(&rules);
    let mut names = step_names(&e, &e.start().unwrap());
    names.sort();
    names
}

#[test]
fn distance_and_rings_count_steps_between_hexagons() {
    // On the hexagon of side 3 (centre c3) every cell is at most two steps from the centre:
    // the six neighbours at one, the twelve of the rim at two.
    let hexagon = "board hexagon 3";
    assert_eq!(cells_where(hexagon, "distance(c, c3) == 1").len(), 6);
    assert_eq!(cells_where(hexagon, "c in ring(c3, 2)").len(), 12);
    assert_eq!(
        cells_where(hexagon, "distance(c, c3) == 1 and c in ring(c3, 1)"),
        ["b3", "b4", "c2", "c4", "d2", "d3"]
    );
    // Every cell's distance from b2, against the axial formula written here: with column q and
    // row r, the steps are the largest of |dq|, |dr| and |dq + dr|. So d4, two king steps
    // from b2 on the square grid, is four steps between hexagons.
    let name = |q: i32, r: i32| format!("{}{}", (b'a' + q as u8) as char, r + 1);
    for n in 1..=4i32 {
        let mut expected: Vec<String> = (0..5)
            .flat_map(|r: i32| (0..5).map(move |q: i32| (q, r)))
            // The hexagon of side 3 on its 5 x 5 grid.
            .filter(|&(q, r)| (2..=6).contains(&(q + r)))
            .filter(|&(q, r)| {
                let (dq, dr) = (q - 1, r - 1);
                dq.abs().max(dr.abs()).max((dq + dr).abs()) == n
            })
            .map(|(q, r)| name(q, r))
            .collect();
        expected.sort();
        assert_eq!(
            cells_where(hexagon, &format!("distance(c, b2) == {n}")),
            expected,
            "{n}"
        );
    }
}

/// Reversi on `board triangle 7`, opening as the generator's triangle does: black on d3 (east
/// of c3), c2 and b4, white on d2, b3 and c4.
const TRIANGLE_REVERSI: &str = r#"
    board triangle 7
    player black 'B'
    player white 'W'
    setup {
      black on d3, c2, b4
      white on d2, b3, c4
    }
    line outflank = opponent+ friend
    turn {
      choose c in empty where some(captured(outflank, c)) {
        place c
        flip captured(outflank, c)
      }
    }
    end when blocked
    score p = count(p)
"#;

#[test]
fn a_triangle_plays_reversi_as_the_axial_generator_does() {
    for e in [
        engine_from(TRIANGLE_REVERSI),
        engine_from(TRIANGLE_REVERSI).plain(),
    ] {
        let s = e.start().unwrap();
        for d in 1..=6 {
            let expected = common::perft_of(&Hex::triangle(7), d);
            assert_eq!(e.perft(&s, d).unwrap(), expected, "depth {d}");
        }
    }
    let mut positions = 0;
    for game in 0..20 {
        let mut rng = Rng::new(game_seed(43, game));
        let what = format!("game {game}");
        let name = |h: &Hex, c| h.name(c);
        let e = engine_from(TRIANGLE_REVERSI);
        positions += play_alongside(&e, Hex::triangle(7), &mut rng, &what, name, |_, _| {});
    }
    assert!(positions > 200, "{positions} positions");
}

#[test]
fn a_triangle_has_its_corners_and_the_rhombus_s_neighbours() {
    let triangle = "board triangle 7";
    assert_eq!(cells_where(triangle, "true").len(), 28);
    assert_eq!(
        cells_where(triangle, "count(neighbours(c)) == 2"),
        ["a1", "a7", "g1"]
    );
    // The cells of the three sides between the corners have four neighbours each.
    assert_eq!(
        cells_where(triangle, "count(neighbours(c)) == 4").len(),
        3 * 5
    );
    // Turned a third, it would not fit the grid: the mirror in the diagonal from a1 is the
    // one symmetry the rules keep.
    let e = engine_from(TRIANGLE_REVERSI);
    let names: Vec<&str> = e.game.symmetries.iter().map(|s| s.name).collect();
    assert_eq!(names, ["the mirror in the diagonal from a1"]);
}

#[test]
fn a_rhombus_is_the_whole_grid_with_six_neighbours() {
    let rhombus = "board rhombus 4";
    assert_eq!(cells_where(rhombus, "true").len(), 16);
    // An inner cell has six neighbours; the acute corners a1 and d4 two, the obtuse ones three.
    assert_eq!(
        cells_where(rhombus, "c in neighbours(b2)"),
        ["a2", "a3", "b1", "b3", "c1", "c2"]
    );
    assert_eq!(
        cells_where(rhombus, "count(neighbours(c)) == 2"),
        ["a1", "d4"]
    );
    assert_eq!(
        cells_where(rhombus, "count(neighbours(c)) == 3"),
        ["a4", "d1"]
    );
    // Two sides give a parallelogram.
    assert_eq!(cells_where("board rhombus 5 x 3", "true").len(), 15);
}

#[test]
fn joined_edges_carry_neighbours_distances_rings_and_groups() {
    let torus = "board 5 x 5 torus";
    let cylinder = "board 5 x 5 cylinder";
    // On a torus every cell has eight neighbours; a1's reach round both edges.
    assert_eq!(cells_where(torus, "count(neighbours(c)) == 8").len(), 25);
    assert_eq!(
        cells_where(torus, "c in neighbours(a1)"),
        ["a2", "a5", "b1", "b2", "b5", "e1", "e2", "e5"]
    );
    // On a cylinder the rows wrap but the top and bottom stay edges.
    assert_eq!(
        cells_where(cylinder, "c in neighbours(a1)"),
        ["a2", "b1", "b2", "e1", "e2"]
    );
    // Distance goes the shorter way round: e5 is one step from a1 on the torus.
    assert_eq!(
        cells_where(torus, "distance(c, a1) == 1"),
        cells_where(torus, "c in neighbours(a1)")
    );
    assert_eq!(
        cells_where(cylinder, "distance(c, a1) == 4"),
        ["a5", "b5", "c5", "d5", "e5"]
    );
    // On a 5 x 5 torus no cell is more than two steps away: the ring of 2 is the other 16.
    assert_eq!(cells_where(torus, "c in ring(a1, 2)").len(), 16);
    // A group joins across the edge: a3 and e3 are one group of two on the cylinder.
    let go = |board: &str| {
        format!("{board}\nplayer black 'B'\nplayer white 'W'\nsetup {{\n  black on a3, e3\n}}\nturn {{\n  choose c in empty where count(group(a3)) == 2 {{ place c }}\n}}\nend when none(empty)\nscore p = count(p)\n")
    };
    let e = engine_from(&go(cylinder));
    assert_eq!(step_names(&e, &e.start().unwrap()).len(), 23);
    let e = engine_from(&go("board 5 x 5"));
    assert_eq!(step_names(&e, &e.start().unwrap()), ["pass"]);
}
