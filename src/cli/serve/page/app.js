// The page of `outflank serve`: it shows what the server says and sends what the user does.
// Every rule is the server's (docs/API.md): the page knows no game, and the board is the
// server's drawing, whose cells carry their names for the page to make them clickable.
"use strict";

const $ = (id) => document.getElementById(id);
const AGENTS = ["human", "random", "greedy", "mcts:300", "mcts:2000", "alphabeta:3", "alphabeta:5"];

let games = [];
let tab = "play";
let view = null; // the session shown, as the server last described it
let busy = false; // a computer player is thinking
let paused = false; // Watch: computer players wait for Step
let replaying = false; // the session is a record being stepped through
let editedRules = null; // rules text to play instead of the served file
const editor = { game: null, timer: null, checked: "" };

// The server's secret, put into the page it served: a request that changes anything must carry
// it, which a page of another site cannot (docs/API.md, "Security").
const TOKEN = document.querySelector('meta[name="outflank-token"]').content;

async function call(method, path, body) {
  const headers = { "X-Outflank-Token": TOKEN };
  if (method === "POST") headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(e) {
  $("error").textContent = e ? String(e.message || e) : "";
}

function currentGame() {
  return games.find((g) => g.id === $("game").value);
}

// ----- seats and the computer players -----

function seatsFor(game) {
  const seats = $("seats");
  seats.textContent = "";
  game.players.forEach((name, i) => {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const select = document.createElement("select");
    select.dataset.player = name;
    AGENTS.forEach((a) => select.add(new Option(a, a)));
    select.add(new Option("other…", "other"));
    select.value = i === 0 ? "human" : "mcts:300";
    select.addEventListener("change", () => {
      if (select.value === "other") customAgent(select);
      advance();
    });
    label.appendChild(select);
    seats.appendChild(label);
  });
}

// Any player the command line knows, at any strength the server runs (it says when not).
function customAgent(select) {
  const spec = (prompt("A computer player: random, greedy, mcts:N, mcts:Nms or alphabeta:D", "mcts:5000") || "").trim();
  if (!spec) {
    select.value = "human";
    return;
  }
  if (![...select.options].some((o) => o.value === spec)) {
    select.add(new Option(spec, spec), select.options.length - 1);
  }
  select.value = spec;
}

function seatOf(player) {
  const select = document.querySelector(`#seats select[data-player="${player}"]`);
  return select ? select.value : "human";
}

function humanToMove() {
  return view && !replaying && !view.over && !busy && seatOf(view.to_move) === "human";
}

// While a computer player is to move (and the game is not paused), it is asked for its step.
async function advance(once) {
  if (!view || replaying || view.over || busy || seatOf(view.to_move) === "human") return render();
  if (paused && !once) return render();
  busy = true;
  render();
  const id = view.id;
  try {
    const next = await call("POST", `/api/sessions/${id}/agent`, {
      agent: seatOf(view.to_move),
      seed: Math.floor(Math.random() * 1e9),
    });
    if (view && view.id === id) view = next;
  } catch (e) {
    showError(e);
  }
  busy = false;
  render();
  if (!once) setTimeout(() => advance(), Number($("speed").value));
}

// ----- the board -----

let drawn = null; // what the board shows, so that it is drawn again only when that changes

function drawBoard() {
  const board = $("board");
  const key = view ? [view.id, view.at, view.history.length, view.over, view.svg.length, view.shade.join(), humanToMove()].join("|") : "";
  if (key === drawn) return;
  drawn = key;
  board.innerHTML = view ? view.svg : "";
  if (!view) return;
  const byCell = {};
  view.steps.forEach((s) => {
    if (s.cell) (byCell[s.cell] = byCell[s.cell] || []).push(s.text);
  });
  if (!humanToMove()) return;
  board.querySelectorAll(".target").forEach((target) => {
    const texts = byCell[target.dataset.cell];
    if (!texts) return;
    target.classList.add("legal");
    target.dataset.legal = target.dataset.cell;
    // A dot in the middle, as `render --mark legal` draws them.
    const box = target.getBBox();
    const dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    dot.setAttribute("cx", box.x + box.width / 2);
    dot.setAttribute("cy", box.y + box.height / 2);
    dot.setAttribute("r", Math.min(box.width, box.height) / 8);
    dot.setAttribute("class", "legal-dot");
    target.parentNode.insertBefore(dot, target);
    target.addEventListener("click", () => (texts.length === 1 ? play(texts[0]) : words(texts)));
  });
}

// Steps that are words (pass, button), or several steps on one cell told apart by a mark.
function words(texts) {
  const box = $("words");
  // Made again only when they change, so that a button is never swapped under a click.
  const key = JSON.stringify(texts);
  if (box.dataset.shown === key) return;
  box.dataset.shown = key;
  box.textContent = "";
  texts.forEach((t) => {
    const b = document.createElement("button");
    b.textContent = t;
    b.dataset.step = t;
    b.addEventListener("click", () => play(t));
    box.appendChild(b);
  });
}

function shading() {
  const box = $("shading");
  const key = view ? JSON.stringify([view.id, view.regions, view.shade]) : "";
  if (box.dataset.shown === key) return;
  box.dataset.shown = key;
  box.textContent = "";
  if (!view || view.regions.length === 0) return;
  box.append("Shade: ");
  view.regions.forEach((name) => {
    const label = document.createElement("label");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.checked = view.shade.includes(name);
    check.addEventListener("change", async () => {
      const regions = [...box.querySelectorAll("input:checked")].map((c) => c.parentNode.textContent);
      try {
        const next = await call("POST", `/api/sessions/${view.id}/shade`, { regions });
        // The shading belongs to the session; the position shown stays the one shown.
        view = replaying ? await call("GET", `/api/sessions/${view.id}?at=${view.at}`) : next;
      } catch (e) {
        showError(e);
      }
      render();
    });
    label.append(check, name);
    box.appendChild(label);
  });
}

function statusText() {
  if (!view) return "Choose a game.";
  const edit = editedRules !== null && !replaying ? " (your edit)" : "";
  if (replaying) {
    return `Replay: step ${view.at} of ${view.history.length}` + (view.over && view.at === view.history.length ? ", " + result() : "");
  }
  if (view.over) return result() + edit;
  if (busy) return `${view.to_move} (${seatOf(view.to_move)}) is thinking`;
  const more = view.mid_turn ? ", the turn goes on" : "";
  return `${view.to_move} to move${more}${edit}`;
}

function result() {
  if (view.resigned) return `Game over: ${view.resigned} resigned, ${view.winner} wins.`;
  return view.winner ? `Game over: ${view.winner} wins.` : "Game over: a draw.";
}

function render() {
  drawBoard();
  const status = $("status");
  status.textContent = statusText();
  status.classList.toggle("thinking", busy);
  const playing = view && !replaying;
  $("undo").disabled = !playing || busy || (view.history.length === 0 && !view.resigned);
  $("resign").disabled = !playing || busy || view.over || view.players.length !== 2;
  $("download").disabled = !view;
  const watching = playing && !view.over && seatOf(view.to_move) !== "human";
  $("pause").textContent = paused ? "Resume" : "Pause";
  $("next-step").disabled = !(paused && watching && !busy);
  words(humanToMove() ? view.steps.filter((s) => !s.cell).map((s) => s.text) : []);
  shading();
  const scores = $("scores");
  scores.textContent = "";
  (view ? view.players : []).forEach((p) => {
    const row = scores.insertRow();
    row.insertCell().textContent = p.name;
    row.insertCell().textContent = p.score;
  });
  const history = $("history");
  history.textContent = "";
  (view ? view.history : []).forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m;
    if (replaying) {
      li.classList.add("replayable");
      if (i + 1 === view.at) li.classList.add("current");
      li.addEventListener("click", () => goTo(i + 1));
    }
    history.appendChild(li);
  });
  if (view && replaying) {
    const n = view.history.length;
    $("where").textContent = `${view.at} / ${n}`;
    $("first").disabled = $("back").disabled = view.at === 0;
    $("forward").disabled = $("last").disabled = view.at === n;
    $("play-on").disabled = false;
  }
}

