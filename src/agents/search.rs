//! The engine's states, one step a level, as a tree for the one search
//! ([`crate::engine::negamax`]): the alphabeta player searches it to a depth, with an
//! evaluation at the horizon, and the solver to the end for games whose turns have several
//! steps. A value changes sign only when the mover's side does.
//!
//! With more than two players the search is paranoid: the player it searches for (the root)
//! assumes every other player plays against it, as one side. A value is then the root's for
//! the root's positions and its negation for the others', so negamax carries over unchanged,
//! with the sign changing only when play passes between the root and the others.

use crate::engine::hash::{FoldHasher, PositionMap};
use crate::engine::negamax::{self, Children, Table, TableKey, Tree};
use crate::engine::state::{SmallStateKey, State, StateKey};
use crate::engine::{Engine, RuleError, Step};
use std::hash::{Hash, Hasher};

/// A position's value for a player at the search horizon.
pub type Evaluate = fn(&Engine, &State, u8) -> Result<f64, RuleError>;

/// A key's hash, for its place in the table.
fn folded(key: &impl Hash) -> u64 {
    let mut h = FoldHasher::default();
    key.hash(&mut h);
    h.finish()
}

impl TableKey for StateKey {
    fn hash(&self) -> u64 {
        folded(self)
    }
}

impl TableKey for SmallStateKey {
    fn hash(&self) -> u64 {
        folded(self)
    }
}

/// A state's identity in the table of a search of the engine's states.
trait StepsKey: TableKey {
    fn of(s: &State) -> Self;
}

impl StepsKey for StateKey {
    fn of(s: &State) -> StateKey {
        s.key()
    }
}

impl StepsKey for SmallStateKey {
    fn of(s: &State) -> SmallStateKey {
        SmallStateKey::of(s)
    }
}

/// The table of a [`Search`], keyed by states as small as its game allows: a slot of the
/// small keys takes a third of the bytes, and the search waits on memory for every slot it
/// reads (Verto 4x4: the table's look-ups and stores were a third of the time).
enum Tables {
    Small(Table<SmallStateKey, Step>),
    Full(Table<StateKey, Step>),
}

/// Runs `$body` on whichever table `$tables` holds, as `$table`.
macro_rules! each_table {
    ($tables:expr, $table:ident => $body:expr) => {
        match $tables {
            Tables::Small($table) => $body,
            Tables::Full($table) => $body,
        }
    };
}

/// What orders the steps the table says nothing about.
#[derive(Default)]
struct Order {
    /// Per distance from the search's root, the last two steps that cut a search off there:
    /// a step that refutes one sibling usually refutes the next (on a Go board, the same
    /// answer works against most of the 361 placements).
    killers: Vec<[Option<Step>; 2]>,
    /// How much searching each step's cut-offs have saved, anywhere in the tree.
    history: PositionMap<Step, u64>,
}

pub struct Search {
    /// Keyed as the game of the last search allows (see [`Search::fit_table`]).
    table: Tables,
    /// The most bytes the table may take.
    memory: usize,
    evaluate: Evaluate,
    order: Order,
    /// The player searched for, in games of more than two players (see the module's notes).
    root: u8,
}

/// The tree one search walks: the engine, and the search's own memory of good steps.
struct Steps<'a, K> {
    engine: &'a Engine,
    evaluate: Evaluate,
    root: u8,
    order: &'a mut Order,
    /// A position's steps as the engine lists them, room kept from one position to the next.
    listed: Vec<Step>,
    /// A search that may give up: the positions it may still expand, and the longest line it
    /// may follow (see [`Search::step_value_within_budget`]).
    budget: Option<Budget>,
    key: std::marker::PhantomData<K>,
}

/// What a search that may give up has left to spend.
#[derive(Clone, Copy)]
pub struct Budget {
    /// Positions it may still expand.
    pub positions: u64,
    /// The most steps a line may go below the search's root.
    pub line: usize,
}

/// Why a search of the engine's states stopped short of a value.
enum Stop {
    Rule(RuleError),
    /// The budget ran out.
    Spent,
}

impl From<RuleError> for Stop {
    fn from(e: RuleError) -> Stop {
        Stop::Rule(e)
    }
}

/// A search without a budget stops only on an error of the rules.
fn unbudgeted(r: Result<f64, Stop>) -> Result<f64, RuleError> {
    r.map_err(|stop| match stop {
        Stop::Rule(e) => e,
        Stop::Spent => unreachable!("only a search with a budget runs out of it"),
    })
}

