"""Checking Get a Jump On answer files: every step or move replayed (:mod:`.replay`), every claim
compared with the replay, the status rules of every puzzle family (``optimal``: bound = objective;
``feasible``: a bound below the objective; ``infeasible`` and ``unknown``: no answer), and the
``proof`` of the bound (:mod:`.proof`) recomputed (the admissible bound, the position classes and
pagodas) or re-proved by the checker's own search (the kernel; the Python engine on boards over 64
nodes). A malformed file, or a field the checker does not know, is a :class:`SolutionError` naming
it (exit 2 in the CLI); a file from an earlier version whose ``proof`` is free text is refused the
same way (solve the position again)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from powertwo.boards import Board, NodeId
from powertwo.boards.words import counted

from .. import kernels
from ..fields import SolutionError, choice_field, int_field, known_fields, require
from ..registry import CheckReport
from ..schemas import FREE_TEXT_PROOF
from .backends import KERNEL, forward_answer
from .engine import ReverseSearch
from .files import FORWARD_FIELDS, REVERSE_FIELDS
from .kernel import EXHAUSTED, FOUND, KernelSearch
from .kernel import chains as kernel_chains
from .options import FORWARD, REVERSE, STONES, labels, node_in, read_position
from .proof import ENGINES, INFEASIBLE_ONLY, KINDS_BY_ENGINE, PROOF_FIELDS, PROOF_KINDS, Engine, Proof
from .replay import node_field, parse_chains, replay_forward, replay_reverse
from ..status import FEASIBLE, INFEASIBLE, OPTIMAL, STATUSES, UNKNOWN, Status


# ---------------------------------------------------------------------------- forward
def check_forward(data: Mapping[str, Any], board: Board) -> CheckReport:
    where = FORWARD
    known_fields(data, FORWARD_FIELDS, where)
    corner = node_field(data, "corner", where, board)
    raw_steps = require(data, "steps", list, where)
    parsed = parse_chains(raw_steps, "place", "step", where, board)
    claimed = data.get("final_position")
    if isinstance(claimed, list):
        claimed = [node_in(board, v, f"{where}: field 'final_position'") for v in claimed]
    fault, occ, _, chains = replay_forward(board, corner, parsed)
    faults = [fault] if fault else []
    notes = []
    if not faults:
        if len(parsed) != STONES - 1:
            faults.append(f"the answer has {len(parsed)} steps; {STONES - 1} steps put {STONES} stones on the board")
        elif claimed is not None and (not isinstance(claimed, list) or sorted(claimed) != sorted(occ)):
            faults.append("final_position does not match the replay (the stones stand on "
                          f"{labels(board, sorted(occ))})")
        else:
            notes.append(f"{len(parsed)} steps, {len(occ)} stones on the board, "
                         f"{chains} {'step' if chains == 1 else 'steps'} with chain jumps")
    return CheckReport(tuple(faults), tuple(notes))


def require_valid(check: Callable[[Mapping[str, Any], Board], CheckReport], puzzle: str, data: Mapping[str, Any],
                  board: Board) -> None:
    """Refuses (a :class:`SolutionError`) to go on with an answer its checker finds faults in."""
    report = check(data, board)
    if not report.valid:
        raise SolutionError(f"{puzzle}: cannot draw an invalid answer: {report.faults[0]}")


# ---------------------------------------------------------------------------- reverse: reading
@dataclass(frozen=True)
class _Claims:
    """The fields of a reverse answer file that the checks compare, each read once (a malformed one
    is a :class:`SolutionError` naming it)."""

    start: list[NodeId]
    moves: list[tuple[NodeId, list[NodeId]]]
    status: Status
    objective: int | None
    bound: int | None
    engine: Engine | None
    proof: Proof | None
    target: NodeId | None

    @classmethod
    def read(cls, data: Mapping[str, Any], board: Board) -> _Claims:
        where = REVERSE
        known_fields(data, REVERSE_FIELDS, where)
        start = read_position(require(data, "position", list, where), board)
        engine = choice_field(data, "engine", ENGINES, where, required=False)
        moves = parse_chains(require(data, "moves", list, where), "from", "move", where, board)
        status = choice_field(data, "status", STATUSES, where)
        objective = int_field(data, "objective", where, required=False)
        bound = int_field(data, "bound", where, required=False, minimum=0)
        target = node_field(data, "target", where, board) if data.get("target") is not None else None
        return cls(start, moves, status, objective, bound, engine, _proof(data), target)  # type: ignore[arg-type]

    @property
    def targets(self) -> list[NodeId] | None:
        return None if self.target is None else [self.target]


def _proof(data: Mapping[str, Any]) -> Proof | None:
    """The ``proof`` field: ``{"kind", "bound", "engine"}`` or null (an earlier version's free text
    is refused: nothing can check it)."""
    where = REVERSE
    raw: Any = data.get("proof")
    if raw is None:
        return None
    if isinstance(raw, str):
        raise SolutionError(f"{where}: field 'proof' {FREE_TEXT_PROOF}")
    if not isinstance(raw, Mapping):
        raise SolutionError(f"{where}: field 'proof' must be an object {{kind, bound, engine}} or null")
    known_fields(raw, PROOF_FIELDS, where, prefix="proof.")
    here = f"{where}: field 'proof'"
    kind = choice_field(raw, "kind", PROOF_KINDS, here)
    bound = int_field(raw, "bound", here, minimum=0)
    engine = choice_field(raw, "engine", ENGINES, here)
    return Proof(kind=kind, bound=bound, engine=engine)  # type: ignore[arg-type]  # choice_field checked them


# ---------------------------------------------------------------------------- reverse: the checks
def check_reverse(data: Mapping[str, Any], board: Board, *, reprove: bool = True) -> CheckReport:
    """Replays every move, holds the status, objective, bound and proof to each other, then checks
    the proof: recomputed (``admissible bound``, ``position classes and pagodas``) or, with
    ``reprove``, re-proved by the checker's own search (the kernel, or the Python engine on boards
    over 64 nodes). An ``infeasible`` of engine ``census`` (a stored solvable set) is re-proved the
    same way, without the set."""
    claims = _Claims.read(data, board)
    fault, occ = replay_reverse(board, claims.start, claims.moves)
    faults: list[str] = [f for f in (_seed_fault(data, claims.start, board), fault) if f]
    notes: list[str] = []
    if not faults:
        faults += _answer_faults(board, claims, occ)
    if not faults:
        faults += _proof_faults(claims)
    if not faults and claims.moves:
        jumps = sum(len(js) for _, js in claims.moves)
        notes.append(f"{counted(len(claims.moves), 'move')}, {jumps} jumps, last stone on "
                     f"{board.label(next(iter(occ)))}")
    if not faults:
        fault, note = _proven(board, claims, reprove)
        (faults if fault else notes).append(fault or note)
    return CheckReport(tuple(faults), tuple(notes))


def _answer_faults(board: Board, claims: _Claims, occ: set[NodeId]) -> list[str]:
    """The moves, status, objective and bound against the replay and against each other (the first
    fault only)."""
    status, objective, bound, n = claims.status, claims.objective, claims.bound, len(claims.moves)
    if status in (INFEASIBLE, UNKNOWN):
        if n:
            return [f"status {status} but the file gives {counted(n, 'move')}"]
        if objective is not None:
            return [f"status {status} but objective {objective}: without an answer the objective is null"]
        return []
    if len(occ) != 1:
        return [f"after {counted(n, 'move')} {len(occ)} stones are left, not one"]
    if claims.target is not None and claims.target not in occ:
        return [f"the last stone stands on {board.label(next(iter(occ)))}, not on the target "
                f"{board.label(claims.target)}"]
    if objective != n:
        return [f"objective {objective} does not match the {counted(n, 'move')} given"]
    if bound is not None and bound > n:
        return [f"bound {bound} exceeds the {counted(n, 'move')} found"]
    if status == OPTIMAL and bound is None:
        return ["status optimal without a bound"]
    if status == OPTIMAL and bound != n:
        return [f"status optimal but the bound {bound} is below the {counted(n, 'move')} found"]
    if status == FEASIBLE and bound == n:
        return [f"status feasible with bound {bound} equal to the objective: that is optimal"]
    return []


def _proof_faults(claims: _Claims) -> list[str]:
    """The proof against the file: its bound and engine, the kinds its engine gives, the kinds that
    prove only infeasibility (no proof: the checker proves the claim itself)."""
    proof, bound = claims.proof, claims.bound
    if proof is None:
        return []
    if proof.bound != bound:
        return [f"proof bound {proof.bound} does not match the file's bound "
                + ("(none given)" if bound is None else str(bound))]
    if claims.engine is not None and proof.engine != claims.engine:
        return [f"proof engine {proof.engine} does not match the file's engine {claims.engine}"]
    if proof.kind not in KINDS_BY_ENGINE[proof.engine]:
        return [f"proof kind '{proof.kind}': the {proof.engine} engine gives no such proof (it gives "
                + ", ".join(f"'{k}'" for k in KINDS_BY_ENGINE[proof.engine]) + ")"]
    if proof.kind in INFEASIBLE_ONLY and claims.status != INFEASIBLE:
        return [f"proof kind '{proof.kind}' shows only that no finish exists, but the status is {claims.status}"]
    return []


def _seed_fault(data: Mapping[str, Any], start: Sequence[NodeId], board: Board) -> str:
    """A benchmark file's ``seed`` and ``chain_steps``: the seeded forward answer is found again and
    must end on ``position`` with that many chain steps ("" when they agree or are absent)."""
    if "seed" not in data:
        if "chain_steps" in data:
            raise SolutionError(f"{REVERSE}: field 'chain_steps' needs the field 'seed' it counts from")
        return ""
    seed = require(data, "seed", int, REVERSE)
    fwd = forward_answer(board, seed=seed)
    if sorted(fwd.final_position) != sorted(start):
        return (f"seed {seed}: the seeded forward answer ends on {labels(board, fwd.final_position)}, not on the "
                "position given")
    if "chain_steps" in data and data["chain_steps"] != fwd.chain_steps:
        return f"chain_steps {data['chain_steps']!r}: the seeded forward answer has {fwd.chain_steps} steps with chains"
    return ""


# ---------------------------------------------------------------------------- reverse: the proof
def _proven(board: Board, claims: _Claims, reprove: bool) -> tuple[str, str]:
    """(fault, "") or ("", note): the proof recomputed (admissible bound, position classes and
    pagodas) or re-proved by the checker's own search; without a proof, the claim itself re-proved."""
    proof, status, bound = claims.proof, claims.status, claims.bound
    if proof is None and status != INFEASIBLE:
        if bound is None:
            return "", f"status {status}; no bound claimed"
        if bound <= (1 if len(claims.start) > 1 else 0):
            why = " (at least one move is needed)" if bound else ""
            return "", f"status {status}; bound {bound} needs no proof{why}"
    if proof is not None and proof.kind in ("admissible bound", "position classes and pagodas"):
        return _recomputed(board, claims, proof)
    if not reprove:
        return "", f"status {status}; the bound {bound} was not re-proved (reprove=False)"
    return _reprove(board, claims)


