"""One node reader: every node given as text or JSON (a move, a position or answer file, an option,
a request field) is read by :func:`powertwo.boards.read_node`; the readers of the layers above
only word its :class:`NodeError` as their own error."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from powertwo.boards import NodeError, load, read_node

ROOT = Path(__file__).resolve().parent.parent
BOARD = load("power-of-two")


@pytest.mark.parametrize("value, node", [(60, 60), ("60", 60), (" 60 ", 60), ("a13", 60), (" a13", 60), (1, 1)])
def test_a_node_is_read_by_label_or_id(value, node):
    assert read_node(BOARD, value, "here") == node
    assert BOARD.node(value) == node


@pytest.mark.parametrize("value, message", [
    (0, "here: node 0 does not exist on board power-of-two"),
    (65, "here: node 65 does not exist on board power-of-two"),
    ("n1", "here: node n1 does not exist on board power-of-two"),
    ("060", "here: node 060 does not exist on board power-of-two"),
    ("9" * 5000, f"here: node {'9' * 5000} does not exist on board power-of-two"),
])
def test_an_unknown_node_names_the_board(value, message):
    with pytest.raises(NodeError) as err:
        read_node(BOARD, value, "here")
    assert str(err.value) == message and not err.value.malformed and err.value.shown == str(value)[:40]


@pytest.mark.parametrize("value", [True, None, 1.0, [1], {"a": 1}])
def test_what_is_no_id_or_label_is_malformed(value):
    with pytest.raises(NodeError) as err:
        read_node(BOARD, value, "here")
    assert err.value.malformed and str(err.value) == f"here: {value!r} is not a node"


def test_without_where_the_message_is_the_board_s():
    with pytest.raises(NodeError, match="^node z9 does not exist on board power-of-two$"):
        read_node(BOARD, "z9", "")


READERS = ("node_from_json", "node_from_text", "node_in", "option_node", "node_ids", "node_field", "clicks_of",
           "node_argument", "custom_start", "census_options", "_landings", "_resolve_starts")


def test_every_node_reader_goes_through_read_node():
    """Every reader of a node (a board file's starts, and the readers above boards/) calls
    read_node (or one of these readers that does) and none calls ``Board.node``."""
    found: dict[str, list[set[str]]] = {}
    for folder in ("boards", "rules", "solvers", "powertwo"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.FunctionDef) and node.name in READERS:
                    calls = {c.func.id if isinstance(c.func, ast.Name) else getattr(c.func, "attr", "")
                             for c in ast.walk(node) if isinstance(c, ast.Call)}
                    found.setdefault(node.name, []).append(calls)
    assert set(found) == set(READERS)
    for name, each in found.items():
        for calls in each:
            assert "node" not in calls, name
            assert calls & {"read_node", *READERS}, name


def test_a_board_file_s_starts_are_read_by_the_same_reader():
    from powertwo.boards import BoardError, from_dict, to_dict

    raw = dict(to_dict(BOARD), starts={"mine": {"light": ["a13", 1, "2"]}})
    assert dict(from_dict(raw).starts)["mine"] == (("light", (60, 1, 2)),)
    with pytest.raises(BoardError, match=r"^board: start 'mine' side 'light': node 'n1' does not exist$"):
        from_dict(dict(raw, starts={"mine": {"light": ["n1"]}}))
