"""What a census is asked for, declared once: the engine, the unit of a level (a jump or a move),
the direction, the limits and the folders. The command line builds one :class:`CensusOptions`
from its flags; the engines read it."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Literal, get_args

from powertwo.boards import NodeId

from .tables import CensusError

Engine = Literal["numba", "disk", "dask", "plain"]
By = Literal["jumps", "moves"]
ENGINES: tuple[str, ...] = get_args(Engine)
BY: tuple[str, ...] = get_args(By)
Progress = Callable[[str], None]
"""The one progress callback of the census: a line of text, shown or logged by the caller."""

MEMORY_SHARE = 0.6
"""The memory budget when none is given: this share of the machine's physical memory."""


def no_progress(_: str) -> None:
    return None


def machine_memory() -> int:
    """The machine's physical memory in bytes (a large number when the system does not say)."""
    try:
        return int(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return 1 << 50


def default_memory() -> int:
    return int(machine_memory() * MEMORY_SHARE)


@dataclass(frozen=True)
class CensusOptions:
    """A census's settings. ``target``: the node of the last stone (solutions, the solvable pass,
    the backward census's start); ``by``: a level per jump or per move; ``backward``: by moves,
    from the target back; ``solvable``: the positions that can still finish; ``max_levels``: stop
    after this many levels; ``store``: where the solvable sets and fewest-moves tables go;
    ``scratch``: the disk engine's folder (runs and levels, resumable); ``parquet``: the Dask
    engine's folder of levels (resumable); ``scheduler``: a running Dask scheduler; ``workers``:
    threads (numba, disk) or Dask workers; ``memory``: the budget in bytes (None: the default
    share of the machine)."""

    target: NodeId | None = None
    engine: Engine = "numba"
    by: By = "jumps"
    backward: bool = False
    solvable: bool = False
    max_levels: int | None = None
    store: str | None = None
    scratch: str | None = None
    parquet: str | None = None
    scheduler: str | None = None
    workers: int | None = None
    memory: int | None = None

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
