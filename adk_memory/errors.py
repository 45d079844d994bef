"""The error hierarchy every adk-memory failure is raised as.

The root is `AdkMemoryError`, not `MemoryError`: shadowing the builtin out-of-memory
exception would make `except MemoryError` in user code silently catch the wrong thing.
"""

from __future__ import annotations


class AdkMemoryError(Exception):
    """Base class of every error adk-memory raises."""


class ConfigError(AdkMemoryError):
    """Bad configuration: an unknown URI scheme, a missing setting, an invalid value."""


class InvalidInputError(AdkMemoryError, ValueError):
    """Input that cannot be stored: empty or binary text, a bad timestamp, a malformed event."""


class NotFoundError(AdkMemoryError, KeyError):
    """A memory id that does not exist (or not in the caller's scope)."""

    def __str__(self) -> str:
        # KeyError quotes its argument; a message reads better unquoted.
        return str(self.args[0]) if self.args else "not found"


class BackendError(AdkMemoryError):
    """A storage backend failed (after its bounded retries)."""


class ExtractionError(AdkMemoryError):
    """Fact extraction or classification failed and no fallback could run."""
