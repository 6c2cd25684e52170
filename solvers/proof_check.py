"""The independent checker of game proofs (certificates, :mod:`.proof_format`): ``powertwo check FILE``.

It trusts nothing of the producer. Every move and every end of a game comes from the plain referee of
the game (``rules/plain/``: ``candidates``, ``check``, ``apply``, ``outcome``, RULES.md read
literally), never from the fast rules or the proof search (this module imports neither
``powertwo.solvers.prove`` nor a game's legal-move generator; a test holds it to that). From the
game rules' module it takes only the board, the options, reading the root position, and reading and
writing move notation.

The body is read as it is checked, depth first: at a position of the winner the winner's move is
read, judged by the plain referee and played; at a position of the defender the checker lists every
legal move itself and reads one record per distinct result, in the order of their notation (a
proof that leaves one out is refused: its count of defences differs, or its records no longer fit).
A claim (a position the certificate claims won without writing out its proof, That's My Line) is
re-proven by the checker's judge (:mod:`.proof_judge`), an exact search of its own that shares
nothing with the producer. A leaf must be a finished game the winner won, or (That's My Line) a
position decided by the count
bound, which the checker works out itself from the plain referee: stones are never removed and the
nodes a side may place on only shrink, so a side whose stones placed plus the nodes still open to it
(within its supply) stay below the other's stones placed has lost. A reference must name a kept
position whose proof is complete and be that position (up to a symmetry the checker accepts after
checking it: it maps lines onto lines and keeps what the game's rules single out). No line of the
proof may repeat a position (a proven win never rests on a cycle), nor meet one of the game's
history before the root (Tower of Power).

Memory: the checker keeps the kept positions (their number is in the header, known before the
check starts) and the current line, never the tree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any, Callable, Hashable

from powertwo.boards import Board, BoardError, load as load_board
from powertwo.rules import AnyGame, RulesError, get_game

from .proof_format import (
    CLAIM, COUNT_FIELDS, KEPT, LEAF, NODE, REF, BodyReader, ProofFormatError, read_header,
)
from .registry import CheckReport, Progress, no_progress

HEADER_FIELDS = ("certificate", "game", "options", "board", "board_fingerprint", "root", "to_move", "value",
                 "winner", "move", "counts", "symmetry", "producer")
PROGRESS_SECONDS = 2.0
KEPT_BYTES = 400
"""What one kept position costs the checker (for the memory limit)."""
SHOWN_MOVES = 12
"""A position is named by at most this many last moves of its line."""


class ProofRefused(Exception):
    """A fault of the proof: the message names the position."""


def check_certificate(path: str | Path, *, board: Board | None = None, memory_mib: int = 4096,
                      progress: Progress = no_progress) -> CheckReport:
    """Check the certificate in ``path`` (see the module text): valid, or one fault naming the
    position where the proof fails. A file that is no certificate raises :class:`ProofFormatError`."""
    where = str(path)
    began = time.monotonic()
    with open(path, "rb") as handle:
        header = read_header(handle, where)
        game, root, winner = _setup(header, where, board)
        kept = header["counts"]["kept"]
        if kept * KEPT_BYTES > memory_mib * 2**20:
            raise ProofFormatError(f"{where}: {kept:,} kept positions need more than {memory_mib} MiB")
        walk = _Walk(_Plain.of(game, header["symmetry"]), winner, BodyReader(handle, where), progress,
                     header["counts"])
        try:
            walk.run(root, header["move"])
        except ProofRefused as exc:
            return CheckReport(faults=(f"{where}: {exc}",))
    seconds = time.monotonic() - began
    mismatched = [f"{name} {header['counts'][name]:,} (the body holds {walk.counts[name]:,})"
                  for name in COUNT_FIELDS if header["counts"][name] != walk.counts[name]]
    if mismatched:
        return CheckReport(faults=(f"{where}: the header's counts differ from the proof: " + ", ".join(mismatched),))
    side = game.player_name(winner)
    value = "wins" if header["value"] == "won" else "loses"
    counts = walk.counts
    judged = f", {counts['claims']:,} claimed and re-proven by the judge" if counts["claims"] else ""
    summary = (f"{game.player_name(root.to_move)} to move {value}: {side} wins {game.title or game.name} from "
               f"this position against every defence ({counts['positions'] - counts['claims']:,} positions checked "
               f"by the plain referee{judged}, {counts['references']:,} references; {seconds:.1f} s)")
    notes = (f"first move of the winner: {header['move']}",) if header["move"] else ()
    return CheckReport(summary=summary, notes=notes)


def _setup(header: dict[str, Any], where: str, board: Board | None) -> tuple[AnyGame, Any, int]:
    """The game, the root position and the winner the header names, each checked."""
    unknown = sorted(set(header) - set(HEADER_FIELDS))
    missing = [name for name in HEADER_FIELDS if name not in header]
    if unknown or missing:
        what = f"unknown field {unknown[0]!r}" if unknown else f"missing field {missing[0]!r}"
        raise ProofFormatError(f"{where}: the certificate header has an {what}" if unknown else
                               f"{where}: the certificate header has a {what}")
    counts = header["counts"]
    if not isinstance(counts, dict) or sorted(counts) != sorted(COUNT_FIELDS) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in counts.values()):
        raise ProofFormatError(f"{where}: header field 'counts' must give {', '.join(COUNT_FIELDS)} as whole numbers")
    if not isinstance(header["options"], dict) or not isinstance(header["game"], str):
        raise ProofFormatError(f"{where}: header fields 'game' and 'options' must be a name and an object")
    if header["value"] not in ("won", "lost") or not isinstance(header["symmetry"], bool):
        raise ProofFormatError(f"{where}: header field 'value' must be 'won' or 'lost' and 'symmetry' true or false")
    if board is None:
        if not isinstance(header["board"], str):
            raise ProofFormatError(f"{where}: header field 'board' must be a board name or file")
        try:
            board = load_board(header["board"])
        except BoardError as exc:
            raise ProofFormatError(f"{where}: header field 'board': {exc}") from None
    if header["board_fingerprint"] != board.fingerprint:
        raise ProofFormatError(f"{where}: made for a board with fingerprint {header['board_fingerprint']}, "
                               f"not for {board.name} ({board.fingerprint})")
    try:
        game = get_game(header["game"], board, **header["options"])
        root = game.state_from_json(header["root"])
        to_move = game.player_from_json(header["to_move"], "header field 'to_move'")
        winner = game.player_from_json(header["winner"], "header field 'winner'")
    except RulesError as exc:
        raise ProofFormatError(f"{where}: {exc}") from None
    if to_move != root.to_move or (header["value"] == "won") != (winner == to_move):
        raise ProofFormatError(f"{where}: header fields 'to_move', 'value' and 'winner' do not agree with the root")
    if header["move"] is not None and (winner != to_move or not isinstance(header["move"], str)):
        raise ProofFormatError(f"{where}: header field 'move' names the winner's first move, "
                               "when the winner moves first")
    return game, root, winner


# ---------------------------------------------------------------- the plain referee, as the checker uses it
@dataclass(frozen=True)
class _Plain:
    """A game judged through its plain module, with the symmetries the checker accepts."""

    game: AnyGame
    module: Any
    perms: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, game: AnyGame, symmetry: bool) -> "_Plain":
        module = import_module("powertwo.rules.plain." + type(game).__module__.rsplit(".", 1)[1])
        perms = tuple(p for p in game.board.symmetries[1:] if _keeps_rules(game, module, p)) if symmetry else ()
        return cls(game, module, perms)

    def outcome(self, state: Any) -> Any:
        return self.module.outcome(self.game, state)

    def defences(self, state: Any) -> list[tuple[str, Any]]:
        """Every legal move (plain candidates the plain check accepts), by notation, one per result."""
        legal = [(self.game.format_move(m, state), m) for m in self.module.candidates(self.game, state)
                 if self.module.check(self.game, state, m) is None]
        out, seen = [], set()
        for text, move in sorted(legal, key=lambda pair: pair[0]):
            after = self.module.apply(self.game, state, move)
            if after not in seen:
                seen.add(after)
                out.append((text, after))
        return out

    def play(self, state: Any, text: str) -> Any:
        """The position after the winner's move ``text``; :class:`ProofRefused` when it is no legal move."""
        try:
            move = self.game.parse_move(text, state)
        except RulesError as exc:
            raise ProofRefused(f"the winner's move {text!r} cannot be read: {exc}") from None
        if not self.game.is_move(move):
            raise ProofRefused(f"the winner's move {text!r} is not a move of {self.game.name}")
        reason = self.module.check(self.game, state, move)
        if reason is not None:
            raise ProofRefused(f"the winner's move {text} is illegal: {reason}")
        return self.module.apply(self.game, state, move)

    def key(self, state: Any) -> Hashable:
        """The position (stones and whose turn; the move count too under a move limit) up to the
        accepted symmetries: the least image."""
        groups, rest = _groups(self.game, state)
        if self.game.name == "tower-of-power":
            return min([groups] + [_stack_image(groups, p) for p in self.perms]), rest
        return min([groups] + [tuple(tuple(sorted(p[v - 1] for v in g)) for g in groups) for p in self.perms]), rest

    def repetition(self, key: Any) -> Hashable:
        """What a repetition compares of a key: all but Tower of Power's move count."""
        return (key[0], key[1][:1]) if self.game.name == "tower-of-power" else key

    def bound(self, state: Any) -> int | None:
        """That's My Line's count bound (see the module text): the winner it decides, else ``None``."""
        if self.game.name != "thats-my-line":
            return None
        supply = getattr(self.game, "supply", None)
        most = []
        for player, stones in ((0, state.light), (1, state.dark)):
            open_nodes = sum(1 for v in self.game.board.nodes if self.module._may_place(self.game, state, player, v))
            most.append(len(stones) + open_nodes if supply is None else min(supply, len(stones) + open_nodes))
        for player, stones in ((0, state.light), (1, state.dark)):
            if most[1 - player] < len(stones):
                return player
        return None


