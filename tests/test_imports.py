"""Imports go one way: no product module imports, directly or through others, one that imports it.

Every product module's imports are read with ``ast``: those at module level and those inside
functions alike (a function-level import is still a dependency, only a later one). Relative
imports are resolved, and the folders boards/, models/, rules/ and solvers/ are read under the
names they install as (``powertwo.boards`` and so on: the ``package-dir`` table of pyproject.toml).
``from a.b import c`` is an import of the module ``a.b.c`` when there is one, else of ``a.b``; an
import of ``a.b.c`` also runs the ``__init__`` of ``a`` and ``a.b`` first, so it counts as an import
of those packages too, unless the importing module lives inside them. Imports by a computed name
(``importlib.import_module``, the registries' look-ups by name) are not read.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def product_modules(root: Path = ROOT) -> dict[str, tuple[Path, bool]]:
    """Every product module by its installed name: (its file, whether it is a package's ``__init__``)."""
    settings = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {"powertwo": root / "powertwo"}
    folders |= {name: root / folder for name, folder in settings["package-dir"].items()}
    modules: dict[str, tuple[Path, bool]] = {}
    for package, folder in folders.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            modules.setdefault(".".join([package, *parts]), (path, is_package))
    return modules


def imports_of(name: str, modules: dict[str, tuple[Path, bool]]) -> dict[str, int]:
    """The product modules that module ``name`` imports, each with the line of its first import."""
    path, is_package = modules[name]
    package = name if is_package else name.rpartition(".")[0]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            parts = target.split(".")
            for k in range(1, len(parts) + 1):  # the module, and the packages it runs on the way
                module = ".".join(parts[:k])
                on_the_way = k < len(parts) and name.startswith(module + ".")  # its own package: running already
                if module in modules and module != name and not on_the_way:
                    found[module] = min(found.get(module, node.lineno), node.lineno)
    return found


def import_graph(root: Path = ROOT) -> dict[str, dict[str, int]]:
    modules = product_modules(root)
    return {name: imports_of(name, modules) for name in modules}


def circles(graph: dict[str, dict[str, int]]) -> list[str]:
    """One shortest circle through each group of modules that import each other, as a readable
    chain: ``a (line 3) -> b (line 12) -> a``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [_chain(graph, group) for group in groups]


def _chain(graph: dict[str, dict[str, int]], group: set[str]) -> str:
    """The shortest circle from the group's first module back to it, within the group."""
    start = min(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier and start not in came_from:
        following = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w in group and w not in came_from:
                    came_from[w] = v
                    following.append(w)
        frontier = following
    path = [start]
    while path[-1] != start or len(path) == 1:
        path.append(came_from[path[-1]])
    path.reverse()
    return " -> ".join(f"{v} (line {graph[v][w]})" for v, w in zip(path, path[1:], strict=False)) + f" -> {start}"


def test_no_product_module_imports_one_that_imports_it():
    assert circles(import_graph()) == []


def test_the_graph_reads_every_kind_of_import():
    graph = import_graph()
    assert "powertwo.boards" in graph["powertwo.rules.base"]  # absolute, under the installed name
    assert "powertwo.rules.base" in graph["powertwo.rules.netzwerk"]  # relative: from .base import ...
    assert "powertwo.boards.diagram" in graph["powertwo.rules.netzwerk"]  # inside a function
    assert "powertwo.solvers.census" in graph["powertwo.web.puzzles"]  # the package of its census.tables...
    assert "powertwo.solvers" not in graph["powertwo.solvers.registry"]  # ...but not a module's own package


def test_a_circle_is_found_and_named_as_a_chain(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.setuptools.package-dir]\n"powertwo.rules" = "rules"\n')
    for folder, files in {"powertwo": {"__init__.py": "", "top.py": "from powertwo.rules import lower\n"},
                          "rules": {"__init__.py": "from . import lower\n",
                                    "lower.py": "def late():\n    from ..rules.deep import x\n",
                                    "deep.py": "import powertwo.top\n"}}.items():
        (tmp_path / folder).mkdir()
        for name, text in files.items():
            (tmp_path / folder / name).write_text(text)
    assert circles(import_graph(tmp_path)) == [
        "powertwo.rules (line 1) -> powertwo.rules.lower (line 2) -> powertwo.rules.deep (line 1) -> powertwo.top "
        "(line 1) -> powertwo.rules"]  # the last step: importing powertwo.rules.lower runs powertwo.rules first
