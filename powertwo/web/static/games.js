// Games: play by clicks, by notation or against the computer. The referee answers every click;
// the page keeps the line of moves (for redo and the clickable history) and a cursor into it.
// Moves are serialised: a click, a typed move, undo or a new game waits for the request before it
// (so it is applied to the position that request leaves), and a click while the computer thinks
// is refused with a sentence. Every request carries an epoch: an answer for a position the page
// has left is dropped, and undo, a new game or a switch abort a pending computer move (the server
// then stops its search). Stop asks the computer for its best move so far.
import { BoardView } from "./board.js";
import {
  $, api, Stale, sentence, download, readFile, parseText, fill, verdict, announce, store, shareLink, copyText,
} from "./util.js";

const games = { view: null, game: null, start: null, options: undefined, line: [], cursor: 0, state: null,
  epoch: 0, thinking: null, boardName: null, chain: Promise.resolve(), resigned: null, analysis: null,
  linkStart: null, thrown: [] };
let meta = null;

export async function initGames(m, link) {
  meta = m;
  games.view = new BoardView($("game-svg"), { onClick: (v, how) => serial(() => gameClick(v, how.touch)) });
  fill($("game-select"), meta.games.map((g) => [g.name, g.title]));
  $("game-select").addEventListener("change", () => serial(() => switchGame($("game-select").value)));
  $("game-start").addEventListener("change", () => serial(() => newGame()));
  $("game-new").addEventListener("click", () => serial(() => newGame()));
  $("game-rematch").addEventListener("click", () => serial(() => newGame()));
  $("game-rematch-swap").addEventListener("click", () => { swapSides(); serial(() => newGame()); });
  $("game-swap").addEventListener("click", () => { swapSides(); maybeComputer(); });
  $("game-resign").addEventListener("click", () => resign());
  $("game-undo").addEventListener("click", () => serial(() => undo()));
  $("game-redo").addEventListener("click", () => serial(() => goTo(games.cursor + 1)));
  $("game-flip").addEventListener("click", () => games.view.flip());
  $("game-zoom").addEventListener("click", () => zoom(!$("view-games").classList.contains("zoomed")));
  $("game-computer").addEventListener("click", () => serial(() => { computerMove(); }));  // not awaited: Undo stops it
  $("game-stop").addEventListener("click", () => stopThinking());
  $("game-mode").addEventListener("change", () => { save(); showGame(games.state); maybeComputer(); });
  $("game-seconds").addEventListener("change", () => save());
  $("game-analysis-on").addEventListener("change", () => { save(); analyse(); });
  $("game-link-start").addEventListener("click", () => {
    const name = games.linkStart;
    linkError(null);
    serial(() => switchGame(name));
  });
  $("game-download").addEventListener("click", () => download(`${games.game.name}.json`, record(games.cursor)));
  $("game-share").addEventListener("click", async () => {
    const link = shareLink("games", record(games.cursor));
    $("game-link").value = link;
    $("game-link").hidden = false;
    announce(await copyText(link) ? "link copied" : "link shown below the buttons", "games");
  });
  $("game-file").addEventListener("change", async () => {
    try { const rec = await readFile($("game-file")); await serial(() => loadRecord(rec)); }
    catch (e) { reason(sentence(e)); }
  });
  $("game-paste-load").addEventListener("click", () => serial(async () => {
    try { await loadRecord(parseText($("game-paste").value, "pasted record")); } catch (e) { reason(sentence(e)); }
  }));
  $("game-move-form").addEventListener("submit", (e) => { e.preventDefault(); serial(() => typedMove()); });
  document.addEventListener("keydown", keys);
  await restore(link);
}

// One game action at a time, in the order they came: each runs on the position the one before left.
function serial(action) {
  const run = games.chain.then(() => action());
  games.chain = run.catch((e) => { if (!(e instanceof Stale)) reason(sentence(e)); });
  return games.chain;
}

async function restore(link) {
  const saved = store.get("games");
  if (saved) {
    $("game-mode").value = saved.mode || "friend";
    $("game-seconds").value = saved.seconds || 1;
    $("game-analysis-on").checked = Boolean(saved.analysis);
  }
  if (link && link.error) linkError(link.error, null);
  if (link && link.data) {
    try { await loadRecord(link.data); return; } catch (e) { linkError(sentence(e), link.data); }
  }
  if (saved && meta.games.some((g) => g.name === saved.game)) {
    try {
      setGame(saved.game, saved.start, saved.options);
      games.line = saved.line || [];
      games.cursor = Math.min(saved.cursor ?? games.line.length, games.line.length);
      games.resigned = saved.resigned || null;
      await refresh();
      maybeComputer();  // a reload while the computer was thinking: it thinks again
      return;
    } catch (e) { reason(`the saved game could not be restored: ${sentence(e)}`); }
  }
  setGame(meta.games[0].name);
  await newGame();
}

