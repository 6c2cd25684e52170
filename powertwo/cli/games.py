"""``powertwo moves|perft|validate|play``: the referee for the games of RULES.md.

Every command works for every registered game (:func:`powertwo.rules.game_names`) through
the hooks of :class:`powertwo.rules.Game`. Rule options are given as ``--option
NAME=VALUE`` (repeatable; ``true``/``false`` and numbers are read as such), e.g.
``--option exact_reserve=true`` or ``--option stones=unlimited``; every yes/no option
of every game is also a flag (``--exact-reserve``, ``--age-unserved``, ``--count-win``,
``--no-step-capture``, ...; a flag the game does not know is an error).
"""

from __future__ import annotations

import functools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Union

import click

from powertwo.boards.outfile import write_text
from powertwo.boards.words import counted

from .common import OutputError, echo_json, main, output_path, progress_display

if TYPE_CHECKING:
    from powertwo.boards import Board
    from powertwo.rules import Game, Outcome

RuleValue = Union[bool, int, str]
"""A rule option's value as the command line reads it (``--option NAME=VALUE``, a rule flag or value):
yes/no, a whole number, or text the game's option reads itself."""

OPTION_HELP = ("Rule option NAME=VALUE, repeatable (thats-my-line: stones=N|unlimited; tower-of-power: "
               "move_limit=N; yes/no options also as the flags above, e.g. exact_reserve=true = --exact-reserve).")
START_HELP = ("Start position NAME (power-of-two: standard, corners, custom:L,L,L,L/D,D,D,D with 1 to 4 each; "
              "default: the game's own), or a position FILE.")
POSITION_HELP = "A position FILE (JSON object of the game's position, or a game record: its final position)."


def option_value(text: str) -> RuleValue:
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    digits = low.lstrip("-")
    if digits.isascii() and digits.isdigit() and len(low) <= 18:  # longer: left as text for the option check
        return int(low)
    return text.strip()


def parse_options(pairs: tuple[str, ...]) -> dict[str, RuleValue]:
    from powertwo.rules import RecordError

    out: dict[str, RuleValue] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise RecordError(f"--option {pair!r}: write NAME=VALUE, e.g. exact_reserve=true")
        out[name.strip().replace("-", "_")] = option_value(value)
    return out


