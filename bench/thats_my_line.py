"""(being written)."""


def main() -> None:
    print("benchmark thats_my_line: not written yet")
