"""Storage backends behind the `MemoryStore` protocol."""

from adk_memory.stores.base import ListFilter, MemoryStore, Page, SearchHit

__all__ = ["ListFilter", "MemoryStore", "Page", "SearchHit"]
