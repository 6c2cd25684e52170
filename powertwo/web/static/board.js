// Draws a board as SVG from the server's board data (exact coordinates, lines, links).
// It holds no rules: stones, marks and highlighted lines are what the server says.
// Keyboard: the board is one tab stop; arrow keys move between nodes (to the nearest node in
// that direction), Enter or Space clicks the focused node. "Flip" turns the board half round.
// Each node carries its label (a1 .. m13 on the Power of Two board) and its id; the page shows
// one of the two (body.show-ids shows the ids) beside the node where it touches no other node and
// no other label, clear of the stone on it, LABEL_PX pixels tall on the screen where the board's
// spacing allows (a little less on a desktop whose window is low); where the board is drawn far too
// small for that (a phone), the labels are hidden until the board is zoomed.
// Every node has a round touch target half as wide as the nearest two nodes are apart (so targets
// never overlap), under the node: on the real board at 390 px, 25 px across.
// A click says whether it came from a touch (the page then asks to confirm a move).

const NS = "http://www.w3.org/2000/svg";
const SIZE = 720;
const PAD = 34;
const STEP_MS = 160;  // one jump of an animated chain
const DEFAULT_ARROW = "#1f77b4";  // an arrow the server gives no colour
const LABEL_CHAR = 0.68, LABEL_HEIGHT = 1.22;  // a label's letter width and line height, in font sizes
const LABEL_PX = 11;  // the smallest label on the screen (pixels)
const LABEL_UNITS = [9, 11.5, 14];  // a label's font size in drawing units: at least, at most, and hidden beyond

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
    this.flipped = false;
    this.shown = { stones: [], arrows: [], marks: {}, lines: {} };  // re-applied after a flip
    this.focused = null;
    this.pointer = "mouse";  // the kind of the last pointer pressed on the board
    this.font = 0;  // the labels' font size in drawing units (0: not placed yet)
    svg.addEventListener("pointerdown", (e) => { this.pointer = e.pointerType || "mouse"; });
    if (window.ResizeObserver) new ResizeObserver(() => this.fit()).observe(svg);
  }

  flip() {
    this.flipped = !this.flipped;
    if (!this.board) return;
    const shown = this.shown;
    this.draw(this.board);
    this.setStones(shown.stones);
    this.setArrows(shown.arrows);
    for (const [cls, nodes] of Object.entries(shown.marks)) this.mark(nodes, cls);
    for (const [cls, lines] of Object.entries(shown.lines)) this.markLines(lines, cls);
  }

  draw(board) {
    this.board = board;
    this.shown = { stones: [], arrows: [], marks: {}, lines: {} };
    const svg = this.svg;
    svg.replaceChildren();
    const xs = board.nodes.map((n) => n.x), ys = board.nodes.map((n) => n.y);
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    const span = Math.max(x1 - x0, y1 - y0) || 1;
    const scale = (SIZE - 2 * PAD) / span;
    const w = (x1 - x0) * scale + 2 * PAD, h = (y1 - y0) * scale + 2 * PAD;
    svg.setAttribute("viewBox", `0 0 ${w.toFixed(1)} ${h.toFixed(1)}`);
    this.pos = {};
    for (const n of board.nodes) {
      const at = [PAD + (n.x - x0) * scale, PAD + (y1 - n.y) * scale];
      this.pos[n.id] = this.flipped ? [w - at[0], h - at[1]] : at;
    }
    // spacing: the shortest distance between two nodes sets the node radius
    let near = Infinity;
    const ids = board.nodes.map((n) => n.id);
    for (let i = 0; i < ids.length && i < 400; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const [ax, ay] = this.pos[ids[i]], [bx, by] = this.pos[ids[j]];
        near = Math.min(near, Math.hypot(ax - bx, ay - by));
      }
    this.r = Math.max(6, Math.min(16, near * 0.36));
    this.reach = Math.max(this.r, near / 2);  // a touch target's radius
    this.width = w;
    this.height = h;
    const defs = el("defs", {}, svg);
    this.markerId = `arrowhead-${svg.id}`;  // one per drawing: a marker inside a hidden view would not render
    this.defs = defs;
    this.markers = {};
    this.gLinks = el("g", {}, svg);
    this.gLines = el("g", {}, svg);
    this.gHits = el("g", {}, svg);
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
      shape.setAttribute("tabindex", "-1");
      shape.setAttribute("role", "button");
      shape.setAttribute("aria-label", n.label === String(n.id) ? `node ${n.id}` : n.label);
      shape.addEventListener("focus", () => this.focusNode(n.id));
      shape.addEventListener("keydown", (e) => this.key(e, n.id));
      const title = el("title", {}, shape);
      title.textContent = n.label === String(n.id) ? `node ${n.id}` : `${n.label} (node ${n.id})`;
      shape.addEventListener("mouseenter", () => this.hover(n.id, true));
      shape.addEventListener("mouseleave", () => this.hover(n.id, false));
      shape.addEventListener("click", () => this.click(n.id));
      this.nodeEls[n.id] = shape;
      const hit = el("circle", { class: "hit", cx: x, cy: y, r: this.reach }, this.gHits);
      hit.dataset.hit = n.id;
      hit.addEventListener("click", () => this.click(n.id));
    }
    this.focusNode(this.focused !== null && this.nodeEls[this.focused] ? this.focused : board.nodes[0].id, false);
    this.font = 0;
    this.fit();
  }

  click(id) {
    if (this.onClick) this.onClick(id, { touch: this.pointer === "touch" });
  }

  // The labels sized for the board as drawn now: at least LABEL_PX on the screen, or hidden when
  // that is more than the board's spacing allows (zoom in to read them). Called on every resize.
  fit() {
    if (!this.board) return;
    const shown = this.svg.getBoundingClientRect().width;
    if (!shown) return;  // a hidden view: fitted when it is shown
    const needed = LABEL_PX * this.width / shown;
    const off = needed > LABEL_UNITS[2];
    const font = Math.min(LABEL_UNITS[1], Math.max(LABEL_UNITS[0], needed));
    this.svg.classList.toggle("labels-off", off);
    this.svg.dataset.labels = off ? "off" : "on";
    if (off || Math.abs(font - this.font) < 0.25) return;
    let places = null;  // the largest font, from `font` down, whose labels all find a clear spot
    for (let size = font; size >= LABEL_UNITS[0] && !places; size -= 0.5) places = this.labelPlaces(size);
    this.font = font;
    places = places || this.labelPlaces(LABEL_UNITS[0], true);
    this.gLabels.replaceChildren();
    for (const n of this.board.nodes) {
      const [size, at] = places[n.id];
      el("text", { class: "label name", "font-size": size.toFixed(2), ...at }, this.gLabels).textContent = n.label;
      el("text", { class: "label id", "font-size": size.toFixed(2), ...at }, this.gLabels).textContent = String(n.id);
    }
  }

  // Every label's place at font size `size`, or null when one finds no clear spot (unless `anyway`).
  labelPlaces(size, anyway = false) {
    const placed = [], places = {};
    for (const n of this.board.nodes) {
      const at = this.labelPlace(n, placed, size);
      if (!at && !anyway) return null;
      places[n.id] = [size, at || this.labelPlace(n, placed, size, true)];
    }
    return places;
  }

  // Where a node's label goes (its top left corner) at font size `size`: the first of eight places
  // around the node, then of eight a little farther out (a point: diagonals first; a grid square:
  // below it first, as on a chequered board) whose box, as wide as the longer of label and id, keeps
  // clear of every node and of the labels placed before, inside the drawing; null when none does
  // (the first place, `anyway`).
  labelPlace(n, placed, size, anyway = false) {
    const [x, y] = this.pos[n.id];
    const r = this.r;
    const w = LABEL_CHAR * size * Math.max(n.label.length, String(n.id).length), h = LABEL_HEIGHT * size;
    const around = (d, e) => {  // eight spots at distance d (diagonals) and e (straight) from the node
      const diagonal = [[x + d, y + d], [x - d - w, y + d], [x + d, y - d - h], [x - d - w, y - d - h]];
      const straight = [[x - w / 2, y + e], [x - w / 2, y - e - h], [x + e, y - h / 2], [x - e - w, y - h / 2]];
      return n.cell ? [...straight, ...diagonal] : [...diagonal, ...straight];
    };
    const bleed = 0.2 * size;  // how far a glyph's ink may reach past the box estimated for it
    const spots = [...around(r * 0.8 + bleed, r + 1 + bleed), ...around(r * 1.3 + bleed, r * 1.6 + bleed)];
    const apart = ([x0, y0, x1, y1], [u0, v0, u1, v1]) => x1 <= u0 || u1 <= x0 || y1 <= v0 || v1 <= y0;
    const clear = ([x0, y0]) => {
      const box = [x0, y0, x0 + w, y0 + h];
      if (x0 < 0 || y0 < 0 || box[2] > this.width || box[3] > this.height) return false;  // inside the drawing
      for (const m of this.board.nodes) {
        const [cx, cy] = this.pos[m.id];
        if (m.cell) {
          if (!apart(box, [cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1])) return false;
          continue;
        }
        const reach = (m.point ? r * 0.55 : r) + 1;
        const dx = Math.min(Math.max(cx, x0), box[2]) - cx, dy = Math.min(Math.max(cy, y0), box[3]) - cy;
        if (dx * dx + dy * dy < reach * reach) return false;
      }
      return placed.every((other) => apart(box, other));
    };
    const spot = spots.find(clear) || (anyway ? spots[0] : null);
    if (!spot) return null;
    const [x0, y0] = spot;
    placed.push([x0, y0, x0 + w, y0 + h]);
    return { x: x0.toFixed(1), y: y0.toFixed(1) };
  }

  // One node of the board takes the tab stop (the last one focused).
  focusNode(id, move = false) {
    if (this.focused !== null && this.nodeEls[this.focused]) this.nodeEls[this.focused].setAttribute("tabindex", "-1");
    this.focused = id;
    this.nodeEls[id].setAttribute("tabindex", "0");
    if (move) this.nodeEls[id].focus();
  }

  key(e, id) {
    const dirs = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      if (this.onClick) this.onClick(id, { touch: false });
      return;
    }
    if (!(e.key in dirs)) return;
    e.preventDefault();
    e.stopPropagation();
    const [dx, dy] = dirs[e.key], [x, y] = this.pos[id];
    let best = null, bestScore = Infinity;
    for (const n of this.board.nodes) {  // the nearest node within 60 degrees of the direction
      const [u, v] = this.pos[n.id];
      const along = (u - x) * dx + (v - y) * dy, dist = Math.hypot(u - x, v - y);
      if (n.id === id || along <= 0 || along < dist * 0.5) continue;
      const score = dist + 2 * (dist - along);
      if (score < bestScore) { best = n.id; bestScore = score; }
    }
    if (best !== null) this.focusNode(best, true);
  }

  // The arrowhead in an arrow's own colour (one marker per colour and drawing).
  marker(color) {
    if (!this.markers[color]) {
      const id = `${this.markerId}-${Object.keys(this.markers).length}`;
      const m = el("marker", { id, viewBox: "0 0 10 10", refX: "8", refY: "5", markerWidth: "5", markerHeight: "5",
        orient: "auto-start-reverse" }, this.defs);
      el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: color }, m);
      this.markers[color] = id;
    }
    return this.markers[color];
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
    this.shown.stones = stones || [];
    this.gStones.replaceChildren();
    for (const s of stones) {
      const [x, y] = this.pos[s.node];
      const r = s.color === "energy" ? this.r * 0.4 : this.r * 0.82;  // the node's ring shows around it
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
    this.shown.arrows = arrows || [];
    this.gArrows.replaceChildren();
    const lines = (arrows || []).map((a) => {
      const pts = a.path.map((v) => this.pos[v].map((c) => c.toFixed(1)).join(","));
      const color = a.color || DEFAULT_ARROW;
      const line = el("polyline", { class: "arrow", points: pts.join(" "), stroke: color,
        "marker-end": `url(#${this.marker(color)})` }, this.gArrows);
      line.dataset.color = color;
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
    this.shown.marks[cls] = nodes || [];
    for (const e of Object.values(this.nodeEls)) e.classList.remove(cls);
    for (const v of nodes || []) if (this.nodeEls[v]) this.nodeEls[v].classList.add(cls);
  }

  markLines(lines, cls) {
    this.shown.lines[cls] = lines || [];
    for (const e of this.lineEls) e.classList.remove(cls);
    for (const k of lines || []) if (this.lineEls[k]) this.lineEls[k].classList.add(cls);
  }
}
