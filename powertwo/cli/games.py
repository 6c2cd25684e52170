"""``powertwo moves|perft|validate|play``: the referee for the games of RULES.md."""

from __future__ import annotations

from .common import main  # noqa: F401