def rule_flags(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add a flag for every yes/no rule option of every registered game: ``--age-unserved`` for an
    option that is off by default, ``--no-step-capture`` for one that is on. The command receives
    them as ``flags`` (a dict: option name -> value, only those given)."""
    from powertwo.rules import REGISTRY, game_names

    flags: dict[str, tuple[str, bool, str]] = {}
    for name in game_names():
        for opt in REGISTRY[name].options_spec:
            if opt.is_flag:
                flag = ("no-" if opt.default else "") + opt.name.replace("_", "-")
                text = f"{name}: turn off: {opt.help}" if opt.default else f"{name}: {opt.help}"
                flags.setdefault(flag, (opt.name, not opt.default, text))

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = {flags[f][0]: flags[f][1] for f in flags if kwargs.pop("flag_" + f.replace("-", "_"), False)}
        return command(*args, flags=given, **kwargs)

    for flag in sorted(flags, reverse=True):
        wrapper = click.option(f"--{flag}", "flag_" + flag.replace("-", "_"), is_flag=True, default=False,
                               help=flags[flag][2])(wrapper)
    return wrapper


def rule_values(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add an option for every rule option of every registered game that is not yes/no
    (``--stones``, ``--move-limit``, ``--first-player``): the command receives them as ``values``
    (a dict: option name -> the text given, only those given), read by the game's option."""
    from powertwo.rules import REGISTRY, game_names

    names: dict[str, list[str]] = {}
    for name in game_names():
        for opt in REGISTRY[name].options_spec:
            if not opt.is_flag:
                names.setdefault(opt.name, []).append(f"{name}: {opt.help}")

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        given = {n: kwargs.pop("value_" + n) for n in names if kwargs.get("value_" + n) is not None}
        for n in names:
            kwargs.pop("value_" + n, None)
        return command(*args, values={n: option_value(v) for n, v in given.items()}, **kwargs)

    for name in sorted(names, reverse=True):
        wrapper = click.option(f"--{name.replace('_', '-')}", "value_" + name, default=None, metavar="VALUE",
                               help="; ".join(names[name]) + ".")(wrapper)
    return wrapper


def game_and_state(name: str, options: tuple[str, ...], start: str | None, position: str | None,
                   flags: Mapping[str, RuleValue] | None = None,
                   board: Board | None = None) -> tuple[Game[Any, Any], Any]:
    """The game with its options (``--option`` pairs, rule flags and values) on ``board`` (default:
    its own), and the position to work on (``--position`` or ``--start``)."""
    from powertwo.rules import RecordError, get_game, validate_record
    from powertwo.solvers.registry import read_json_file

    game = get_game(name, board, **{**parse_options(options), **(flags or {})})
    if position is not None:
        if start is not None:
            raise RecordError("give either --start or --position, not both")
        data = read_json_file(position)
        if isinstance(data, dict) and "moves" in data:
            data = dict(data, game=data.get("game", name))
            if data["game"] != name:
                raise RecordError(f"{position}: the record is a game of {data['game']}, not {name}")
            res = validate_record(data, where=position)
            return res.game, res.final
        try:
            return game, game.state_from_json(data)
        except RecordError as exc:
            raise RecordError(f"{position}: {exc}") from None
    if start is not None and start not in game.board.start_names and Path(start).is_file():
        # RULES.md §6 "a start file": a position file named as the start (read here, not in the rules)
        return game_and_state(name, options, None, start, flags, board)
    return game, game.start(start)


def outcome_text(game: Game[Any, Any], outcome: Outcome | None) -> str:
    if outcome is None:
        return "game not over"
    if outcome.winner is None:
        return f"draw: {outcome.reason}"
    return f"{game.player_name(outcome.winner)} wins: {outcome.reason}"


@main.command("moves")
@click.argument("game_name", metavar="GAME")
@rule_flags
@click.option("--start", default=None, help=START_HELP)
@click.option("--position", type=click.Path(dir_okay=False), default=None, help=POSITION_HELP)
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print {position, to_move, outcome, moves} as JSON.")
def moves(game_name: str, start: str | None, position: str | None, options: tuple[str, ...], as_json: bool,
          flags: dict[str, bool]) -> None:
    """Every legal move of GAME in a position, one per line, in the game's notation."""
    game, state = game_and_state(game_name, options, start, position, flags)
    legal = [game.format_move(m, state) for m in game.legal_moves(state)]
    out = game.outcome(state)
    if as_json:
        echo_json({"game": game.name, "position": game.state_to_json(state),
                   "to_move": game.player_name(state.to_move), "outcome": None if out is None else {
                       "winner": None if out.winner is None else game.player_name(out.winner), "reason": out.reason},
                   "notes": game.notes(state), "moves": legal})
        return
    for text in legal:
        click.echo(text)
    click.echo(f"{len(legal)} legal moves for {game.player_name(state.to_move)}"
               + ("" if out is None else f" ({outcome_text(game, out)})"), err=True)


@main.command("perft", context_settings={"ignore_unknown_options": True})
@click.argument("game_name", metavar="GAME")
@rule_flags
@click.argument("depth", type=click.IntRange(0, 12))
@click.option("--start", default=None, help=START_HELP)
@click.option("--position", type=click.Path(dir_okay=False), default=None, help=POSITION_HELP)
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP)
@click.option("--divide", is_flag=True, help="Also print the count below each first move.")
def perft(game_name: str, depth: int, start: str | None, position: str | None, options: tuple[str, ...],
          divide: bool, flags: dict[str, bool]) -> None:
    """Number of legal move sequences of exactly DEPTH moves (a finished game has none)."""
    game, state = game_and_state(game_name, options, start, position, flags)
    began = time.perf_counter()
    if divide and depth > 0:
        total = 0
        for move in game.moves(state):  # lazily: any number of first moves
            n = game.perft(game.apply(state, move), depth - 1)
            total += n
            click.echo(f"{game.format_move(move, state)}: {n}")
    else:
        total = game.perft(state, depth)
    click.echo(total)
    click.echo(f"perft {depth}: {total} in {time.perf_counter() - began:.2f} s", err=True)


