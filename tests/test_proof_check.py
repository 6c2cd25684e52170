"""The independent proof checker: mutated certificates refused with the position named, its imports
kept apart from the producer, the judge of claims against the plain referee, the plain referees'
ends against the fast ones, and the CLI of ``prove`` and ``check``."""

from __future__ import annotations

import json
import lzma
import random
import subprocess
from pathlib import Path
import sys

import pytest
from click.testing import CliRunner

from powertwo.cli import main
from powertwo.rules import get_game, game_names
from powertwo.rules.plain import DRAW
from powertwo.solvers.proof_check import check_certificate
from powertwo.solvers.proof_format import CLAIM, KEPT, LEAF, NODE, REF, ProofFormatError, write_certificate
from powertwo.solvers.proof_judge import TmlJudge
from powertwo.solvers.prove import Limits, Value, prove

from test_prove import grid, minimax, plain_module

LIMITS = Limits(seconds=300, memory_mib=256)


# ---------------------------------------------------------------- a certificate taken apart
def read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def varint(value: int) -> bytes:
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def records(body: bytes, winner_first: bool) -> list[dict]:
    """The body as a list of records in order: tag, move or count, and where each subtree ends."""
    out: list[dict] = []

    def one(at: int, winner: bool) -> int:
        tag, after = read_varint(body, at)
        rec: dict = {"tag": tag, "winner": winner}
        out.append(rec)
        if tag in (NODE, KEPT):
            if winner:
                size, after = read_varint(body, after)
                rec["move"] = body[after:after + size].decode()
                after = one(after + size, not winner)
            else:
                rec["count"], after = read_varint(body, after)
                for _ in range(rec["count"]):
                    after = one(after, not winner)
        rec["end"] = len(out)
        return after

    assert one(0, winner_first) == len(body)
    return out


def encode(recs: list[dict]) -> bytes:
    out = bytearray()
    for rec in recs:
        out += varint(rec["tag"])
        if rec["tag"] in (NODE, KEPT):
            if "move" in rec:
                text = rec["move"].encode()
                out += varint(len(text)) + text
            else:
                out += varint(rec["count"])
    return bytes(out)


@pytest.fixture(scope="module")
def proof_4x4():
    """Dark's win on the 4x4 grid with its diagonals, 3 stones a side (a proof of 47 positions)."""
    board = grid(4, True)
    game = get_game("thats-my-line", board, stones=3)
    result = prove(game, game.start(), limits=LIMITS, engine="df-pn")
    assert result.value == Value.LOST and result.proof.positions > 20
    return board, game, result


def rewrite(path, result, recs, header=None):
    write_certificate(path, header or dict(result.certificate.header), encode(recs))
    return path


def fault_of(path, board) -> str:
    report = check_certificate(path, board=board)
    assert not report.valid
    return report.faults[0]


def test_the_unchanged_certificate_is_valid(proof_4x4, tmp_path):
    board, game, result = proof_4x4
    recs = records(result.certificate.body, winner_first=False)
    assert encode(recs) == result.certificate.body
    report = check_certificate(rewrite(tmp_path / "p.proof", result, recs), board=board)
    assert report.valid and "Dark wins" in report.summary


def test_a_missing_defence_is_refused_with_the_position(proof_4x4, tmp_path):
    board, game, result = proof_4x4
    recs = records(result.certificate.body, winner_first=False)
    k = next(i for i, r in enumerate(recs) if r.get("count", 0) >= 2 and i > 0)
    child, starts = k + 1, []  # where each defence's records start
    while child < recs[k]["end"]:
        starts.append(child)
        child = recs[child]["end"]
    assert len(starts) == recs[k]["count"]
    cut = recs[:starts[-1]] + recs[recs[k]["end"]:]
    cut[k] = dict(recs[k], count=recs[k]["count"] - 1)
    fault = fault_of(rewrite(tmp_path / "p.proof", result, cut), board)
    assert "position after" in fault and "the proof answers" in fault and "the rules allow" in fault
    # the same with the count left as it was: the records no longer fit
    fault = fault_of(rewrite(tmp_path / "q.proof", result, recs[:starts[-1]] + recs[recs[k]["end"]:]), board)
    assert "position" in fault or "ends in the middle" in fault


