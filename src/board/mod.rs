//! The board model: cells, their neighbours and lines ([`geometry`]), and sets of cells, in
//! the largest board's width ([`bits`]) and in as few words as a board needs ([`sets`]). It
//! sits below the IR: the checker and the IR describe boards with it, and the engine runs on
//! it.

pub mod bits;
pub mod cpu;
pub mod geometry;
pub mod pieces;
pub mod sets;

/// What a cell holds, as line patterns and the runner's cell sets see it: relative to the
/// player to move (or to the player a pattern is matched for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellClass {
    Friend,
    Opponent,
    Empty,
    Piece,
    /// The pieces of one kind (by its slot, after the players'), whoever moves.
    Kind(u8),
}