def _recomputed(board: Board, claims: _Claims, proof: Proof) -> tuple[str, str]:
    """The proofs the checker recomputes as the engines compute them: the admissible bound, and the
    position classes and pagodas."""
    rs = ReverseSearch(board, claims.start, targets=claims.targets, symmetry=False, perimeter=0)
    if proof.kind == "admissible bound":
        low = rs.lower_bound(rs.start, rs.targets)
        if low < proof.bound:
            return (f"proof kind 'admissible bound': the unjumpable stones and Merson regions need "
                    f"{counted(low, 'move')}, not {proof.bound}"), ""
        return "", f"status {claims.status}; bound {proof.bound} recomputed: the admissible bound is {low}"
    if rs.targets:
        return (f"proof kind 'position classes and pagodas': they leave {labels(board, _nodes(rs.targets))} "
                "for the last stone"), ""
    return "", "infeasible confirmed: the position classes and pagodas leave no node for the last stone"


def _nodes(mask: int) -> list[NodeId]:
    return [v for v in range(1, mask.bit_length() + 1) if mask >> (v - 1) & 1]


def _reprove(board: Board, claims: _Claims) -> tuple[str, str]:
    """(fault, "") or ("", note): the claim "no finish at all" (``infeasible``) or "no finish
    within ``bound - 1`` moves" checked by the checker's own exhaustive search; while the compiled
    kernel is not ready (:mod:`powertwo.solvers.kernels`), a note says the claim was not re-proved."""
    start, targets, status, bound = claims.start, claims.targets, claims.status, claims.bound
    engine = "kernel" if board.size <= 64 else "Python engine"
    if board.size <= 64 and not kernels.ready(KERNEL) and (status == INFEASIBLE or (bound or 0) > 1):
        return "", (f"status {status}" + ("" if bound is None else f", bound {bound}")
                    + f": not re-proved now ({kernels.not_ready_note(KERNEL).split(':')[0]})")
    if status == INFEASIBLE:
        if board.size <= 64:
            ks = KernelSearch(board, start, targets=targets)
            if not ks.setup.targets:
                return "", f"infeasible confirmed: {ks.setup.why_none}"
            found, jumps = ks.search(None)
            moves = len(kernel_chains(jumps)) if found == FOUND else None
        else:
            moves = ReverseSearch(board, start, targets=targets).run().moves
        if moves is not None:
            return f"status infeasible but a finish exists: the checker found one in {counted(moves, 'move')}", ""
        return "", f"infeasible confirmed: the checker's {engine} exhausted the search"
    assert bound is not None   # (_proven: a bound of None has nothing to re-prove)
    budget = bound - 1
    if board.size <= 64:
        ks = KernelSearch(board, start, targets=targets)
        status_k, jumps = ks.search(budget) if ks.setup.targets else (EXHAUSTED, [])
        moves = len(kernel_chains(jumps)) if status_k == FOUND else None
    else:
        moves = ReverseSearch(board, start, targets=targets).run(max_moves=budget).moves
    if moves is not None:
        claim = "status optimal" if status == OPTIMAL else f"bound {bound}"
        finish = counted(moves, "move")
        verb = "suffices" if moves == 1 else "suffice"
        return f"{claim} but {finish} {verb}: the checker found a finish in {finish}", ""
    return "", (f"status {status}; bound {bound} re-proved: the checker's {engine} finds no finish "
                f"within {counted(budget, 'move')}")