// A broken game link: what is wrong, in a sentence, and the start position of its game on offer
// (the page keeps what it showed).
function linkError(text, rec) {
  $("game-link-error").hidden = !text;
  if (!text) return;
  const known = rec && typeof rec === "object" && meta.games.find((g) => g.name === rec.game);
  games.linkStart = (known || meta.games[0]).name;
  $("game-link-error-text").textContent = `This game link is broken: ${text}.`;
  $("game-link-start").textContent = `Play ${(known || meta.games[0]).title} from its start position`;
  announce(`This game link is broken: ${text}`, "games");
}

function save() {
  store.set("games", { game: games.game.name, start: games.start, options: games.options, line: games.line,
    cursor: games.cursor, mode: $("game-mode").value, seconds: Number($("game-seconds").value),
    resigned: games.resigned, analysis: $("game-analysis-on").checked });
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

// The side the player plays against the computer (null: a friend plays the other side).
function human() {
  const mode = $("game-mode").value;
  return mode === "friend" ? null : 1 - Number(mode);
}

// A new epoch: answers to earlier requests are dropped and a pending computer move is stopped.
function bump() {
  games.epoch++;
  if (games.thinking) { games.thinking.controller.abort(); endThinking(); }
  if (games.analysis) { games.analysis.abort(); games.analysis = null; }
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
  $("game-notation").textContent = `Notation: ${games.game.notation}.`;
  $("game-rules-title").textContent = games.game.title;
  $("game-rules-text").textContent = games.game.rules;
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
  games.resigned = null;
  games.thrown = [];
  reason("", false);
  await refresh();
  maybeComputer();
}

function swapSides() {
  const mode = $("game-mode").value;
  $("game-mode").value = mode === "0" ? "1" : mode === "1" ? "0" : mode;
  save();
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
  games.resigned = null;
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
  await refresh();
}

function keys(e) {
  if (document.body.dataset.view !== "games") return;
  if (e.key === "Escape") {
    if (games.thinking) { e.preventDefault(); stopThinking(); }
    else if (games.state && games.state.clicks.length) { e.preventDefault(); serial(() => refresh([])); }
    return;
  }
  if (["INPUT", "SELECT", "TEXTAREA", "BUTTON"].includes(e.target.tagName) || e.target.dataset && e.target.dataset.node) {
    return;
  }
  const to = { ArrowLeft: games.cursor - 1, ArrowRight: games.cursor + 1, Home: 0, End: games.line.length }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  serial(() => goTo(to));
}

function over() {
  return games.state && (games.state.outcome || (games.resigned && games.cursor === games.line.length));
}

async function showGame(v) {
  if (!v) return;
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
  games.view.mark([], "hint");
  const out = v.outcome;
  const status = out ? `${out.winner ? out.winner + " wins" : "a draw"}: ${out.reason}` : v.caption;
  verdict($("game-status"), out ? `game over after move ${v.record.moves.length}` : v.caption, null);
  showBanner(v);
  $("game-title").textContent = v.title;
  const labels = (nodes) => nodes.map((c) => games.view.label(c)).join(" ");
  const confirming = v.clicks.length && v.complete.length === 1 && !v.next.length;
  $("game-clicks").textContent = confirming ? `${v.complete[0]}: tap the node again or press Confirm to play it`
    : v.clicks.length ? `clicked ${labels(v.clicks)}; may come next: ${labels(v.next) || "nothing"}`
      : over() ? "" : `${v.to_move}: click a marked node (${v.next.length} may start a move)`;
  $("game-complete").replaceChildren(...v.complete.map((text) => {
    const b = document.createElement("button");
    b.textContent = confirming ? `Confirm ${text}` : `play ${text}`;
    b.dataset.move = text;
    if (confirming) b.className = "primary";
    b.addEventListener("click", () => serial(() => sendClick({ play: text })));
    return b;
  }), ...(confirming ? [cancelButton()] : []));
  showFacts(v);
  showHistory();
  showButtons();
  document.body.dataset.clicks = v.clicks.join(" ");
  document.body.dataset.game = v.record.game;
  document.body.dataset.ply = v.record.moves.length;
  save();
  announce(v.last_move ? `${v.last_move} played; ${status}` : status, "games");
  analyse();
}

function cancelButton() {
  const b = document.createElement("button");
  b.textContent = "Cancel";
  b.addEventListener("click", () => serial(() => refresh(games.state.clicks.slice(0, -1))));
  return b;
}

// The result from the player's side: "You lost: Dark has all 16 stones on the board".
function showBanner(v) {
  const me = human();
  const out = v.outcome;
  const names = meta.games.find((g) => g.name === v.record.game).players;
  let text = null, good = null;
  if (games.resigned && games.cursor === games.line.length && !out) {
    text = games.resigned.by === me ? `You resigned: ${names[1 - games.resigned.by]} wins`
      : `${names[games.resigned.by]} resigned: ${names[1 - games.resigned.by]} wins`;
    good = games.resigned.by === me ? false : null;
  } else if (out && me === null) {
    text = `${out.winner ? out.winner + " wins" : "A draw"}: ${out.reason}`;
  } else if (out) {
    good = out.winner_index === null ? null : out.winner_index === me;
    text = `${good === null ? "A draw" : good ? "You won" : "You lost"}: ${out.reason}`;
  }
  $("game-banner").hidden = text === null;
  $("game-banner").className = "banner" + (good === null ? "" : good ? " good" : " bad");
  $("game-banner-text").textContent = text || "";
  $("game-rematch-swap").hidden = me === null;
}

function showButtons() {
  const vsComputer = human() !== null;
  const playing = games.state && !over() && games.cursor === games.line.length;
  $("game-resign").hidden = !vsComputer || !playing;
  $("game-swap").hidden = !vsComputer || !playing;
  $("game-computer").disabled = !games.state || over() || games.thinking !== null;
}

function showFacts(v) {
  const rows = v.players.map((p, k) => {
    const tr = document.createElement("tr");
    if (k === v.to_move_index && !v.outcome) tr.className = "to-move";
    const who = human() === null ? "" : k === human() ? " (you)" : " (computer)";
    const cells = [`${p.name}${who}${k === v.to_move_index && !v.outcome ? ", to move" : ""}`, String(p.on_board),
      p.reserve === undefined ? "–" : String(p.reserve)];
    for (const text of cells) { const td = document.createElement("td"); td.textContent = text; tr.appendChild(td); }
    return tr;
  });
  $("game-facts").replaceChildren(...rows);
  $("game-last").textContent = v.last_move ? `last move: ${v.last_move}` : "no move yet";
  const legend = { ...v.legend, next: "orange ring: a node that may come next", picked: "blue ring: clicked so far" };
  if ($("game-analysis-on").checked) legend.hint = "green dashed ring: the computer's best move";
  $("game-legend").replaceChildren(...Object.values(legend).map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    return li;
  }));
}

