"""The move validator: one shared interface (:mod:`powertwo.rules.base`), one module per game.

Rule modules know nothing of solvers, models or drawing; they return data.
"""

from importlib import import_module

from .base import (
    REGISTRY, AnyGame, ClickOptions, Game, IllegalMoveError, InvalidMoveError, Option, Outcome, RecordError,
    RecordResult, RulesError, game_names, get_game, parse_record, register, validate_record,
)

# Every game module, in the order of RULES.md. Importing one registers its game.
GAME_MODULES: tuple[str, ...] = (
    "power_of_two", "david_goliath", "thats_my_line", "tower_of_power", "netzwerk", "epaminondas",
)

for _name in GAME_MODULES:
    import_module(f"{__name__}.{_name}")

__all__ = [
    "REGISTRY", "AnyGame", "ClickOptions", "Game", "IllegalMoveError", "InvalidMoveError", "Option", "Outcome",
    "RecordError", "RecordResult", "RulesError", "game_names", "get_game", "parse_record", "register",
    "validate_record", "GAME_MODULES",
]