def _groups(game: AnyGame, state: Any) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """A position's node groups (each a sorted tuple of nodes; Tower of Power: its stacks) and the rest."""
    name = game.name
    if name == "thats-my-line":
        return (tuple(sorted(state.light)), tuple(sorted(state.dark))), (state.to_move, state.last_placer)
    if name == "power-of-two":
        return (tuple(sorted(state.light)), tuple(sorted(state.dark)), tuple(sorted(state.aged))), (state.to_move,)
    if name == "david-goliath":
        return ((state.david,), (state.goliath,), tuple(sorted(state.light_thrown)),
                tuple(sorted(state.dark_thrown))), (state.to_move,)
    if name == "tower-of-power":
        limit = game.options["move_limit"]
        return state.stacks, (state.to_move, state.ply if limit else None)
    if name in ("netzwerk", "epaminondas"):
        extra = (tuple(sorted(state.energy)),) if name == "netzwerk" else ()
        return (tuple(sorted(state.pieces[0])), tuple(sorted(state.pieces[1]))) + extra, (state.to_move,)
    raise ProofFormatError(f"no proof checker for game {name}")


def _stack_image(stacks: tuple[Any, ...], perm: tuple[int, ...]) -> tuple[Any, ...]:
    out: list[Any] = [()] * len(stacks)
    for v, stack in enumerate(stacks, 1):
        out[perm[v - 1] - 1] = stack
    return tuple(out)


