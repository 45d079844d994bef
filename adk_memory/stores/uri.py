"""Store URIs: parsing and opening.

    adkmem+sqlite:///path/memory.db          (relative: adkmem+sqlite:///./memory.db)
    adkmem+memorybank://projects/P/locations/L/reasoningEngines/ID
    adkmem+vectorsearch://projects/P/locations/L/indexEndpoints/E?index=I&deployed=D

The same strings are the `--memory_service_uri` schemes registered with ADK.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pydantic import BaseModel, Field

from adk_memory.errors import ConfigError
from adk_memory.stores.base import MemoryStore

SCHEME_PREFIX = "adkmem+"


class StoreUri(BaseModel):
    """A parsed store URI."""

    raw: str
    #: The backend name: the part of the scheme after `adkmem+` (e.g. `sqlite`).
    backend: str
    #: Backend-specific location: a file path for sqlite, a resource name for Vertex.
    location: str
    params: dict[str, str] = Field(default_factory=dict)


def parse_store_uri(uri: str) -> StoreUri:
    """Parses and validates a store URI.

    Raises:
        ConfigError: on an unknown scheme or a malformed location.
    """
    if not isinstance(uri, str) or "://" not in uri:
        raise ConfigError(f"not a store URI: {uri!r} (expected e.g. adkmem+sqlite:///memory.db)")
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    if not scheme.startswith(SCHEME_PREFIX):
        raise ConfigError(
            f"unsupported scheme {parts.scheme!r}; known: {', '.join(known_schemes())}"
        )
    backend = scheme[len(SCHEME_PREFIX) :]
    if backend not in _OPENERS:
        raise ConfigError(
            f"unsupported scheme {parts.scheme!r}; known: {', '.join(known_schemes())}"
        )
    params = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    if backend == "sqlite":
        location = _sqlite_path(uri, parts.netloc, parts.path)
    else:
        location = (parts.netloc + parts.path).strip("/")
        _validate_resource(backend, location)
    return StoreUri(raw=uri, backend=backend, location=location, params=params)


def _sqlite_path(uri: str, netloc: str, path: str) -> str:
    # `adkmem+sqlite:///abs/x.db` -> /abs/x.db; `adkmem+sqlite:///./x.db` and
    # `adkmem+sqlite://x.db` -> relative; `:memory:` is refused: memory must persist.
    if netloc and netloc not in ("localhost",):
        path = netloc + path
        return path
    if not path or path == "/":
        raise ConfigError(f"sqlite URI has no file path: {uri!r}")
    if path.startswith(("/./", "/../", "/~")):
        path = path[1:]
    return str(Path(path).expanduser())


_RESOURCE_SHAPES = {
    "memorybank": ("projects", "locations", "reasoningEngines"),
    "vectorsearch": ("projects", "locations", "indexEndpoints"),
}


def _validate_resource(backend: str, location: str) -> None:
    shape = _RESOURCE_SHAPES.get(backend)
    if shape is None:
        return
    segments = location.split("/")
    expected = "/".join(f"{name}/<{name[:-1].upper()}>" for name in shape)
    if len(segments) != 2 * len(shape) or any(
        segments[2 * i] != name or not segments[2 * i + 1] for i, name in enumerate(shape)
    ):
        raise ConfigError(f"bad {backend} URI location {location!r}: expected {expected}")


StoreOpener = Callable[[StoreUri], Awaitable[MemoryStore]]

#: backend name -> "module:function" of an async opener; imported lazily so optional
#: dependencies (the Vertex SDK) load only when their backend is used.
_OPENERS: dict[str, str] = {
    "sqlite": "adk_memory.stores.sqlite.store:open_sqlite_store",
    "memorybank": "adk_memory.stores.memory_bank.store:open_memory_bank_store",
    "vectorsearch": "adk_memory.stores.vector_search.store:open_vector_search_store",
}


def known_schemes() -> list[str]:
    return [SCHEME_PREFIX + name for name in _OPENERS]


async def open_store(uri: str | StoreUri) -> MemoryStore:
    """Opens the store a URI names.

    Raises:
        ConfigError: on a bad URI or a backend whose optional dependencies are missing.
    """
    parsed = parse_store_uri(uri) if isinstance(uri, str) else uri
    module_name, _, func_name = _OPENERS[parsed.backend].partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ConfigError(
            f"backend {parsed.backend!r} needs extra dependencies: pip install 'adk-memory[vertex]'"
        ) from exc
    opener: StoreOpener = getattr(module, func_name)
    return await opener(parsed)
