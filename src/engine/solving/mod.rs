//! The solver's doors into the runner: a position's exact value and its moves in the
//! solver's order, for the boards whose sets fit the search table's keys.

pub mod judge;
pub mod search;

use crate::board::sets::Board;
use crate::engine::negamax::{self, Question};
use crate::engine::runner::{each_width, AnyRunner, Runner};
use crate::engine::state::State;
use crate::engine::step::RuleError;
use crate::ir::Game;

/// The solver's tree at `s`, with the judge a solve learnt into `table` if there is one, and
/// `s` as its root; None where the solver cannot take `s` (turns of several steps that it
/// cannot take whole, see [`search::solves_whole_turns`]; an agreement; the game over).
fn solver_at<'a, B: Board, const P: usize>(
    k: &'a Runner<B, P>,
    tables: &'a search::SolverTables<B>,
    game: &'a Game,
    s: &State,
    table: &search::Table,
) -> Option<(search::RunnerTree<'a, B, P>, search::Node<B, P>)> {
    if !(k.single_step || search::solves_whole_turns(game)) || s.agreeing || s.is_over() {
        return None;
    }
    let mut tree = search::RunnerTree::new(k, tables, game);
    search::recall(&mut tree, table);
    Some((tree, k.import(game, s)))
}

impl AnyRunner {
    /// The value of `s` for its mover with best play (see [`search`]), as `question` asks
    /// it. Inside a turn, the best of the turn's ends, and for [`Question::Whole`] the exact
    /// value. None where the solver cannot take `s` (see `solver_at`), where a turn met on
    /// the way was too wide to take whole, or where the board is beyond the search table's
    /// keys (128 cells: no board that large is solved).
    pub fn value(
        &self,
        game: &Game,
        s: &State,
        table: &mut search::Table,
        question: Question,
    ) -> Option<Result<f64, RuleError>> {
        fn run<B: Board, const P: usize>(
            k: &Runner<B, P>,
            game: &Game,
            s: &State,
            table: &mut search::Table,
            question: Question,
        ) -> Option<Result<f64, RuleError>> {
            let tables = search::SolverTables::new(k, game);
            let (mut tree, root) = solver_at(k, &tables, game, s, table)?;
            let answer = if root.0.steps > 0 {
                let (alpha, beta) = match question {
                    Question::Whole(_) => (f64::NEG_INFINITY, f64::INFINITY),
                    Question::Within(alpha, beta) => (alpha, beta),
                };
                search::inside_turn_value(&mut tree, table, &root, alpha, beta)
            } else {
                match question {
                    Question::Whole(aim) => search::learn(&mut tree, table, &root)
                        .and_then(|()| tree.order_from(table, &root))
                        .and_then(|()| negamax::exact_value_parallel(&mut tree, table, &root, aim)),
                    Question::Within(alpha, beta) => {
                        negamax::value(&mut tree, table, &root, None, alpha, beta, 0)
                    }
                }
            };
            // A turn too wide to take whole: the step-by-step search takes the game.
            if search::turns_too_wide(&tree) {
                return None;
            }
            Some(answer.map_err(|e| *e))
        }
        match self {
            AnyRunner::Narrow(k) => run(k, game, s, table, question),
            AnyRunner::Wide(k) => run(k, game, s, table, question),
            // Negamax between two players, on boards whose sets fit the table's keys.
            _ => None,
        }
    }

    /// The moves of `s` in the order the solver tries them, with their ranks (lower first):
    /// the best move `table` holds for `s` first, where one thread filled it; then by the
    /// judge that a solve learnt into `table`, or the count of replies. Where threads shared
    /// the table, its moves depend on how they ran, so the order is then a pure function of
    /// the position and the judge. Of moves that one of the board's symmetries maps onto each
    /// other where `s` is its own image, only the first is ranked. None where the solver
    /// cannot take `s`.
    pub fn ranks(
        &self,
        game: &Game,
        s: &State,
        table: &search::Table,
    ) -> Option<Result<Vec<(u64, usize)>, RuleError>> {
        fn run<B: Board, const P: usize>(
            k: &Runner<B, P>,
            game: &Game,
            s: &State,
            table: &search::Table,
        ) -> Option<Result<Vec<(u64, usize)>, RuleError>> {
            let tables = search::SolverTables::new(k, game);
            let (mut tree, root) = solver_at(k, &tables, game, s, table)?;
            Some(tree.ranks(table, &root).map_err(|e| *e))
        }
        match self {
            AnyRunner::Narrow(k) => run(k, game, s, table),
            AnyRunner::Wide(k) => run(k, game, s, table),
            _ => None,
        }
    }

    /// Per player, the cells of its pieces at `s` that no placement can capture again, as the
    /// solver's margin search counts them (see `search::stable`). None where it counts none:
    /// a game of another shape than one outflanking placement a turn, a line that can cross
    /// a piece one way only, a closing piece of the captured side, or joined edges.
    pub fn stable_pieces(&self, game: &Game, s: &State) -> Option<Vec<Vec<usize>>> {
        fn run<B: Board, const P: usize>(
            k: &Runner<B, P>,
            game: &Game,
            s: &State,
        ) -> Option<Vec<Vec<usize>>> {
            let tables = search::SolverTables::new(k, game);
            let stability = tables.stability.as_ref()?;
            let t = k.load(s);
            let (a, b) = (t.pieces[0], t.pieces[1]);
            let empty = k.playable & !(a | b);
            Some(
                [a, b]
                    .map(|side| stability.stable(side, empty).cells().collect())
                    .into(),
            )
        }
        // `stability` is made only for games of one outflanking placement a turn, which have
        // two players; every other runner has none.
        each_width!(self, k => run(k, game, s))
    }
}
