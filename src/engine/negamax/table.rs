//! The transposition table of [`super`]: slots in pairs, one thread's or shared by several
//! behind locks, and the watch that hears of a long search's progress.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use super::TableKey;

/// A depth as the table stores it: steps to the horizon, or [`TO_THE_END`].
type StoredDepth = u8;
const TO_THE_END: StoredDepth = StoredDepth::MAX;

pub(super) fn stored_depth(depth: Option<u32>) -> StoredDepth {
    // Players search at most 64 steps deep, so the cap loses nothing.
    depth.map_or(TO_THE_END, |d| {
        d.min(u32::from(TO_THE_END - 1)) as StoredDepth
    })
}

/// What the table knows of a position: its value lies in `low..=high` (equal when exact).
#[derive(Clone, Copy, Default)]
pub struct Slot<K, M> {
    pub(super) key: K,
    pub(super) low: f64,
    pub(super) high: f64,
    /// The best move found, tried first next time.
    pub(super) best: M,
    pub(super) depth: StoredDepth,
    /// [`Tree::work`](super::Tree::work) plus one (0: the slot is unused).
    pub(super) work: u8,
    /// The search that stored it (see [`Table::new_search`]).
    pub(super) age: u8,
}

/// Someone watching a long search (the solver's progress): told how many positions have been
/// searched every 2^20 (about a million), of the bounds on the value as
/// [`exact_value`](super::exact_value) narrows them, and of the sample positions valued
/// while a tree learns before its first search.
pub trait Watch: Send {
    fn searched(&mut self, _nodes: u64) {}
    /// The value of the position [`exact_value`](super::exact_value) was asked for lies in
    /// `low..=high`.
    fn bounded(&mut self, _low: f64, _high: f64) {}
    /// While a tree learns: how many of how many sample positions it has valued; None once
    /// the learning is over.
    fn learning(&mut self, _progress: Option<(usize, usize)>) {}
}

/// Positions between two reports to a [`Watch`].
const WATCH_EVERY: u64 = 1 << 20;

/// What the threads of one parallel search share: the table, a pair of slots behind each
/// lock (the locks are many, so two threads rarely wait on one), whether the question under
/// way is answered, which positions some thread is searching now, and the positions the
/// helpers have searched.
pub(super) struct Shared<K, M> {
    pairs: Vec<Mutex<[Slot<K, M>; 2]>>,
    pub(super) answered: AtomicBool,
    /// Keys (their hashes) of positions a thread is searching, by their hash's low bits: a
    /// thread leaves such a position for last among its siblings, in the hope that the other
    /// thread's answer is in the table by then (simplified ABDADA, after Tom Kerrigan). Two
    /// positions that share a place only make one of them wait less or more.
    busy: Vec<AtomicU64>,
    pub(super) helper_nodes: AtomicU64,
}

/// Places in [`Shared::busy`].
const BUSY_PLACES: usize = 1 << 14;

impl<K, M> Shared<K, M> {
    pub(super) fn busy_place(&self, hash: u64) -> &AtomicU64 {
        &self.busy[hash as usize & (BUSY_PLACES - 1)]
    }

    /// The pair a key of hash `hash` belongs to: the hash scaled to the count of pairs (which
    /// need not be a power of two, so the table takes the whole budget).
    fn pair(&self, hash: u64) -> &Mutex<[Slot<K, M>; 2]> {
        &self.pairs[((u128::from(hash) * self.pairs.len() as u128) >> 64) as usize]
    }
}

/// The transposition table: slots in pairs, one kept for the entry of this search that stands
/// for the most work and one for the latest. The table doubles while it is three quarters
/// full, up to a set size; after that a full table forgets the cheapest positions first (a map
/// cleared when full forgot everything at once, and grew to gigabytes before it did).
pub struct Table<K, M> {
    /// The slots of a table of one thread (empty when they are `shared`).
    slots: Vec<Slot<K, M>>,
    /// The slots and the signals of a table several threads search with (see
    /// [`Table::within_jobs`]).
    pub(super) shared: Option<Arc<Shared<K, M>>>,
    /// The threads that search with this table: 1, or more when it is shared.
    pub(super) jobs: usize,
    /// Of `nodes`, those a helper thread has added to its shared count.
    flushed: u64,
    /// Slots in use, and the most there may be.
    used: usize,
    max_slots: usize,
    /// Positions searched.
    pub nodes: u64,
    pub(super) watch: Option<Box<dyn Watch>>,
    /// The count of positions at which the watch hears next.
    pub(super) next_report: u64,
    /// The search under way, counted round (see [`Table::new_search`]).
    pub(super) age: u8,
    /// What a tree learnt about its game before its first search, kept here for the later
    /// searches of the same solve (the tree knows its type; see `runner::search`).
    pub learnt: Option<Arc<dyn std::any::Any + Send + Sync>>,
    /// Whether the watch hears of positions only (see [`Table::lend_watch`]).
    pub(super) bounds_hidden: bool,
}

