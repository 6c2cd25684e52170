// Puzzles: place stones (line puzzles), play a solitaire record, or build Get a Jump On chains
// by clicks; every click is checked by the server. Undo restores exactly the state before the
// last change; an answer for another puzzle (or an older state) is dropped; solver runs belong
// to this tab and to the puzzle that started them.
import { BoardView } from "./board.js";
import {
  $, api, Stale, sentence, download, readFile, parseText, fill, list, verdict, announce, store, shareLink, copyText,
  TAB,
} from "./util.js";

const puzzles = { view: null, puzzle: null, stones: new Set(), record: [], chains: [], origin: null, undo: [],
  epoch: 0, run: null, events: null, lastCheck: null, list: [] };
let jumpQueue = Promise.resolve();

const keyOf = (p) => `${p.name}${p.strict ? "-strict" : ""}`;
const isClicks = (p) => p.page.clicks.action === "jump";  // chains of jumps built by clicks
const isRecord = (p) => p.page.clicks.action === "alternate";  // a solitaire game record
const optionDefault = (p, name) => (p.page.options.find((o) => o.name === name) || {}).default;

export async function initPuzzles(meta, shared) {
  puzzles.view = new BoardView($("puzzle-svg"), { onClick: (v) => puzzleClick(v) });
  puzzles.board = meta.default_board;  // the puzzles' board: the real board
  puzzles.view.draw(await api(`/api/board/${puzzles.board}`));
  puzzles.list = meta.puzzles;
  fill($("puzzle-select"), puzzles.list.map((p, k) => [k, p.title]));
  $("puzzle-select").addEventListener("change", () => choosePuzzle(Number($("puzzle-select").value)));
  $("puzzle-board").addEventListener("change", () => chooseBoard($("puzzle-board").value));
  $("puzzle-clear").addEventListener("click", () => change(() => { clearState(); }));
  $("puzzle-undo").addEventListener("click", () => undo());
  $("puzzle-flip").addEventListener("click", () => puzzles.view.flip());
  $("puzzle-pass").addEventListener("click", () => change(() => { puzzles.record.push("pass"); }));
  $("puzzle-committed").addEventListener("click", () => {
    if (puzzles.puzzle.committed) change(() => place(puzzles.puzzle.committed));
  });
  $("puzzle-download").addEventListener("click", () => download(`${keyOf(puzzles.puzzle)}.json`, solution()));
  $("puzzle-share").addEventListener("click", async () => {
    const link = shareLink("puzzles", solution());
    $("puzzle-link").value = link;
    $("puzzle-link").hidden = false;
    announce(await copyText(link) ? "link copied" : "link shown below the buttons", "puzzles");
  });
  $("puzzle-file").addEventListener("change", async () => {
    try { await loadSolution(await readFile($("puzzle-file"))); } catch (e) { fail(e); }
  });
  $("puzzle-paste-load").addEventListener("click", async () => {
    try { await loadSolution(parseText($("puzzle-paste").value, "pasted solution")); } catch (e) { fail(e); }
  });
  $("puzzle-hint-ask").addEventListener("click", askHint);
  $("solve-start").addEventListener("click", startSolve);
  $("solve-cancel").addEventListener("click", async () => {
    try { showRun(await api("/api/solve/cancel", { tab: TAB })); } catch (e) { $("solve-log").textContent = sentence(e); }
  });
  $("solve-show").addEventListener("click", () => {
    const r = puzzles.run && puzzles.run.result;
    if (r && puzzles.run.key === keyOf(puzzles.puzzle) && puzzles.run.board === puzzles.board) change(() => place(r));
  });
  await restore(shared);
  await followRun();
}

