"""That's My Line solved: the value from the empty board on the three Power of Two boards, with 16
stones a side and with an unlimited supply, each with its certificate.

Two jobs. ``make proofs`` (:func:`make_certificates`, ``python -m powertwo.solvers.prove.results_step``)
proves the six games with the compiled producer and writes ``results/proofs/``: per game the
certificate (``<board>-<supply>.proof``: its first :data:`CUT` moves written out, the positions
there claimed and left to the checker's judge) and the answer (``<board>-<supply>.json``: the
value, the winner's reply to each opening stone up to symmetry, the proof's counts), and
``timings.json`` (seconds to prove). The results job (:func:`results`, a step of ``make
results``) checks every committed certificate with the independent checker and writes the table of
``results/README.md``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from powertwo.boards import load
from powertwo.boards.outfile import write_text
from powertwo.rules import get_game
from powertwo.rules.thats_my_line import ThatsMyLine

from ..proof_format import KEPT, NODE, REF, BodyReader, read_header, skip_record, write_certificate
from ..registry import Progress, ResultRow, SolutionError
from .tml import prove_tml
from .values import Limits, Value

BOARDS = ("power-of-two", "power-of-two-square-sides", "power-of-two-sketch")
SUPPLIES = (16, "unlimited")
CUT = 6
"""Moves from the empty board written out in each certificate; the positions there are claimed."""
MEMORY_MIB = 1536
"""The producer's table (the same size on every run, so the certificates come out the same)."""
FOLDER = "proofs"
TIMINGS = "timings.json"
SECTION = "## That's My Line solved"


def stem(board: str, supply: int | str) -> str:
    return f"{board}-{supply}"


