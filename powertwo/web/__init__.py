"""The browser workbench (``powertwo serve``): a local Starlette app and its static pages."""

from .server import MAX_BODY, create_app, serve

__all__ = ["MAX_BODY", "create_app", "serve"]
