// Games: play by clicks, by notation or against the computer. The referee answers every click;
// the page keeps the line of moves (for redo and the clickable history) and a cursor into it.
// Every request carries an epoch: an answer for a position the page has left is dropped, and
// undo, a new game or a switch abort a pending computer move (the server then cancels it).
import { BoardView } from "./board.js";
import {
  $, api, Stale, sentence, download, readFile, parseText, fill, verdict, announce, store, shareLink, copyText,
} from "./util.js";

const games = { view: null, game: null, start: null, options: undefined, line: [], cursor: 0, state: null,
  epoch: 0, thinking: null, boardName: null };
let meta = null;

export async function initGames(m, shared) {
  meta = m;
  games.view = new BoardView($("game-svg"), { onClick: (v) => gameClick(v) });
  fill($("game-select"), meta.games.map((g) => [g.name, g.title]));
  $("game-select").addEventListener("change", () => switchGame($("game-select").value));
  $("game-start").addEventListener("change", () => newGame());
  $("game-new").addEventListener("click", () => newGame());
  $("game-undo").addEventListener("click", () => undo());
  $("game-redo").addEventListener("click", () => goTo(games.cursor + 1));
  $("game-flip").addEventListener("click", () => games.view.flip());
  $("game-computer").addEventListener("click", () => computerMove());
  $("game-mode").addEventListener("change", () => { save(); maybeComputer(); });
  $("game-seconds").addEventListener("change", () => save());
  $("game-download").addEventListener("click", () => download(`${games.game.name}.json`, record(games.cursor)));
  $("game-share").addEventListener("click", async () => {
    const link = shareLink("games", record(games.cursor));
    $("game-link").value = link;
    $("game-link").hidden = false;
    announce(await copyText(link) ? "link copied" : "link shown below the buttons", "games");
  });
  $("game-file").addEventListener("change", async () => {
    try { await loadRecord(await readFile($("game-file"))); } catch (e) { reason(sentence(e)); }
  });
  $("game-paste-load").addEventListener("click", async () => {
    try { await loadRecord(parseText($("game-paste").value, "pasted record")); } catch (e) { reason(sentence(e)); }
  });
  $("game-move-form").addEventListener("submit", (e) => { e.preventDefault(); typedMove(); });
  document.addEventListener("keydown", historyKeys);
  await restore(shared);
}

async function restore(shared) {
  const saved = store.get("games");
  if (saved) {
    $("game-mode").value = saved.mode || "friend";
    $("game-seconds").value = saved.seconds || 1;
  }
  if (shared) {
    try { await loadRecord(shared); return; } catch (e) { reason(`the shared record: ${sentence(e)}`); }
  }
  if (saved && meta.games.some((g) => g.name === saved.game)) {
    try {
      setGame(saved.game, saved.start, saved.options);
      games.line = saved.line || [];
      games.cursor = Math.min(saved.cursor ?? games.line.length, games.line.length);
      await refresh();
      return;
    } catch (e) { reason(`the saved game could not be restored: ${sentence(e)}`); }
  }
  setGame(meta.games[0].name);
  await newGame();
}

function save() {
  store.set("games", { game: games.game.name, start: games.start, options: games.options, line: games.line,
    cursor: games.cursor,
    mode: $("game-mode").value, seconds: Number($("game-seconds").value) });
}

function record(upto) {
  const r = { game: games.game.name, start: games.start, moves: games.line.slice(0, upto) };
  if (games.options) r.options = games.options;
  return r;
}

function reason(text, bad = true) {
  $("game-reason").textContent = text;
  $("game-reason").className = bad ? "reason" : "info";
  announce(text, "games");
}

// A new epoch: answers to earlier requests are dropped and a pending computer move is stopped.
function bump() {
  games.epoch++;
  if (games.thinking) { games.thinking.abort(); games.thinking = null; }
  const epoch = games.epoch;
  return () => epoch === games.epoch;
}

// A record's custom start (custom:L,L/D,D) joins the named starts in the list.
function setGame(name, start = null, options = undefined) {
  games.game = meta.games.find((g) => g.name === name);
  $("game-select").value = name;
  const starts = [...games.game.starts];
  if (start && start.startsWith("custom:") && !starts.includes(start)) starts.push(start);
  fill($("game-start"), starts.map((s) => [s, s]));
  games.start = start && starts.includes(start) ? start : games.game.default_start;
  $("game-start").value = games.start;
  $("game-notation").textContent = `notation: ${games.game.notation}`;
  games.options = options && Object.keys(options).length ? options : undefined;
  optionControls(games.options || {});
}

