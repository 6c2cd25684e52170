"""``python -m bench fuzz [--mutations N] [--seed S]``: the same text judged by ``powertwo check`` and
by ``POST /api/check`` (issue 50: one reader, the same verdicts).

Each mutation is one change to a committed answer file (``results/**/*.json``) or to a game record
made by the rules modules: delete, duplicate, retype, out of range, an unknown field or a repeated
key, at any depth. Both sides judge the mutated text: ``check`` as the command runs it (its bounded
child process run in this process, the same functions) on the text saved beside the committed
certificates, the workbench through its own worker pool with the text as the body's ``solution``.
The verdicts are valid (exit 0, ``valid: true``), faults (exit 1, ``valid: false``), refused (exit
2, HTTP 400), undecided (exit 3, HTTP 422) and crash (a traceback, or any other exit or status: a
defect on its own). An unknown field or a repeated key must be refused.

Prints the verdicts by kind of mutation, every disagreement (one line each) and the counts; exit
code 1 when a pair disagrees, a side crashes or a must-refuse mutation is not refused. The check of a
mutation runs beside the workbench's (a thread), so two cores judge a pair at once.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
KINDS = ("delete", "duplicate", "retype", "out_of_range", "unknown_field", "duplicate_key")
MUST_REFUSE = ("unknown_field", "duplicate_key")
CLI_VERDICTS = {0: "valid", 1: "faults", 2: "refused", 3: "undecided"}
API_VERDICTS = {400: "refused", 422: "undecided"}
VERDICTS = ("valid", "faults", "refused", "undecided", "crash")


# ---------------------------------------------------------------- the mutations
def paths(data: Any, at: tuple = ()) -> list[tuple]:
    """Every place in a JSON tree (the root included), as a tuple of keys and indices."""
    out = [at]
    if isinstance(data, dict):
        for key, value in data.items():
            out += paths(value, at + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data[:8]):  # the first few items of long lists
            out += paths(value, at + (i,))
    return out


def parent_and_key(data: Any, at: tuple) -> tuple[Any, Any]:
    node = data
    for part in at[:-1]:
        node = node[part]
    return node, at[-1]


def other_type(value: Any, pick: int) -> Any:
    choices = ["x", 7, True, None, [], {}, 1.5]
    choices = [c for c in choices if type(c) is not type(value)]
    return choices[pick % len(choices)]


def out_of_range(value: Any, pick: int) -> Any:
    if isinstance(value, bool):
        return [2, "yes"][pick % 2]
    if isinstance(value, (int, float)):
        return [-1, -7, 10 ** 30, 0, 65, 10 ** 6, math.nan, math.inf][pick % 8]
    if isinstance(value, str):
        return ["", "x" * 300, "trust me", "-1"][pick % 4]
    if isinstance(value, list):
        return value * 40 if value else [0]
    return {"": None}


def _node(data: Any, at: tuple) -> Any:
    node = data
    for part in at:
        node = node[part]
    return node


def mutate(data: Any, at: tuple, kind: str, pick: int) -> str:
    """The JSON text of ``data`` with one mutation of ``kind`` at ``at`` (a copy; the original
    is not changed)."""
    data = json.loads(json.dumps(data))
    if kind == "duplicate_key":
        node = _node(data, at)
        if not isinstance(node, dict) or not node:
            node = data
        key = sorted(node)[pick % len(node)]
        marker = "__duplicate_marker__"
        node[marker] = None
        text = json.dumps(data)
        return text.replace(f'"{marker}": null', f'{json.dumps(key)}: {json.dumps(node[key])}')
    if kind == "unknown_field":
        node = _node(data, at)
        if not isinstance(node, dict):
            node = data
        node[["jumped", "captured", "result", "zz"][pick % 4]] = [99]
        return json.dumps(data)
    if not at:
        return json.dumps(other_type(data, pick) if kind == "retype" else [data, data])
    parent, key = parent_and_key(data, at)
    if kind == "delete":
        del parent[key]
    elif kind == "duplicate":
        if isinstance(parent, list):
            parent.insert(key, parent[key])
        else:
            parent[key] = [parent[key], parent[key]]
    elif kind == "retype":
        parent[key] = other_type(parent[key], pick)
    else:
        parent[key] = out_of_range(parent[key], pick)
    return json.dumps(data)


def answer_files() -> dict[Path, Any]:
    """Every committed answer file (a JSON object with a field ``puzzle``) and its data."""
    out = {}
    for path in sorted(RESULTS.glob("**/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and "puzzle" in data:
            out[path] = data
    return out


def game_record(name: str, seed: int, length: int) -> dict:
    """A valid record of a random game of ``name`` (made by the rules modules)."""
    from powertwo.rules import get_game

    game = get_game(name)
    rng = random.Random(seed)
    state, texts = game.start(), []
    for _ in range(length):
        moves = game.moves(state).first(40) if game.outcome(state) is None else []
        if not moves:
            break
        move = rng.choice(moves)
        texts.append(game.format_move(move, state))
        state = game.apply(state, move)
    return game.record(texts)


def game_records() -> list[dict]:
    """Two records of every game: 6 and 12 moves of seeded random play."""
    from powertwo.rules import game_names

    return [game_record(name, seed, length) for name in game_names() for seed, length in ((1, 6), (2, 12))]


def corpus(count: int, seed: int = 50) -> list[tuple[str, str, str]]:
    """``count`` mutated texts (what, kind, text), the same for the same seed: first every source
    in turn (an answer file and a record by turns, while both last) and every kind in turn, then
    random picks."""
    rng = random.Random(seed)
    answers = [(path.relative_to(RESULTS).as_posix(), data) for path, data in answer_files().items()]
    records = [(f"record of {r['game']}", r) for r in game_records()]
    sources = [s for pair in zip(answers, records, strict=False) for s in pair]
    sources += answers[len(records):] + records[len(answers):]
    out = []
    for k in range(count):
        name, data = sources[k % len(sources)] if k < len(sources) else rng.choice(sources)
        kind = KINDS[k % len(KINDS)] if k < 2 * len(KINDS) else rng.choice(KINDS)
        at = rng.choice(paths(data))
        out.append((name, kind, mutate(data, at, kind, rng.randrange(100))))
    return out


# ---------------------------------------------------------------- the two judges
@dataclass
class Judges:
    """``powertwo check`` (in this process) and the workbench (its app, in this process; its
    checks in its worker pool), judging mutated texts."""

    client: Any
    folder: Path

    def cli(self, text: str) -> tuple[str, str]:
        """``powertwo check`` on ``text`` saved beside the committed certificates."""
        from click.testing import CliRunner

        from powertwo.cli import main

        file = self.folder / "mutated.json"
        file.write_text(text, encoding="utf-8")
        res = CliRunner().invoke(main, ["check", str(file)])
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            return "crash", f"{type(res.exception).__name__}: {res.exception}"
        if "Traceback" in res.output or res.exit_code not in CLI_VERDICTS:
            return "crash", f"exit {res.exit_code}: {res.output[-300:]}"
        return CLI_VERDICTS[res.exit_code], res.output

    def api(self, text: str) -> tuple[str, str]:
        """``POST /api/check`` with ``text`` as the body's ``solution``."""
        response = self.client.post("/api/check", content='{"solution": ' + text + "}",
                                    headers={"content-type": "application/json"})
        if response.status_code == 200:
            reply = response.json()
            return ("valid" if reply["valid"] else "faults"), json.dumps(reply)
        try:
            message = response.json().get("error", "")
        except ValueError:
            message = response.text
        if response.status_code not in API_VERDICTS or not message or "\n" in message or "Traceback" in message:
            return "crash", f"HTTP {response.status_code}: {message[:300]}"
        return API_VERDICTS[response.status_code], message


