"""``python -m bench``: run every benchmark module and print its table."""

from importlib import import_module

# Each benchmark module has ``main()`` that prints a table.
BENCHMARKS: tuple[str, ...] = (
    "perft", "line_puzzles", "thats_my_line", "jump", "web", "census", "opponent",
)

if __name__ == "__main__":
    import sys

    wanted = sys.argv[1:]
    for name in BENCHMARKS:
        if not wanted or name in wanted:
            import_module(f"bench.{name}").main()
