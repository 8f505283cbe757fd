"""The store's error, in a module of its own: ``load``'s worker processes
raise and pass it without importing DuckDB."""

from __future__ import annotations

__all__ = ["StoreError"]


class StoreError(Exception):
    """A database that cannot be opened or used: one clear message for the user."""