function showHistory(thrown = games.thrown) {
  const items = games.line.map((text, k) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.textContent = text;
    b.className = k + 1 === games.cursor ? "current" : k + 1 > games.cursor ? "future" : "";
    b.setAttribute("aria-current", k + 1 === games.cursor ? "step" : "false");
    b.addEventListener("click", () => serial(() => goTo(k + 1)));
    li.appendChild(b);
    if (thrown.includes(k + 1)) {
      li.className = "thrown";
      const mark = document.createElement("span");
      mark.className = "thrown-mark";
      mark.textContent = "threw a proven win away";
      li.appendChild(mark);
    }
    return li;
  });
  $("game-moves").replaceChildren(...items);
  $("game-redo").disabled = games.cursor >= games.line.length;
  $("game-position").textContent = games.cursor < games.line.length
    ? `viewing move ${games.cursor} of ${games.line.length}; a move here replaces the rest` : "";
}

async function gameClick(node, touch) {
  if (games.thinking) { reason("the computer is thinking: wait, or press Stop for its best move now"); return; }
  if (over()) { reason("the game is over: start a new game, or undo"); return; }
  const st = games.state;
  const last = st.clicks[st.clicks.length - 1];
  if (st.clicks.length && last === node && !st.next.includes(node)) {
    if (st.complete.length === 1 && !st.next.length) return sendClick({ play: st.complete[0] });  // confirmed
    return refresh(st.clicks.slice(0, -1));  // click the last picked node again: take it back
  }
  await sendClick({ clicks: [...st.clicks, node], confirm: touch || undefined });
}

function played(v) {
  games.line = [...games.line.slice(0, games.cursor), v.played];
  games.cursor = games.line.length;
  games.thrown = [];
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
  if (games.thinking) { reason("the computer is thinking: wait, or press Stop for its best move now"); return; }
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
  const wasResigned = games.resigned !== null;
  bump();
  reason("", false);
  games.resigned = null;
  if (wasResigned && !wasThinking) return showGame(st);
  if (st.clicks.length && !wasThinking) return refresh(st.clicks.slice(0, -1));
  const back = human() === null || wasThinking ? 1 : 2;
  games.cursor = Math.max(0, games.cursor - back);
  await refresh();
}

