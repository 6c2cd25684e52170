// The workbench pages. Every answer (checks, what may come next, moves, computer moves,
// solver runs) comes from the server, which calls the library the CLI uses.
import { BoardView } from "./board.js";

const $ = (id) => document.getElementById(id);
const DEFAULT_BOARD = "power-of-two";  // the puzzles' board (the server's default)
let meta = null;
let pending = 0;

async function api(path, data = undefined) {
  pending++;
  $("busy").hidden = false;
  try {
    const init = data === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data) };
    const res = await fetch(path, init);
    const out = await res.json();
    if (!res.ok) throw new Error(out.error || `HTTP ${res.status}`);
    return out;
  } finally {
    if (--pending === 0) $("busy").hidden = true;
  }
}

function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function readFile(input) {
  return new Promise((resolve, reject) => {
    const f = input.files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => {
      input.value = "";
      try { resolve(JSON.parse(reader.result)); } catch (e) { reject(new Error(`${f.name}: not valid JSON`)); }
    };
    reader.readAsText(f);
  });
}

function fill(select, items) {
  select.replaceChildren(...items.map(([value, text]) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  }));
}

function list(ul, items) {
  ul.replaceChildren(...items.map((t) => { const li = document.createElement("li"); li.textContent = t; return li; }));
}

function verdict(p, text, good) {
  p.textContent = text;
  p.className = "verdict " + (good === null ? "" : good ? "good" : "bad");
}

// ------------------------------------------------------------------ views
let current = "boards";
function show(view) {
  current = view;
  for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== `view-${view}`;
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.view === view);
  if (location.hash !== `#${view}`) history.replaceState(null, "", `#${view}`);
}

// ------------------------------------------------------------------ boards
const boards = { view: null };
async function initBoards() {
  boards.view = new BoardView($("board-svg"), {
    onHover: (id, lines) => {
      if (id === null) return;
      const b = boards.view.board;
      const texts = lines.map((k) => b.line_texts[k]);
      $("board-hover").textContent = `${boards.view.label(id)} (node ${id}): ${lines.length} line(s) ${texts.join(", ")}`;
    },
  });
  fill($("board-select"), meta.boards.map((b) => [b, b]));
  $("board-select").addEventListener("change", () => loadBoard($("board-select").value));
  $("board-file").addEventListener("change", async () => {
    try {
      const raw = await readFile($("board-file"));
      showBoard(await api("/api/board", { board: raw }));
    } catch (e) { $("board-info").textContent = e.message; }
  });
  await loadBoard(DEFAULT_BOARD);
}
async function loadBoard(name) {
  $("board-select").value = name;
  showBoard(await api(`/api/board/${encodeURIComponent(name)}`));
}
function showBoard(b) {
  boards.view.draw(b);
  $("board-info").textContent = `${b.name}: ${b.nodes.length} nodes, ${b.lines.length} lines` +
    (b.links.length ? `, ${b.links.length} links` : "") + (b.description ? `. ${b.description}` : "");
}

