"""The census drawn: positions (and jump sequences) per level on a log scale (matplotlib, imported
only here)."""

from __future__ import annotations

from pathlib import Path

from powertwo.boards.outfile import atomic_path

from .counts import Census, MovesCensus


def plot_census(census: Census | MovesCensus, path: str | Path, target_name: str | None = None) -> Path:
    """Per level on a log scale: by jumps, positions, positions up to symmetry, jump sequences and
    game sequences (ending there); by moves, positions, up to symmetry and the solvable ones. The
    format follows the file's extension; ``target_name`` names the target node."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    if isinstance(census, MovesCensus):
        _moves(ax, census)
    else:
        _jumps(ax, census)
    ax.set_yscale("log")
    ax.set_ylabel("count (log scale)")
    target = "" if census.target is None else f", last stone on {target_name or census.target}"
    way = " by moves" + (" backward" if census.backward else "") if isinstance(census, MovesCensus) else ""
    ax.set_title(f"census{way} of {census.board} from {len(census.start)} stones{target}")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        with atomic_path(out) as tmp:  # an interrupted drawing leaves the old file, never a partial one
            fig.savefig(tmp, format=out.suffix[1:].lower() or None)
    finally:
        plt.close(fig)
    return out


def _jumps(ax, census: Census) -> None:
    jumps = [lv.jumps for lv in census.levels]
    ax.plot(jumps, [lv.positions for lv in census.levels], "o-", label="distinct positions")
    ax.plot(jumps, [lv.classes for lv in census.levels], "s--", label="positions up to symmetry")
    ax.plot(jumps, [lv.sequences for lv in census.levels], "^-", label="jump sequences reaching the level")
    dead = [(lv.jumps, lv.dead_sequences) for lv in census.levels if lv.dead_sequences]
    if dead:
        ax.plot(*zip(*dead, strict=True), "x:", label="game sequences ending at the level")
    if census.levels and census.levels[0].solvable_positions is not None:
        ax.plot(jumps, [lv.solvable_positions or 0 for lv in census.levels], "d-", label="solvable positions")
    ax.set_xlabel("jumps from the start")


def _moves(ax, census: MovesCensus) -> None:
    moves = [lv.moves for lv in census.levels]
    ax.plot(moves, [lv.positions for lv in census.levels], "o-", label="distinct positions")
    ax.plot(moves, [lv.classes for lv in census.levels], "s--", label="positions up to symmetry")
    if census.levels and census.levels[0].solvable_positions is not None:
        ax.plot(moves, [lv.solvable_positions or 0 for lv in census.levels], "d-", label="solvable positions")
    ax.set_xlabel("moves before the end (fewest)" if census.backward else "moves from the start (fewest)")
