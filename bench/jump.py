"""(being written)."""


def main() -> None:
    print("benchmark jump: not written yet")