// ------------------------------------------------------------------ puzzles
const puzzles = { view: null, stones: new Set(), puzzle: null, run: null };
async function initPuzzles() {
  puzzles.view = new BoardView($("puzzle-svg"), { onClick: (v) => togglePuzzleStone(v) });
  puzzles.view.draw(await api(`/api/board/${DEFAULT_BOARD}`));
  const placeable = meta.puzzles.filter((p) => p.kind === "place" || p.kind === "record" || isJump(p));
  fill($("puzzle-select"), placeable.map((p, k) => [k, p.title]));
  puzzles.list = placeable;
  $("puzzle-select").addEventListener("change", () => choosePuzzle());
  $("puzzle-clear").addEventListener("click", () => {
    puzzles.stones.clear(); puzzles.record = []; puzzles.chains = []; livePuzzleCheck();
  });
  $("puzzle-undo").addEventListener("click", () => {
    if (isJump(puzzles.puzzle)) return liveJump({ undo: true });
    if (puzzles.puzzle.kind === "record") puzzles.record.pop(); else puzzles.stones.delete(puzzles.last);
    livePuzzleCheck();
  });
  $("puzzle-pass").addEventListener("click", () => { puzzles.record.push("pass"); livePuzzleCheck(); });
  $("puzzle-committed").addEventListener("click", () => {
    const c = puzzles.puzzle.committed;
    if (!c) return;
    if (isJump(puzzles.puzzle)) {
      puzzles.chains = [...(c.steps || c.moves)];
      puzzles.origin = c.position || null;
    } else if (puzzles.puzzle.kind === "record") puzzles.record = [...c.record];
    else puzzles.stones = new Set(c.stones.map((v) => puzzles.view.node(v)));
    livePuzzleCheck();
  });
  $("puzzle-download").addEventListener("click", () => {
    const p = puzzles.puzzle;
    if (isJump(p)) { download(`${p.name}.json`, puzzles.lastCheck.solution); return; }
    const board = { board: puzzles.view.board.name, board_fingerprint: puzzles.view.board.fingerprint };
    if (p.kind === "record") {
      const r = puzzles.lastCheck;
      download(`${p.name}.json`, { puzzle: p.name, ...board, stones: p.committed ? p.committed.stones : 16,
        record: r.record, light: r.stones_view.filter((s) => s.color === "light").map((s) => s.node),
        dark: r.stones_view.filter((s) => s.color === "dark").map((s) => s.node), objective: r.objective });
      return;
    }
    download(`${p.name}${p.strict ? "-strict" : ""}.json`, {
      puzzle: p.name, ...board, stones: [...puzzles.stones].sort((a, b) => a - b), strict: p.strict });
  });
  $("puzzle-file").addEventListener("change", async () => {
    try {
      const data = await readFile($("puzzle-file"));
      const k = puzzles.list.findIndex((p) => p.name === data.puzzle && p.strict === !!data.strict);
      if (k < 0) throw new Error(`not a solution of ${puzzles.list.map((p) => p.name).join(", ")}`);
      // the whole file first, as powertwo check reads it: one made for another board is refused
      const full = await api("/api/check", { solution: data });
      $("puzzle-select").value = k;
      await choosePuzzle(false);
      if (isJump(puzzles.puzzle)) {
        puzzles.chains = [...(data.steps || data.moves || [])];
        puzzles.origin = data.position || null;
      } else if (puzzles.puzzle.kind === "record") puzzles.record = [...(data.record || [])];
      else puzzles.stones = new Set((data.stones || []).map((v) => puzzles.view.node(v)));
      await livePuzzleCheck();
      list($("notes"), [`the file, as powertwo check reads it: ${full.valid ? "valid" : "invalid"}`, ...full.notes]);
      if (!full.valid) list($("faults"), full.faults);
    } catch (e) { verdict($("verdict"), e.message, false); }
  });
  $("solve-start").addEventListener("click", startSolve);
  $("solve-cancel").addEventListener("click", async () => {
    try { showRun(await api("/api/solve/cancel", {})); } catch (e) { $("solve-log").textContent = e.message; }
  });
  $("solve-show").addEventListener("click", () => {
    const r = puzzles.run && puzzles.run.result;
    if (r && isJump(puzzles.puzzle) && (r.steps || r.moves)) {
      puzzles.chains = [...(r.steps || r.moves)];
      puzzles.origin = r.position || null;
      livePuzzleCheck();
    } else if (r && r.record && puzzles.puzzle.kind === "record") { puzzles.record = [...r.record]; livePuzzleCheck(); }
    else if (r && Array.isArray(r.stones)) { puzzles.stones = new Set(r.stones.map((v) => puzzles.view.node(v))); livePuzzleCheck(); }
  });
  await choosePuzzle();
}
async function choosePuzzle(check = true) {
  puzzles.puzzle = puzzles.list[$("puzzle-select").value];
  const p = puzzles.puzzle;
  const word = p.name === "two-by-two" ? "most lines with two" : p.kind === "record" ? "most stones"
    : p.name === "jump-reverse" ? "fewest moves" : "fewest stones";
  $("puzzle-optimum").textContent = p.name === "jump-forward"
    ? (p.committed ? `committed answer: ${p.committed.steps.length} steps, 32 stones` : "no committed answer in results/")
    : p.optimum === null || p.optimum === undefined ? "no committed answer in results/"
    : `committed optimum: ${p.optimum} (${word}; status ${p.status})`;
  puzzles.stones.clear();
  puzzles.record = [];
  puzzles.chains = [];
  puzzles.origin = null;
  $("puzzle-pass").hidden = p.kind !== "record";
  $("puzzle-hint").textContent = p.name === "jump-forward"
    ? "Click a free node next to the jumper (dark) to place a stone there and jump it; click a node one jump " +
      "away to go on with the chain. The referee marks what may come next."
    : p.name === "jump-reverse"
    ? "Click a stone to pick it up, then the node it jumps to; further landings go on with the chain (the same " +
      "move). The referee marks what may come next."
    : p.kind === "record"
    ? "Click nodes to play a That's My Line game for both sides (Light first); the referee marks where the mover may place."
    : "Click nodes to place and remove stones.";
  if (check) await livePuzzleCheck();
}
function isJump(p) {
  return p.name === "jump-forward" || p.name === "jump-reverse";
}
function togglePuzzleStone(v) {
  if (isJump(puzzles.puzzle)) return liveJump({ click: v });
  if (puzzles.puzzle.kind === "record") {
    puzzles.record.push(puzzles.view.label(v));
    livePuzzleCheck();
    return;
  }
  puzzles.last = v;
  if (puzzles.stones.has(v)) puzzles.stones.delete(v); else puzzles.stones.add(v);
  livePuzzleCheck();
}
let checkSerial = 0;
async function liveRecordCheck() {
  const p = puzzles.puzzle;
  const serial = ++checkSerial;
  try {
    const r = await api("/api/check", { puzzle: p.name, board: DEFAULT_BOARD, record: puzzles.record,
      stones: p.committed ? p.committed.stones : 16 });
    if (serial !== checkSerial) return;
    puzzles.lastCheck = r;
    if (r.fault) puzzles.record = r.record;  // the referee refused the last click: keep the legal part
    puzzles.view.setStones(r.stones_view);
    puzzles.view.mark(r.next, "next");
    puzzles.view.markLines([], "bad");
    puzzles.view.setArrows([]);
    puzzles.view.mark([], "mark");
    verdict($("verdict"), r.verdict, r.verdict === "valid, optimal" ? true : r.valid ? null : false);
    $("puzzle-stats").textContent = `${r.record.length} moves, ${r.objective} stones` +
      (r.optimum === null ? "" : ` (optimum ${r.optimum})`) + (r.next.length || r.pass ? `; ${r.to_move} to move` : "");
    list($("faults"), r.fault ? [r.fault, ...r.faults.filter((f) => f !== r.fault)] : r.faults);
    list($("notes"), r.notes);
  } catch (e) { verdict($("verdict"), e.message, false); }
}
// Get a Jump On by clicks: the server replays the chains so far plus the click (or an undo).
// Clicks queue up: each request starts from the chains the previous answer left, so a quick
// second click is never judged against the position before the first.
let jumpQueue = Promise.resolve();
function liveJump(extra = {}) {
  jumpQueue = jumpQueue.then(() => jumpRequest(extra));
  return jumpQueue;
}
async function jumpRequest(extra) {
  const p = puzzles.puzzle;
  const serial = ++checkSerial;
  try {
    const req = { puzzle: p.name, board: DEFAULT_BOARD, chains: puzzles.chains, ...extra };
    if (p.name === "jump-reverse" && puzzles.origin) req.position = puzzles.origin;
    const r = await api("/api/jump", req);
    if (serial !== checkSerial) return;
    puzzles.lastCheck = r;
    puzzles.chains = r.chains;
    puzzles.view.setStones(r.stones);
    puzzles.view.setArrows(r.arrows);
    puzzles.view.mark(r.next, "next");
    puzzles.view.mark(r.picked === null ? [] : [r.picked], "mark");
    puzzles.view.markLines([], "bad");
    const good = r.verdict === "valid, optimal" || r.verdict.startsWith("valid:") ? true
      : r.verdict === "in progress" ? null : false;
    verdict($("verdict"), r.verdict, good);
    $("puzzle-stats").textContent = r.count + (r.optimum ? ` (optimum ${r.optimum} moves)` : "");
    list($("faults"), r.illegal ? [r.illegal, ...r.faults] : r.faults);
    list($("notes"), r.notes);
  } catch (e) { verdict($("verdict"), e.message, false); }
}
async function livePuzzleCheck() {
  const p = puzzles.puzzle;
  if (isJump(p)) return liveJump();
  if (p.kind === "record") return liveRecordCheck();
  puzzles.view.setArrows([]);
  puzzles.view.mark([], "mark");
  puzzles.view.mark([], "next");
  const stones = [...puzzles.stones].sort((a, b) => a - b);
  puzzles.view.setStones(stones.map((v) => ({ node: v, color: "dark" })));
  const serial = ++checkSerial;
  try {
    const r = await api("/api/check", { puzzle: p.name, strict: p.strict, board: DEFAULT_BOARD, stones });
    if (serial !== checkSerial) return;
    verdict($("verdict"), r.verdict, r.valid && r.verdict === "valid, optimal" ? true : r.valid ? null : false);
    const what = p.name === "two-by-two" ? "lines with two" : "stones";
    $("puzzle-stats").textContent = `${stones.length} stones; objective ${r.objective} ${what}` +
      (r.optimum === null ? "" : ` (optimum ${r.optimum})`) + `; ${r.bad_lines.length} line(s) at fault`;
    list($("faults"), r.faults);
    list($("notes"), r.notes);
    puzzles.view.markLines(r.bad_lines, "bad");
  } catch (e) { verdict($("verdict"), e.message, false); }
}
async function startSolve() {
  const p = puzzles.puzzle;
  try {
    showRun(await api("/api/solve", { puzzle: p.name, strict: p.strict, time_limit: Number($("solve-limit").value) }));
  } catch (e) { $("solve-log").textContent = e.message; return; }
  // progress streamed by the server (server-sent events) until the run ends
  if (puzzles.events) puzzles.events.close();
  const events = new EventSource("/api/solve/events");
  puzzles.events = events;
  events.onmessage = (e) => {
    const s = JSON.parse(e.data);
    showRun(s);
    if (s.state !== "running") events.close();
  };
  events.onerror = () => events.close();
}
function showRun(s) {
  puzzles.run = s;
  const lines = [...(s.log || [])];
  if (s.state === "running") lines.push(`running… ${s.elapsed ?? 0} s`);
  if (s.result) lines.push(`status ${s.result.status}, objective ${s.result.objective}, ${s.result.seconds ?? "?"} s`);
  $("solve-log").textContent = lines.join("\n");
  $("solve-cancel").disabled = s.state !== "running";
  $("solve-start").disabled = s.state === "running";
  $("solve-show").disabled = !(s.result && (s.result.record || Array.isArray(s.result.stones) ||
    (Array.isArray(s.result.steps) || Array.isArray(s.result.moves)) && s.result.objective !== null));
}

