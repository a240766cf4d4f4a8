//! The hot paths allocate nothing per generated move: random playouts, with the fast paths
//! and as a plain run, and the listing of legal steps into a reused buffer. Counted by a global allocator that tallies the
//! allocations of the thread that makes them (the tests of this file run in parallel threads).

use crate::common::{engine, game_files};
use outflank::agents::game_seed;
use outflank::engine::rng::Rng;
use outflank::engine::Engine;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every call is passed on to the system allocator unchanged; the count is a
// thread-local cell with a constant initialiser, which allocates nothing itself.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

/// Allocations made by `f`, and what it returns.
fn counted<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = allocations();
    let out = f();
    (allocations() - before, out)
}

/// Seeded random playouts from the start: the allocations they made and the steps played.
fn playouts(e: &Engine, games: u64) -> (u64, u64) {
    let start = e.start().unwrap();
    let (n, steps) = counted(|| {
        (0..games)
            .map(|g| {
                let mut rng = Rng::new(game_seed(9, g));
                e.random_playout(&start, &mut rng, u64::MAX).unwrap().1
            })
            .sum::<u64>()
    });
    (n, steps)
}

#[test]
fn random_playouts_allocate_nothing_per_step() {
    for file in game_files() {
        let fast = engine(&file, &[]);
        let slow = Engine::new(fast.game.clone()).plain();
        for (runner, e) in [("the fast paths", &fast), ("the plain run", &slow)] {
            // The first playouts may fill lazily built tables (the after-step end answers).
            playouts(e, 3);
            let (n, steps) = playouts(e, 20);
            assert!(steps > 20 * 30, "{file}: {steps} steps");
            // Nothing at all, on either.
            let most = 0;
            assert!(
                n <= most,
                "{file} on {runner}: {n} allocations in {steps} steps"
            );
        }
    }
}

#[test]
fn listing_legal_steps_into_a_reused_buffer_allocates_nothing() {
    for file in game_files() {
        let e = engine(&file, &[]);
        let mut rng = Rng::new(5);
        let mut s = e.start().unwrap();
        let mut buf = Vec::with_capacity(1024);
        let mut listed = 0;
        let mut made = 0;
        for _ in 0..60 {
            if s.is_over() {
                break;
            }
            let (n, ()) = counted(|| e.steps(&s, &mut buf).unwrap());
            made += n;
            listed += buf.len();
            if buf.is_empty() {
                break;
            }
            s = e.apply(&s, buf[rng.below(buf.len())]).unwrap();
        }
        assert!(listed >= 20, "{file}: {listed} steps listed");
        assert_eq!(made, 0, "{file}: {made} allocations listing {listed} steps");
    }
}