async function restore(shared) {
  if (shared) {
    try { await loadSolution(shared); return; } catch (e) { await choosePuzzle(0); fail(e, "the shared solution: "); return; }
  }
  const saved = store.get("puzzles");
  const k = saved ? puzzles.list.findIndex((p) => keyOf(p) === saved.key) : -1;
  if (k >= 0 && saved.board && puzzles.list[k].boards.includes(saved.board)) await drawBoard(saved.board);
  await choosePuzzle(Math.max(0, k), k < 0);
  if (k >= 0) {
    puzzles.stones = new Set(saved.stones || []);
    puzzles.record = saved.record || [];
    puzzles.chains = saved.chains || [];
    puzzles.origin = saved.origin || null;
    await check();
  }
}

function save() {
  store.set("puzzles", { key: keyOf(puzzles.puzzle), board: puzzles.board, stones: [...puzzles.stones],
    record: puzzles.record, chains: puzzles.chains, origin: puzzles.origin });
}

function fail(e, prefix = "") {
  const text = sentence(e);
  if (text) { verdict($("verdict"), prefix + text, false); announce(prefix + text, "puzzles"); }
}

function snapshot() {
  return { stones: [...puzzles.stones], record: [...puzzles.record], chains: [...puzzles.chains], origin: puzzles.origin };
}

function clearState() {
  puzzles.stones = new Set();
  puzzles.record = [];
  puzzles.chains = [];
}

// Every change of the puzzle's state goes through here: the state before it is kept for Undo.
async function change(how) {
  puzzles.undo.push(snapshot());
  how();
  await check();
}

async function undo() {
  const before = puzzles.undo.pop();
  if (!before) { announce("nothing to undo", "puzzles"); return; }
  puzzles.stones = new Set(before.stones);
  puzzles.record = before.record;
  puzzles.chains = before.chains;
  puzzles.origin = before.origin;
  await check();
}

// An answer (committed, solved or loaded) placed on the board.
function place(data) {
  const p = puzzles.puzzle;
  clearState();
  if (isClicks(p)) {
    puzzles.chains = [...(data.steps || data.moves || [])];
    puzzles.origin = data.position || null;
  } else if (isRecord(p)) puzzles.record = [...(data.record || [])];
  else puzzles.stones = new Set((data.stones || []).map((v) => puzzles.view.node(v)));
}

function solution() {
  const p = puzzles.puzzle, r = puzzles.lastCheck || {};
  if (isClicks(p) && r.solution) return r.solution;
  const board = { board: puzzles.view.board.name, board_fingerprint: puzzles.view.board.fingerprint };
  if (isRecord(p)) {
    const stones = r.stones_view || [];
    return { puzzle: p.name, ...board, stones: supply(p), record: puzzles.record,
      light: stones.filter((s) => s.color === "light").map((s) => s.node),
      dark: stones.filter((s) => s.color === "dark").map((s) => s.node), objective: stones.length };
  }
  return { puzzle: p.name, ...board, stones: [...puzzles.stones].sort((a, b) => a - b), strict: p.strict };
}

// A file, a paste or a link: checked whole first (as powertwo check reads it; one made for
// another board is refused), and only then shown.
async function loadSolution(data) {
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("a solution is a JSON object");
  const k = puzzles.list.findIndex((p) => p.name === data.puzzle && p.strict === !!data.strict);
  if (k < 0) throw new Error(`not a solution of ${puzzles.list.map((p) => keyOf(p)).join(", ")}`);
  const full = await api("/api/check", { solution: data });
  await choosePuzzle(k, false);
  place(data);
  await check();
  list($("notes"), [`the file, as powertwo check reads it: ${full.valid ? "valid" : "invalid"}`, ...full.notes]);
  if (!full.valid) list($("faults"), full.faults);
}

async function choosePuzzle(k, run = true) {
  puzzles.epoch++;
  $("puzzle-select").value = k;
  puzzles.puzzle = puzzles.list[k];
  const p = puzzles.puzzle;
  describe(p);
  fill($("puzzle-board"), p.boards.map((b) => [b, b]));
  $("puzzle-board-label").hidden = p.boards.length < 2;
  if (!p.boards.includes(puzzles.board)) await drawBoard(p.boards[0]);
  $("puzzle-board").value = puzzles.board;
  clearState();
  puzzles.origin = null;
  puzzles.undo = [];
  puzzles.lastCheck = null;
  $("puzzle-pass").hidden = !isRecord(p);
  $("puzzle-hint-ask").hidden = !p.hint;
  $("puzzle-hint-answer").textContent = "";
  $("puzzle-committed").disabled = !p.committed || puzzles.board !== p.boards[0];
  showRun(puzzles.run);
  if (run) await check();
}