// The game's rule options from their one declaration (GET /api/meta): a checkbox for a yes/no
// option, a list for other choices, a text field otherwise; a change starts a new game.
function optionControls(chosen) {
  $("game-options").replaceChildren(...games.game.options.map((o) => {
    const value = o.name in chosen ? chosen[o.name] : o.default;
    let input;
    if (typeof o.default === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = !!value;
    } else if (o.choices) {
      input = document.createElement("select");
      fill(input, o.choices.map((c, k) => [String(k), String(c)]));
      input.value = String(Math.max(0, o.choices.indexOf(value)));
    } else {
      input = document.createElement("input");
      input.size = 10;
      input.value = String(value);
    }
    input.dataset.option = o.name;
    input.title = o.help;
    input.addEventListener("change", () => { games.options = chosenOptions(); newGame(); });
    const label = document.createElement("label");
    label.append(`${o.name.replaceAll("_", " ")} `, input);
    return label;
  }));
}

// The options that differ from their defaults (undefined when none: the record then names none).
function chosenOptions() {
  const out = {};
  for (const o of games.game.options) {
    const input = $("game-options").querySelector(`[data-option="${o.name}"]`);
    const value = input.type === "checkbox" ? input.checked
      : o.choices ? o.choices[Number(input.value)] : input.value.trim();
    if (String(value) !== String(o.default)) out[o.name] = value;
  }
  return Object.keys(out).length ? out : undefined;
}

async function switchGame(name) {
  bump();
  setGame(name);
  await newGame();
}

async function newGame() {
  bump();
  games.start = $("game-start").value || games.game.default_start;
  games.line = [];
  games.cursor = 0;
  reason("", false);
  await refresh();
  maybeComputer();
}

// A record from a file, a paste or a link: checked whole by the server first (as powertwo
// validate reads it), and only then shown; a refused record leaves the page as it was.
async function loadRecord(rec) {
  if (!rec || typeof rec !== "object" || Array.isArray(rec)) throw new Error("a game record is a JSON object");
  const guard = bump();
  const full = await api("/api/check", { solution: rec }, { guard });
  if (!full.valid) throw new Error(full.faults[0] || "the record is not valid");
  if (!meta.games.some((g) => g.name === rec.game)) throw new Error(`unknown game ${rec.game}`);
  const v = await api("/api/game", { game: rec.game, start: rec.start, options: rec.options, moves: rec.moves || [] },
    { guard });
  setGame(rec.game, rec.start, rec.options);
  games.line = [...(rec.moves || [])];
  games.cursor = games.line.length;
  reason("record loaded", false);
  await showGame(v);
}

async function refresh(clicks = []) {
  const epoch = games.epoch;
  const v = await api("/api/game", { ...record(games.cursor), clicks }, { guard: () => epoch === games.epoch });
  await showGame(v);
}

async function goTo(k) {
  if (k < 0 || k > games.line.length || k === games.cursor) return;
  bump();
  games.cursor = k;
  reason("", false);
  try { await refresh(); } catch (e) { reason(sentence(e)); }
}

function historyKeys(e) {
  if (document.body.dataset.view !== "games" || ["INPUT", "SELECT", "TEXTAREA", "BUTTON"].includes(e.target.tagName)
      || e.target.dataset && e.target.dataset.node) return;
  const to = { ArrowLeft: games.cursor - 1, ArrowRight: games.cursor + 1, Home: 0, End: games.line.length }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  goTo(to);
}

async function showGame(v) {
  if (games.boardName !== games.game.board) {
    games.view.draw(await api(`/api/board/${games.game.board}`));
    games.boardName = games.game.board;
  }
  games.state = v;
  games.view.setStones(v.stones);
  games.view.setArrows(v.clicks.length ? [] : v.arrows);
  games.view.mark(v.next, "next");
  games.view.mark(v.clicks, "picked");
  games.view.mark(v.clicks.length ? [] : v.last, "last");
  const out = v.outcome;
  const status = out ? `${out.winner ? out.winner + " wins" : "draw"}: ${out.reason}` : v.caption;
  verdict($("game-status"), status, out ? true : null);
  $("game-title").textContent = v.title;
  const labels = (nodes) => nodes.map((c) => games.view.label(c)).join(" ");
  $("game-clicks").textContent = v.clicks.length
    ? `clicked ${labels(v.clicks)}; may come next: ${labels(v.next) || "nothing"}`
    : out ? "" : `${v.to_move}: click a marked node (${v.next.length} may start a move)`;
  $("game-complete").replaceChildren(...v.complete.map((text) => {
    const b = document.createElement("button");
    b.textContent = `play ${text}`;
    b.dataset.move = text;
    b.addEventListener("click", () => sendClick({ play: text }));
    return b;
  }));
  showFacts(v);
  showHistory();
  document.body.dataset.clicks = v.clicks.join(" ");
  document.body.dataset.game = v.record.game;
  document.body.dataset.ply = v.record.moves.length;
  save();
  announce(v.last_move ? `${v.last_move} played; ${status}` : status, "games");
}

