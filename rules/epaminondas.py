"""(being written: registers its game when done)."""
