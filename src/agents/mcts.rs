//! Monte Carlo tree search (UCT) over steps, with uniform random playouts.

use super::{stopped, Agent, Basis, Thought};
use crate::engine::rng::Rng;
use crate::engine::state::State;
use crate::engine::{Engine, RuleError, Step};
use crate::ir::{MAX_PLAYERS, NOBODY};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug)]
pub enum Budget {
    Playouts(u64),
    Millis(u64),
}

pub struct Mcts {
    budget: Budget,
    rng: Rng,
}

struct Node {
    state: State,
    /// Steps not yet expanded into children.
    untried: Vec<Step>,
    children: Vec<(Step, usize)>,
    visits: f64,
    /// Sum of rewards for the player who moved into this node (the parent's mover).
    reward: f64,
}

/// The exploration constant of UCB1.
const EXPLORATION: f64 = 1.4;

/// Playouts between two reports to a watcher: a few a second on the largest boards, and
/// nothing measurable against the playouts themselves.
const REPORT_EVERY: u64 = 256;

/// The most memory one choice's tree takes. The tree grows a node a playout, about 125 MB a
/// second on Othello, so a long think (`mcts:60000ms`, or a large count of playouts) took
/// gigabytes; once the tree is this large its playouts go on from the positions it holds and
/// only sharpen their counts. The default player's 1,000 playouts take a few hundred kB.
const TREE_BYTES: usize = 128 << 20;

/// Whether `tree`, its nodes' steps taking `steps_bytes`, may take one more node within
/// [`TREE_BYTES`], counting the room a full vector of nodes grows to.
fn tree_has_room(tree: &Vec<Node>, steps_bytes: usize) -> bool {
    let room = if tree.len() < tree.capacity() {
        tree.capacity()
    } else {
        (tree.capacity() * 2).max(4)
    };
    room * std::mem::size_of::<Node>() + steps_bytes <= TREE_BYTES
}

impl Mcts {
    pub fn new(seed: u64, budget: Budget) -> Mcts {
        Mcts {
            budget,
            rng: Rng::new(seed),
        }
    }

    fn node(engine: &Engine, state: State) -> Result<Node, RuleError> {
        let mut untried = Vec::new();
        engine.steps(&state, &mut untried)?;
        Ok(Node {
            state,
            untried,
            children: Vec::new(),
            visits: 0.0,
            reward: 0.0,
        })
    }

    /// The root's most visited child: the step and its node.
    fn most_visited(tree: &[Node]) -> Option<(Step, usize)> {
        tree[0]
            .children
            .iter()
            .max_by(|a, b| tree[a.1].visits.total_cmp(&tree[b.1].visits))
            .copied()
    }

    /// Each player's reward at the end of a playout: 1 for the winner and 0 for the others;
    /// a draw shares one point among all players (a half each with two).
    fn rewards(engine: &Engine, s: &State) -> [f64; MAX_PLAYERS] {
        let mut rewards = [0.0; MAX_PLAYERS];
        let players = engine.game.player_count();
        match s.outcome.map_or(NOBODY, |o| o.winner) {
            NOBODY => rewards[..players as usize].fill(1.0 / f64::from(players)),
            w => rewards[w as usize] = 1.0,
        }
        rewards
    }
}

impl Agent for Mcts {
    fn describe(&self) -> String {
        match self.budget {
            Budget::Playouts(n) => format!("mcts:{n}"),
            Budget::Millis(ms) => format!("mcts:{ms}ms"),
        }
    }

    fn choose(&mut self, engine: &Engine, s: &State, legal: &[Step]) -> Result<Step, RuleError> {
        self.think(engine, s, legal, &mut |_| {}, None)
    }

    /// UCT within the budget; when `stop` is set, after the playout under way.
    fn think(
        &mut self,
        engine: &Engine,
        s: &State,
        legal: &[Step],
        watch: &mut dyn FnMut(Thought),
        stop: Option<&AtomicBool>,
    ) -> Result<Step, RuleError> {
        let mut tree = vec![Node {
            state: *s,
            untried: legal.to_vec(),
            children: Vec::new(),
            visits: 0.0,
            reward: 0.0,
        }];
        if tree[0].untried.len() == 1 {
            return Ok(tree[0].untried[0]);
        }
        let started = Instant::now();
        let mut done = 0u64;
        // The heap memory of the nodes' lists of steps (see `tree_has_room`).
        let step_bytes = std::mem::size_of::<Step>();
        let child_bytes = std::mem::size_of::<(Step, usize)>();
        let mut steps_bytes = tree[0].untried.capacity() * step_bytes;
        loop {
            match self.budget {
                Budget::Playouts(n) if done >= n => break,
                Budget::Millis(ms)
                    if done > 0 && started.elapsed() >= Duration::from_millis(ms) =>
                {
                    break
                }
                _ if done > 0 && stopped(stop) => break,
                _ => {}
            }
            done += 1;
            // Selection: follow UCB1 while the node is fully expanded.
            let mut path = vec![0usize];
            let mut at = 0;
            while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
                let parent_visits = tree[at].visits.max(1.0).ln();
                let mut best = (f64::NEG_INFINITY, 0);
                for &(_, c) in &tree[at].children {
                    let child = &tree[c];
                    let ucb = child.reward / child.visits
                        + EXPLORATION * (parent_visits / child.visits).sqrt();
                    if ucb > best.0 {
                        best = (ucb, c);
                    }
                }
                at = best.1;
                path.push(at);
            }
            // Expansion: one untried step, chosen at random, while the tree has room.
            if !tree[at].untried.is_empty() && tree_has_room(&tree, steps_bytes) {
                let i = self.rng.below(tree[at].untried.len());
                let step = tree[at].untried.swap_remove(i);
                let child = Self::node(engine, engine.apply(&tree[at].state, step)?)?;
                steps_bytes += child.untried.capacity() * step_bytes;
                tree.push(child);
                let c = tree.len() - 1;
                let before = tree[at].children.capacity();
                tree[at].children.push((step, c));
                steps_bytes += (tree[at].children.capacity() - before) * child_bytes;
                at = c;
                path.push(at);
            }
            // Playout: random steps to the end. One that does not end within the limit of
            // a whole game is an error, as such a game is everywhere else: counted as a draw,
            // it left a player on a game that never ends thinking for ever.
            let (p, _) = super::random_game(engine, &tree[at].state, &mut self.rng)?;
            let rewards = Self::rewards(engine, &p);
            // Backpropagation: each node is credited for the player who moved into it.
            for w in path.windows(2) {
                let mover = tree[w[0]].state.mover as usize;
                tree[w[1]].visits += 1.0;
                tree[w[1]].reward += rewards[mover];
            }
            tree[0].visits += 1.0;
            if done.is_multiple_of(REPORT_EVERY) {
                if let Some(c) = Self::most_visited(&tree) {
                    watch(Thought {
                        step: c.0,
                        basis: Basis::Playouts {
                            playouts: done,
                            reward: tree[c.1].reward / tree[c.1].visits,
                        },
                    });
                }
            }
        }
        // The most visited step; with a budget too small to expand any, an untried one.
        let best = Self::most_visited(&tree).map(|(step, _)| step);
        Ok(best.unwrap_or_else(|| tree[0].untried[0]))
    }
}
