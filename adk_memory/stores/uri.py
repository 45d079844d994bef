"""Store URIs: parsing, validation and opening.

    adkmem+sqlite:///path/memory.db          (relative: adkmem+sqlite:///./memory.db)
    adkmem+memorybank://projects/P/locations/L/reasoningEngines/ID
    adkmem+vectorsearch://projects/P/locations/L/indexEndpoints/E?index=I&deployed=D

The same strings are the `--memory_service_uri` schemes registered with ADK.

Rules (each a `ConfigError` that says what to write instead):
- every query parameter must be one the backend reads (`KNOWN_PARAMS`), given once: a
  parameter that would be silently ignored (`?mode=ro`, a typo) is refused;
- no `#fragment`: it would silently cut the path or the query;
- sqlite: a file path, not `:memory:` (memory must persist across processes and restarts);
  no NUL or control characters;
- Vertex resource names: exactly `projects/P/locations/L/<collection>/ID` with non-empty
  segments: a project of letters, digits and `-_.:` (no `..`), a location of lowercase
  letters, digits and `-`, an id of letters, digits, `-` and `_`. The location becomes part
  of a Google hostname and the id part of a request path, so nothing in them may steer where
  a request (and its credentials) goes or which method it calls.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from pydantic import BaseModel, Field

from adk_memory.errors import ConfigError
from adk_memory.stores.base import MemoryStore

SCHEME_PREFIX = "adkmem+"

_VERTEX_COMMON = frozenset({"timeout", "retries", "base_url", "trust_base_url", "verify"})
#: The query parameters each backend reads; anything else is refused.
KNOWN_PARAMS: dict[str, frozenset[str]] = {
    "sqlite": frozenset(),
    "memorybank": _VERTEX_COMMON | {"consolidation", "auth", "api_version", "distance"},
    "vectorsearch": _VERTEX_COMMON | {"index", "deployed", "docs", "match_host"},
}

_RESOURCE_SHAPES = {
    "memorybank": ("projects", "locations", "reasoningEngines"),
    "vectorsearch": ("projects", "locations", "indexEndpoints"),
}
# Project ids may carry a legacy domain (`example.com:proj`); resource ids are digits or
# names. A ':' elsewhere would read as a custom method (`ID:delete`) in the request path.
_PROJECT = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_.:-]*[A-Za-z0-9_])?")
_LOCATION = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")
_ID = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9_])?")
_SEGMENT_RULES = {
    "projects": (_PROJECT, "letters, digits and '-_.:' (no '..')"),
    "locations": (_LOCATION, "lowercase letters, digits and '-'"),
}
_ID_RULE = (_ID, "letters, digits, '-' and '_'")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


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
        ConfigError: on an unknown scheme, an unknown or repeated query parameter, a
            fragment, or a malformed location.
    """
    if not isinstance(uri, str) or "://" not in uri:
        raise ConfigError(f"not a store URI: {uri!r} (expected e.g. adkmem+sqlite:///memory.db)")
    if _CONTROL.search(uri):
        raise ConfigError(f"store URI {uri!r} holds a control character")
    if "#" in uri:
        raise ConfigError(
            f"store URI {uri!r} has a #fragment: store URIs take none (a '#' would cut the "
            "path or the query)"
        )
    parts = urlsplit(uri)
    scheme = parts.scheme.lower()
    backend = scheme[len(SCHEME_PREFIX) :] if scheme.startswith(SCHEME_PREFIX) else ""
    if backend not in _OPENERS:
        raise ConfigError(
            f"unsupported scheme {parts.scheme!r}; known: {', '.join(known_schemes())}"
        )
    params = _params(backend, parts.query)
    if backend == "sqlite":
        location = _sqlite_path(uri, parts.netloc, parts.path)
    else:
        location = _resource_name(backend, parts.netloc, parts.path)
    return StoreUri(raw=uri, backend=backend, location=location, params=params)


def _params(backend: str, query: str) -> dict[str, str]:
    """The query as a dict, refusing malformed, repeated and unknown parameters."""
    if not query:
        return {}
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=True)
    except ValueError as exc:
        raise ConfigError(f"malformed query {query!r} in {SCHEME_PREFIX}{backend} URI") from exc
    known = KNOWN_PARAMS[backend]
    params: dict[str, str] = {}
    for name, value in pairs:
        if name not in known:
            accepted = ", ".join(sorted(known)) if known else "none"
            raise ConfigError(
                f"unknown parameter {name!r} in {SCHEME_PREFIX}{backend} URI; "
                f"known parameters: {accepted}"
            )
        if name in params:
            raise ConfigError(f"parameter {name!r} given twice in {SCHEME_PREFIX}{backend} URI")
        params[name] = value
    return params


def _sqlite_path(uri: str, netloc: str, path: str) -> str:
    # `adkmem+sqlite:///abs/x.db` -> /abs/x.db; `adkmem+sqlite:///./x.db` and
    # `adkmem+sqlite://x.db` -> relative.
    if netloc and netloc != "localhost":
        path = netloc + path
    elif not path or path == "/":
        raise ConfigError(f"sqlite URI has no file path: {uri!r}")
    elif path.startswith(("/./", "/../", "/~")):
        path = path[1:]
    if path.strip("/") == ":memory:":
        # sqlite would either make an in-memory database (gone when the process exits) or,
        # after our path handling, a file literally named ":memory:" at the root.
        raise ConfigError(
            f"{uri!r}: in-memory SQLite is not supported, memory must persist across "
            "processes and restarts; name a file (adkmem+sqlite:///./memory.db, or a "
            "temporary directory in tests)"
        )
    return str(Path(path).expanduser())


def _resource_name(backend: str, netloc: str, path: str) -> str:
    shape = _RESOURCE_SHAPES[backend]
    expected = "/".join(f"{name}/<{name[:-1].upper()}>" for name in shape)
    # `adkmem+memorybank://projects/...` puts "projects" in the netloc; the triple-slash
    # form `adkmem+memorybank:///projects/...` leaves the netloc empty.
    location = netloc + path if netloc else path.removeprefix("/")
    segments = location.split("/")

    def bad(why: str) -> ConfigError:
        return ConfigError(f"bad {backend} URI location {location!r}: {why}; expected {expected}")

    if len(segments) != 2 * len(shape):
        raise bad(f"{len(segments)} path segments instead of {2 * len(shape)}")
    for i, name in enumerate(shape):
        if segments[2 * i] != name:
            raise bad(f"segment {2 * i + 1} is {segments[2 * i]!r}, not {name!r}")
        value = segments[2 * i + 1]
        if not value:
            raise bad(f"empty {name[:-1]} id")
        pattern, allowed = _SEGMENT_RULES.get(name, _ID_RULE)
        if ".." in value or not pattern.fullmatch(value):
            raise bad(f"{name[:-1]} id {value!r} may only hold {allowed}")
    return location


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