@main.command("validate")
@click.argument("game_name", metavar="GAME")
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--show", is_flag=True, help="Also print the final position as text (the last move marked >).")
def validate(game_name: str, record: str, show: bool) -> None:
    """Replay a game RECORD.json of GAME: exit 0 with the result, exit 1 with the first
    illegal move and why; a malformed record is one line on stderr and exit 2.

    A record is {"game", "options"?, "start"? | "position"?, "moves": [...]}. An answer file whose
    answer is a game (That's My Line, solitaire or a given score) is replayed as the record it holds.
    """
    from powertwo.rules import IllegalMoveError, InvalidMoveError, RecordError, get_game, validate_record
    from powertwo.solvers.registry import answer_record, read_json_file

    get_game(game_name)  # an unknown GAME is an error before the file is read
    data = read_json_file(record)
    if isinstance(data, dict) and "puzzle" in data:
        data = answer_record(data, record)
    if isinstance(data, dict) and data.get("game", game_name) != game_name:
        raise RecordError(f"{record}: the record is a game of {data['game']!r}, not {game_name}")
    if isinstance(data, dict) and "game" not in data:
        data = dict(data, game=game_name)
    try:
        res = validate_record(data, where=record)
    except (IllegalMoveError, InvalidMoveError) as exc:
        click.echo(str(exc))
        raise SystemExit(1) from None
    click.echo(f"valid: {counted(len(res.moves), 'move')}, {outcome_text(res.game, res.outcome)}")
    if show:
        last = res.moves[-1] if res.moves else None
        click.echo(res.game.render_text(res.final, last))
        if last is not None:
            click.echo(last_move_text(res.game, res.states[-2], last))
    elif res.outcome is None:
        click.echo(f"{res.game.player_name(res.final.to_move)} to move")
    for note in res.game.notes(res.final):
        click.echo(note)


def last_move_text(game: Game[Any, Any], before: Any, move: Any) -> str:
    """"last move: move 4 (Dark) 42-31 +28, marked > on the board" (the numbering of records)."""
    return (f"last move: move {before.ply + 1} ({game.player_name(before.to_move)}) "
            f"{game.format_move(move, before)}, marked > on the board")


PLACEMENT_HINT_LIMIT = 12


def completions(game: Game[Any, Any], state: Any, text: str) -> list[str]:
    """Legal moves whose notation begins with what was typed and goes on (a slide typed
    without its placements: the moves that add them), at most PLACEMENT_HINT_LIMIT + 1."""
    typed = " ".join(text.split())
    out = []
    for move in game.moves(state).first(2000):
        shown = game.format_move(move, state)
        if shown.startswith(typed + " "):
            out.append(shown)
            if len(out) > PLACEMENT_HINT_LIMIT:
                break
    return out


PLAY_LIST_LIMIT = 200
PLAY_HELP = ("commands: a move in notation | moves (list legal moves) | undo | save FILE "
             "(save --force FILE replaces a file) | help | quit")