/// Whether the movers `a` and `b` play on one side in a search for `root`: both the root or
/// both among the others (with two players: the same player).
pub fn on_one_side(root: u8, a: u8, b: u8) -> bool {
    (a == root) == (b == root)
}

/// A finished game's value for `p` in a search for `root` (with two players the values are
/// exactly opposite, so this is `p`'s own value).
pub fn terminal(root: u8, s: &State, p: u8) -> Option<f64> {
    Some(for_player(root, p, s.outcome?.value_for(root)))
}

/// The root's value `v` as player `p` sees it in a search for `root`.
fn for_player(root: u8, p: u8, v: f64) -> f64 {
    if on_one_side(root, p, root) {
        v
    } else {
        -v
    }
}

impl<K: StepsKey> Tree for Steps<'_, K> {
    type Node = State;
    type Key = K;
    type Move = Step;
    type Error = Stop;
    // The evaluation's fine fractions of a point make a first move rarely the best by all of
    // them: probing cost alphabeta a fifth more time on Othello (depths 6 and 5).
    const PROBES: bool = false;

    fn over(&self, s: &State) -> Option<f64> {
        terminal(self.root, s, s.mover)
    }

    fn key(&self, s: &State) -> (K, u8) {
        (K::of(s), 0)
    }

    fn work(&self, _: &State, depth: Option<u32>) -> u8 {
        // A search to the end stands for more than any search to a depth.
        depth.map_or(254, |d| d.min(253) as u8)
    }

    fn horizon(&mut self, s: &State) -> Result<f64, Stop> {
        let v = (self.evaluate)(self.engine, s, self.root)?;
        Ok(for_player(self.root, s.mover, v))
    }

    /// The steps likeliest to cut first: the table's best step, then this distance's killers,
    /// then the rest by history (among equals the search keeps the order they are listed in).
    fn children(
        &mut self,
        s: &State,
        first: Option<Step>,
        ply: usize,
        out: &mut Children<Self>,
    ) -> Result<(), Stop> {
        if let Some(b) = &mut self.budget {
            if b.positions == 0 || ply >= b.line {
                return Err(Stop::Spent);
            }
            b.positions -= 1;
        }
        self.engine.steps(s, &mut self.listed)?;
        let killers = self.order.killers.get(ply).copied().unwrap_or_default();
        for &step in &self.listed {
            let rank = if Some(step) == first {
                0
            } else if Some(step) == killers[0] {
                1
            } else if Some(step) == killers[1] {
                2
            } else {
                let saved = self.order.history.get(&step).copied().unwrap_or(0);
                u64::MAX - saved.min(u64::MAX - 3)
            };
            out.moves.push((rank, step));
        }
        Ok(())
    }

    fn play(&mut self, s: &State, step: Step) -> Result<State, Stop> {
        Ok(self.engine.apply(s, step)?)
    }

    fn same_side(&self, parent: &State, child: &State) -> bool {
        on_one_side(self.root, parent.mover, child.mover)
    }

    fn cut(&mut self, step: Step, ply: usize, depth: Option<u32>) {
        let killers = &mut self.order.killers;
        if killers.len() <= ply {
            killers.resize(ply + 1, [None, None]);
        }
        let k = &mut killers[ply];
        if k[0] != Some(step) {
            k[1] = k[0];
            k[0] = Some(step);
        }
        // A cut high in the tree saved far more work than one at the horizon.
        let d = u64::from(depth.unwrap_or(32).min(32));
        let saved = self.order.history.entry(step).or_insert(0);
        *saved = saved.saturating_add(d * d);
    }

    fn endless(&self, message: String) -> Stop {
        Stop::Rule(RuleError::endless_game(&self.engine.game, message))
    }
}

/// Runs `$body` with `$tree` the tree of `$search` on `$engine` and `$table` its table,
/// whichever keys the game's states take (see [`Tables`]).
macro_rules! searched {
    ($search:expr, $engine:expr, |$tree:ident, $table:ident| $body:expr) => {{
        let engine: &Engine = $engine;
        let search: &mut Search = $search;
        search.fit_table(engine);
        let Search {
            table,
            evaluate,
            order,
            root,
            ..
        } = search;
        each_table!(table, $table => {
            let mut $tree = Steps {
                engine,
                evaluate: *evaluate,
                root: *root,
                order,
                listed: Vec::new(),
                budget: None,
                key: std::marker::PhantomData,
            };
            $body
        })
    }};
}