// ----- playing -----

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

function forget() {
  if (view) call("DELETE", `/api/sessions/${view.id}`).catch(() => {});
  view = null;
}

async function newGame() {
  showError(null);
  replaying = false;
  forget();
  try {
    const request = { game: $("game").value };
    if (editedRules !== null) request.rules = editedRules;
    view = await call("POST", "/api/sessions", request);
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
    // Back to a human's turn: the computer's steps are taken back too, unless no one is human.
    const anyone = view.players.some((p) => seatOf(p.name) === "human");
    while (anyone && view.history.length > 0 && seatOf(view.to_move) !== "human") {
      view = await call("POST", `/api/sessions/${view.id}/undo`);
    }
  } catch (e) {
    showError(e);
  }
  render();
}

async function resign() {
  showError(null);
  try {
    view = await call("POST", `/api/sessions/${view.id}/resign`);
  } catch (e) {
    showError(e);
  }
  render();
}

function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

async function downloadRecord() {
  try {
    const seats = view.players.map((p) => seatOf(p.name)).join(",");
    const record = await call("GET", `/api/sessions/${view.id}/record?seats=${encodeURIComponent(seats)}`);
    download(`${view.game}.record.json`, JSON.stringify(record) + "\n");
  } catch (e) {
    showError(e);
  }
}

