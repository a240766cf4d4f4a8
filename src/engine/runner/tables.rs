//! The tables a runner reads, grouped by what reads them: the board's neighbourhoods, the end
//! checks, the solver's orders and the slots of players and kinds. Built once, with the
//! runner (`Runner::new`).

use super::search::Stability;
use super::StepEndTable;

/// Where a step from each cell goes: the board's directions as shifts, the joined edges'
/// parts, the neighbourhoods and rings of each cell, which line matching and floods read.
pub(super) struct Neighbours<B> {
    pub(super) step_from: [B; 8],
    pub(super) step_offset: [i32; 8],
    /// The steps across a wrapping board's joined edges (see `Geometry::wrapped_steps`).
    pub(super) wrapped_steps: [Vec<(B, i32)>; 8],
    /// The board wraps: steps take `wrapped_steps` too, and lines walk cell by cell.
    pub(super) wraps: bool,
    /// The orthogonal steps (the cells that can take each, and its offset): groups, their
    /// liberties and territory are flooded along them, a layer at a time.
    pub(super) orthogonal: Vec<(B, i32)>,
    /// Per cell, its orthogonal neighbours: the first layers of a flood from one cell.
    pub(super) orthogonal_around: Vec<B>,
    /// A step in all eight directions equals a step east or west, then north, south or not
    /// at all (true on boards without holes): four shifts instead of eight.
    pub(super) eight_by_parts: bool,
    /// Per cell, its neighbours in all directions, orthogonal only and diagonal only.
    pub(super) around: Vec<[B; 3]>,
    /// `rings[n][cell]`: the ring of cells `n` steps from `cell`, for the distances the
    /// rules ask for (empty for the others).
    pub(super) rings: Vec<Vec<B>>,
}

/// What the end conditions need asked, and when: after a step, at the turn's end, and
/// whether `blocked` is among them.
pub(super) struct EndChecks<B> {
    pub(super) ends_use_blocked: bool,
    /// Some end condition is checked after each step.
    pub(super) ends_after_step: bool,
    /// The cells whose contents are all that the after-step end conditions read, when that is
    /// all they read: a step that changes none of them cannot make them hold.
    pub(super) step_ends_read: Option<B>,
    /// The after-step end checks' answers by the contents of the cells they read, when those
    /// are few (see [`StepEndTable`]).
    pub(super) step_end_table: Option<StepEndTable>,
    /// Every turn-boundary end condition needs `blocked`, so none can hold while the mover
    /// has a step: the common case skips the check.
    pub(super) ends_need_blocked: bool,
}

/// What the solver orders and bounds its search by: cells by exposure and by quarter of the
/// board, and the stable discs of a game of the direct shape.
pub(super) struct SolverTables<B> {
    /// The playable cells in classes by their number of playable neighbours, fewest first:
    /// the solver tries those placements first (a cell with few neighbours has few ways to
    /// be outflanked, so taking it tends to be good, and good moves first cut the search).
    pub(super) by_exposure: Vec<B>,
    /// The playable cells in four quarters, split at the board's middle row and column. In
    /// its last stretch the solver tries first the placements in quarters with an odd number
    /// of empty cells: a placement there leaves the quarter even, so that as the turns
    /// alternate the mover tends to have its last placement (on Othello 6x6, 6% fewer
    /// positions).
    pub(super) quarters: [B; 4],
    /// Per cell, the index of its class in [`SolverTables::by_exposure`] (`u8::MAX` off the
    /// playable cells).
    pub(super) exposure_class: Vec<u8>,
    /// The axes along which the margin search finds pieces that can no longer be captured
    /// (see `search::stable`), for a [`Direct`] game whose runs never end on the captured side.
    pub(super) stability: Option<Stability<B>>,
}

/// Where the pieces of players and of kinds sit in a state's slots.
pub(super) struct Slots {
    /// The slots of the kinds of piece that line patterns see as every player's friend, and
    /// of those they see as every player's opponent (games with kinds run on the builds of
    /// many slots, so these are empty where `P` is 2).
    pub(super) friend_kinds: Vec<usize>,
    pub(super) opponent_kinds: Vec<usize>,
    /// The game's number of players; the slots after them hold kinds of piece. Kept here
    /// beside the kinds' slots: read through the game, it cost Rolit 5% of its playouts.
    pub(super) players: usize,
}
