"""One status vocabulary: every solve's status is a word of :mod:`powertwo.solvers.status`, and no
product module spells those words itself (it compares with the named constants)."""

from __future__ import annotations

import io
import tokenize
from pathlib import Path

from powertwo.solvers.status import ANSWERED, PROVEN, STATUSES, is_status

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("powertwo", "boards", "models", "rules", "solvers")
OWN_WORDS = {Path(f"solvers/prove/{name}.py"): {"unknown"} for name in ("values", "jobs", "split_results")}
"""Another vocabulary that shares a word: a game's proven value (won, lost, neither, unknown)."""


def test_the_vocabulary():
    assert STATUSES == ("optimal", "feasible", "infeasible", "unknown")
    assert set(ANSWERED) | set(PROVEN) < set(STATUSES)
    assert is_status("optimal") and not is_status("Optimal") and not is_status(None)


def test_no_module_spells_a_status_itself():
    words = {f'"{w}"' for w in STATUSES} | {f"'{w}'" for w in STATUSES}
    found = []
    for folder in PRODUCT:
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative == Path("solvers/status.py"):
                continue
            allowed = {f'"{w}"' for w in OWN_WORDS.get(relative, ())}
            tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
            found += [f"{relative}:{t.start[0]}: {t.string}" for t in tokens
                      if t.type == tokenize.STRING and t.string in words - allowed]
    assert not found, found