// ----- replay -----

let records = [];

// A records file is one JSON record, or one per line (as `run --record` writes them).
function parseRecords(text) {
  try {
    const one = JSON.parse(text);
    return Array.isArray(one) ? one : [one];
  } catch (_) {
    return text.split("\n").filter((l) => l.trim() !== "").map((line, i) => {
      try {
        return JSON.parse(line);
      } catch (e) {
        throw new Error(`line ${i + 1} is not a game record: ${e.message}`);
      }
    });
  }
}

async function openRecords(file) {
  showError(null);
  try {
    records = parseRecords(await file.text());
  } catch (e) {
    return showError(e);
  }
  const select = $("record-game");
  select.textContent = "";
  records.forEach((r, i) => select.add(new Option(`game ${i + 1} (${(r.moves || []).length} moves)`, i)));
  select.hidden = records.length < 2;
  await openRecord(0);
}

// The game a record was made with: its rules file's name, when it is on offer, else the game
// chosen in the page (the server tells when the record does not fit it).
function gameOfRecord(record) {
  const stem = String(record.rules || "").split(/[\\/]/).pop().replace(/\.rules$/, "");
  return games.some((g) => g.id === stem) ? stem : $("game").value;
}

async function openRecord(index) {
  showError(null);
  const record = records[index];
  if (!record) return;
  const game = gameOfRecord(record);
  try {
    const session = await call("POST", "/api/sessions", { game, record });
    forget();
    if ($("game").value !== game) {
      $("game").value = game;
      seatsFor(currentGame());
    }
    replaying = true;
    view = await call("GET", `/api/sessions/${session.id}?at=0`);
  } catch (e) {
    showError(e);
  }
  render();
}

async function goTo(at) {
  if (!view) return;
  try {
    view = await call("GET", `/api/sessions/${view.id}?at=${at}`);
  } catch (e) {
    showError(e);
  }
  render();
}

async function playOn() {
  try {
    view = await call("POST", `/api/sessions/${view.id}/undo`, { to: view.at });
    replaying = false;
    editedRules = null;
    showTab("play");
  } catch (e) {
    showError(e);
  }
  render();
  advance();
}

// ----- the rules editor -----

async function openEditor() {
  const id = $("game").value;
  if (editor.game === id) return;
  try {
    const rules = await call("GET", `/api/games/${id}/rules`);
    editor.game = id;
    $("rules-text").value = rules.text;
    $("save-rules").hidden = !rules.saveable;
    $("edit-state").textContent = rules.name;
    numberLines([]);
    await checkEdit();
  } catch (e) {
    showError(e);
  }
}

function numberLines(diagnostics) {
  const marks = {};
  diagnostics.filter((d) => !d.file).forEach((d) => {
    if (marks[d.line] !== "error") marks[d.line] = d.severity;
  });
  const gutter = $("gutter");
  gutter.textContent = "";
  const count = $("rules-text").value.split("\n").length;
  for (let i = 1; i <= count; i++) {
    const line = document.createElement("div");
    line.textContent = i;
    line.dataset.line = i;
    if (marks[i]) line.className = marks[i];
    gutter.appendChild(line);
  }
  gutter.scrollTop = $("rules-text").scrollTop;
}