def make_certificates(out: Path, progress: Progress, only: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Prove the six games (those of ``only`` when given, by stem) and write their files."""
    folder = out / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    timings_path = folder / TIMINGS
    timings = json.loads(timings_path.read_text(encoding="utf-8")) if timings_path.exists() else {}
    answers = []
    for board_name in BOARDS:
        for supply in SUPPLIES:
            name = stem(board_name, supply)
            if only and name not in only:
                continue
            game = get_game("thats-my-line", load(board_name), stones=supply)
            assert isinstance(game, ThatsMyLine)
            began = time.monotonic()
            result = prove_tml(game, game.start(), limits=Limits(memory_mib=MEMORY_MIB), progress=progress, cut=CUT)
            seconds = time.monotonic() - began
            if result.certificate is None or result.proof is None:
                raise SolutionError(f"{name}: not decided")
            size = write_certificate(folder / f"{name}.proof", dict(result.certificate.header),
                                     result.certificate.body)
            answer = {"game": game.name, "board": board_name, "stones": supply, "value": result.value.value,
                      "winner": result.winner, "first_replies": first_replies(folder / f"{name}.proof"),
                      "proof": result.proof.to_json(), "certificate_bytes": size,
                      "expanded": result.figures.expanded}
            write_text(folder / f"{name}.json", json.dumps(answer, indent=1) + "\n")
            timings[name] = {"prove_seconds": round(seconds, 1)}
            write_text(timings_path, json.dumps(timings, indent=1) + "\n")
            progress(f"{name}: Light to move {result.value.value}, {result.winner} wins; proven in {seconds:.0f} s, "
                     f"certificate {size:,} bytes")
            answers.append(answer)
    return answers


def first_replies(path: Path) -> list[list[str]]:
    """The winner's reply to each first move of the loser, in the certificate's order, one per
    opening up to symmetry (a first move the certificate proves by reference to an earlier one is
    left out); empty when the side to move wins. Read from the certificate's first records."""
    with open(path, "rb") as handle:
        header = read_header(handle, str(path))
        if header["value"] == Value.WON.value:
            return []
        reader = BodyReader(handle, str(path))
        if reader.varint() not in (NODE, KEPT):
            return []
        out = []
        game = get_game(header["game"], load(header["board"]), **header["options"])
        state = game.state_from_json(header["root"])
        texts = sorted((game.format_move(m, state) for m in game.legal_moves(state)))
        for text in texts[:reader.varint()]:
            tag = reader.varint()
            if tag in (NODE, KEPT):
                out.append([text, reader.text()])
                skip_record(reader, defender_next=True)
            elif tag >= REF:
                continue
        return out


def results(out: Path, progress: Progress) -> tuple[list[ResultRow], list[str]]:
    """Check every committed certificate with the independent checker; the rows of the main table
    and the section of ``README.md``."""
    from ..proof_check import check_certificate

    folder = out / FOLDER
    timings_path = folder / TIMINGS
    timings = json.loads(timings_path.read_text(encoding="utf-8")) if timings_path.exists() else {}
    rows, table = [], []
    for board_name in BOARDS:
        for supply in SUPPLIES:
            name = stem(board_name, supply)
            path = folder / f"{name}.proof"
            if not path.exists():
                raise SolutionError(f"{path}: missing (`make proofs` writes it)")
            answer = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
            began = time.monotonic()
            report = check_certificate(path, progress=progress)
            seconds = time.monotonic() - began
            if not report.valid:
                raise SolutionError(f"{path}: refused by the checker: {report.faults[0]}")
            if first_replies(path) != answer["first_replies"]:
                raise SolutionError(f"{folder / (name + '.json')}: its first replies differ from the certificate's")
            progress(f"{name}: certificate checked in {seconds:.0f} s")
            proved = timings.get(name, {}).get("prove_seconds")
            rows.append(_row(answer, name, seconds, proved))
            table.append(_line(answer, name, seconds, proved))
    return rows, _section(table)


def _row(answer: dict[str, Any], name: str, checked: float, proved: float | None) -> ResultRow:
    outcome = "wins" if answer["value"] == Value.WON.value else "loses"
    return ResultRow(puzzle="prove thats-my-line", variant=f"{answer['board']}, {answer['stones']} stones",
                     optimum=f"{answer['winner']} wins (Light, to move, {outcome})",
                     status="proven (certificate checked)", backends="compiled search; plain referee + judge",
                     answers=f"{answer['proof']['positions']:,} positions written, {answer['proof']['claims']:,} "
                             "claimed", seconds=checked,
                     files=(f"{FOLDER}/{name}.proof", f"{FOLDER}/{name}.json"),
                     timings={"prove": proved or 0.0, "check": round(checked, 1)})


def _line(answer: dict[str, Any], name: str, checked: float, proved: float | None) -> str:
    replies = ", ".join(f"{a}: {b}" for a, b in answer["first_replies"]) or "-"
    p = answer["proof"]
    size = (f"{p['positions']:,} positions ({p['claims']:,} claimed), {p['references']:,} references; "
            f"[{name}.proof]({FOLDER}/{name}.proof) {answer['certificate_bytes'] / 1024:.1f} KiB")
    return (f"| `{answer['board']}` | {answer['stones']} | Light to move {answer['value']}: {answer['winner']} wins "
            f"| {replies} | {size} | {'-' if proved is None else f'{proved:.0f}'} | {checked:.0f} |")


def _section(table: list[str]) -> list[str]:
    return [SECTION, "",
            "The value of That's My Line from the empty board (Light to move), proven by the compiled search "
            "(`make proofs`) and checked here by the independent checker: the first "
            f"{CUT} moves through the plain referee, every position claimed there re-proven by the checker's own "
            "judge (docs/prove.md). Winner's reply: to each first stone of Light, up to symmetry. Seconds to "
            "prove (`make proofs`) and to check (this job), on the machine that ran them.", "",
            "| board | stones | value | winner's first reply (Light's stone: reply) | proof | s to prove "
            "| s to check |",
            "|---|---|---|---|---|---|---|", *table, ""]


if __name__ == "__main__":  # make proofs
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("results")
    make_certificates(target, lambda message: print(message, flush=True), tuple(sys.argv[2:]))
