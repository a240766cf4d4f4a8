// The page of `outflank serve`: it draws what the server says and sends what the user clicks.
// Every rule is the server's (docs/API.md): the page knows no game.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const AGENTS = ["human", "random", "greedy", "mcts:300", "mcts:2000", "alphabeta:3"];
// Colours of the pieces by player index; further kinds of piece are grey.
const COLOURS = ["#111", "#f4f4f4", "#c0392b", "#2e6fd8", "#e0a800", "#8e44ad", "#16a085", "#d35400"];

let games = [];
let view = null;
let busy = false;

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json();
  if (!response.ok) {
    throw new Error(data.error || response.statusText);
  }
  return data;
}

function showError(e) {
  $("error").textContent = e ? String(e.message || e) : "";
}

function seatsFor(game) {
  const seats = $("seats");
  seats.textContent = "";
  game.players.forEach((name, i) => {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const select = document.createElement("select");
    select.dataset.player = name;
    AGENTS.forEach((a) => select.add(new Option(a, a)));
    select.value = i === 0 ? "human" : "mcts:300";
    select.addEventListener("change", () => advance());
    label.appendChild(select);
    seats.appendChild(label);
  });
}

function seatOf(player) {
  const select = document.querySelector(`#seats select[data-player="${player}"]`);
  return select ? select.value : "human";
}

function el(name, attributes, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function cellName(x, y) {
  return String.fromCharCode(97 + x) + (y + 1);
}

function draw() {
  const board = $("board");
  board.textContent = "";
  if (!view) return;
  const { width, height, rows } = view;
  board.setAttribute("viewBox", `-0.6 -0.6 ${width + 0.8} ${height + 0.8}`);
  const symbols = view.players.map((p) => p.symbol);
  const byCell = {};
  view.steps.forEach((s) => {
    if (s.cell) (byCell[s.cell] = byCell[s.cell] || []).push(s.text);
  });
  for (let x = 0; x < width; x++) {
    el("text", { x: x + 0.5, y: -0.3, class: "coord" }, board).textContent = String.fromCharCode(97 + x);
  }
  for (let y = 0; y < height; y++) {
    el("text", { x: -0.3, y: y + 0.5, class: "coord" }, board).textContent = y + 1;
    for (let x = 0; x < width; x++) {
      const symbol = rows[y][x];
      const name = cellName(x, y);
      el("rect", { x, y, width: 1, height: 1, class: symbol === "#" ? "cell removed" : "cell",
                   "data-cell": name }, board);
      if (symbol !== "." && symbol !== "#") {
        const p = symbols.indexOf(symbol);
        const fill = p >= 0 ? COLOURS[p % COLOURS.length] : "#888";
        el("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.4, fill, stroke: "#000", "stroke-width": 0.03,
                       "data-piece": symbol }, board);
        if (p < 0) el("text", { x: x + 0.5, y: y + 0.5, class: "label" }, board).textContent = symbol;
      }
      if (view.changed.includes(name)) {
        el("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, class: "changed" }, board);
      }
      const here = byCell[name];
      if (here && seatOf(view.to_move) === "human" && !busy) {
        const target = el("rect", { x, y, width: 1, height: 1, class: "legal", "data-legal": name }, board);
        target.addEventListener("click", () => chooseAt(name, here));
      }
    }
  }
}

function chooseAt(name, texts) {
  if (texts.length === 1) return play(texts[0]);
  // Several steps on one cell (a mark tells them apart): the user picks one.
  words(texts);
}

function words(texts) {
  const box = $("words");
  box.textContent = "";
  texts.forEach((t) => {
    const b = document.createElement("button");
    b.textContent = t;
    b.dataset.step = t;
    b.addEventListener("click", () => play(t));
    box.appendChild(b);
  });
}

function render() {
  draw();
  $("undo").disabled = !view || view.history.length === 0 || busy;
  const status = $("status");
  status.classList.toggle("thinking", busy);
  if (!view) return;
  if (view.over) {
    status.textContent = view.winner ? `Game over: ${view.winner} wins.` : "Game over: a draw.";
  } else if (busy) {
    status.textContent = `${view.to_move} (${seatOf(view.to_move)}) is thinking`;
  } else {
    status.textContent = `${view.to_move} to move`;
  }
  const human = !view.over && !busy && seatOf(view.to_move) === "human";
  words(human ? view.steps.filter((s) => !s.cell).map((s) => s.text) : []);
  const scores = $("scores");
  scores.textContent = "";
  view.players.forEach((p) => {
    const row = scores.insertRow();
    row.insertCell().textContent = p.name;
    row.insertCell().textContent = p.score;
  });
  const history = $("history");
  history.textContent = "";
  view.history.forEach((m) => {
    const li = document.createElement("li");
    li.textContent = m;
    history.appendChild(li);
  });
}

async function play(text) {
  showError(null);
  try {
    view = await call("POST", `/api/sessions/${view.id}/step`, { step: text });
  } catch (e) {
    showError(e);
  }
  render();
  advance();
}

// While a computer player is to move, it is asked for its step.
async function advance() {
  if (!view || view.over || busy || seatOf(view.to_move) === "human") {
    render();
    return;
  }
  busy = true;
  render();
  const id = view.id;
  try {
    const next = await call("POST", `/api/sessions/${id}/agent`, { agent: seatOf(view.to_move), seed: Date.now() % 100000 });
    if (view && view.id === id) view = next;
  } catch (e) {
    showError(e);
  }
  busy = false;
  render();
  if (!view.over && seatOf(view.to_move) !== "human") setTimeout(advance, 300);
}

async function newGame() {
  showError(null);
  try {
    if (view) call("DELETE", `/api/sessions/${view.id}`).catch(() => {});
    view = await call("POST", "/api/sessions", { game: $("game").value });
  } catch (e) {
    showError(e);
  }
  render();
  advance();
}

async function undo() {
  showError(null);
  try {
    view = await call("POST", `/api/sessions/${view.id}/undo`);
    // Undo back to a human's turn: the computer's steps are taken back too.
    while (view.history.length > 0 && seatOf(view.to_move) !== "human") {
      view = await call("POST", `/api/sessions/${view.id}/undo`);
    }
  } catch (e) {
    showError(e);
  }
  render();
}

async function start() {
  try {
    games = await call("GET", "/api/games");
  } catch (e) {
    showError(e);
    return;
  }
  const select = $("game");
  games.forEach((g) => select.add(new Option(g.title || g.id, g.id)));
  select.addEventListener("change", () => seatsFor(games[select.selectedIndex]));
  seatsFor(games[select.selectedIndex]);
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  // A board at once: a new game of the first game on offer.
  newGame();
}

start();
