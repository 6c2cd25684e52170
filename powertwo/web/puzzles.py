"""The puzzle pages' answers: live checks of line puzzles and the That's My Line solitaire, whole
files as ``powertwo check`` reads them, and the frames of answers and records to step through."""

from __future__ import annotations

from typing import Any, Mapping

from powertwo.boards import Board, NodeId
from powertwo.boards.words import counted, filled, singular
from powertwo.rules import IllegalMoveError, InvalidMoveError, RulesError, validate_record
from powertwo.solvers.fields import node_ids
from powertwo.solvers.registry import (
    SolutionError, check_answer_shape, checked_where_made, get_puzzle, puzzle_names, results_dir, solution_board,
)

from .common import HINT_SECONDS, BadRequest, board_of, board_view, field, no_paths
from .games import game_frame
from .pages import committed, hinted, puzzle_of, steps_forward
from .requests import CheckBody, HintBody, SequenceBody
from powertwo.solvers.status import FEASIBLE, INFEASIBLE, OPTIMAL


def live_check(body: CheckBody) -> dict[str, Any]:
    """The live check of an answer built by clicks: the puzzle's own hook (:attr:`Puzzle.live_check`)
    on the request's board and fields."""
    name, _ = puzzle_of(body.puzzle)
    puzzle = get_puzzle(name)
    if puzzle.live_check is None:
        known = [n for n in puzzle_names() if get_puzzle(n).live_check is not None]
        raise BadRequest(f"this request is for {', '.join(known)}, not {name!r}")
    board = board_of(body.board)
    fields = {"puzzle": name, **body.model_dump(include={"stones", "strict", "record"}, exclude_none=True)}
    try:
        return puzzle.live_check(board, fields)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None


def check_upload(puzzle: Any, data: Mapping[str, Any], board: Board) -> Any:
    """The checker behind ``powertwo check`` on an uploaded file; the certificate files it names
    are looked up among the committed results (by plain relative names, never a server path).
    The file's shape is read first, every object at every depth, as ``powertwo check`` reads it."""
    check_answer_shape(data, f"{puzzle.name} solution", board)
    if puzzle.reads_files:
        return puzzle.check(data, board, base=results_dir())
    return puzzle.check(data, board)


def file_board(solution: Mapping[str, Any], given: Any) -> Board:
    """The board a solution file is judged against, as ``powertwo check`` chooses it
    (:func:`solution_board`): the board it was made for, or the request's ``board`` (``given``,
    the CLI's ``--board``; None when the request names none); a file made for another board is
    refused in one line naming that board."""
    no_paths(solution, "solution")
    try:
        return solution_board(solution, "solution", None if given is None else board_of(given))
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None


FILE_BOARD = "name {board} in the file's field 'board'"
"""What the workbench tells a user to do about an uploaded file valid only on another board (the
command line says ``pass --board``)."""


def checked_file(solution: Mapping[str, Any], given: Any) -> Any:
    """An uploaded solution file checked as ``powertwo check`` checks it: on :func:`file_board`,
    and, without a ``board`` in the request, one that has no fingerprint and fails there but is
    valid on another shipped board of its kind is refused in the line ``check`` gives
    (:func:`powertwo.solvers.registry.checked_where_made`)."""
    p = get_puzzle(field(solution, "puzzle", str))
    board = file_board(solution, given)
    try:
        return checked_where_made(solution, "solution", board, lambda on: check_upload(p, solution, on),
                                  tried_elsewhere=given is None, action=FILE_BOARD)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None


def file_check(solution: dict[str, Any], given: Any) -> dict[str, Any]:
    """A whole solution file or game record, as ``powertwo check`` checks it (on the request's
    board ``given``, when not None)."""
    if "puzzle" in solution:
        report = checked_file(solution, given)
        return {"valid": report.valid, "faults": list(report.faults), "notes": list(report.notes)}
    if "game" in solution:
        try:
            res = validate_record(solution)
        except (IllegalMoveError, InvalidMoveError) as exc:  # the record's fault (`powertwo check`: exit 1)
            return {"valid": False, "faults": [str(exc)], "notes": []}
        except RulesError as exc:  # a malformed record: refused, as `powertwo check` refuses it (exit 2)
            raise BadRequest(str(exc)) from None
        tail = res.outcome.reason if res.outcome else "game not over"
        return {"valid": True, "faults": [], "notes": [f"valid: {counted(len(res.moves), 'move')}, {tail}"]}
    raise BadRequest("solution: neither a solution (field 'puzzle') nor a game record (field 'game')")


