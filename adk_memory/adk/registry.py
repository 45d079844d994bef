"""Registers our store URIs as ADK `--memory_service_uri` schemes.

ADK has no entry points for service schemes: `adk web` / `adk api_server` import
`<agents_dir>/services.py` (and read `services.yaml`) before loading agents. One line there
makes every `adkmem+...` URI work::

    # agents/services.py
    from adk_memory.adk import register_schemes

    register_schemes()

Then: `adk web agents --memory_service_uri=adkmem+sqlite:///./memory.db`.

A relative sqlite path (`adkmem+sqlite:///./memory.db`, `adkmem+sqlite://memory.db`) is
resolved against the current directory when ADK builds the service (not against the agents
directory), so the file is where the user started `adk` from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from google.adk.cli.service_registry import ServiceRegistry, get_service_registry

from adk_memory.adk.service import AdkMemoryService
from adk_memory.errors import ConfigError
from adk_memory.stores.uri import known_schemes, parse_store_uri


def memory_service_factory(uri: str, **_kwargs: Any) -> AdkMemoryService:
    """Builds an `AdkMemoryService` for a store URI (ADK's `factory(uri, **kwargs)`).

    The store is opened lazily on first use; the URI is validated here so a typo fails when
    `adk` starts, not on the first turn.

    Raises:
        ValueError: on a bad URI (ADK reports ValueErrors from factories as usage errors).
    """
    try:
        return AdkMemoryService(store_uri=absolute_store_uri(uri))
    except ConfigError as exc:
        raise ValueError(str(exc)) from exc


def absolute_store_uri(uri: str) -> str:
    """The URI with a relative sqlite path made absolute against the current directory."""
    parsed = parse_store_uri(uri)
    if parsed.backend != "sqlite" or Path(parsed.location).is_absolute():
        return uri
    path = (Path.cwd() / parsed.location).resolve()
    query = uri.partition("?")[2]
    return f"{uri.partition('://')[0]}://{path.as_posix()}" + (f"?{query}" if query else "")


def register_schemes(registry: ServiceRegistry | None = None) -> list[str]:
    """Registers every `adkmem+...` scheme as an ADK memory service.

    Args:
        registry: Defaults to ADK's process-wide registry.

    Returns:
        The schemes registered.
    """
    target = registry if registry is not None else get_service_registry()
    schemes = known_schemes()
    for scheme in schemes:
        target.register_memory_service(scheme, memory_service_factory)
    return schemes
