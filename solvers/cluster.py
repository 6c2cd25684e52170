"""A Dask cluster to run on, shared by the engines that spread work (the census's Dask engine, the
proof search's job runner): a ``LocalCluster`` of worker processes by default, or a running
scheduler at a given address, reached within :data:`CONNECT_SECONDS` or refused in one line."""

from __future__ import annotations

import logging
from typing import Any

CONNECT_SECONDS = 10
"""How long to wait for a scheduler given by its address."""


class ClusterError(ValueError):
    """The scheduler given cannot be reached."""


def connect(scheduler: str | None, workers: int, processes: bool = True) -> tuple[Any, Any]:
    """A client and its ``LocalCluster`` (``None`` when ``scheduler`` names a running one)."""
    from dask.distributed import Client, LocalCluster

    if scheduler:
        try:
            return Client(scheduler, timeout=CONNECT_SECONDS), None
        except (OSError, TimeoutError, ValueError) as exc:
            reason = str(exc).splitlines()[0][:120] if str(exc) else exc.__class__.__name__
            raise ClusterError(f"--scheduler {scheduler}: no Dask scheduler reached within {CONNECT_SECONDS} s "
                               f"({reason})") from None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                           dashboard_address=":0", silence_logs=logging.ERROR)
    return Client(cluster), cluster


__all__ = ["connect", "ClusterError", "CONNECT_SECONDS"]