function goToLine(line, column) {
  const area = $("rules-text");
  const lines = area.value.split("\n");
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i].length + 1;
  offset += Math.max(0, (column || 1) - 1);
  area.focus();
  area.setSelectionRange(offset, offset);
  // About the line's place in the box.
  area.scrollTop = Math.max(0, (line - 5) * parseFloat(getComputedStyle(area).lineHeight || 18));
}

async function checkEdit() {
  const text = $("rules-text").value;
  editor.checked = text;
  let result;
  try {
    result = await call("POST", `/api/games/${editor.game}/check`, { text });
  } catch (e) {
    return showError(e);
  }
  if ($("rules-text").value !== text) return; // typed on meanwhile: a newer check follows
  showError(null);
  numberLines(result.diagnostics);
  const list = $("diagnostics");
  list.textContent = "";
  result.diagnostics.forEach((d) => {
    const li = document.createElement("li");
    li.className = d.severity;
    li.dataset.line = d.line;
    const where = d.file ? `${d.file}:${d.line}:${d.column}` : `line ${d.line}:${d.column}`;
    let text = `${d.severity} at ${where}: ${d.message}`;
    if (d.label && d.label !== "here") text += `\n  ${d.label}`;
    if (d.help) text += `\n  help: ${d.help}`;
    li.textContent = text;
    if (!d.file) li.addEventListener("click", () => goToLine(d.line, d.column));
    list.appendChild(li);
  });
  const warnings = result.diagnostics.length - result.errors;
  $("edit-state").textContent = result.errors > 0
    ? `${result.errors} error${result.errors === 1 ? "" : "s"}`
    : `the rules check${warnings ? ` (${warnings} warning${warnings === 1 ? "" : "s"})` : ""}`;
  $("play-edit").disabled = result.errors > 0;
  $("run-examples").disabled = result.errors > 0;
}

function edited() {
  numberLines([]);
  $("edit-state").textContent = "checking…";
  clearTimeout(editor.timer);
  editor.timer = setTimeout(checkEdit, 250);
}

async function runExamples() {
  const list = $("example-results");
  list.textContent = "";
  try {
    const result = await call("POST", `/api/games/${editor.game}/examples`, { text: $("rules-text").value });
    if (result.examples.length === 0) {
      list.innerHTML = "<li>These rules have no examples.</li>";
    }
    result.examples.forEach((x) => {
      const li = document.createElement("li");
      li.className = x.passed ? "passed" : "failed";
      li.textContent = `example "${x.name}" (line ${x.line}) ` + (x.passed ? "passes" : x.message);
      li.addEventListener("click", () => goToLine(x.line, 1));
      list.appendChild(li);
    });
  } catch (e) {
    showError(e);
  }
}

async function playEdit() {
  editedRules = $("rules-text").value;
  showTab("play");
  await newGame();
}

async function saveRules() {
  try {
    const saved = await call("POST", `/api/games/${editor.game}/save`, { text: $("rules-text").value });
    $("edit-state").textContent = saved.served
      ? `saved to ${saved.saved}`
      : `saved to ${saved.saved}; it does not check, so the last rules that did are still played`;
  } catch (e) {
    showError(e);
  }
}

// ----- analysis -----

let analysis = null; // the id of the analysis shown
const LINE_COLOURS = ["#1c1c1c", "#c62828", "#1565c0", "#2e7d32", "#f9a825", "#6a1b9a"];

function analysisSeats() {
  const box = $("analysis-seats");
  box.textContent = "";
  currentGame().players.forEach((name) => {
    const label = document.createElement("label");
    label.textContent = name + " ";
    const select = document.createElement("select");
    select.dataset.player = name;
    AGENTS.filter((a) => a !== "human").forEach((a) => select.add(new Option(a, a)));
    select.value = "random";
    label.appendChild(select);
    box.appendChild(label);
  });
}