// The puzzle's board (the puzzle's first board is the one its committed answer is on).
async function drawBoard(name) {
  puzzles.board = name;
  puzzles.view.draw(await api(`/api/board/${name}`));
}

// Another board for the same puzzle: the clicks start again from its start position.
async function chooseBoard(name) {
  puzzles.epoch++;
  await drawBoard(name);
  const p = puzzles.puzzle;
  clearState();
  puzzles.origin = null;
  puzzles.undo = [];
  puzzles.lastCheck = null;
  $("puzzle-hint-answer").textContent = "";
  $("puzzle-committed").disabled = !p.committed || name !== p.boards[0];
  await check();
}

// A solitaire's stones per side: the committed answer's, else the solve option's default.
function supply(p) {
  return p.committed ? p.committed.stones : optionDefault(p, "stones");
}

// What the page says about a puzzle, from its page description: its goal, its committed answer
// and how to click; the solve form offers the options its solver takes.
function describe(p) {
  const page = p.page, c = p.committed;
  $("puzzle-goal").textContent = `Goal: ${page.goal}.`;
  $("puzzle-optimum").textContent = !c ? "no committed answer in results/"
    : page.verdict.sense ? `committed answer: ${p.optimum} ${page.verdict.unit} (status ${p.status})`
    : `committed answer: ${page.steps.goal}`;
  $("puzzle-hint").textContent = `${page.clicks.help[0].toUpperCase()}${page.clicks.help.slice(1)}.`;
  solveForm(page);
}

function solveForm(page) {
  const inputs = page.options.filter((o) => o.name !== "time_limit" && o.name !== "strict").map((o) => {
    const label = document.createElement("label");
    let input;
    if (o.kind === "choice") {
      input = document.createElement("select");
      fill(input, o.choices.map((c) => [c, c]));
    } else {
      input = document.createElement("input");
      input.type = o.kind === "bool" ? "checkbox" : "text";
      if (o.kind !== "bool") input.size = 10;
    }
    if (o.kind === "bool") input.checked = !!o.default; else input.value = o.default ?? "";
    input.dataset.option = o.name;
    input.dataset.kind = o.kind;
    label.append(`${o.label}${o.unit ? ` (${o.unit})` : ""} `, input);
    return label;
  });
  $("solve-options").replaceChildren(...inputs);
}

function solveOptions() {
  const out = {};
  for (const input of $("solve-options").querySelectorAll("[data-option]")) {
    const kind = input.dataset.kind, text = input.value.trim();
    out[input.dataset.option] = kind === "bool" ? input.checked : kind === "choice" || kind === "text" || isNaN(Number(text)) ? text
      : Number(text);
  }
  return out;
}

function puzzleClick(v) {
  const p = puzzles.puzzle;
  if (isClicks(p)) {
    puzzles.undo.push(snapshot());
    return jumpCheck({ click: v });
  }
  return change(() => {
    if (isRecord(p)) puzzles.record.push(puzzles.view.label(v));
    else if (puzzles.stones.has(v)) puzzles.stones.delete(v);
    else puzzles.stones.add(v);
  });
}

async function check() {
  const p = puzzles.puzzle;
  save();
  if (isClicks(p)) return jumpCheck();
  if (isRecord(p)) return recordCheck();
  return lineCheck();
}

function empty() {
  return !puzzles.stones.size && !puzzles.record.length && !puzzles.chains.length;
}

function showVerdict(text, good) {
  const shown = empty() ? "not started" : text;
  verdict($("verdict"), shown, empty() ? null : good);
  announce(shown, "puzzles");
}

