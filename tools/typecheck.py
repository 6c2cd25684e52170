"""Run mypy over the package under its installed names, each file once.

``boards/``, ``models/``, ``rules/`` and ``solvers/`` sit at the top of the repository but install as
``powertwo.boards`` and so on (``[tool.setuptools.package-dir]`` in pyproject.toml). mypy derives a
module's name from its folder, so it is handed every source file with the name it installs under,
read from that same table; the settings come from ``[tool.mypy]``. Usage: ``python tools/typecheck.py``.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path

from mypy import build
from mypy.main import process_options
from mypy.modulefinder import BuildSource

ROOT = Path(__file__).resolve().parent.parent


def package_folders(pyproject: dict) -> dict[str, Path]:
    """Installed package name -> its folder in the checkout (``powertwo`` itself included)."""
    folders = {"powertwo": ROOT / "powertwo"}
    for name, folder in pyproject["tool"]["setuptools"]["package-dir"].items():
        folders[name] = ROOT / folder
    return folders


def sources(folders: dict[str, Path]) -> list[BuildSource]:
    """Every ``.py`` file under each folder, named as it installs."""
    found: dict[Path, str] = {}
    for package, folder in folders.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found.setdefault(path.resolve(), ".".join([package, *parts]))
    return [BuildSource(str(path.relative_to(ROOT)), module) for path, module in found.items()]


def main() -> int:
    os.chdir(ROOT)
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    _, options = process_options(["--config-file", str(ROOT / "pyproject.toml"), "-c", "pass"])
    result = build.build(sources(package_folders(pyproject)), options)
    for line in result.errors:
        print(line)
    files = len(sources(package_folders(pyproject)))
    if result.errors:
        print(f"mypy: errors in the {files} source files", file=sys.stderr)
        return 1
    print(f"mypy: no issues in {files} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