impl<K: TableKey, M: Copy + Default> Table<K, M> {
    /// The size a table starts at.
    const FIRST_SLOTS: usize = 1 << 10;

    /// Bytes of one slot, for sizing a table to a memory budget.
    pub const SLOT_BYTES: usize = std::mem::size_of::<Slot<K, M>>();

    /// A table that grows to at most `max_slots` slots (rounded down to a power of two).
    pub fn new(max_slots: usize) -> Self {
        let max_slots = if max_slots.is_power_of_two() {
            max_slots
        } else {
            max_slots.next_power_of_two() / 2
        }
        .max(2);
        Table {
            slots: vec![Slot::default(); Self::FIRST_SLOTS.min(max_slots)],
            shared: None,
            jobs: 1,
            flushed: 0,
            used: 0,
            max_slots,
            nodes: 0,
            watch: None,
            next_report: WATCH_EVERY,
            age: 0,
            learnt: None,
            bounds_hidden: false,
        }
    }

    /// Begins another search (a player's next move): what the earlier ones stored stays and
    /// is used, but gives way to what this one stores however much work it stood for. Else a
    /// table kept for a whole game fills with the deep entries of positions long passed, and
    /// the current search keeps only one slot of each pair.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Reports the search's progress to `watch` from now on.
    pub fn watch(&mut self, watch: Box<dyn Watch>) {
        self.watch = Some(watch);
    }

    /// The watch, which hears no more of this table.
    pub fn unwatch(&mut self) -> Option<Box<dyn Watch>> {
        self.watch.take()
    }

    /// Lends this table's watch to `other`, for searches made on the way to this one's: the
    /// watch hears of their positions (the user sees work going on) but not of their bounds,
    /// which are not this search's. [`Table::take_back_watch`] ends the loan.
    pub fn lend_watch(&mut self, other: &mut Self) {
        other.watch = self.watch.take();
        other.bounds_hidden = true;
    }

    /// Tells the watch how a tree's learning goes ([`Watch::learning`]).
    pub fn learning(&mut self, progress: Option<(usize, usize)>) {
        if let Some(w) = self.watch.as_mut() {
            w.learning(progress);
        }
    }

    /// Takes back the watch lent to `other` ([`Table::lend_watch`]).
    pub fn take_back_watch(&mut self, other: &mut Self) {
        self.watch = other.watch.take();
    }

    /// The best move the table holds for the position of `key`, in the table's frame; None
    /// where threads have shared the table
    /// ([`exact_value_parallel`](super::exact_value_parallel)), whose moves then depend on
    /// how the threads ran.
    pub fn single_thread_move(&self, key: &K) -> Option<M> {
        if self.shared.is_some() {
            return None;
        }
        self.get(key).map(|e| e.best)
    }

    /// A table of at most `bytes` of slots.
    pub fn within(bytes: usize) -> Self {
        Self::new(bytes / Self::SLOT_BYTES)
    }

    /// A table of at most `bytes` that `jobs` threads search with at once where a search is
    /// long enough for that to pay ([`exact_value_parallel`](super::exact_value_parallel));
    /// until then it is one thread's.
    pub fn within_jobs(bytes: usize, jobs: usize) -> Self {
        Table {
            jobs: jobs.max(1),
            ..Self::within(bytes)
        }
    }

    /// Makes the table one that threads share, of as many pairs of slots as its most slots
    /// come to, each behind its lock, and keeps what it holds. The whole size is taken at
    /// once: threads cannot wait while it grows.
    pub(super) fn share(&mut self) {
        if self.shared.is_some() {
            return;
        }
        let bytes = self.max_slots * Self::SLOT_BYTES;
        let pairs = (bytes / std::mem::size_of::<Mutex<[Slot<K, M>; 2]>>()).max(1);
        self.shared = Some(Arc::new(Shared {
            pairs: (0..pairs)
                .map(|_| Mutex::new([Slot::default(); 2]))
                .collect(),
            answered: AtomicBool::new(false),
            busy: (0..BUSY_PLACES).map(|_| AtomicU64::new(0)).collect(),
            helper_nodes: AtomicU64::new(0),
        }));
        // The old slots go over from the end, a block at a time, each block's memory given
        // back before the next: the shared table has taken the whole of `--memory` already.
        let mut old = std::mem::take(&mut self.slots);
        while !old.is_empty() {
            let block = old.len().saturating_sub(1 << 16);
            for slot in old.drain(block..) {
                if slot.work != 0 {
                    self.put(slot);
                }
            }
            old.shrink_to_fit();
        }
        self.used = 0;
    }

    /// Another thread's view of a shared table: the same slots, its own count.
    pub(super) fn helper(&self) -> Self {
        Table {
            slots: Vec::new(),
            shared: self.shared.clone(),
            jobs: self.jobs,
            flushed: 0,
            used: 0,
            max_slots: 0,
            nodes: 0,
            watch: None,
            next_report: WATCH_EVERY,
            age: self.age,
            learnt: self.learnt.clone(),
            bounds_hidden: self.bounds_hidden,
        }
    }

