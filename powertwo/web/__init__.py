"""The browser workbench (``powertwo serve``): a local Starlette app and its static pages."""

from .server import MAX_BODY, create_app, serve
from .work import Limits

__all__ = ["MAX_BODY", "Limits", "create_app", "serve"]