@dataclass
class TerminalGame:
    """One game at the terminal: the position, the moves so far and how to save them."""

    game: Any
    state: Any
    machine: int | None
    record_start: dict[str, Any]
    history: list[tuple[Any, str, Any]] = field(default_factory=list)  # (state before, move text, move)
    inputs: tuple[str | None, ...] = ()  # the files play read (a position): never saved over
    hint_seconds: float = 0.0
    """Seconds to look for a proof of each position shown (0: none)."""

    def show(self) -> None:
        last = self.history[-1] if self.history else None
        click.echo(self.game.render_text(self.state, last[2] if last else None))
        if last is not None:
            click.echo(last_move_text(self.game, last[0], last[2]))
        out = self.game.outcome(self.state)
        if out is not None:
            click.echo(f"game over: {outcome_text(self.game, out)}")
        elif self.hint_seconds > 0:
            from powertwo.solvers.prove.hint import proven_hint

            hint = proven_hint(self.game, self.state, seconds=self.hint_seconds)
            if hint is not None:
                click.echo(hint.text())

    def computer_move(self, seconds: float, seed: int) -> None:
        from powertwo.solvers.players import choose_move
        from powertwo.solvers.prove.hint import proven_move

        game, state = self.game, self.state
        found = choose_move(game, state, seconds=seconds, seed=seed + state.ply,
                            prover=proven_move if self.hint_seconds > 0 else None)
        text = game.format_move(found.move, state)
        click.echo(f"computer ({game.player_name(state.to_move)}) plays {text} ({found.summary()})")
        self.history.append((state, text, found.move))
        self.state = game.apply(state, found.move)

    def list_moves(self) -> None:
        # the first moves of the lazy view: Netzwerk positions can have millions of turns, too many to list
        game, state = self.game, self.state
        listed = game.moves(state).first(PLAY_LIST_LIMIT + 1)
        text = " | ".join(game.format_move(m, state) for m in listed[:PLAY_LIST_LIMIT]) or "no legal move"
        if len(listed) > PLAY_LIST_LIMIT:
            text += f" | ... (more than {PLAY_LIST_LIMIT}; `powertwo perft GAME 1` counts them)"
        click.echo(text)

    def undo(self) -> bool:
        if not self.history:
            click.echo("nothing to undo")
            return False
        self.state = self.history.pop()[0]
        if self.machine is not None and self.history and self.state.to_move == self.machine:
            self.state = self.history.pop()[0]  # take back the computer's answer too
        return True

    def save(self, rest: str) -> None:
        force, name = False, rest.strip()
        if name.startswith("--force"):
            force, name = True, name[len("--force"):].strip()
        if not name:
            click.echo("save FILE: name the file")
            return
        record = self.game.record([t for _, t, _ in self.history], **self.record_start)
        try:
            write_text(output_path(name, force, self.inputs), json.dumps(record, indent=1) + "\n")
        except OutputError as exc:
            click.echo(f"not saved: {exc}")
            return
        except OSError as exc:
            click.echo(f"cannot save {name}: {exc.strerror or exc.__class__.__name__}")
            return
        click.echo(f"saved {counted(len(self.history), 'move')} to {name}")

    def try_move(self, text: str) -> bool:
        from powertwo.rules import RulesError

        game, state = self.game, self.state
        try:
            move = game.parse_move(text, state)
            new = game.apply(state, move)
        except RulesError as exc:
            click.echo(f"refused: {exc}")
            hints = completions(game, state, text)
            if hints:
                more = " | ..." if len(hints) > PLACEMENT_HINT_LIMIT else ""
                click.echo(f"legal moves that begin '{' '.join(text.split())[:60]}': "
                           + " | ".join(hints[:PLACEMENT_HINT_LIMIT]) + more)
            return False
        except ValueError:  # e.g. a number too long to read: play goes on
            click.echo(f"refused: '{text[:20]}...' ({len(text)} characters) is not a move of {game.name}")
            return False
        self.history.append((state, game.format_move(move, state), move))
        self.state = new
        return True

    def command(self, text: str) -> bool | None:
        """Carry out one typed line: True when the position changed, None to end play."""
        word, _, rest = text.partition(" ")
        if word in ("quit", "exit", "q"):
            return None
        if word == "help":
            click.echo(f"{PLAY_HELP}\nnotation: {self.game.notation_help}")
        elif word == "moves":
            self.list_moves()
        elif word == "undo":
            return self.undo()
        elif word == "save":
            self.save(rest)
        else:
            return self.try_move(text)
        return False