def sequence_frames(body: SequenceBody) -> dict[str, Any]:
    """The frames of an answer or record to step through: stones, arrows and a caption each."""
    item = body.solution
    if "game" in item:
        no_paths(item, "solution")
        try:
            res = validate_record(item)
        except RulesError as exc:
            raise BadRequest(str(exc)) from None
        game = res.game
        frames = [game_frame(game, state, res.moves[k - 1] if k else None,
                             "start" if k == 0 else f"after move {k}: {game.format_move(res.moves[k - 1])}")
                  for k, state in enumerate(res.states)]
        return {"board": board_view(game.board), "frames": frames}
    puzzle, page = puzzle_of(item.get("puzzle"))
    if page["steps"]["unit"] == "stones":
        raise BadRequest(f"an answer of {puzzle} is one position, not a sequence: open it in Puzzles")
    board = file_board(item, body.board)
    report = checked_file(item, body.board)
    if not report.valid:
        raise BadRequest(f"{puzzle}: {report.faults[0]}")
    if page["steps"]["unit"] == "moves":  # a solitaire game record
        from powertwo.solvers.thats_my_line import replay, supply_of

        moves = item["record"]
        game, states, _ = replay(board, supply_of(item["stones"]), moves)
        frames = [game_frame(game, s, game.parse_move(moves[k - 1], states[k - 1]) if k else None,
                             "start" if k == 0 else f"after move {k}: {moves[k - 1]}")
                  for k, s in enumerate(states)]
        return {"board": board_view(board), "frames": frames}
    return {"board": board_view(board), "frames": jump_frames(puzzle, item, board, steps_forward(page))}


def jump_frames(puzzle: str, item: Mapping[str, Any], board: Board, forward: bool) -> list[dict[str, Any]]:
    from powertwo.solvers.jump import JumpTables, replay_chain  # the checker's own replay of a chain

    tables = JumpTables(board, symmetry=False)
    ids = lambda raw: node_ids(list(raw), board, puzzle)  # noqa: E731 - the file may name nodes by labels
    frames = []
    if not forward:
        occ = set(ids(item["position"]))
        frames.append({"stones": [{"node": v, "color": "light"} for v in sorted(occ)], "arrows": [],
                       "caption": f"start: {len(occ)} stones"})
        for k, mv in enumerate(item["moves"], start=1):
            start, jumps = ids([mv["from"]])[0], ids(mv["jumps"])
            replay_chain(tables, occ, start, jumps, "", remove=True)
            frames.append({"stones": [{"node": v, "color": "dark" if v == jumps[-1] else "light"}
                                      for v in sorted(occ)],
                           "arrows": [{"path": [start, *jumps]}],
                           "caption": f"after move {k}: {'-'.join(board.label(v) for v in (start, *jumps))}, "
                                      f"{counted(len(jumps), 'jump')}, {counted(len(occ), 'stone')} left"})
        return frames
    jumper = ids([item["corner"]])[0]
    occ = {jumper}
    frames.append({"stones": [{"node": jumper, "color": "dark"}], "arrows": [],
                   "caption": f"start: the jumper on {board.label(jumper)}"})
    for k, step in enumerate(item["steps"], start=1):
        place, jumps = ids([step["place"]])[0], ids(step["jumps"])
        occ.add(place)
        before = jumper
        _, jumper = replay_chain(tables, occ, jumper, jumps, "", remove=False)
        frames.append({"stones": [{"node": v, "color": "dark" if v == jumper else "light"} for v in sorted(occ)],
                       "arrows": [{"path": [before, *jumps]}],
                       "caption": f"after step {k}: placed {board.label(place)}, {counted(len(jumps), 'jump')}, "
                                  f"{counted(len(occ), 'stone')}"})
    return frames