def _keeps_rules(game: AnyGame, module: Any, perm: tuple[int, ...]) -> bool:
    """Whether the plain rules of ``game`` are the same after relabelling the nodes by ``perm``:
    it maps every line onto a line (in order, up to reversal), and keeps what the game singles out
    (David and Goliath: the border; Tower of Power: nothing more, its plain rules speak only of
    squares along rows, columns and diagonals; Epaminondas: every square's rank; Netzwerk: no
    symmetry is accepted)."""
    board = game.board
    lines = {min(line, line[::-1]) for line in board.lines}
    for line in board.lines:
        image = tuple(perm[v - 1] for v in line)
        if min(image, image[::-1]) not in lines:
            return False
    if game.name == "netzwerk":
        return False
    if game.name == "david-goliath":
        return all(module._on_border(board, perm[v - 1]) == module._on_border(board, v) for v in board.nodes)
    if game.name == "epaminondas":
        rank = {v: board.label(v).lstrip("abcdefghijklmnopqrstuvwxyz") for v in board.nodes}
        return all(rank[perm[v - 1]] == rank[v] for v in board.nodes)
    return True


# ---------------------------------------------------------------- the walk
@dataclass
class _Frame:
    repeated: Hashable
    kept: int | None
    pending: list[tuple[str, Any]]
    at: int = 0


