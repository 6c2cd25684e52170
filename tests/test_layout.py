"""The shape of the source tree: one address per module, and files and functions a reader can hold.

Product code is everything under powertwo/, boards/, models/, rules/ and solvers/ (tests, benches and
tools are not product code). The limits are the ones the house style sets: no file over 800 lines, no
function over 80 lines, and (so far in the jump family) no function over 10 parameters, 20 for a
compiled kernel.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("powertwo", "boards", "models", "rules", "solvers")
MAX_FILE_LINES = 800
MAX_FUNCTION_LINES = 80


def product_files() -> list[Path]:
    return sorted(path for folder in PRODUCT for path in (ROOT / folder).rglob("*.py"))


def test_the_tree_holds_no_links():
    links = []
    for top, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in (".git", ".venv") and not d.startswith(".")]
        links += [os.path.join(top, name) for name in dirs + files if os.path.islink(os.path.join(top, name))]
    assert links == []


def test_no_product_file_is_longer_than_the_limit():
    long_files = {}
    for path in product_files():
        lines = len(path.read_text().splitlines())
        if lines > MAX_FILE_LINES:
            long_files[str(path.relative_to(ROOT))] = lines
    assert long_files == {}


def test_no_product_function_is_longer_than_the_limit():
    long_functions = {}
    for path in product_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                name = f"{path.relative_to(ROOT)}:{node.name}"
                if lines > MAX_FUNCTION_LINES:
                    long_functions[name] = lines
    assert long_functions == {}


MAX_PARAMETERS = 10
"""Parameters of a function (``self`` and ``cls`` not counted) ..."""
MAX_KERNEL_PARAMETERS = 20
"""... and of a compiled kernel function (numba), whose tables come as named groups."""
GROUPED = ("solvers/jump",)
"""The packages held to the parameter limits so far."""


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = node.args
    names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
    return len(names) - (names[:1] in (["self"], ["cls"])) + (args.vararg is not None) + (args.kwarg is not None)


def _compiled(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any("jit" in ast.unparse(d) for d in node.decorator_list)


def test_no_function_takes_more_parameters_than_the_limit():
    """Outside compiled kernels a function takes at most 10 parameters, a compiled one at most 20:
    more is a pile no caller can read (group them: a request, a named tuple)."""
    piles = {}
    for folder in GROUPED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    most = MAX_KERNEL_PARAMETERS if _compiled(node) else MAX_PARAMETERS
                    if _parameters(node) > most:
                        piles[f"{path.relative_to(ROOT)}:{node.name}"] = _parameters(node)
    assert piles == {}


def test_every_package_folder_is_listed_for_the_wheel():
    """A wheel holds only the packages pyproject lists: a folder with an ``__init__.py`` missing
    from the list would be importable in the checkout and missing after ``pip install``."""
    import tomllib

    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {name: ROOT / folder for name, folder in settings["package-dir"].items()}
    folders["powertwo"] = ROOT / "powertwo"
    found = set()
    for name, folder in folders.items():
        for init in folder.rglob("__init__.py"):
            parts = init.parent.relative_to(folder).parts
            found.add(".".join((name, *parts)))
    assert sorted(found - set(settings["packages"])) == []