async function lineCheck() {
  const p = puzzles.puzzle, epoch = puzzles.epoch;
  const view = puzzles.view;
  view.setArrows([]);
  view.mark([], "mark");
  view.mark([], "next");
  const stones = [...puzzles.stones].sort((a, b) => a - b);
  view.setStones(stones.map((v) => ({ node: v, color: "dark" })));
  try {
    const r = await api("/api/check", { puzzle: p.name, strict: p.strict, board: puzzles.board, stones },
      { guard: () => epoch === puzzles.epoch && same(stones) });
    puzzles.lastCheck = r;
    showVerdict(r.verdict, r.valid && r.verdict === "valid, optimal" ? true : r.valid ? null : false);
    $("puzzle-stats").textContent = `${stones.length} stones; objective ${r.objective} ${p.page.verdict.unit}` +
      (r.optimum === null ? "" : ` (optimum ${r.optimum})`) + `; ${r.bad_lines.length} line(s) at fault`;
    list($("faults"), empty() ? [] : r.faults);
    list($("notes"), r.notes);
    view.markLines(empty() ? [] : r.bad_lines, "bad");
  } catch (e) { fail(e); }
}

function same(stones) {
  return stones.length === puzzles.stones.size && stones.every((v) => puzzles.stones.has(v));
}

async function recordCheck() {
  const p = puzzles.puzzle, epoch = puzzles.epoch, sent = puzzles.record.length;
  try {
    const r = await api("/api/check", { puzzle: p.name, board: puzzles.board, record: puzzles.record,
      stones: supply(p) }, { guard: () => epoch === puzzles.epoch
        && puzzles.record.length === sent });
    puzzles.lastCheck = r;
    if (r.fault) puzzles.record = r.record;  // the referee refused the last click: keep the legal part
    puzzles.view.setStones(r.stones_view);
    puzzles.view.mark(r.next, "next");
    puzzles.view.markLines([], "bad");
    puzzles.view.setArrows([]);
    puzzles.view.mark([], "mark");
    showVerdict(r.verdict, r.verdict === "valid, optimal" ? true : r.valid ? null : false);
    $("puzzle-stats").textContent = `${r.record.length} moves, ${r.objective} stones` +
      (r.optimum === null ? "" : ` (optimum ${r.optimum})`) + (r.next.length || r.pass ? `; ${r.to_move} to move` : "");
    list($("faults"), r.fault ? [r.fault, ...r.faults.filter((f) => f !== r.fault)] : r.faults);
    list($("notes"), r.notes);
  } catch (e) { fail(e); }
}

// Get a Jump On by clicks: clicks queue up, each request starting from the chains the previous
// answer left, so a quick second click is never judged against the position before the first.
function jumpCheck(extra = {}) {
  const epoch = puzzles.epoch;
  jumpQueue = jumpQueue.then(() => (epoch === puzzles.epoch ? jumpRequest(extra, epoch) : null));
  return jumpQueue;
}

async function jumpRequest(extra, epoch) {
  const p = puzzles.puzzle;
  try {
    const req = { puzzle: p.name, board: puzzles.board, chains: puzzles.chains, ...extra };
    if (puzzles.origin) req.position = puzzles.origin;
    const r = await api("/api/jump", req, { guard: () => epoch === puzzles.epoch });
    puzzles.lastCheck = r;
    puzzles.chains = r.chains;
    if (r.illegal && puzzles.undo.length) puzzles.undo.pop();  // a refused click changed nothing
    save();
    puzzles.view.setStones(r.stones);
    puzzles.view.setArrows(r.arrows);
    puzzles.view.mark(r.next, "next");
    puzzles.view.mark(r.picked === null ? [] : [r.picked], "mark");
    puzzles.view.mark([], "hint");
    $("puzzle-hint-answer").textContent = "";
    puzzles.view.markLines([], "bad");
    const good = r.verdict === "valid, optimal" || r.verdict.startsWith("valid:") ? true
      : r.verdict === "in progress" ? null : false;
    showVerdict(r.verdict, good);
    $("puzzle-stats").textContent = r.count + (r.optimum ? ` (optimum ${r.optimum} moves)` : "");
    list($("faults"), r.illegal ? [r.illegal, ...r.faults] : r.faults);
    list($("notes"), r.notes);
    if (r.illegal) announce(r.illegal, "puzzles");
  } catch (e) { fail(e); }
}

