"""(being written)."""


def main() -> None:
    print("benchmark perft: not written yet")
