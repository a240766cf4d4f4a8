//! `swap`: the two players exchange sides, pieces, counters and tokens. Othello with the pie
//! rule (the second player may, on its first turn, take the first player's side instead of
//! moving) is checked against a generator written here.

use crate::common;
use crate::common::engine_from;

const PIE_OTHELLO: &str = r#"
    board 6 x 6
    player black 'B'
    player white 'W'
    setup {
      white on c3, d4
      black on d3, c4
    }
    line outflank = opponent+ friend
    turn {
      choose {
        c in empty where some(captured(outflank, c)) {
          place c
          flip captured(outflank, c)
        }
        "swap" where turn == 2 {
          swap
        }
      }
    }
    end when blocked
    score p = count(p)
"#;

/// Othello 6x6 with the pie rule, without outflank: 0 empty, 1 black, 2 white.
#[derive(Clone)]
struct Pie {
    cells: [u8; 36],
    to_move: u8,
    /// The turn about to be played, from 1.
    turn: u32,
}

#[derive(Clone, Copy)]
enum PieMove {
    Place(usize),
    Swap,
}

impl Pie {
    fn start() -> Pie {
        let mut cells = [0; 36];
        // c3 and d4 white, d3 and c4 black (row 3 is the third from the top).
        for (x, y, p) in [(2, 2, 2), (3, 3, 2), (3, 2, 1), (2, 3, 1)] {
            cells[y * 6 + x] = p;
        }
        Pie {
            cells,
            to_move: 1,
            turn: 1,
        }
    }

    fn flips(&self, at: usize, p: u8) -> Vec<usize> {
        let (x0, y0) = ((at % 6) as i32, (at / 6) as i32);
        let mut out = Vec::new();
        for (dx, dy) in [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ] {
            let mut run = Vec::new();
            let (mut x, mut y) = (x0 + dx, y0 + dy);
            while (0..6).contains(&x) && (0..6).contains(&y) {
                let c = (y * 6 + x) as usize;
                match self.cells[c] {
                    0 => break,
                    v if v == p => {
                        out.extend(&run);
                        break;
                    }
                    _ => run.push(c),
                }
                x += dx;
                y += dy;
            }
        }
        out
    }

    fn moves_of(&self, p: u8) -> Vec<PieMove> {
        let mut out: Vec<PieMove> = (0..36)
            .filter(|&c| self.cells[c] == 0 && !self.flips(c, p).is_empty())
            .map(PieMove::Place)
            .collect();
        if self.turn == 2 {
            out.push(PieMove::Swap);
        }
        out
    }
}

impl common::Oracle for Pie {
    type Move = PieMove;
    fn moves(&self) -> Vec<PieMove> {
        self.moves_of(self.to_move)
    }
    fn over(&self) -> bool {
        self.moves_of(1).is_empty() && self.moves_of(2).is_empty()
    }
    fn play_move(&mut self, m: Option<PieMove>) {
        match m {
            Some(PieMove::Place(c)) => {
                for f in self.flips(c, self.to_move) {
                    self.cells[f] = self.to_move;
                }
                self.cells[c] = self.to_move;
            }
            Some(PieMove::Swap) => {
                for v in &mut self.cells {
                    if *v != 0 {
                        *v = 3 - *v;
                    }
                }
            }
            None => {}
        }
        self.to_move = 3 - self.to_move;
        self.turn += 1;
    }
}

#[test]
fn othello_with_the_pie_rule_counts_as_the_generator_does() {
    for e in [engine_from(PIE_OTHELLO), engine_from(PIE_OTHELLO).plain()] {
        let s = e.start().unwrap();
        for d in 1..=6 {
            assert_eq!(
                e.perft(&s, d).unwrap(),
                common::perft_of(&Pie::start(), d),
                "depth {d}"
            );
        }
    }
    // Black's four openings, then each of white's three replies or the swap.
    let e = engine_from(PIE_OTHELLO);
    assert_eq!(e.perft(&e.start().unwrap(), 2).unwrap(), 4 * (3 + 1));
}

#[test]
fn a_swap_gives_each_player_the_other_s_pieces_counters_and_tokens() {
    let e = engine_from(
        r#"
        board 4 x 1
        player black 'B'
        player white 'W'
        counter placed = 0
        token crown
        turn {
          choose {
            c in empty where turn == 1 {
              place c
              add placed 1
              take crown
            }
            "swap" where turn == 2 {
              swap
            }
          }
        }
        end when turn > 2
        score p = count(p)
        "#,
    );
    let after = e.play_history(&e.start().unwrap(), "b1 swap").unwrap();
    // Black's piece, counter and crown are white's now.
    assert_eq!(e.position_rows(&after), ".W..");
    let extra: Vec<String> = e
        .extra(&after)
        .iter()
        .map(|(name, value)| format!("{name}: {value}"))
        .collect();
    assert_eq!(extra, ["crown: white", "placed: black 0, white 1"]);
}