function resign() {
  if (human() === null || over()) return;
  bump();
  games.resigned = { by: human(), ply: games.cursor };
  reason("", false);
  showGame(games.state);
}

function maybeComputer() {
  const mode = $("game-mode").value;
  if (mode === "friend" || !games.state || over() || games.cursor < games.line.length) return;
  if (String(games.state.to_move_index) === mode) computerMove();
}

// The computer's move: the thinking indicator counts the seconds; Stop (or Esc) asks the server for
// the search's best move so far. Every end shows a move or a sentence (a dropped answer means the
// player moved on: undo, a new game, another game).
async function computerMove() {
  if (games.thinking || !games.state || over()) return;
  const guard = bump();
  const seconds = Number($("game-seconds").value);
  const thinking = { controller: new AbortController(), id: Math.random().toString(36).slice(2) + Date.now(),
    began: performance.now(), seconds, timer: null };
  games.thinking = thinking;
  reason("", false);
  $("game-clicks").textContent = "";
  $("game-thinking").hidden = false;
  $("game-stop").disabled = false;
  thinking.timer = setInterval(() => tick(thinking), 100);
  tick(thinking);
  showButtons();
  announce("the computer is thinking", "games");
  try {
    const v = await api("/api/game/computer", { ...record(games.cursor), seconds, seed: games.cursor,
      think: thinking.id }, { signal: thinking.controller.signal, guard });
    endThinking(thinking);
    played(v);
    await showGame(v);
    reason(`computer played ${v.played} (${v.computer.summary})`, false);
  } catch (e) {
    endThinking(thinking);
    if (!(e instanceof Stale)) {
      reason(`the computer could not move: ${sentence(e)}; press "Computer move" to try again`);
      if (games.state) await showGame(games.state);
    }
  }
}

function tick(thinking) {
  const took = (performance.now() - thinking.began) / 1000;
  $("game-thinking-text").textContent = `the computer is thinking… ${took.toFixed(1)} s of ${thinking.seconds} s`;
  $("game-thinking-bar").value = Math.min(1, took / thinking.seconds);
}

function endThinking(thinking = games.thinking) {
  if (!thinking || games.thinking !== thinking) return;
  clearInterval(thinking.timer);
  games.thinking = null;
  $("game-thinking").hidden = true;
  showButtons();
}

async function stopThinking() {
  const thinking = games.thinking;
  if (!thinking) return;
  $("game-stop").disabled = true;
  $("game-thinking-text").textContent = "the computer plays its best move so far…";
  try { await api("/api/game/stop", { think: thinking.id }); } catch (e) { /* it has just moved */ }
}

// Analysis mode: the computer's evaluation of the position shown, its best move (marked on the
// board), what a proof finds, and the moves of the line that threw a proven win away.
async function analyse() {
  const on = $("game-analysis-on").checked;
  $("game-analysis").hidden = !on;
  if (games.analysis) { games.analysis.abort(); games.analysis = null; }
  if (!on || !games.state || games.thinking) { if (!on) { games.thrown = []; showHistory(); } return; }
  const controller = new AbortController();
  games.analysis = controller;
  const epoch = games.epoch, at = games.cursor;
  $("game-proof").textContent = "";
  $("game-best").textContent = "the computer is analysing the position…";
  $("game-evaluation").textContent = "";
  try {
    const a = await api("/api/game/analysis", { ...record(games.line.length), at,
      seconds: Number($("game-seconds").value) }, { signal: controller.signal,
      guard: () => epoch === games.epoch && at === games.cursor && games.analysis === controller });
    games.analysis = null;
    verdict($("game-proof"), a.proof ? a.proof.text : a.over ? "the game is over" : "nothing proven within the time",
      a.proof ? true : null);
    $("game-best").textContent = a.best ? `best move: ${a.best.move} (${a.best.summary})` : "";
    $("game-evaluation").textContent = a.evaluation === null ? "" : `evaluation for ${a.to_move}: ` +
      `${a.evaluation > 0 ? "+" : ""}${a.evaluation.toFixed(1)} (the game's score of the position; positive is good)`;
    if (a.best && a.best.clicks) games.view.mark(a.best.clicks, "hint");
    games.thrown = a.thrown;
    showHistory();
    document.body.dataset.analysed = String(at);
  } catch (e) {
    if (!(e instanceof Stale)) { $("game-best").textContent = `no analysis: ${sentence(e)}`; games.analysis = null; }
  }
}

// On a phone: the board twice as wide, scrolled, with labels large enough to read.
function zoom(on) {
  $("view-games").classList.toggle("zoomed", on);
  $("game-zoom").setAttribute("aria-pressed", String(on));
  games.view.fit();
}