async function startAnalysis() {
  showError(null);
  const agents = [...document.querySelectorAll("#analysis-seats select")].map((s) => s.value);
  const request = { game: $("game").value, agents, games: Number($("analysis-games").value) };
  if (editedRules !== null) request.rules = editedRules;
  try {
    analysis = (await call("POST", "/api/analyses", request)).id;
  } catch (e) {
    return showError(e);
  }
  $("analysis-start").disabled = true;
  $("analysis-stop").disabled = false;
  pollAnalysis();
}

async function pollAnalysis() {
  const id = analysis;
  let a;
  try {
    a = await call("GET", `/api/analyses/${id}`);
  } catch (e) {
    return showError(e);
  }
  if (id !== analysis) return;
  showAnalysis(a);
  if (a.finished) {
    $("analysis-start").disabled = false;
    $("analysis-stop").disabled = true;
  } else {
    setTimeout(pollAnalysis, 300);
  }
}

function percent(x) {
  return (100 * x).toFixed(1) + "%";
}

function showAnalysis(a) {
  $("analysis-progress").max = a.games;
  $("analysis-progress").value = a.done;
  const rate = a.seconds > 0 ? ` (${(a.done / a.seconds).toFixed(1)} games/s)` : "";
  $("analysis-state").textContent = a.error
    ? `stopped by an error: ${a.error}`
    : `${a.done} of ${a.games} games${a.finished ? (a.stopped ? ", stopped" : ", done") : ""}${rate}`;
  const table = $("analysis-table");
  table.textContent = "";
  const head = table.insertRow();
  ["seat", "agent", "wins", "rate", "95% interval"].forEach((h) => {
    const th = document.createElement("th");
    th.textContent = h;
    head.appendChild(th);
  });
  a.wins.forEach((w) => {
    const row = table.insertRow();
    row.dataset.player = w.player;
    [w.player, w.agent, w.share.wins, percent(w.share.rate),
     `${percent(w.share.ci95[0])} – ${percent(w.share.ci95[1])}`].forEach((v) => (row.insertCell().textContent = v));
  });
  const r = a.report;
  const share = (p) => `${percent(p.rate)} (95% CI ${percent(p.ci95[0])} – ${percent(p.ci95[1])})`;
  const mean = (m, digits) => m.ci95
    ? `${m.mean.toFixed(digits)} (95% CI ${m.ci95[0].toFixed(digits)} – ${m.ci95[1].toFixed(digits)})`
    : m.mean.toFixed(digits);
  const more = [
    ["draws", a.draws],
    ["first player", r.first_player.of > 0 ? `${share(r.first_player)} of won games` : "no game won"],
    ["decisiveness", `the winner leads for good after ${mean(r.decisiveness, 2)} of the game`],
    ["lead changes", `${mean(r.lead_changes, 2)} per game`],
    ["comebacks", `${share(r.comebacks)} of won games`],
    ["drama", `the winner was at worst ${mean(r.drama, 2)} points behind`],
    ["length", `${a.length.mean.toFixed(1)} turns (min ${a.length.min}, max ${a.length.max})`],
    ["branching", `${a.branching.toFixed(2)} choices per decision`],
    ...Object.entries(r.words).map(([word, n]) => [`\`${word}\``, `${n.toFixed(2)} per game`]),
    ...r.endings.map((e) => [e.rule, `${share(e.games)} of games`]),
    ...r.openings.map((o) => [`opening ${o.first_move}`,
      `${o.games} games, the first player wins ${share(o.first_player_wins)}`]),
  ];
  more.forEach(([k, v]) => {
    const row = table.insertRow();
    row.insertCell().textContent = k;
    const cell = row.insertCell();
    cell.colSpan = 4;
    cell.textContent = v;
  });
  chart(a.first_game);
  // The finished analysis' charts, drawn by the server (analyse --plots).
  const charts = $("analysis-charts");
  if (charts.dataset.analysis !== String(a.id) || charts.childElementCount !== a.charts.length) {
    charts.dataset.analysis = String(a.id);
    charts.textContent = "";
    a.charts.forEach((c) => {
      const figure = document.createElement("figure");
      figure.dataset.chart = c.name;
      const caption = document.createElement("figcaption");
      caption.textContent = c.title;
      figure.appendChild(caption);
      const drawing = new DOMParser().parseFromString(c.svg, "image/svg+xml").documentElement;
      figure.appendChild(document.importNode(drawing, true));
      charts.appendChild(figure);
    });
  }
}