def _run_here(func: Any, *args: Any, time_limit: float, **kwargs: Any) -> Any:
    """``run_bounded`` without the child process: the same function, in this process."""
    from powertwo.solvers import bounded

    try:
        return bounded.Outcome(bounded.DONE, value=func(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - handed back as the child hands it back
        return bounded.Outcome(bounded.FAILED, message=str(exc), error=exc)


@contextmanager
def judges(folder: Path, workers: int = 1) -> Iterator[Judges]:
    """The two judges, with the committed certificates linked into ``folder`` (a line answer names
    them relative to its own file; the workbench looks them up among the committed results)."""
    from starlette.testclient import TestClient

    from powertwo.cli.limits import CHECK_SECONDS
    from powertwo.solvers import bounded
    from powertwo.web.server import Limits, create_app

    for path in RESULTS.iterdir():
        if path.name.endswith((".cnf", ".drat", ".gz")) and not (folder / path.name).exists():
            (folder / path.name).symlink_to(path)
    limits = Limits(workers=workers, warm=False, queue=8, check_seconds=CHECK_SECONDS, nice=0)
    saved = bounded.run_bounded
    bounded.run_bounded = _run_here
    try:
        with TestClient(create_app(limits=limits), base_url="http://127.0.0.1:8765") as client:
            yield Judges(client, folder)
    finally:
        bounded.run_bounded = saved


# ---------------------------------------------------------------- a run
@dataclass
class Tally:
    """What a run found: verdicts by (kind, check's verdict, the workbench's verdict), the pairs
    that differ, the crashes and the must-refuse mutations that were not refused (one line each)."""

    pairs: Counter = field(default_factory=Counter)
    differ: list[str] = field(default_factory=list)
    crashes: list[str] = field(default_factory=list)
    unrefused: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return sum(self.pairs.values())

    @property
    def clean(self) -> bool:
        return not (self.differ or self.crashes or self.unrefused)

    def add(self, name: str, kind: str, cli: tuple[str, str], api: tuple[str, str]) -> None:
        self.pairs[(kind, cli[0], api[0])] += 1
        said = f"check {cli[0]} ({cli[1].strip()[:200]}); api {api[0]} ({api[1][:200]})"
        if cli[0] != api[0]:
            self.differ.append(f"{name} {kind}: {said}")
        if "crash" in (cli[0], api[0]):
            self.crashes.append(f"{name} {kind}: {said}")
        if kind in MUST_REFUSE and (cli[0], api[0]) != ("refused", "refused"):
            self.unrefused.append(f"{name} {kind}: {said}")


def run(texts: list[tuple[str, str, str]], judge: Judges, progress: Any = None) -> Tally:
    """Every text judged by both sides (the check beside the workbench's, in a thread)."""
    tally = Tally()
    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=1) as pool:
        for k, (name, kind, text) in enumerate(texts, 1):
            api = pool.submit(judge.api, text)
            cli = judge.cli(text)
            found = len(tally.differ) + len(tally.crashes) + len(tally.unrefused)
            tally.add(name, kind, cli, api.result())
            if progress is None:
                continue
            for line in (tally.differ + tally.crashes + tally.unrefused)[found:]:
                progress(f"mutation {k:,}: {line}")  # at once: a long run stopped early still shows it
            if k % 250 == 0 or k == len(texts):
                progress(f"{k:,} of {len(texts):,} judged in {time.monotonic() - began:.0f} s, "
                         f"{len(tally.differ)} differ; so far " + ", ".join(
                             f"{n} {c}" for c, n in sorted(Counter(c for _, c, _ in tally.pairs.elements()).items())))
    return tally


def report(tally: Tally, seconds: float) -> list[str]:
    """The table of verdicts by kind (check's = the workbench's, else both named) and the faults."""
    lines = [f"{'mutation':<14} " + " ".join(f"{v:>9}" for v in VERDICTS) + f" {'differ':>7}"]
    for kind in KINDS:
        same = Counter({c: n for (k, c, a), n in tally.pairs.items() if k == kind and c == a})
        differ = sum(n for (k, c, a), n in tally.pairs.items() if k == kind and c != a)
        lines.append(f"{kind:<14} " + " ".join(f"{same[v]:>9,}" for v in VERDICTS) + f" {differ:>7,}")
    lines.append(f"{tally.count:,} mutations judged by both in {seconds:.0f} s: {len(tally.differ)} differ, "
                 f"{len(tally.crashes)} crash, {len(tally.unrefused)} must-refuse not refused")
    for title, items in (("differ", tally.differ), ("crash", tally.crashes), ("not refused", tally.unrefused)):
        lines += [f"{title}: {line}" for line in items[:50]]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--mutations", type=int, default=5000, help="how many mutated texts (default 5000)")
    parser.add_argument("--seed", type=int, default=50, help="the corpus's seed (default 50)")
    parser.add_argument("--workers", type=int, default=1, help="the workbench's worker processes (default 1)")
    parser.add_argument("--part", default="1/1", metavar="K/N",
                        help="judge only the K-th of every N mutations (N runs side by side share a corpus)")
    args = parser.parse_args(sys.argv[1:])
    if args.mutations < 1:
        parser.error(f"--mutations {args.mutations}: give at least 1")
    k, _, n = args.part.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        parser.error(f"--part {args.part}: write K/N with 1 <= K <= N, e.g. 1/2")
    texts = corpus(args.mutations, args.seed)[int(k) - 1::int(n)]
    print(f"benchmark fuzz: {len(texts):,} of {args.mutations:,} mutations (seed {args.seed}, part {args.part}) "
          "through powertwo check and POST /api/check", flush=True)
    began = time.monotonic()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        judge = stack.enter_context(judges(folder, args.workers))
        tally = run(texts, judge, lambda line: print(line, flush=True))
    for line in report(tally, time.monotonic() - began):
        print(line)
    if not tally.clean:
        sys.exit(1)
