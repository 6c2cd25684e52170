"""``python -m bench [NAME ...]``: run benchmark modules and print their tables.

Without a name every benchmark in :data:`BENCHMARKS` runs; the opponent matches take hours at the
page's thinking time, and the fuzz run of 5,000 mutations about an hour, so they run only when named
(``python -m bench opponent --games 10``, ``python -m bench fuzz --mutations 5000``; options
after the name go to that benchmark).
"""

import sys
from importlib import import_module

# Each benchmark module has ``main()`` that prints a table.
BENCHMARKS: tuple[str, ...] = ("perft", "line_puzzles", "thats_my_line", "jump", "web", "census", "prove")
ON_REQUEST: tuple[str, ...] = ("opponent", "fuzz")

if __name__ == "__main__":
    args = sys.argv[1:]
    first_option = next((i for i, arg in enumerate(args) if arg.startswith("-")), len(args))
    names, options = args[:first_option] or list(BENCHMARKS), args[first_option:]
    unknown = [name for name in names if name not in BENCHMARKS + ON_REQUEST]
    if unknown:
        sys.exit(f"bench: no benchmark {unknown[0]!r} (one of {', '.join(BENCHMARKS + ON_REQUEST)})")
    for name in names:
        sys.argv = [f"bench {name}", *options]
        import_module(f"bench.{name}").main()