// Each player's score after each turn of the first game, one line per player.
function chart(course) {
  const svg = $("analysis-chart");
  svg.textContent = "";
  if (!course || course.scores.length === 0) return;
  const NS = "http://www.w3.org/2000/svg";
  const [w, h, m] = [560, 260, 30];
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const turns = course.scores.length - 1;
  const all = course.scores.flat();
  const [low, high] = [Math.min(0, ...all), Math.max(1, ...all)];
  const x = (t) => m + (t / Math.max(1, turns)) * (w - 2 * m);
  const y = (v) => h - m - ((v - low) / (high - low)) * (h - 2 * m);
  const add = (name, attributes, text) => {
    const node = document.createElementNS(NS, name);
    Object.entries(attributes).forEach(([k, v]) => node.setAttribute(k, v));
    if (text !== undefined) node.textContent = text;
    svg.appendChild(node);
    return node;
  };
  add("line", { x1: m, y1: h - m, x2: w - m, y2: h - m, class: "axis" });
  add("line", { x1: m, y1: m, x2: m, y2: h - m, class: "axis" });
  add("text", { x: w - m, y: h - 8, "text-anchor": "end" }, `${turns} turns`);
  add("text", { x: 4, y: m - 8 }, String(high));
  course.players.forEach((name, p) => {
    const points = course.scores.map((s, t) => `${x(t).toFixed(1)},${y(s[p]).toFixed(1)}`).join(" ");
    const colour = LINE_COLOURS[p % LINE_COLOURS.length];
    add("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2, "data-player": name });
    add("text", { x: m + 8 + 90 * p, y: m - 8, fill: colour }, name);
  });
}

// ----- tabs -----

function showTab(name) {
  tab = name;
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === name));
  document.querySelectorAll("#toolbar > div").forEach((d) => (d.hidden = d.dataset.for !== name));
  $("editor").hidden = name !== "edit";
  $("analysis").hidden = name !== "analyse";
  if (name === "edit") openEditor();
  if (name === "analyse" && !$("analysis-seats").hasChildNodes()) analysisSeats();
  if (name === "play" && replaying) {
    replaying = false;
    newGame();
  }
}

async function start() {
  try {
    games = await call("GET", "/api/games");
  } catch (e) {
    return showError(e);
  }
  const select = $("game");
  games.forEach((g) => select.add(new Option(g.title || g.id, g.id)));
  select.addEventListener("change", () => {
    seatsFor(currentGame());
    analysisSeats();
    editedRules = null;
    if (tab === "edit") openEditor();
    else if (tab === "play") newGame();
  });
  seatsFor(currentGame());
  document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", undo);
  $("resign").addEventListener("click", resign);
  $("download").addEventListener("click", downloadRecord);
  $("pause").addEventListener("click", () => {
    paused = !paused;
    render();
    if (!paused) advance();
  });
  $("next-step").addEventListener("click", () => advance(true));
  $("record-file").addEventListener("change", (e) => e.target.files[0] && openRecords(e.target.files[0]));
  $("record-game").addEventListener("change", (e) => openRecord(Number(e.target.value)));
  $("first").addEventListener("click", () => goTo(0));
  $("back").addEventListener("click", () => goTo(view.at - 1));
  $("forward").addEventListener("click", () => goTo(view.at + 1));
  $("last").addEventListener("click", () => goTo(view.history.length));
  $("play-on").addEventListener("click", playOn);
  const area = $("rules-text");
  area.addEventListener("input", edited);
  area.addEventListener("scroll", () => ($("gutter").scrollTop = area.scrollTop));
  $("run-examples").addEventListener("click", runExamples);
  $("play-edit").addEventListener("click", playEdit);
  $("download-rules").addEventListener("click", () => download(`${editor.game}.rules`, area.value));
  $("save-rules").addEventListener("click", saveRules);
  $("analysis-start").addEventListener("click", startAnalysis);
  $("analysis-stop").addEventListener("click", () => analysis && call("DELETE", `/api/analyses/${analysis}`).catch(showError));
  // A board at once: a new game of the first game on offer.
  newGame();
}

start();