@dataclass
class _Walk:
    plain: _Plain
    winner: int
    reader: BodyReader
    progress: Callable[[str], None]
    declared: dict[str, int]
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COUNT_FIELDS, 0))
    kept: list[Hashable] = field(default_factory=list)
    complete: list[bool] = field(default_factory=list)
    line: list[str] = field(default_factory=list)
    on_line: set[Hashable] = field(default_factory=set)
    history: frozenset[Hashable] = frozenset()
    first: str | None = None
    judge: Any = None
    next_report: float = 0.0

    def run(self, root: Any, first_move: str | None) -> None:
        self.history = self._history(root)
        self.first = first_move
        stack: list[_Frame] = []
        top = self.enter(root, root=True)
        if top is not None:
            stack.append(top)
        while stack:
            frame = stack[-1]
            if frame.at < len(frame.pending):
                text, child = frame.pending[frame.at]
                frame.at += 1
                self.line.append(text)
                below = self.enter(child)
                if below is not None:
                    stack.append(below)
                else:
                    self.line.pop()
                continue
            stack.pop()
            self.on_line.discard(frame.repeated)
            if frame.kept is not None:
                self.complete[frame.kept] = True
            if stack:
                self.line.pop()
        if not self.reader.at_end():
            raise ProofRefused("the body goes on after the end of the proof")

    def _history(self, root: Any) -> frozenset[Hashable]:
        if self.plain.game.name != "tower-of-power":
            return frozenset()
        return frozenset(self.plain.repetition(self.plain.key(type(root)(stacks=s, to_move=p, ply=root.ply)))
                         for s, p in root.history)

    def where(self, state: Any) -> str:
        shown = self.line[-SHOWN_MOVES:]
        moves = ("..." + " " if len(self.line) > SHOWN_MOVES else "") + " ".join(shown)
        whose = self.plain.game.player_name(state.to_move)
        return f"position after {moves} ({whose} to move)" if self.line else f"the root ({whose} to move)"

    def enter(self, state: Any, root: bool = False) -> _Frame | None:
        """Check the record of ``state``; the frame of its children when the proof expands it."""
        tag = self.reader.varint()
        self.report()
        if tag >= REF:
            self.reference(state, tag - REF)
            return None
        if tag == LEAF:
            self.leaf(state)
            return None
        if tag == CLAIM:
            self.claim(state)
            return None
        if tag not in (NODE, KEPT):
            raise ProofRefused(f"{self.where(state)}: record tag {tag} is unknown")
        return self.expand(state, tag == KEPT, root)

    def report(self) -> None:
        """A progress line, at most every :data:`PROGRESS_SECONDS`."""
        now = time.monotonic()
        if now < self.next_report:
            return
        self.next_report = now + PROGRESS_SECONDS
        done = self.counts["positions"] + self.counts["references"]
        total = self.declared["positions"] + self.declared["references"]
        claims = f", {self.counts['claims']:,} of {self.declared['claims']:,} claims re-proven" \
            if self.declared["claims"] else ""
        self.progress(f"checked {done:,} of {total:,} records{claims}")

    def reference(self, state: Any, k: int) -> None:
        self.counts["references"] += 1
        if k >= len(self.kept):
            raise ProofRefused(f"{self.where(state)}: refers to kept position {k}, "
                               f"but {len(self.kept)} are kept so far")
        if not self.complete[k]:
            raise ProofRefused(f"{self.where(state)}: refers to kept position {k}, whose proof is not complete "
                               "(a proof never rests on a cycle)")
        if self.kept[k] != self.plain.key(state):
            raise ProofRefused(f"{self.where(state)}: refers to kept position {k}, which is another position")

    def leaf(self, state: Any) -> None:
        self.counts["positions"] += 1
        self.counts["leaves"] += 1
        ended = self.plain.outcome(state)
        if ended == self.winner:
            return
        game = self.plain.game
        if ended is not None:
            result = "a draw" if ended not in (0, 1) else f"{game.player_name(ended)} wins"
            raise ProofRefused(f"{self.where(state)}: marked as a win of {game.player_name(self.winner)}, but the game "
                               f"is over and {result}")
        if self.plain.bound(state) != self.winner:
            raise ProofRefused(f"{self.where(state)}: marked as decided, but the game goes on and no exact bound "
                               f"decides it for {game.player_name(self.winner)}")

    def claim(self, state: Any) -> None:
        """A claimed position: the judge re-proves it (That's My Line), or the proof is refused."""
        self.counts["positions"] += 1
        self.counts["claims"] += 1
        game = self.plain.game
        if self.judge is None:
            if game.name != "thats-my-line" or game.board.size > 64:
                raise ProofRefused(f"{self.where(state)}: claimed won, but no judge re-proves claims of {game.name} "
                                   f"on {game.board.name}")
            from .proof_judge import TmlJudge

            self.judge = TmlJudge(game.board, getattr(game, "supply", None), self.plain.perms)
        if self.judge.mover_wins(state.light, state.dark, state.to_move, state.last_placer) != \
                (state.to_move == self.winner):
            raise ProofRefused(f"{self.where(state)}: claimed won for {game.player_name(self.winner)}, but the "
                               "judge finds the other side wins")

    def expand(self, state: Any, keep: bool, root: bool) -> _Frame:
        game = self.plain.game
        self.counts["positions"] += 1
        ended = self.plain.outcome(state)
        if ended is not None:
            raise ProofRefused(f"{self.where(state)}: the game is over here, but the proof goes on")
        key = self.plain.key(state)
        again = self.plain.repetition(key)
        if again in self.on_line or again in self.history:
            raise ProofRefused(f"{self.where(state)}: repeats a position of its own line (a proven win never rests "
                               "on a cycle)")
        kept = None
        if keep:
            self.counts["kept"] += 1
            if self.counts["kept"] > self.declared["kept"]:
                raise ProofRefused(f"{self.where(state)}: more kept positions than the header's "
                                   f"{self.declared['kept']:,}")
            kept = len(self.kept)
            self.kept.append(key)
            self.complete.append(False)
        self.on_line.add(again)
        if state.to_move == self.winner:
            self.counts["winner_nodes"] += 1
            text = self.reader.text()
            if root and text != self.first:
                raise ProofRefused(f"the header names the first move {self.first}, the proof plays {text}")
            try:
                pending = [(text, self.plain.play(state, text))]
            except ProofRefused as exc:
                raise ProofRefused(f"{self.where(state)}: {exc}") from None
        else:
            self.counts["defender_nodes"] += 1
            given = self.reader.varint()
            pending = self.plain.defences(state)
            if given != len(pending):
                raise ProofRefused(f"{self.where(state)}: the proof answers {given} defence{'s' * (given != 1)}, "
                                   f"the rules allow {len(pending)} ({' '.join(t for t, _ in pending)})")
            if not pending:
                raise ProofRefused(f"{self.where(state)}: {game.player_name(state.to_move)} has no move, "
                                   "but the game is not over")
        return _Frame(again, kept, pending)


__all__ = ["check_certificate", "ProofRefused", "ProofFormatError"]
