//! The tables a runner reads, grouped by what reads them: the board's neighbourhoods, the end
//! checks and the slots of players and kinds. Built once, when the runner is made.

use crate::board::sets::Board;
use crate::ir::{Cond, Game, Num, PieceRole, Timing};
use std::sync::atomic::AtomicU8;

use super::shapes::{needs_blocked, reads_cond};

/// Where a step from each cell goes: the board's directions as shifts, the joined edges'
/// parts, the neighbourhoods and rings of each cell, which line matching and floods read.
pub(crate) struct Neighbours<B> {
    pub(crate) step_from: [B; 8],
    pub(crate) step_offset: [i32; 8],
    /// The steps across a wrapping board's joined edges (see `Geometry::wrapped_steps`).
    pub(crate) wrapped_steps: [Vec<(B, i32)>; 8],
    /// The board wraps: steps take `wrapped_steps` too, and lines walk cell by cell.
    pub(crate) wraps: bool,
    /// The orthogonal steps (the cells that can take each, and its offset): groups, their
    /// liberties and territory are flooded along them, a layer at a time.
    pub(crate) orthogonal: Vec<(B, i32)>,
    /// Per cell, its orthogonal neighbours: the first layers of a flood from one cell.
    pub(crate) orthogonal_around: Vec<B>,
    /// A step in all eight directions equals a step east or west, then north, south or not
    /// at all (true on boards without holes): four shifts instead of eight.
    pub(crate) eight_by_parts: bool,
    /// Per cell, its neighbours in all directions, orthogonal only and diagonal only.
    pub(crate) around: Vec<[B; 3]>,
    /// `rings[n][cell]`: the ring of cells `n` steps from `cell`, for the distances the
    /// rules ask for (empty for the others).
    pub(crate) rings: Vec<Vec<B>>,
    /// Per leap set of the rules, its leaps as parts a set is shifted by
    /// (`Geometry::leap_steps`).
    pub(crate) leaps: Vec<Vec<(B, i32)>>,
}

/// What the end conditions need asked, and when: after a step, at the turn's end, and
/// whether `blocked` is among them.
pub(crate) struct EndChecks<B> {
    pub(crate) ends_use_blocked: bool,
    /// Some end condition is checked after each step.
    pub(crate) ends_after_step: bool,
    /// The cells whose contents are all that the after-step end conditions read, when that is
    /// all they read: a step that changes none of them cannot make them hold.
    pub(crate) step_ends_read: Option<B>,
    /// The after-step end checks' answers by the contents of the cells they read, when those
    /// are few (see [`StepEndTable`]).
    pub(crate) step_end_table: Option<StepEndTable>,
    /// Every turn-boundary end condition needs `blocked`, so none can hold while the mover
    /// has a step: the common case skips the check.
    pub(crate) ends_need_blocked: bool,
}

/// Where the pieces of players and of kinds sit in a state's slots.
pub(crate) struct Slots {
    /// The slots of the kinds of piece that line patterns see as every player's friend, and
    /// of those they see as every player's opponent (games with kinds run on the builds of
    /// many slots, so these are empty where `P` is 2).
    pub(crate) friend_kinds: Vec<usize>,
    pub(crate) opponent_kinds: Vec<usize>,
    /// The game's number of players; the slots after them hold kinds of piece. Kept here
    /// beside the kinds' slots: read through the game, it cost Rolit 5% of its playouts.
    pub(crate) players: usize,
}

/// Answers of after-step end checks that read only a few cells (a target on corners and a
/// centre, say): what they say depends on those cells' contents and the mover alone, so each
/// answer is worked out once, the first time it is asked, and then read from the table. The
/// checks run after every step that changes those cells, and their expressions cost far more
/// than the lookup.
pub(crate) struct StepEndTable {
    cells: Vec<usize>,
    /// The contents a cell may have: empty or a piece of one of the slots (players' and
    /// kinds').
    base: usize,
    /// By `index`: 0 not yet known, 1 no end, 2 an end with no winner named, 3 + p winner p.
    answers: Vec<AtomicU8>,
}

impl StepEndTable {
    /// Tables of up to this many answers (2 x 3^10 for two players, 118 KB).
    const MAX_ANSWERS: usize = 2 * 3usize.pow(10);

    /// The table for after-step ends that read the cells `read`, when it is small enough.
    fn new<B: Board>(read: B, players: u8, slots: u8) -> Option<StepEndTable> {
        let cells: Vec<usize> = read.cells().collect();
        let base = slots as usize + 1;
        let size = (players as usize).checked_mul(base.checked_pow(cells.len() as u32)?)?;
        (size <= Self::MAX_ANSWERS).then(|| StepEndTable {
            answers: (0..size).map(|_| AtomicU8::new(0)).collect(),
            base,
            cells,
        })
    }

    /// The answer's slot for `mover` and the slots' `pieces`: its place is the mover, then
    /// each cell's contents (0 empty, 1 + its owner).
    #[inline(always)]
    pub(crate) fn slot<B: Board, const P: usize>(&self, mover: u8, pieces: &[B; P]) -> &AtomicU8 {
        let base = if P == 2 { 3 } else { self.base };
        let index = self.cells.iter().fold(mover as usize, |i, &c| {
            let code = if P == 2 {
                usize::from(pieces[0].contains(c)) + 2 * usize::from(pieces[1].contains(c))
            } else {
                (0..P).find(|&p| pieces[p].contains(c)).map_or(0, |p| p + 1)
            };
            i * base + code
        });
        &self.answers[index]
    }

