// The workbench pages. Every answer (checks, what may come next, moves, computer moves,
// solver runs) comes from the server, which calls the library the CLI uses. The state of each
// view survives a reload (local storage); a game record or a puzzle solution travels as a link.
import { BoardView } from "./board.js";
import { initGames } from "./games.js";
import { initPuzzles } from "./puzzles.js";
import { initSequences } from "./sequences.js";
import { $, api, sentence, readFile, fill, store, linkPayload, announce } from "./util.js";

const VIEWS = ["boards", "puzzles", "sequences", "games"];

function show(view) {
  document.body.dataset.view = view;
  for (const s of document.querySelectorAll(".view")) s.hidden = s.id !== `view-${view}`;
  for (const b of document.querySelectorAll("nav button")) {
    b.classList.toggle("active", b.dataset.view === view);
    b.setAttribute("aria-pressed", String(b.dataset.view === view));
  }
  if (location.hash !== `#${view}`) history.replaceState(null, "", `#${view}`);
  store.set("view", view);
}

// ------------------------------------------------------------------ boards
const boards = { view: null };
async function initBoards(meta) {
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
  $("board-flip").addEventListener("click", () => boards.view.flip());
  $("board-file").addEventListener("change", async () => {
    try {
      const raw = await readFile($("board-file"));
      showBoard(await api("/api/board", { board: raw }));
    } catch (e) { $("board-info").textContent = sentence(e); }
  });
  await loadBoard(meta.default_board);
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

// ------------------------------------------------------------------ warming up
// Each compiled search the server is still compiling, until it is ready (its plain Python engine
// answers meanwhile, and says so).
async function watchWarmUp(meta) {
  let kernels = meta.kernels || [];
  for (;;) {
    const waiting = kernels.filter((k) => k.state !== "ready" && k.state !== "failed");
    $("warming").hidden = !waiting.length;
    $("warming").textContent = waiting.length ? `compiling ${waiting.map((k) => k.title).join(", ")}: ` +
      "the plain Python search answers meanwhile" : "";
    if (!waiting.length) return;
    await new Promise((r) => setTimeout(r, 2000));
    try { kernels = (await api("/api/meta", undefined, { quiet: true })).kernels || []; } catch (e) { kernels = []; }
  }
}

// ------------------------------------------------------------------ start
async function main() {
  const link = linkPayload();
  const first = VIEWS.includes(link.view) ? link.view : store.get("view", "boards");
  show(VIEWS.includes(first) ? first : "boards");  // the view at once, before the boards arrive
  for (const b of document.querySelectorAll("nav button")) b.addEventListener("click", () => show(b.dataset.view));
  $("show-ids").addEventListener("change", () => document.body.classList.toggle("show-ids", $("show-ids").checked));
  const meta = await api("/api/meta");
  watchWarmUp(meta);
  await Promise.all([initBoards(meta), initPuzzles(meta, link.view === "puzzles" ? link.data : null),
    initSequences(meta), initGames(meta, link.view === "games" ? link : null)]);
  if (link.error && link.view !== "games") announce(link.error);
  show(document.body.dataset.view);
  window.addEventListener("hashchange", () => {  // a link typed or pasted into this tab
    const next = linkPayload();
    if (next.data || next.error) location.reload();
    else if (VIEWS.includes(next.view)) show(next.view);
  });
  document.body.dataset.ready = "1";
}
main().catch((e) => {
  document.body.dataset.ready = "error";
  $("status").textContent = `The workbench could not start: ${sentence(e)}`;
});