def test_a_replaced_winning_move_is_refused(proof_4x4, tmp_path):
    board, game, result = proof_4x4
    recs = records(result.certificate.body, winner_first=False)
    k = next(i for i, r in enumerate(recs) if "move" in r)
    illegal = dict(recs[k], move="a1" if recs[k]["move"] != "a1" else "b1")
    fault = fault_of(rewrite(tmp_path / "p.proof", result, recs[:k] + [illegal] + recs[k + 1:]), board)
    assert "position after" in fault
    refused = 0
    for label in board.labels:
        if label == recs[k]["move"]:
            continue
        other = dict(recs[k], move=label)
        report = check_certificate(rewrite(tmp_path / "r.proof", result, recs[:k] + [other] + recs[k + 1:]),
                                   board=board)
        refused += not report.valid
    assert refused == len(board.labels) - 1


def test_a_changed_leaf_is_refused(proof_4x4, tmp_path):
    board, game, result = proof_4x4
    recs = records(result.certificate.body, winner_first=False)
    k = next(i for i, r in enumerate(recs) if "move" in r and recs[i + 1]["tag"] == LEAF)
    changed = recs[:k + 1] + [dict(recs[k + 1], tag=CLAIM)] + recs[k + 2:]
    # a leaf turned claim is still a won position (the judge re-proves it): the counts tell
    fault = fault_of(rewrite(tmp_path / "p.proof", result, changed), board)
    assert "counts differ" in fault
    # a position written out, claimed decided instead (its subtree replaced by a leaf)
    k = next(i for i, r in enumerate(recs) if "move" in r and i > 0 and recs[i]["end"] - i > 3)
    fault = fault_of(rewrite(tmp_path / "q.proof", result, recs[:k] + [{"tag": LEAF}] + recs[recs[k]["end"]:]),
                     board)
    assert "position after" in fault and "marked as decided, but the game goes on" in fault


def test_a_wrong_reference_is_refused(proof_4x4, tmp_path):
    board, game, result = proof_4x4
    recs = records(result.certificate.body, winner_first=False)
    refs = [i for i, r in enumerate(recs) if r["tag"] >= REF]
    assert refs and result.proof.kept >= 2
    k = refs[-1]
    wrong = dict(recs[k], tag=REF + (recs[k]["tag"] - REF + 1) % result.proof.kept)
    fault = fault_of(rewrite(tmp_path / "p.proof", result, recs[:k] + [wrong] + recs[k + 1:]), board)
    assert "refers to kept position" in fault


def test_a_header_that_does_not_fit_is_refused(proof_4x4, tmp_path):
    board, game, result = proof_4x4
    recs = records(result.certificate.body, winner_first=False)
    header = dict(result.certificate.header, value="won")
    with pytest.raises(ProofFormatError, match="do not agree"):
        check_certificate(rewrite(tmp_path / "p.proof", result, recs, header), board=board)
    header = dict(result.certificate.header, board_fingerprint="0" * 16)
    with pytest.raises(ProofFormatError, match="fingerprint"):
        check_certificate(rewrite(tmp_path / "q.proof", result, recs, header), board=board)
    header = dict(result.certificate.header, counts=dict(result.certificate.header["counts"], leaves=0))
    assert "counts differ" in fault_of(rewrite(tmp_path / "r.proof", result, recs, header), board)
    (tmp_path / "s.proof").write_bytes((tmp_path / "r.proof").read_bytes()[:-5])
    with pytest.raises(ProofFormatError):
        check_certificate(tmp_path / "s.proof", board=board)