// Whether the position can still be finished, as far as the solver tells within a second.
async function askHint() {
  const p = puzzles.puzzle, epoch = puzzles.epoch, r = puzzles.lastCheck;
  if (!r || !r.stones) return;
  const chains = JSON.stringify(puzzles.chains);
  $("puzzle-hint-answer").textContent = "asking the census or the solver…";
  try {
    const h = await api("/api/jump/hint", { puzzle: p.name, board: puzzles.board, origin: r.origin,
      position: r.stones.map((s) => s.node) },
      { guard: () => epoch === puzzles.epoch && chains === JSON.stringify(puzzles.chains) });
    $("puzzle-hint-answer").textContent = h.text;
    puzzles.view.mark(h.marks, "hint");
    announce(h.text, "puzzles");
  } catch (e) { $("puzzle-hint-answer").textContent = sentence(e); }
}

// ------------------------------------------------------------------ the solver run
async function startSolve() {
  const p = puzzles.puzzle;
  try {
    const s = await api("/api/solve", { puzzle: p.name, strict: p.strict, board: puzzles.board,
      time_limit: Number($("solve-limit").value), options: solveOptions(), tab: TAB });
    puzzles.run = { ...s, key: keyOf(p), board: puzzles.board, title: p.title };
    store.set("run", { key: puzzles.run.key, board: puzzles.board, title: p.title });
    showRun(puzzles.run);
  } catch (e) { $("solve-log").textContent = sentence(e); return; }
  listen();
}

// A run this tab started before a reload goes on being shown.
async function followRun() {
  const s = await api(`/api/solve?tab=${encodeURIComponent(TAB)}`);
  const mine = store.get("run");
  if (s.state === "idle" || !mine) return;
  puzzles.run = { ...s, key: mine.key, board: mine.board, title: mine.title };
  showRun(puzzles.run);
  if (s.state === "running") listen();
}

function listen() {
  if (puzzles.events) puzzles.events.close();
  const events = new EventSource(`/api/solve/events?tab=${encodeURIComponent(TAB)}`);
  puzzles.events = events;
  events.onmessage = (e) => {
    const s = JSON.parse(e.data);
    showRun({ ...s, key: puzzles.run.key, board: puzzles.run.board, title: puzzles.run.title });
    if (s.state !== "running") events.close();
  };
  events.onerror = () => events.close();
}

function resultLine(r) {
  const parts = ["status", "objective", "bound", "seconds"].filter((k) => r[k] !== undefined && r[k] !== null)
    .map((k) => `${k} ${r[k]}${k === "seconds" ? " s" : ""}`);
  return parts.length ? parts.join(", ") : "finished";
}

function showRun(s) {
  puzzles.run = s;
  const here = s && puzzles.puzzle && s.key === keyOf(puzzles.puzzle);
  const lines = s ? [...(s.log || [])] : [];
  if (s && s.key && !here) lines.unshift(`(a run of ${s.title})`);
  if (s && s.state === "running") lines.push(`running… ${s.elapsed ?? 0} s`);
  if (s && s.result) lines.push(resultLine(s.result));
  $("solve-log").textContent = lines.join("\n");
  const running = !!s && s.state === "running";
  $("solve-cancel").disabled = !running;
  $("solve-start").disabled = running;
  const r = s && s.result;
  $("solve-show").disabled = !(here && r && (r.record || Array.isArray(r.stones) ||
    ((Array.isArray(r.steps) || Array.isArray(r.moves)) && r.objective !== null)));
}
