"""(being written: registers its puzzles when done)."""
