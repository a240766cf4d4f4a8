//! Lowering at load time: what the runner takes from a compiled game before it runs a turn.
//! The shapes of turn program it knows ([`shapes`]), the lines compiled to shifts and masks
//! ([`lines`], with the symmetries and rays they are built from), and the tables of the
//! board's neighbourhoods, the end checks and the slots ([`tables`]). Nothing here runs a
//! turn: the runner ([`super::runner`]) reads these.

pub(crate) mod lines;
mod rays;
mod rotations;
pub(crate) mod shapes;
pub(crate) mod tables;
mod translations;