def jump_summary(puzzle: str, page: Mapping[str, Any], board: Board, state: Any, origin: Any) -> dict[str, Any]:
    """What the page shows of a Get a Jump On click puzzle's state: the stones, the last chain,
    what may come next, the count (the page description's label) and the checker's verdict on
    the file the clicks make."""
    solution = state.file(board, origin)
    report = get_puzzle(puzzle).check(solution, board)
    n = len(state.complete)
    forward = steps_forward(page)
    count = filled(page["steps"]["count"], n=n, stones=len(state.stones))
    best = None
    if forward:
        verdict = (f"valid: {count}" if report.valid else
                   "in progress" if state.next or state.jumper is None else
                   f"stuck: no stone can be placed next to the jumper at {board.label(state.jumper)}; undo")
    else:
        unit = page["verdict"]["unit"]
        done = committed(puzzle, board=board)
        best = done.get("objective") if done and sorted(done["position"]) == sorted(origin) \
            and done.get("status") == OPTIMAL else None
        verdict = ("in progress" if state.next else f"stuck: no jump left, {len(state.stones)} stones remain; undo") \
            if not state.finished else "invalid" if not report.valid else \
            "valid, optimal" if best == n else f"valid, not optimal ({best} {unit} suffice)" if best else \
            f"valid: {counted(n, singular(unit))}"
    last = state.chains[-1] if state.chains else None
    arrows = [] if last is None or not last[1] else [
        {"path": [state.chains[-2][1][-1] if forward and len(state.chains) > 1 else
                  origin if forward else last[0], *last[1]]}]
    stones = [{"node": v, "color": "dark" if v == state.jumper else "light"} for v in state.stones]
    return {"puzzle": puzzle, "board": board.name, "origin": origin,
            "stones": stones, "arrows": arrows, "next": list(state.next), "places": list(state.places),
            "landings": list(state.landings), "starts": list(state.starts), "picked": state.picked,
            "jumper": state.jumper, "finished": state.finished, "count": count,
            "verdict": verdict, "valid": report.valid and state.finished, "optimum": best,
            "faults": [] if not state.finished else list(report.faults), "notes": list(report.notes),
            "solution": solution}


def jump_hint(body: HintBody, seconds: float = HINT_SECONDS) -> dict[str, Any]:
    """Whether the position can still be finished: from the stored census of the board and the
    clicks' start position (``origin``, default the reverse puzzle's) when there is one, else as
    far as the solver can tell within ``seconds``, and a first move that keeps it solvable."""
    puzzle, page = puzzle_of(body.puzzle)
    if not hinted(page):
        raise BadRequest(f"hints are given for puzzles whose clicks build moves from a position, not {puzzle!r}")
    board = board_of(body.board)
    stones = node_ids(body.position, board, "position", field="position")
    origin = node_ids(body.origin, board, "origin", field="origin") if body.origin is not None \
        else reverse_origin(board)
    census = census_hint(board, origin, stones) if origin is not None else None
    if census is not None and (census["solvable"] or census["target"] is None):
        return census
    solver = solver_hint(puzzle, board, stones, seconds)
    if census is not None:
        solver["text"] = f"{census['text']}; {solver['text']}"
    return solver


def solver_hint(puzzle: str, board: Board, stones: list[NodeId], seconds: float = HINT_SECONDS) -> dict[str, Any]:
    """The hint as the solver gives it within ``seconds``."""
    try:
        answer = get_puzzle(puzzle).solve(board, position=stones, time_limit=seconds)
    except SolutionError as exc:
        raise BadRequest(str(exc)) from None
    status, moves = answer.get("status"), answer.get("moves") or []
    if status in (OPTIMAL, FEASIBLE) and moves:
        first = moves[0]
        path = [board.label(v) for v in (first["from"], *first["jumps"])]
        size = "in" if status == OPTIMAL else "within"
        return {"solvable": True, "marks": [first["from"], first["jumps"][0]], "source": "solver",
                "text": f"solvable: a finish {size} {counted(len(moves), 'move')}, e.g. {'-'.join(path)} first"}
    if status == INFEASIBLE:
        return {"solvable": False, "marks": [], "source": "solver", "text": "no finish from here (proven): undo"}
    return {"solvable": None, "marks": [], "source": "solver",
            "text": f"the solver cannot tell within {seconds:g} s whether a finish exists"}


