//! The hash maps of searches and perft: their keys are positions (bit patterns already well
//! spread), so the standard library's keyed, attack-resistant hash would only cost time; it
//! was a tenth of an alphabeta search's time on Reversi Go.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map keyed by positions, hashed by [`FoldHasher`].
pub type PositionMap<K, V> = HashMap<K, V, BuildHasherDefault<FoldHasher>>;

/// Multiplies and folds each word in.
#[derive(Default)]
pub struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(23) ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(u64::from(x));
    }
}
