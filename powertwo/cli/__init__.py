"""The ``powertwo`` command line. Only this package imports everything; nothing imports it.

Library errors (every ``ValueError`` subclass the packages raise: a bad board,
record, solution file or move) become one line on stderr and exit code 2.
A checked answer or record that is wrong is not an error of the tool: those
commands print what is wrong and exit 1.
"""

from __future__ import annotations



from .common import main

# Each module adds its commands to ``main`` when imported.
from . import board as _board  # noqa: E402,F401
from . import games as _games  # noqa: E402,F401
from . import puzzles as _puzzles  # noqa: E402,F401
from . import export as _export  # noqa: E402,F401
from . import census as _census  # noqa: E402,F401
from . import prove as _prove  # noqa: E402,F401

__all__ = ["main"]