def reverse_origin(board: Board) -> list[NodeId] | None:
    """The reverse puzzle's start on a board with a ``central`` start (the English central game), else None."""
    if "central" not in board.start_names:
        return None
    return sorted(v for side in board.start("central").values() for v in side)


def census_hint(board: Board, origin: list[NodeId], stones: list[NodeId]) -> dict[str, Any] | None:
    """The hint from the census: on the central game (``origin`` the central start) the fewest
    moves left from its fewest-moves table when it holds the position; else a stored solvable set
    (``powertwo census --solvable``) of ``board`` from ``origin`` (``stones`` a position reached
    from it): whether one stone (on the set's target) can still be reached and which single jumps
    keep it so; None when no set is stored. With several sets, the one to any node is asked first,
    then the one to the board's centre."""
    from powertwo.solvers.census import CensusError, solvable_set
    from powertwo.solvers.census.fewest import fewest_left
    from powertwo.solvers.census.tables import centre_node

    try:
        targets: list[NodeId | None] = [None, centre_node(board)]
    except CensusError:
        targets = [None]
    centre = targets[-1] if sorted(origin) == reverse_origin(board) else None
    if centre is not None and (left := fewest_left(board, stones, centre)) is not None:
        return table_hint(board, stones, centre, left)  # the central game's fewest-moves table
    try:
        found = next((s for t in targets if (s := solvable_set(board, origin, t)) is not None), None)
    except CensusError:
        return None
    if found is None:
        return None
    target = None if found.tables.target is None else board.label(found.tables.target)
    where = "" if target is None else f" on {target}"
    held = set(stones)
    if held not in found:
        return {"solvable": False, "marks": [], "jumps": [], "source": "census", "target": target,
                "text": "no finish from here (census): undo" if target is None else
                        f"the census: no finish with one stone{where} from here"}
    keep = [(a, b, c) for a, b, c in board.jumps if a in held and b in held and c not in held
            and (held - {a, b}) | {c} in found]
    names = ", ".join(f"{board.label(a)}-{board.label(c)}" for a, _, c in keep)
    text = (f"solvable (census): one stone{where} can still be reached"
            + (f"; {counted(len(keep), 'jump')} keep it so: {names}" if keep else ""))
    return {"solvable": True, "marks": sorted({v for a, _, c in keep for v in (a, c)}), "source": "census",
            "target": target, "jumps": [[a, c] for a, _, c in keep], "text": text}


def table_hint(board: Board, stones: list[NodeId], target: NodeId, left: int) -> dict[str, Any]:
    """The hint from a fewest-moves table (``powertwo census --by moves --backward``; the English
    central game's is shipped): the fewest moves left to one stone on ``target``, and the single
    jumps after which the table still holds the position."""
    from powertwo.solvers.census.fewest import fewest_left

    held = set(stones)
    keep = [(a, b, c) for a, b, c in board.jumps if a in held and b in held and c not in held
            and fewest_left(board, (held - {a, b}) | {c}, target) is not None]
    names = ", ".join(f"{board.label(a)}-{board.label(c)}" for a, _, c in keep)
    where = board.label(target)
    text = (f"solvable (census): one stone on {where} in {counted(left, 'move')} at fewest"
            + (f"; {counted(len(keep), 'jump')} keep it solvable: {names}" if keep else ""))
    return {"solvable": True, "marks": sorted({v for a, _, c in keep for v in (a, c)}), "source": "census",
            "target": where, "jumps": [[a, c] for a, _, c in keep], "fewest_moves": left, "text": text}