def test_the_checker_imports_nothing_of_the_producer():
    code = ("import sys, powertwo.solvers.proof_check, powertwo.solvers.proof_judge; "
            "print([m for m in sys.modules if m.startswith(('powertwo.solvers.prove', 'powertwo.solvers.players'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- the judge of claims
def random_position(game, rng, most: int):
    """The position after up to ``most`` random moves (fewer when the game ends first)."""
    state = game.start()
    for _ in range(rng.randint(0, most)):
        if game.outcome(state) is not None:
            break
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    return state


def test_the_judge_finds_the_open_nodes_of_the_plain_referee():
    game = get_game("thats-my-line", stones="unlimited")
    plain = plain_module(game)
    judge = TmlJudge(game.board, game.supply, table_bits=12)
    rng = random.Random(5)
    for _ in range(20):
        state = random_position(game, rng, 20)
        for player, mine, theirs in ((0, state.light, state.dark), (1, state.dark, state.light)):
            mask = judge.open_nodes(mine, theirs)
            found = {v for v in game.board.nodes if mask >> judge.bit[v] & 1}
            assert found == {v for v in game.board.nodes if plain._may_place(game, state, player, v)}


@pytest.mark.parametrize("n,diagonals,stones", [(3, True, 2), (3, False, "unlimited"), (4, True, 3), (4, False, 2)])
def test_the_judge_agrees_with_plain_minimax(n, diagonals, stones):
    board = grid(n, diagonals)
    game = get_game("thats-my-line", board, stones=stones)
    judge = TmlJudge(board, game.supply, table_bits=14)
    rng = random.Random(n * 10 + diagonals)
    memo: dict = {}
    for _ in range(12):
        state = random_position(game, rng, 4)
        if game.outcome(state) is not None:
            continue
        winner = minimax(game, state, 2 * n * n + 2, memo)
        assert judge.mover_wins(state.light, state.dark, state.to_move, state.last_placer) == (winner == state.to_move)


# ---------------------------------------------------------------- the plain referees' ends
@pytest.mark.parametrize("name", game_names())
def test_the_plain_referee_ends_games_as_the_fast_one_does(name):
    game = get_game(name)
    plain = plain_module(game)
    rng = random.Random(3)
    seen = 0
    for _ in range(3):
        state = game.start()
        for _ in range(40 if name != "netzwerk" else 6):
            ended = game.outcome(state)
            expect = None if ended is None else (DRAW if ended.winner is None else ended.winner)
            if name != "power-of-two" or seen % 8 == 0 or ended is not None:
                assert plain.outcome(game, state) == expect
            seen += 1
            if ended is not None:
                break
            state = game.apply(state, rng.choice(game.moves(state).first(300)))


# ---------------------------------------------------------------- the CLI
def run(*args):
    return CliRunner().invoke(main, list(args))


def test_prove_and_check_from_the_command_line(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"game": "epaminondas", "to_move": "white", "white": ["m3"], "black": ["g2"]}))
    proof = tmp_path / "p.proof"
    res = run("prove", "epaminondas", "--position", str(position), "--proof", str(proof))
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == ("Epaminondas, the position, White to move: lost: Black wins against "
                                          "every defence")
    assert f"certificate: {proof}" in res.stdout
    res = run("check", str(proof))
    assert res.exit_code == 0 and res.stdout.startswith("valid: White to move loses: Black wins Epaminondas")
    res = run("prove", "epaminondas", "--position", str(position), "--proof", str(proof))
    assert res.exit_code == 2 and "already exists" in res.stderr
    res = run("prove", "epaminondas", "--position", str(position), "--json")
    data = json.loads(res.stdout)
    assert data["value"] == "lost" and data["winner"] == "Black" and data["proof"]["positions"] > 1