function showFacts(v) {
  const rows = v.players.map((p, k) => {
    const tr = document.createElement("tr");
    if (k === v.to_move_index && !v.outcome) tr.className = "to-move";
    const cells = [`${p.name}${k === v.to_move_index && !v.outcome ? " (to move)" : ""}`, String(p.on_board),
      p.reserve === undefined ? "–" : String(p.reserve)];
    for (const text of cells) { const td = document.createElement("td"); td.textContent = text; tr.appendChild(td); }
    return tr;
  });
  $("game-facts").replaceChildren(...rows);
  $("game-last").textContent = v.last_move ? `last move: ${v.last_move}` : "no move yet";
  const legend = { ...v.legend, next: "orange ring: a node that may come next", picked: "blue ring: clicked so far" };
  $("game-legend").replaceChildren(...Object.values(legend).map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    return li;
  }));
}

function showHistory() {
  const items = games.line.map((text, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = text;
    b.className = k + 1 === games.cursor ? "current" : k + 1 > games.cursor ? "future" : "";
    b.setAttribute("aria-current", k + 1 === games.cursor ? "step" : "false");
    b.addEventListener("click", () => goTo(k + 1));
    li.appendChild(b);
    return li;
  });
  $("game-moves").replaceChildren(...items);
  $("game-redo").disabled = games.cursor >= games.line.length;
  $("game-position").textContent = games.cursor < games.line.length
    ? `viewing move ${games.cursor} of ${games.line.length}; a move here replaces the rest` : "";
}

async function gameClick(node) {
  if (games.thinking) { reason("the computer is thinking; undo to stop it"); return; }
  const st = games.state;
  if (st.clicks.length && st.clicks[st.clicks.length - 1] === node && !st.next.includes(node)) {
    await refresh(st.clicks.slice(0, -1));  // click the last picked node again: take it back
    return;
  }
  await sendClick({ clicks: [...st.clicks, node] });
}

function played(v) {
  games.line = [...games.line.slice(0, games.cursor), v.played];
  games.cursor = games.line.length;
}

async function sendClick(extra) {
  const epoch = games.epoch;
  try {
    const v = await api("/api/game/click", { ...record(games.cursor), clicks: games.state.clicks, ...extra },
      { guard: () => epoch === games.epoch });
    if (v.illegal) { reason(v.illegal); return; }
    reason("", false);
    if (v.played) played(v);
    await showGame(v);
    if (v.played) maybeComputer();
  } catch (e) { if (!(e instanceof Stale)) reason(sentence(e)); }
}

async function typedMove() {
  const text = $("game-move").value.trim();
  if (!text) return;
  const guard = bump();
  try {
    const v = await api("/api/game/move", { ...record(games.cursor), move: text }, { guard });
    if (v.illegal) { reason(v.illegal); return; }
    $("game-move").value = "";
    reason("", false);
    played(v);
    await showGame(v);
    maybeComputer();
  } catch (e) { if (!(e instanceof Stale)) reason(sentence(e)); }
}

async function undo() {
  const st = games.state;
  const wasThinking = games.thinking !== null;
  bump();
  reason("", false);
  if (st.clicks.length && !wasThinking) return refresh(st.clicks.slice(0, -1));
  const back = $("game-mode").value === "friend" || wasThinking ? 1 : 2;
  games.cursor = Math.max(0, games.cursor - back);
  await refresh();
}

function maybeComputer() {
  const mode = $("game-mode").value;
  if (mode === "friend" || !games.state || games.state.outcome || games.cursor < games.line.length) return;
  if (String(games.state.to_move_index) === mode) computerMove();
}

async function computerMove() {
  if (games.thinking || games.state.outcome) return;
  const guard = bump();
  const controller = new AbortController();
  games.thinking = controller;
  reason("", false);
  $("game-clicks").textContent = "the computer is thinking…";
  announce("the computer is thinking", "games");
  try {
    const v = await api("/api/game/computer", { ...record(games.cursor), seconds: Number($("game-seconds").value),
      seed: games.cursor }, { signal: controller.signal, guard });
    games.thinking = null;
    played(v);
    await showGame(v);
    const work = v.computer.positions ? `${v.computer.positions} positions` : `${v.computer.playouts} playouts`;
    reason(`computer played ${v.played} (${work}, ${v.computer.seconds} s)`, false);
  } catch (e) {
    if (games.thinking === controller) games.thinking = null;
    if (!(e instanceof Stale)) { reason(sentence(e)); if (games.state) await showGame(games.state); }
  }
}
