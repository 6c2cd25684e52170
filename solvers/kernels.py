"""Which compiled kernels (numba) a search may use now, in this process.

Each kernel is compiled on its first use and kept in numba's cache (``NUMBA_CACHE_DIR``, else
``__pycache__`` beside its source); ``powertwo warm`` (run by ``make venv``) compiles every one
ahead of use (:mod:`powertwo.solvers.warm`). By default a search uses its kernel whenever it wants
it, compiling it on the spot if it must (the command line: a user waits once, with a progress line).

A process that must never wait on a compile (a worker of the workbench) calls
:func:`use_loaded_only`: then :func:`ready` is true only for the kernels loaded in this process
(:func:`mark_loaded`, by :func:`powertwo.solvers.warm.load`), and until then every search runs
its plain Python engine and says so with :func:`not_ready_note`.

This module imports nothing of the searches, so each search can ask it without an import circle.
"""

from __future__ import annotations

KERNELS: dict[str, str] = {
    "endgame": "That's My Line's compiled endgame search",
    "jump": "Get a Jump On's compiled reverse search",
    "census": "the compiled census of jump games",
    "prove": "That's My Line's compiled proof search",
}
"""Every compiled kernel by name, with what it is in a player's words."""

_loaded: set[str] = set()
_only_loaded = False


def use_loaded_only(flag: bool = True) -> None:
    """From now on (``flag``) a kernel counts as ready only once it is loaded in this process."""
    global _only_loaded
    _only_loaded = flag


def mark_loaded(name: str) -> None:
    """The kernel ``name`` is compiled and loaded in this process: a search may use it without waiting."""
    if name not in KERNELS:
        raise ValueError(f"unknown kernel {name!r} (known: {', '.join(KERNELS)})")
    _loaded.add(name)


def ready(name: str) -> bool:
    """Whether a search may use the kernel ``name`` now (always, unless :func:`use_loaded_only`)."""
    return not _only_loaded or name in _loaded


def not_ready_note(name: str) -> str:
    """What a result says when its search ran the plain engine because the kernel was not ready."""
    return f"{KERNELS[name]} is still being compiled: the plain Python search ran instead"


__all__ = ["KERNELS", "mark_loaded", "not_ready_note", "ready", "use_loaded_only"]