impl Search {
    /// A search whose table takes at most `memory` bytes (when full it forgets the positions
    /// that cost least to find again).
    pub fn new(evaluate: Evaluate, memory: usize) -> Search {
        Search {
            table: Tables::Full(Table::within(memory)),
            memory,
            evaluate,
            order: Order::default(),
            root: 0,
        }
    }

    /// Positions searched.
    pub fn nodes(&self) -> u64 {
        each_table!(&self.table, t => t.nodes)
    }

    /// Reports the search's progress to `watch` from now on.
    pub fn watch(&mut self, watch: Box<dyn negamax::Watch>) {
        each_table!(&mut self.table, t => t.watch(watch));
    }

    /// Makes the table anew, keeping its watch, where its keys are not the ones `engine`'s
    /// game takes: small keys where the game fits them (the first search of a new `Search`),
    /// full keys where it does not (a search handed another game forgets the first).
    fn fit_table(&mut self, engine: &Engine) {
        let small = SmallStateKey::fits(&engine.game);
        if matches!(self.table, Tables::Small(_)) == small {
            return;
        }
        let watch = each_table!(&mut self.table, t => t.unwatch());
        self.table = if small {
            Tables::Small(Table::within(self.memory))
        } else {
            Tables::Full(Table::within(self.memory))
        };
        if let Some(watch) = watch {
            self.watch(watch);
        }
    }

    /// Searches for `player` from now on. With two players a value is its mover's whoever
    /// searches, so the table stays (its entries giving way to the new search's); with more,
    /// what it knows was for another root.
    pub fn search_for(&mut self, engine: &Engine, player: u8) {
        self.fit_table(engine);
        let clear = engine.game.player_count() > 2 && player != self.root;
        each_table!(&mut self.table, t => {
            if clear {
                t.clear();
            }
            t.new_search();
        });
        self.root = player;
    }

    /// The value of `s` for its mover, exact when it lies inside (alpha, beta). `depth`: steps
    /// left before evaluating, or None to search to the end of the game.
    pub fn value(
        &mut self,
        engine: &Engine,
        s: &State,
        depth: Option<u32>,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, RuleError> {
        searched!(self, engine, |tree, table| {
            unbudgeted(negamax::value(&mut tree, table, s, depth, alpha, beta, 0))
        })
    }

    /// The value of `s` for its mover, to the end of the game: exact, or as far as `aim`
    /// asks.
    pub fn exact_value(
        &mut self,
        engine: &Engine,
        s: &State,
        aim: negamax::Aim,
    ) -> Result<f64, RuleError> {
        searched!(self, engine, |tree, table| {
            unbudgeted(negamax::exact_value(&mut tree, table, s, aim))
        })
    }

    /// The value of playing `step` at `s` for the player to move at `s`, inside that player's
    /// window (alpha, beta): exact inside it, a bound on the side it falls outside. `depth`
    /// counts the step itself.
    pub fn step_value_within(
        &mut self,
        engine: &Engine,
        s: &State,
        step: Step,
        depth: Option<u32>,
        alpha: f64,
        beta: f64,
    ) -> Result<f64, RuleError> {
        let t = engine.apply(s, step)?;
        let rest = depth.map(|d| d.saturating_sub(1));
        searched!(self, engine, |tree, table| {
            unbudgeted(negamax::child_value(
                &mut tree, table, s, &t, rest, alpha, beta, 0,
            ))
        })
    }

    /// [`Search::step_value_within`] to the end of the game, giving up (None) when the search
    /// would expand more positions than `budget` has left, or follow a longer line: a game whose
    /// end is near in cells may still be far in steps, or need not come at all. What was
    /// searched before it gave up stays in the table, exact where it was finished.
    pub fn step_value_within_budget(
        &mut self,
        engine: &Engine,
        s: &State,
        step: Step,
        alpha: f64,
        beta: f64,
        budget: &mut Budget,
    ) -> Result<Option<f64>, RuleError> {
        let t = engine.apply(s, step)?;
        let value = searched!(self, engine, |tree, table| {
            tree.budget = Some(*budget);
            let value = negamax::child_value(&mut tree, table, s, &t, None, alpha, beta, 0);
            if let Some(left) = tree.budget {
                *budget = left;
            }
            value
        });
        match value {
            Ok(v) => Ok(Some(v)),
            Err(Stop::Spent) => Ok(None),
            Err(Stop::Rule(e)) => Err(e),
        }
    }
}
