//! How positions and steps are written and read: a position as rows of symbols, a step as
//! its mark and value, the board as text, player and token names.

use super::face::Engine;
use super::state::State;
use super::step::{Step, FORCED_PASS};
use crate::board::bits::Bits;
use crate::ir::{AltKind, NOBODY};

impl Engine {
    /// Sets up a position: rows of symbols (`.` empty, `#` or `.` on removed cells), row 1
    /// first, separated by `/`; `to_move` names the player to move (default: the first mover).
    pub fn position(&self, rows: &str, to_move: Option<&str>) -> Result<State, String> {
        self.position_with(rows, to_move, &[])
    }

    /// [`Engine::position`] with the counters' and tokens' values `extra` gives, named as
    /// [`Engine::extra`] names them; what it leaves out starts as the rules say.
    pub fn position_with(
        &self,
        rows: &str,
        to_move: Option<&str>,
        extra: &[(String, Extra)],
    ) -> Result<State, String> {
        let g = &self.game.geometry;
        let rows: Vec<&str> = rows.split('/').map(str::trim).collect();
        if rows.len() != g.height {
            return Err(format!(
                "the position has {} rows, the board has {}",
                rows.len(),
                g.height
            ));
        }
        let mut pieces = [Bits::EMPTY; crate::ir::MAX_PLAYERS];
        for (y, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().collect();
            if cells.len() != g.width {
                return Err(format!(
                    "row {} has {} cells, the board is {} wide",
                    y + 1,
                    cells.len(),
                    g.width
                ));
            }
            for (x, ch) in cells.into_iter().enumerate() {
                let cell = y * g.width + x;
                let removed = !g.playable.contains(cell);
                match ch {
                    '.' | '#' if removed => {}
                    '.' => {}
                    _ if removed => {
                        return Err(format!(
                            "{} is removed from play, so it must be '#'",
                            g.name(cell)
                        ))
                    }
                    _ => {
                        if let Some(p) = self.game.slot_by_symbol(ch) {
                            pieces[p].insert(cell);
                        } else {
                            let symbols: Vec<String> = (0..self.game.slot_count() as usize)
                                .map(|p| format!("'{}'", self.game.slot_symbol(p)))
                                .collect();
                            return Err(format!(
                                "'{ch}' at {} is not a piece; use '.' or {}",
                                g.name(cell),
                                symbols.join(" or ")
                            ));
                        }
                    }
                }
            }
        }
        let mover = match to_move {
            None => self.game.first,
            Some(name) => self.game.player_by_name(name).ok_or_else(|| {
                format!(
                    "no player named `{name}`; the players are {}",
                    self.game.player_list()
                )
            })?,
        };
        let mut s = self.fresh(&pieces[..self.game.slot_count() as usize], mover);
        self.set_extra(&mut s, extra)?;
        self.begin(&s).map_err(|e| format!("rule error: {e}"))
    }

    /// The rules' setup with the counters' and tokens' values `extra` gives (see
    /// [`Engine::position_with`]).
    pub fn start_with(&self, extra: &[(String, Extra)]) -> Result<State, String> {
        let slots = self.game.slot_count() as usize;
        let mut s = self.fresh(&self.game.setup[..slots], self.game.first);
        self.set_extra(&mut s, extra)?;
        self.begin(&s).map_err(|e| format!("rule error: {e}"))
    }

    /// Whether `extra` names tokens and counters of these rules with values they can hold (the
    /// message says what is wrong).
    pub fn extra_fits(&self, extra: &[(String, Extra)]) -> Result<(), String> {
        let slots = self.game.slot_count() as usize;
        let mut s = self.fresh(&self.game.setup[..slots], self.game.first);
        self.set_extra(&mut s, extra)
    }