@main.command("play")
@click.argument("game_name", metavar="GAME")
@rule_flags
@click.option("--start", default=None, help=START_HELP)
@click.option("--position", type=click.Path(dir_okay=False), default=None, help=POSITION_HELP)
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help=OPTION_HELP)
@click.option("--computer", type=click.Choice(["light", "dark"]), default=None,
              help="The computer (Monte-Carlo tree search) plays the first (light) or second (dark) player.")
@click.option("--seconds", type=click.FloatRange(0.05, 600), default=2.0, show_default=True,
              help="The computer's thinking time per move.")
@click.option("--seed", type=int, default=0, show_default=True, help="The computer's random seed.")
@click.option("--proof-seconds", "proof_seconds", type=click.FloatRange(0, 600), default=1.0, show_default=True,
              help="Seconds to look for a proof of each position: 'proven: Light wins (hint: d4)' when one is known "
                   "or found, and the computer plays a proven win; 0: no proofs.")
def play(game_name: str, start: str | None, position: str | None, options: tuple[str, ...],
         flags: dict[str, bool], computer: str | None, seconds: float, seed: int, proof_seconds: float) -> None:
    """Two people at one terminal, or one against the computer (--computer): the board as text,
    moves in notation, illegal ones refused with the reason. Commands: a move, `moves`, `undo`,
    `save FILE` (`save --force FILE` replaces an existing file), `help`, `quit`."""
    game, state = game_and_state(game_name, options, start, position, flags)
    first = game.state_to_json(state)
    current = TerminalGame(game, state, None if computer is None else ("light", "dark").index(computer),
                          {"position": first} if position else {"start": start or game.default_start},
                          inputs=(position, start if start is not None and Path(start).is_file() else None),
                          hint_seconds=proof_seconds)
    click.echo(f"{game.title}: {game.notation_help}")
    click.echo(PLAY_HELP)
    show = True
    while True:
        if show:
            current.show()
        show = False
        over = game.outcome(current.state) is not None
        if not over and current.state.to_move == current.machine:
            current.computer_move(seconds, seed)
            show = True
            continue
        prompt = "done" if over else game.player_name(current.state.to_move)
        try:
            line = click.prompt(prompt, default="", show_default=False, prompt_suffix="> ")
        except (click.exceptions.Abort, EOFError):  # end of input
            click.echo()
            break
        if not line.strip():
            continue
        changed = current.command(line.strip())
        if changed is None:
            break
        show = changed


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind (keep it local).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the default browser.")
def serve(host: str, port: int, open_browser: bool) -> None:
    """The browser workbench: boards, puzzles with a live check, answers step by step, and every
    game by clicks against a friend or the computer."""
    from powertwo.web import serve as run

    click.echo(f"powertwo workbench on http://{host}:{port}/ (Ctrl-C stops it)", err=True)
    run(host=host, port=port, open_browser=open_browser)


@main.command("warm")
@click.option("--kernel", "names", multiple=True, metavar="NAME",
              help="Only this kernel (repeatable): endgame, jump, census or prove.")
def warm(names: tuple[str, ...]) -> None:
    """Compile every compiled search (numba) into numba's cache ahead of use, one progress line each:
    the first search, computer move or workbench request after an install then compiles nothing.
    `make venv` runs it; after `pip install powertwo`, run it once."""
    from powertwo.solvers.kernels import KERNELS
    from powertwo.solvers.warm import warm_all

    for name in names:
        if name not in KERNELS:
            raise click.UsageError(f"--kernel {name}: unknown (known: {', '.join(KERNELS)})")
    with progress_display("warm", after=0.0, log=True) as progress:
        took = warm_all(progress, names or None)
    click.echo(f"{len(took)} kernel{'s' if len(took) != 1 else ''} ready in numba's cache "
               f"({sum(took.values()):.0f} s)")