    /// Forgets every position (the table keeps its size).
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        if let Some(shared) = &self.shared {
            for pair in &shared.pairs {
                *lock(pair) = [Slot::default(); 2];
            }
        }
        self.used = 0;
    }

    /// Positions searched, counting those of the helper threads of a shared table so far.
    fn searched(&self) -> u64 {
        self.nodes
            + self
                .shared
                .as_ref()
                .map_or(0, |s| s.helper_nodes.load(Ordering::Relaxed))
    }

    /// Tells the watch how many positions have been searched; a helper adds its count to
    /// the shared one, which the watched thread reports.
    pub(super) fn report(&mut self) {
        self.next_report = self.nodes + WATCH_EVERY;
        let searched = self.searched();
        if let Some(w) = &mut self.watch {
            w.searched(searched);
        } else if let Some(shared) = &self.shared {
            shared
                .helper_nodes
                .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
        }
    }

    /// Twice the slots, the entries placed again, in place: the vector is reallocated to
    /// twice its size (for a table this large the allocator moves its pages rather than
    /// copying them) and each pair's entries stay where they are or move to the pair as far
    /// again along, the only two their hash can now choose (the count used is unchanged).
    /// A new table beside the old one held both at once at the last doubling: half as much
    /// again as `--memory` allowed.
    fn grow(&mut self) {
        let half = self.slots.len();
        self.slots.reserve_exact(half);
        self.slots.resize(half * 2, Slot::default());
        for first in (0..half).step_by(2) {
            let pair = [self.slots[first], self.slots[first + 1]];
            self.slots[first] = Slot::default();
            self.slots[first + 1] = Slot::default();
            // Placed as storing them anew in a new table placed them, in the same order, so
            // the table and the positions a solve searches are what they were then.
            for slot in pair.into_iter().filter(|s| s.work != 0) {
                let i = self.pair(&slot.key);
                let to: &mut [Slot<K, M>; 2] =
                    (&mut self.slots[i..i + 2]).try_into().expect("a pair");
                place(to, slot, self.age);
            }
        }
    }

    /// The first slot of the pair that may hold `key`.
    fn pair(&self, key: &K) -> usize {
        (key.hash() as usize) & (self.slots.len() - 2)
    }

    /// Reads the pair that may hold `key`, so that a [`Table::get`] soon after finds it in
    /// the cache. A shared table's pairs are behind locks, and are left alone.
    pub(super) fn touch(&self, key: &K) {
        if self.shared.is_none() {
            std::hint::black_box(self.slots[self.pair(key)].work);
        }
    }

    pub(super) fn get(&self, key: &K) -> Option<Slot<K, M>> {
        let find =
            |pair: &[Slot<K, M>]| pair.iter().find(|s| s.work != 0 && s.key == *key).copied();
        match &self.shared {
            Some(shared) => find(&*lock(shared.pair(key.hash()))),
            None => {
                let i = self.pair(key);
                find(&self.slots[i..i + 2])
            }
        }
    }

    pub(super) fn put(&mut self, slot: Slot<K, M>) {
        let age = self.age;
        if let Some(shared) = &self.shared {
            place(&mut lock(shared.pair(slot.key.hash())), slot, age);
            return;
        }
        if self.used * 4 >= self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        let i = self.pair(&slot.key);
        let pair: &mut [Slot<K, M>; 2] = (&mut self.slots[i..i + 2]).try_into().expect("a pair");
        let used = place(pair, slot, age);
        self.used = self.used.wrapping_add_signed(used);
    }
}

/// A pair of slots, the lock on it taken (a thread that panicked holding it left whole slots:
/// each is written at once).
fn lock<T>(pair: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    pair.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Stores `slot` in the pair that its key belongs to, in the search of age `age`: the slot
/// kept for work takes it when it stands for at least as much work as the one there, or
/// when that one is of an earlier search, and the displaced entry moves to the latest's
/// place; otherwise it is the latest. Returns the change in slots used.
fn place<K: TableKey, M: Copy>(pair: &mut [Slot<K, M>; 2], slot: Slot<K, M>, age: u8) -> isize {
    let [kept, latest] = *pair;
    let mut used = 0;
    if kept.key == slot.key || slot.work >= kept.work || kept.age != age {
        // The displaced entry still stands for work: it moves to the latest's place.
        if kept.work != 0 && kept.key != slot.key {
            used += isize::from(latest.work == 0);
            pair[1] = kept;
        } else if latest.work != 0 && latest.key == slot.key {
            used -= 1;
            pair[1].work = 0;
        }
        used += isize::from(kept.work == 0);
        pair[0] = slot;
    } else {
        used += isize::from(latest.work == 0);
        pair[1] = slot;
    }
    used
}
