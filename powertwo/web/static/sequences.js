// Sequences: step through a committed answer or a loaded answer or game record, with buttons,
// the slider and the keys ← → Home End; a step forward draws its chain jump by jump.
import { BoardView } from "./board.js";
import { $, api, sentence, readFile, fill, verdict } from "./util.js";

const seq = { view: null, frames: [], at: 0, timer: null, items: [], epoch: 0 };

export async function initSequences(meta) {
  seq.view = new BoardView($("sequence-svg"));
  seq.items = meta.puzzles.filter((p) => p.page.steps.unit !== "stones" && p.committed);
  fill($("sequence-select"), seq.items.map((p, k) => [k, p.title]));
  $("sequence-select").addEventListener("change", () => load(seq.items[$("sequence-select").value].committed));
  $("sequence-file").addEventListener("change", async () => {
    try { await load(await readFile($("sequence-file"))); } catch (e) { verdict($("seq-caption"), sentence(e), false); }
  });
  $("seq-first").addEventListener("click", () => step(0));
  $("seq-last").addEventListener("click", () => step(seq.frames.length - 1));
  $("seq-prev").addEventListener("click", () => step(seq.at - 1));
  $("seq-next").addEventListener("click", () => step(seq.at + 1));
  $("seq-flip").addEventListener("click", () => seq.view.flip());
  $("seq-slider").addEventListener("input", () => step(Number($("seq-slider").value)));
  $("seq-play").addEventListener("click", play);
  document.addEventListener("keydown", (e) => {
    if (document.body.dataset.view !== "sequences" || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    const moves = { ArrowLeft: seq.at - 1, ArrowRight: seq.at + 1, Home: 0, End: seq.frames.length - 1 };
    if (e.key in moves) { e.preventDefault(); step(moves[e.key]); }
  });
  const first = seq.items.findIndex((p) => p.committed.moves);  // an answer of moves: the richest to step
  if (seq.items.length) {
    $("sequence-select").value = Math.max(0, first);
    await load(seq.items[Math.max(0, first)].committed);
  }
}

function play() {
  if (seq.timer) { clearInterval(seq.timer); seq.timer = null; $("seq-play").textContent = "play"; return; }
  if (seq.at >= seq.frames.length - 1) step(0);
  $("seq-play").textContent = "pause";
  seq.timer = setInterval(() => {
    if (seq.view.svg.dataset.animating) return;  // let the chain finish
    if (seq.at >= seq.frames.length - 1) { play(); return; }
    step(seq.at + 1);
  }, 900);
}

async function load(data) {
  const epoch = ++seq.epoch;
  const r = await api("/api/sequence", { solution: data }, { guard: () => epoch === seq.epoch });
  seq.view.draw(r.board);
  seq.frames = r.frames;
  seq.at = 0;
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
  seq.view.setArrows(f.arrows, { animate: forward });
  seq.view.mark(f.highlight, "mark");
  seq.view.mark(f.last || [], "last");
  $("seq-slider").value = seq.at;
  verdict($("seq-caption"), f.caption, null);
  $("seq-position").textContent = `frame ${seq.at} of ${seq.frames.length - 1}; ${f.stones.length} stones on the board`;
}
