// Draws a board as SVG from the server's board data (exact coordinates, lines, links).
// It holds no rules: stones, marks and highlighted lines are what the server says.
// Each node carries its label (a1 .. m13 on the Power of Two board) and its id; the page shows
// one of the two (body.show-ids shows the ids), small, below and right of the node, clear of
// the stone on it.

const NS = "http://www.w3.org/2000/svg";
const SIZE = 720;
const PAD = 34;
const STEP_MS = 160;  // one jump of an animated chain

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class BoardView {
  constructor(svg, { onClick = null, onHover = null } = {}) {
    this.svg = svg;
    this.onClick = onClick;
    this.onHover = onHover;
    this.board = null;
  }

  draw(board) {
    this.board = board;
    const svg = this.svg;
    svg.replaceChildren();
    const xs = board.nodes.map((n) => n.x), ys = board.nodes.map((n) => n.y);
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    const span = Math.max(x1 - x0, y1 - y0) || 1;
    const scale = (SIZE - 2 * PAD) / span;
    const w = (x1 - x0) * scale + 2 * PAD, h = (y1 - y0) * scale + 2 * PAD;
    svg.setAttribute("viewBox", `0 0 ${w.toFixed(1)} ${h.toFixed(1)}`);
    this.pos = {};
    for (const n of board.nodes) this.pos[n.id] = [PAD + (n.x - x0) * scale, PAD + (y1 - n.y) * scale];
    // spacing: the shortest distance between two nodes sets the node radius
    let near = Infinity;
    const ids = board.nodes.map((n) => n.id);
    for (let i = 0; i < ids.length && i < 400; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const [ax, ay] = this.pos[ids[i]], [bx, by] = this.pos[ids[j]];
        near = Math.min(near, Math.hypot(ax - bx, ay - by));
      }
    this.r = Math.max(6, Math.min(16, near * 0.36));
    const defs = el("defs", {}, svg);
    this.markerId = `arrowhead-${svg.id}`;  // one per drawing: a marker inside a hidden view would not render
    const marker = el("marker", { id: this.markerId, viewBox: "0 0 10 10", refX: "8", refY: "5",
      markerWidth: "5", markerHeight: "5", orient: "auto-start-reverse" }, defs);
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#1f77b4" }, marker);
    this.gLinks = el("g", {}, svg);
    this.gLines = el("g", {}, svg);
    this.gNodes = el("g", {}, svg);
    this.gStones = el("g", {}, svg);
    this.gLabels = el("g", {}, svg);
    this.gArrows = el("g", {}, svg);
    for (const [a, b] of board.links) {
      const [ax, ay] = this.pos[a], [bx, by] = this.pos[b];
      el("line", { class: "link", x1: ax, y1: ay, x2: bx, y2: by }, this.gLinks);
    }
    this.lineEls = board.lines.map((line, k) => {
      const pts = line.map((v) => this.pos[v].map((c) => c.toFixed(1)).join(",")).join(" ");
      return el("polyline", { class: "line", points: pts, "data-line": k }, this.gLines);
    });
    this.linesThrough = {};
    board.lines.forEach((line, k) => line.forEach((v) => (this.linesThrough[v] ||= []).push(k)));
    this.nodeEls = {};
    for (const n of board.nodes) {
      const [x, y] = this.pos[n.id];
      const r = n.point ? this.r * 0.55 : this.r;
      const shape = n.cell
        ? el("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 3 }, this.gNodes)
        : el("circle", { cx: x, cy: y, r }, this.gNodes);
      shape.setAttribute("class", "node" + (n.point ? " point" : "") + (n.cell ? " square" : ""));
      shape.dataset.node = n.id;
      shape.dataset.label = n.label;
      const title = el("title", {}, shape);
      title.textContent = n.label === String(n.id) ? `node ${n.id}` : `${n.label} (node ${n.id})`;
      shape.addEventListener("mouseenter", () => this.hover(n.id, true));
      shape.addEventListener("mouseleave", () => this.hover(n.id, false));
      shape.addEventListener("click", () => this.onClick && this.onClick(n.id));
      this.nodeEls[n.id] = shape;
      if (n.point) continue;
      const at = { x: x + r * 0.8, y: y + r * 0.8 };  // below right, clear of a stone (radius 0.82 r)
      el("text", { class: "label name", ...at }, this.gLabels).textContent = n.label;
      el("text", { class: "label id", ...at }, this.gLabels).textContent = String(n.id);
    }
  }

  hover(id, on) {
    for (const k of this.linesThrough[id] || []) this.lineEls[k].classList.toggle("hot", on);
    if (this.onHover) this.onHover(on ? id : null, this.linesThrough[id] || []);
  }

  label(id) {
    return this.board.nodes[id - 1].label;
  }

  // The id of a node named by its label ("a13") or its id (60 or "60"), as files may name it.
  node(name) {
    if (typeof name === "number") return name;
    const found = this.board.nodes.find((n) => n.label === name);
    return found ? found.id : Number(name);
  }

  setStones(stones) {
    this.gStones.replaceChildren();
    for (const s of stones) {
      const [x, y] = this.pos[s.node];
      const r = s.color === "energy" ? this.r * 0.55 : this.r * 0.82;
      const c = el("circle", { cx: x, cy: y, r, class: `stone ${s.color}${s.aged ? " aged" : ""}` }, this.gStones);
      c.dataset.stone = s.node;
      c.dataset.color = s.color;
      if (s.text) el("text", { class: "stone-text" + (s.color === "dark" ? " on-dark" : ""), x, y }, this.gStones)
        .textContent = s.text;
    }
  }

  // Arrows along chains of jumps; with `animate` each chain is drawn jump by jump (STEP_MS apart).
  setArrows(arrows, { animate = false } = {}) {
    if (this.arrowTimer) {  // a chain still being drawn gives way to the new arrows
      clearInterval(this.arrowTimer);
      this.arrowTimer = null;
      delete this.svg.dataset.animating;
    }
    this.gArrows.replaceChildren();
    const lines = (arrows || []).map((a) => {
      const pts = a.path.map((v) => this.pos[v].map((c) => c.toFixed(1)).join(","));
      const line = el("polyline", { class: "arrow", points: pts.join(" "), "marker-end": `url(#${this.markerId})` },
        this.gArrows);
      return [line, pts];
    });
    const longest = Math.max(0, ...lines.map(([, pts]) => pts.length));
    if (!animate || longest <= 2) return;
    let shown = 2;
    for (const [line, pts] of lines) line.setAttribute("points", pts.slice(0, shown).join(" "));
    this.svg.dataset.animating = "1";
    this.svg.dataset.animations = String(Number(this.svg.dataset.animations || 0) + 1);
    this.arrowTimer = setInterval(() => {
      shown++;
      for (const [line, pts] of lines) line.setAttribute("points", pts.slice(0, shown).join(" "));
      if (shown >= longest) {
        clearInterval(this.arrowTimer);
        this.arrowTimer = null;
        delete this.svg.dataset.animating;
      }
    }, STEP_MS);
  }

  mark(nodes, cls) {
    for (const e of Object.values(this.nodeEls)) e.classList.remove(cls);
    for (const v of nodes || []) if (this.nodeEls[v]) this.nodeEls[v].classList.add(cls);
  }

  markLines(lines, cls) {
    for (const e of this.lineEls) e.classList.remove(cls);
    for (const k of lines || []) if (this.lineEls[k]) this.lineEls[k].classList.add(cls);
  }
}