    pub(crate) fn encode(answer: Option<Option<u8>>) -> u8 {
        match answer {
            None => 1,
            Some(None) => 2,
            Some(Some(p)) => 3 + p,
        }
    }

    pub(crate) fn decode(code: u8) -> Option<Option<u8>> {
        match code {
            1 => None,
            2 => Some(None),
            c => Some(Some(c - 3)),
        }
    }
}

impl<B: Board> Neighbours<B> {
    /// The steps and neighbourhoods of `game`'s board (`eight_by_parts` is left false: the
    /// runner finds it by stepping with its own context).
    pub(crate) fn new(game: &Game) -> Self {
        let g = &game.geometry;
        Neighbours {
            step_from: g.step_from.map(|b| B::from_bits(&b)),
            step_offset: g.step_offset,
            wrapped_steps: g
                .wrapped_steps
                .each_ref()
                .map(|parts| parts.iter().map(|(b, o)| (B::from_bits(b), *o)).collect()),
            wraps: g.wrap.any(),
            // Groups connect along `g.connect`: the orthogonal steps on a square board, all six
            // on a hexagonal one (whose other two directions have no cells to step from).
            orthogonal: g
                .connect
                .iter()
                .flat_map(|d| g.steps(d))
                .map(|(from, offset)| (B::from_bits(&from), offset))
                .collect(),
            orthogonal_around: g
                .around
                .iter()
                .map(|a| B::from_bits(&a[usize::from(!g.hex)]))
                .collect(),
            eight_by_parts: false,
            rings: (0..=game.ring_distances.iter().copied().max().unwrap_or(0))
                .map(|n| {
                    if !game.ring_distances.contains(&n) {
                        return Vec::new();
                    }
                    (0..g.cells())
                        .map(|c| g.ring(c, n).fold(B::EMPTY, |out, r| out | B::single(r)))
                        .collect()
                })
                .collect(),
            around: g
                .around
                .iter()
                .map(|a| a.each_ref().map(B::from_bits))
                .collect(),
            leaps: (game.leaps.iter())
                .map(|vectors| {
                    (g.leap_steps(vectors).iter())
                        .map(|(from, offset)| (B::from_bits(from), *offset))
                        .collect()
                })
                .collect(),
        }
    }
}

impl<B: Board> EndChecks<B> {
    /// When `game`'s end conditions are checked, and what shortens the checks (none of it
    /// when `plain`).
    pub(crate) fn new(game: &Game, plain: bool) -> Self {
        let ends_after_step = game.ends.iter().any(|e| e.timing == Timing::AfterStep);
        let ends_need_blocked = !plain
            && game
                .ends
                .iter()
                .filter(|e| e.timing == Timing::AfterTurn)
                .all(|e| needs_blocked(&e.condition));
        let step_ends_read = game
            .ends
            .iter()
            .filter(|e| e.timing == Timing::AfterStep)
            .try_fold(B::EMPTY, |m, e| Some(m | reads_cond::<B>(&e.condition)?))
            // Without after-step ends there is nothing to keep track of.
            .filter(|_| !plain && ends_after_step);
        EndChecks {
            ends_after_step,
            step_ends_read,
            step_end_table: step_ends_read
                .and_then(|r| StepEndTable::new(r, game.player_count(), game.slot_count())),
            ends_need_blocked,
            ends_use_blocked: game
                .ends
                .iter()
                .any(|e| e.timing == Timing::AfterTurn && uses_blocked(&e.condition)),
        }
    }
}

impl Slots {
    /// The slots of `game`'s kinds of piece, by the part line patterns see them play.
    pub(crate) fn new(game: &Game) -> Self {
        let kinds_as = |role| {
            (game.kinds.iter().enumerate())
                .filter(|(_, k)| k.role == Some(role))
                .map(|(i, _)| game.players.len() + i)
                .collect()
        };
        Slots {
            friend_kinds: kinds_as(PieceRole::Friend),
            opponent_kinds: kinds_as(PieceRole::Opponent),
            players: game.players.len(),
        }
    }
}

/// Whether a condition asks `blocked` (which costs move generation for both players).
fn uses_blocked(c: &Cond) -> bool {
    match c {
        Cond::Blocked => true,
        Cond::Not(a) => uses_blocked(a),
        Cond::And(a, b) | Cond::Or(a, b) => uses_blocked(a) || uses_blocked(b),
        Cond::Num(_, a, b) => num_uses_blocked(a) || num_uses_blocked(b),
        _ => false,
    }
}

fn num_uses_blocked(n: &Num) -> bool {
    match n {
        Num::If(c, a, b) => uses_blocked(c) || num_uses_blocked(a) || num_uses_blocked(b),
        Num::Add(a, b) | Num::Sub(a, b) | Num::Mul(a, b) | Num::Div(a, b) => {
            num_uses_blocked(a) || num_uses_blocked(b)
        }
        Num::Neg(a) => num_uses_blocked(a),
        _ => false,
    }
}
