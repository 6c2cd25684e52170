"""(being written)."""


def main() -> None:
    print("benchmark line_puzzles: not written yet")
