// What every page of the workbench uses: the server call, one-sentence errors, lists, files,
// the local store, the shared-link payload and the screen-reader status.

export const $ = (id) => document.getElementById(id);
let pending = 0;

// A stale answer: the view moved on (another game, puzzle, undo) before the reply came.
export class Stale extends Error {}

// One sentence for any failure: the server's own line, or what went wrong on the way.
export function sentence(e) {
  if (e instanceof Stale) return "";
  return String((e && e.message) || e || "unknown error").split("\n")[0];
}

// POST when `data` is given, else GET. `signal` aborts the request (the server then cancels
// the work); `guard()`, when given, must still hold when the answer comes, else Stale; a `quiet`
// request (a poll) does not show "working…".
export async function api(path, data = undefined, { signal = undefined, guard = undefined, quiet = false } = {}) {
  if (!quiet) { pending++; $("busy").hidden = false; }
  try {
    const init = data === undefined ? { signal } : {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data), signal };
    let res;
    try { res = await fetch(path, init); } catch (e) {
      if (e.name === "AbortError") throw new Stale("aborted");
      throw new Error("the server cannot be reached");
    }
    let out;
    try { out = await res.json(); } catch (e) { throw new Error(`the server answered ${res.status} without a reason`); }
    if (guard && !guard()) throw new Stale("stale");
    if (res.status === 503) throw new Error(`${out.error || "the server is busy"} (retry in ${out.retry_after || 1} s)`);
    if (!res.ok) throw new Error(out.error || `the server answered ${res.status}`);
    return out;
  } finally {
    if (!quiet && --pending === 0) $("busy").hidden = true;
  }
}

export function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 1) + "\n"], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function parseText(text, where) {
  try { return JSON.parse(text); } catch (e) { throw new Error(`${where}: not valid JSON`); }
}

export function readFile(input) {
  return new Promise((resolve, reject) => {
    const f = input.files[0];
    if (!f) return;
    const reader = new FileReader();
    reader.onload = () => {
      input.value = "";
      try { resolve(parseText(reader.result, f.name)); } catch (e) { reject(e); }
    };
    reader.readAsText(f);
  });
}

export function fill(select, items) {
  select.replaceChildren(...items.map(([value, text]) => {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    return o;
  }));
}

export function list(ul, items) {
  ul.replaceChildren(...items.map((t) => { const li = document.createElement("li"); li.textContent = t; return li; }));
}

export function verdict(p, text, good) {
  p.textContent = text;
  p.className = "verdict " + (good === null ? "" : good ? "good" : "bad");
}

// The status read out by screen readers (an aria-live region), and shown in the header; a view
// in the background (`view`, when given, is not the one shown) announces nothing.
export function announce(text, view = null) {
  if (text && (view === null || document.body.dataset.view === view)) $("status").textContent = text;
}

// ------------------------------------------------------------------ the local store
export const store = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(`powertwo.${key}`); return v === null ? fallback : JSON.parse(v); }
    catch (e) { return fallback; }
  },
  set(key, value) {
    try { localStorage.setItem(`powertwo.${key}`, JSON.stringify(value)); } catch (e) { /* private mode: no store */ }
  },
};

// ------------------------------------------------------------------ shared links
// A link names a view and, optionally, a record or solution: #games=<JSON>, #puzzles=<JSON>.
export function shareLink(view, data) {
  return `${location.origin}${location.pathname}#${view}=${encodeURIComponent(JSON.stringify(data))}`;
}

export function linkPayload() {
  const hash = location.hash.slice(1);
  const at = hash.indexOf("=");
  if (at < 0) return { view: hash, data: null };
  try { return { view: hash.slice(0, at), data: JSON.parse(decodeURIComponent(hash.slice(at + 1))) }; }
  catch (e) { return { view: hash.slice(0, at), data: null, error: "the shared link holds no valid JSON" }; }
}

export async function copyText(text) {
  try { await navigator.clipboard.writeText(text); return true; } catch (e) { return false; }
}

// A tab's own id (solver runs belong to the tab that started them).
export const TAB = (() => {
  let id = sessionStorage.getItem("powertwo.tab");
  if (!id) {
    id = Math.random().toString(36).slice(2) + Date.now().toString(36);
    sessionStorage.setItem("powertwo.tab", id);
  }
  return id;
})();
