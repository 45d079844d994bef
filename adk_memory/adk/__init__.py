"""The ADK adapters: memory service, plugin, background saves, memory block, URI schemes.

They hold no memory logic of their own: everything goes through `MemoryEngine`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adk_memory.adk.plugin import MemoryPlugin
    from adk_memory.adk.registry import memory_service_factory, register_schemes
    from adk_memory.adk.service import AdkMemoryService

_EXPORTS = {
    "AdkMemoryService": "adk_memory.adk.service",
    "MemoryPlugin": "adk_memory.adk.plugin",
    "memory_service_factory": "adk_memory.adk.registry",
    "register_schemes": "adk_memory.adk.registry",
}

__all__ = [
    "AdkMemoryService",
    "MemoryPlugin",
    "memory_service_factory",
    "register_schemes",
]


def __getattr__(name: str) -> object:
    # ADK's own modules are heavy to import; they load only when an adapter is used.
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
