"""What a census is asked for, declared once: the engine, the unit of a level (a jump or a move),
the direction, the limits and the folders. The command line makes its flags from the fields of
:class:`CensusOptions` (their help and kind) and builds one from them; the engines read it."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from powertwo.boards import NodeId

from ..progress import Progress as Progress, no_progress as no_progress  # the one progress callback
from .tables import CensusError

Engine = Literal["numba", "disk", "dask", "plain"]
By = Literal["jumps", "moves"]
ENGINES: tuple[str, ...] = get_args(Engine)
BY: tuple[str, ...] = get_args(By)

MEMORY_SHARE = 0.6
"""The memory budget when none is given: this share of the machine's physical memory."""


def machine_memory() -> int:
    """The machine's physical memory in bytes (a large number when the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 1 << 50


def default_memory() -> int:
    return int(machine_memory() * MEMORY_SHARE)


def option(default: Any, help: str, kind: str, choices: tuple[str, ...] = ()) -> Any:
    """A census option, declared once: the command line's flag (``--max-levels`` for
    ``max_levels``), its kind (``node``, ``choice``, ``flag``, ``count``, ``folder``, ``text``,
    ``workers``, ``memory``) and help come from here."""
    return field(default=default, metadata={"help": help, "kind": kind, "choices": choices})


@dataclass(frozen=True)
class CensusOptions:
    """A census's settings (each field's help says what it does; the command line's flags are made
    from them)."""

    target: NodeId | None = option(None, "Count solutions to one stone on this node (label or id).", "node")
    by: By = option("jumps", "A level per jump (sequences counted), or per move: a chain of jumps by one stone "
                             "(the fewest moves to every position).", "choice", BY)
    backward: bool = option(False, "--by moves: from one stone on --target back (default the central game's "
                                   "centre; every one-stone position on a board without a central start).", "flag")
    engine: Engine = option("numba", "numba: in memory, every core; disk: out of core (sorted runs merged on disk); "
                                     "dask: a cluster; plain: the slow referee.", "choice", ENGINES)
    memory: int | None = option(None, f"Memory budget, e.g. 2GiB (default: {MEMORY_SHARE:.0%} of this machine's "
                                      "memory). The numba engine stops before a level that would pass it (the levels "
                                      "so far are kept); the disk engine stays within it.", "memory")
    workers: int | None = option(None, "Threads (numba, disk; default every core) or dask workers (default 2).",
                                 "workers")
    scratch: str | None = option(None, "disk: keep the levels and runs in this folder; a later run resumes from it "
                                       "(default: a temporary folder, removed at the end).", "folder")
    scheduler: str | None = option(None, "dask: address of a running scheduler (default: a LocalCluster).", "text")
    parquet: str | None = option(None, "dask: write every level to this folder as Parquet; a later run resumes "
                                       "from it.", "folder")
    solvable: bool = option(False, "Count the positions that can still reach one stone (on the target).", "flag")
    store: str | None = option(None, "Where --solvable keeps its set and --by moves its fewest-moves table "
                                     "(default ~/.cache/powertwo/census, or $POWERTWO_CENSUS).", "folder")
    max_levels: int | None = option(None, "Stop after this many levels.", "count")

    @property
    def budget(self) -> int:
        return default_memory() if self.memory is None else self.memory

    def check(self) -> None:
        """A :class:`CensusError` naming the first option that does not go with the others."""
        if self.engine not in ENGINES:
            raise CensusError(f"--engine {self.engine}: use one of {', '.join(ENGINES)}")
        if self.by not in BY:
            raise CensusError(f"--by {self.by}: use one of {', '.join(BY)}")
        wrong = [("--parquet", self.parquet, "dask", "only the dask engine writes Parquet levels"),
                 ("--scheduler", self.scheduler, "dask", "only the dask engine runs on a cluster"),
                 ("--scratch", self.scratch, "disk", "only the disk engine keeps its levels in a folder")]
        for flag, value, engine, why in wrong:
            if value and self.engine != engine:
                raise CensusError(f"{flag}: {why}, not {self.engine}")
        if self.solvable and self.engine != "numba":
            raise CensusError(f"--solvable: the backward pass runs on the numba engine, not {self.engine}")
        if self.backward and self.by != "moves":
            raise CensusError("--backward: only a census by moves runs backward (use --by moves)")
        if self.by == "moves" and self.engine not in ("numba", "plain"):
            raise CensusError(f"--by moves: counted by the numba and plain engines, not {self.engine}")
        if self.memory is not None and self.memory <= 0:
            raise CensusError(f"--memory {self.memory}: must be a positive number of bytes")