def test_check_refuses_a_mutated_certificate(tmp_path):
    position = tmp_path / "pos.json"
    position.write_text(json.dumps({"game": "epaminondas", "to_move": "white", "white": ["m3"], "black": ["g2"]}))
    proof = tmp_path / "p.proof"
    assert run("prove", "epaminondas", "--position", str(position), "--proof", str(proof)).exit_code == 0
    header_line, packed = proof.read_bytes().split(b"\n", 1)
    recs = records(lzma.decompress(packed), winner_first=False)
    k = next(i for i, r in enumerate(recs) if "move" in r)
    write_certificate(proof, json.loads(header_line), encode(recs[:k] + [dict(recs[k], move="a1-a2")] + recs[k + 1:]))
    res = run("check", str(proof))
    assert res.exit_code == 1
    assert res.stdout.startswith(f"{proof}: position after ") and "the winner's move a1-a2" in res.stdout


def test_prove_says_unknown_with_exit_code_3():
    res = run("prove", "power-of-two", "--time-limit", "1", "--memory", "64")
    assert res.exit_code == 3
    assert ("The Power of Two, the start (default), Light to move: unknown (time limit): not decided, no result"
            in res.stdout)
    assert "search for a win of Light" in res.stdout


def test_prove_refuses_options_that_do_not_apply(tmp_path):
    res = run("prove", "thats-my-line", "--move", "3")
    assert res.exit_code == 2 and "--move and --every apply to --record" in res.stderr
    res = run("prove", "thats-my-line", "--move-limit", "3")
    assert res.exit_code == 2 and "unknown option 'move_limit'" in res.stderr
    record = tmp_path / "r.json"
    record.write_text(json.dumps({"game": "thats-my-line", "moves": ["a1", "m13"]}))
    res = run("prove", "thats-my-line", "--record", str(record), "--board", "power-of-two-sketch")
    assert res.exit_code == 2 and "--board does not apply" in res.stderr


def test_prove_every_position_of_a_record(tmp_path):
    game = get_game("thats-my-line")
    state = game.start()
    rng = random.Random(2)
    while len(game.placeable(state, 0)) + len(game.placeable(state, 1)) > 12:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    start, moves = game.state_to_json(state), []
    while game.outcome(state) is None:
        move = rng.choice(game.legal_moves(state))
        moves.append(game.format_move(move, state))
        state = game.apply(state, move)
    record = tmp_path / "r.json"
    record.write_text(json.dumps({"game": "thats-my-line", "position": start, "moves": moves}))
    res = run("prove", "thats-my-line", "--record", str(record), "--every", "--time-limit", "60", "--json")
    assert res.exit_code == 0, res.output
    answers = [json.loads(chunk) for chunk in res.stdout.replace("}\n{", "}\x00{").split("\x00")]
    assert [a["move_number"] for a in answers] == list(range(len(moves) + 1))
    assert all(a["value"] in ("won", "lost") for a in answers)
    assert answers[-1]["proof"]["leaves"] == 1


# ---------------------------------------------------------------- the committed proofs of That's My Line
PROOFS = Path(__file__).resolve().parent.parent / "results" / "proofs"


def test_the_committed_answers_are_those_of_their_certificates():
    from powertwo.solvers.prove.results_step import BOARDS, SUPPLIES, first_replies, stem

    for board in BOARDS:
        for supply in SUPPLIES:
            name = stem(board, supply)
            answer = json.loads((PROOFS / f"{name}.json").read_text())
            header = json.loads((PROOFS / f"{name}.proof").read_bytes().split(b"\n", 1)[0])
            assert header["board"] == board and header["options"] == {"stones": supply}
            assert header["value"] == answer["value"] == "lost" and header["winner"] == "dark"
            assert header["counts"] == answer["proof"] and answer["proof"]["claims"] > 0
            assert first_replies(PROOFS / f"{name}.proof") == answer["first_replies"]
            assert (PROOFS / f"{name}.proof").stat().st_size == answer["certificate_bytes"]


@pytest.mark.slow
def test_the_committed_proof_of_the_real_board_is_valid():
    report = check_certificate(PROOFS / "power-of-two-16.proof")
    assert report.valid, report.faults
    assert report.summary.startswith("Light to move loses: Dark wins That's My Line")
