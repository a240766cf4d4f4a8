//! The applications the commands share, built on the engine and the agents: self-play series
//! with their statistics and a designer's metrics (split into shards and merged), solving, game
//! records and the formats players keep them in (transcripts, GGF, SGF), board diagrams, and running the `example` blocks of a rules file. None reads or
//! writes files; the command line does.

pub mod analysis;
pub mod examples;
pub mod formats;
pub mod lettering;
pub mod record;
pub mod render;
pub mod selfplay;
pub mod shards;
pub mod solve;