// ------------------------------------------------------------------ sequences
const seq = { view: null, frames: [], at: 0, timer: null };
async function initSequences() {
  seq.view = new BoardView($("sequence-svg"));
  const items = meta.puzzles.filter((p) => p.kind === "sequence" && p.committed);
  seq.items = items;
  fill($("sequence-select"), items.map((p, k) => [k, p.title]));
  $("sequence-select").addEventListener("change", () => loadSequence(seq.items[$("sequence-select").value].committed));
  $("sequence-file").addEventListener("change", async () => {
    try { await loadSequence(await readFile($("sequence-file"))); } catch (e) { verdict($("seq-caption"), e.message, false); }
  });
  $("seq-first").addEventListener("click", () => step(0));
  $("seq-last").addEventListener("click", () => step(seq.frames.length - 1));
  $("seq-prev").addEventListener("click", () => step(seq.at - 1));
  $("seq-next").addEventListener("click", () => step(seq.at + 1));
  $("seq-slider").addEventListener("input", () => step(Number($("seq-slider").value)));
  $("seq-play").addEventListener("click", () => {
    if (seq.timer) { clearInterval(seq.timer); seq.timer = null; $("seq-play").textContent = "play"; return; }
    if (seq.at >= seq.frames.length - 1) step(0);
    $("seq-play").textContent = "pause";
    seq.timer = setInterval(() => {
      if (seq.view.svg.dataset.animating) return;  // let the chain finish
      if (seq.at >= seq.frames.length - 1) { $("seq-play").click(); return; }
      step(seq.at + 1);
    }, 900);
  });
  document.addEventListener("keydown", (e) => {
    if (current !== "sequences" || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const moves = { ArrowLeft: seq.at - 1, ArrowRight: seq.at + 1, Home: 0, End: seq.frames.length - 1 };
    if (e.key in moves) { e.preventDefault(); step(moves[e.key]); }
  });
  const rev = items.findIndex((p) => p.name === "jump-reverse");
  if (rev >= 0) { $("sequence-select").value = rev; await loadSequence(items[rev].committed); }
}
async function loadSequence(data) {
  const r = await api("/api/sequence", { solution: data });
  seq.view.draw(r.board);
  seq.frames = r.frames;
  $("seq-slider").max = r.frames.length - 1;
  step(0);
  const svg = $("sequence-svg");
  svg.dataset.loads = String(Number(svg.dataset.loads || 0) + 1);  // tests wait for a load to land
}
function step(k) {
  if (!seq.frames.length) return;
  const forward = k === seq.at + 1;
  seq.at = Math.max(0, Math.min(seq.frames.length - 1, k));
  const f = seq.frames[seq.at];
  seq.view.setStones(f.stones);
  seq.view.setArrows(f.arrows, { animate: forward });  // a step forward draws its chain jump by jump
  seq.view.mark(f.highlight, "mark");
  $("seq-slider").value = seq.at;
  verdict($("seq-caption"), f.caption, null);
  $("seq-position").textContent = `frame ${seq.at} of ${seq.frames.length - 1}; ${f.stones.length} stones on the board`;
}

// ------------------------------------------------------------------ games
const games = { view: null, game: null, record: null, state: null, thinking: false };
async function initGames() {
  games.view = new BoardView($("game-svg"), { onClick: (v) => gameClick(v) });
  fill($("game-select"), meta.games.map((g) => [g.name, g.title]));
  $("game-select").addEventListener("change", () => { chooseGame(); newGame(); });
  $("game-new").addEventListener("click", () => newGame());
  $("game-undo").addEventListener("click", () => undo());
  $("game-computer").addEventListener("click", () => computerMove());
  $("game-download").addEventListener("click", () => download(`${games.game.name}.json`, games.record));
  $("game-file").addEventListener("change", async () => {
    try {
      const rec = await readFile($("game-file"));
      $("game-select").value = rec.game;
      chooseGame();
      await setRecord(rec, []);
    } catch (e) { $("game-reason").textContent = e.message; }
  });
  chooseGame();
  await newGame();
}
function chooseGame() {
  games.game = meta.games.find((g) => g.name === $("game-select").value);
  fill($("game-start"), games.game.starts.map((s) => [s, s]));
  $("game-start").value = games.game.default_start;
  $("game-notation").textContent = `notation: ${games.game.notation}`;
}
async function newGame() {
  const g = games.game;
  games.boardName = null;
  await setRecord({ game: g.name, start: $("game-start").value, moves: [] }, []);
  maybeComputer();
}
async function setRecord(record, clicks) {
  const v = await api("/api/game", { game: record.game, start: record.start, options: record.options,
    moves: record.moves, clicks });
  await showGame(v);
}
async function showGame(v) {
  if (games.boardName !== games.game.board) {
    games.view.draw(await api(`/api/board/${games.game.board}`));
    games.boardName = games.game.board;
  }
  games.state = v;
  games.record = v.record;
  games.view.setStones(v.stones);
  games.view.setArrows(v.clicks.length ? [] : v.arrows);
  games.view.mark(v.next, "next");
  games.view.mark(v.clicks, "picked");
  const out = v.outcome;
  verdict($("game-status"), out ? `${out.winner ? out.winner + " wins" : "draw"}: ${out.reason}` : v.caption,
    out ? true : null);
  $("game-clicks").textContent = v.clicks.length
    ? `clicked ${v.clicks.map((c) => games.view.label(c)).join(" ")}; may come next: ` +
      (v.next.map((c) => games.view.label(c)).join(" ") || "nothing")
    : out ? "" : `${v.to_move}: click a highlighted node (${v.next.length} may start a move)`;
  const box = $("game-complete");
  box.replaceChildren(...v.complete.map((text) => {
    const b = document.createElement("button");
    b.textContent = `play ${text}`;
    b.dataset.move = text;
    b.addEventListener("click", () => sendClick({ play: text }));
    return b;
  }));
  list($("game-moves"), v.record.moves);
  document.body.dataset.clicks = v.clicks.join(" ");
  document.body.dataset.game = v.record.game;
  document.body.dataset.ply = v.record.moves.length;
}
async function gameClick(node) {
  if (games.thinking) return;
  const st = games.state;
  if (st.clicks.length && st.clicks[st.clicks.length - 1] === node && !st.next.includes(node)) {
    await setRecord(games.record, st.clicks.slice(0, -1)); // click the last picked node again: take it back
    return;
  }
  await sendClick({ clicks: [...st.clicks, node] });
}
async function sendClick(extra) {
  const r = games.record;
  try {
    const v = await api("/api/game/click", { game: r.game, start: r.start, options: r.options, moves: r.moves,
      clicks: games.state.clicks, ...extra });
    if (v.illegal) { $("game-reason").textContent = v.illegal; return; }
    $("game-reason").textContent = "";
    await showGame(v);
    if (v.played) maybeComputer();
  } catch (e) { $("game-reason").textContent = e.message; }
}
async function undo() {
  const st = games.state;
  $("game-reason").textContent = "";
  if (st.clicks.length) return setRecord(games.record, st.clicks.slice(0, -1));
  const back = $("game-mode").value === "friend" ? 1 : 2;
  const moves = games.record.moves.slice(0, Math.max(0, games.record.moves.length - back));
  await setRecord({ ...games.record, moves }, []);
  maybeComputer();
}
function maybeComputer() {
  const mode = $("game-mode").value;
  if (mode === "friend" || games.state.outcome) return;
  if (String(games.state.to_move_index) === mode) computerMove();
}
async function computerMove() {
  if (games.thinking || games.state.outcome) return;
  games.thinking = true;
  const r = games.record;
  $("game-reason").textContent = "";
  $("game-clicks").textContent = "the computer is thinking…";
  try {
    const v = await api("/api/game/computer", { game: r.game, start: r.start, options: r.options, moves: r.moves,
      seconds: Number($("game-seconds").value), seed: r.moves.length });
    await showGame(v);
    $("game-reason").textContent = `computer played ${v.played} (${v.computer.playouts} playouts, ${v.computer.seconds} s)`;
  } catch (e) { $("game-reason").textContent = e.message; }
  finally { games.thinking = false; }
}

// ------------------------------------------------------------------ start
async function main() {
  meta = await api("/api/meta");
  $("show-ids").addEventListener("change", () => document.body.classList.toggle("show-ids", $("show-ids").checked));
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => show(b.dataset.view));
  await Promise.all([initBoards(), initPuzzles(), initSequences(), initGames()]);
  show(["boards", "puzzles", "sequences", "games"].includes(location.hash.slice(1)) ? location.hash.slice(1) : "boards");
  document.body.dataset.ready = "1";
}
main().catch((e) => { document.body.dataset.ready = "error"; document.body.prepend(`failed to start: ${e.message}`); });
