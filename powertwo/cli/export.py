"""``powertwo export``: (being written)."""

from .common import main  # noqa: F401