    /// Gives the tokens and counters `extra` names the holders and values it says, in a
    /// position before its turn has begun.
    fn set_extra(&self, s: &mut State, extra: &[(String, Extra)]) -> Result<(), String> {
        let game = &self.game;
        let players = game.player_count();
        let player = |name: &str| {
            game.player_by_name(name).ok_or_else(|| {
                format!(
                    "no player named `{name}`; the players are {}",
                    game.player_list()
                )
            })
        };
        for (name, value) in extra {
            if let Some(t) = game.tokens.iter().position(|t| t == name) {
                let Extra::Holder(holder) = value else {
                    return Err(format!(
                        "`{name}` is a token: give the name of the player who holds it, or null"
                    ));
                };
                s.tokens[t] = match holder {
                    Some(h) => player(h)?,
                    None => NOBODY,
                };
            } else if let Some(c) = game.counters.iter().position(|(n, _)| n == name) {
                let Extra::PerPlayer(values) = value else {
                    return Err(format!(
                        "`{name}` is a counter: give each player's value, e.g. {{\"{}\": 3}}",
                        self.player_name(0)
                    ));
                };
                for (p, v) in values {
                    let p = player(p)?;
                    if v.abs() >= 1_000_000_000 {
                        return Err(format!(
                            "counter `{name}` cannot be {v}: counters hold whole numbers below a \
                             billion"
                        ));
                    }
                    s.regs[crate::ir::counter_slot(c as u8, p, players)] = *v as i32;
                }
            } else {
                let mut names: Vec<&str> = game.tokens.iter().map(String::as_str).collect();
                names.extend(game.counters.iter().map(|(n, _)| n.as_str()));
                return Err(if names.is_empty() {
                    format!("no token or counter named `{name}`: these rules have none")
                } else {
                    format!(
                        "no token or counter named `{name}`; these rules have {}",
                        names.join(", ")
                    )
                });
            }
        }
        Ok(())
    }

    /// The board of `s` as [`Engine::position`] reads it: rows from row 1, separated by `/`.
    pub fn position_rows(&self, s: &State) -> String {
        let g = &self.game.geometry;
        let rows: Vec<String> = (0..g.height)
            .map(|y| {
                (0..g.width)
                    .map(|x| {
                        let cell = y * g.width + x;
                        match s.owner(cell) {
                            Some(p) => self.game.slot_symbol(p as usize),
                            None if g.playable.contains(cell) => '.',
                            None => '#',
                        }
                    })
                    .collect()
            })
            .collect();
        rows.join("/")
    }

    /// How a step is written: its mark (or `-` after the first step) and its value.
    pub fn step_notation(&self, s: &State, step: Step) -> String {
        if step.alt == FORCED_PASS {
            return "pass".into();
        }
        let alt = &self.choose_at(s.pc).alts[step.alt as usize];
        let value = match &alt.kind {
            AltKind::Cell { .. } => self.game.geometry.name(step.value as usize),
            AltKind::Word(w) => w.clone(),
            AltKind::Pass => "pass".into(),
        };
        match (&alt.mark, s.steps) {
            (Some(m), _) => format!("{m}{value}"),
            (None, 0) => value,
            (None, _) => format!("-{value}"),
        }
    }

    /// The board as rows of symbols, row 1 first.
    pub fn board_rows(&self, s: &State) -> Vec<String> {
        let g = &self.game.geometry;
        (0..g.height)
            .map(|y| {
                (0..g.width)
                    .map(|x| {
                        let c = y * g.width + x;
                        if g.playable.contains(c) {
                            match s.owner(c) {
                                Some(p) => self.game.slot_symbol(p as usize),
                                None => '.',
                            }
                        } else {
                            '#'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    pub fn player_name(&self, p: u8) -> &str {
        if p == NOBODY {
            "nobody"
        } else {
            &self.game.players[p as usize].name
        }
    }

    /// Extra state beyond the board: each token and its holder, then each counter and its
    /// value for each player.
    pub fn extra(&self, s: &State) -> Vec<(String, Extra)> {
        let tokens = self.game.tokens.iter().enumerate().map(|(i, t)| {
            let h = s.tokens[i];
            let holder = (h != NOBODY).then(|| self.player_name(h).to_string());
            (t.clone(), Extra::Holder(holder))
        });
        let counters = self.game.counters.iter().enumerate().map(|(i, (name, _))| {
            let players = self.game.player_count();
            let values = (0..players)
                .map(|p| {
                    let value = s.regs[crate::ir::counter_slot(i as u8, p, players)];
                    (self.player_name(p).to_string(), i64::from(value))
                })
                .collect();
            (name.clone(), Extra::PerPlayer(values))
        });
        tokens.chain(counters).collect()
    }
}

/// A value of the state beyond the board (see [`Engine::extra`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Extra {
    /// A token's holder (None: nobody).
    Holder(Option<String>),
    /// A counter: each player's name and value.
    PerPlayer(Vec<(String, i64)>),
}

impl Extra {
    /// A token's holder; None for nobody, and for a counter.
    pub fn holder(&self) -> Option<&str> {
        match self {
            Extra::Holder(h) => h.as_deref(),
            Extra::PerPlayer(_) => None,
        }
    }
}

impl std::fmt::Display for Extra {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Extra::Holder(h) => f.write_str(h.as_deref().unwrap_or("nobody")),
            Extra::PerPlayer(values) => {
                let parts: Vec<String> = values.iter().map(|(p, v)| format!("{p} {v}")).collect();
                f.write_str(&parts.join(", "))
            }
        }
    }
}
