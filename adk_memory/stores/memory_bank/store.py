"""Opening a Memory Bank store from an `adkmem+memorybank://` URI, and its SDK client.

Two stores share one engine's memories and differ in who writes them:
- `MemoryBankStore` (`direct.py`, `?consolidation=client`, the default): the engine's
  ADD / REPLACE / NOOP decides, and each record is written with `memories.create`.
- `MemoryBankGeneratedStore` (`generated.py`, `?consolidation=server`): records go to Memory
  Bank as events (`IngestEvents`), and Memory Bank's model generates and consolidates.
"""

from __future__ import annotations

import os
from typing import Any

from adk_memory.errors import AdkMemoryError, ConfigError
from adk_memory.stores.memory_bank.api import MAX_TOP_K
from adk_memory.stores.memory_bank.direct import MemoryBankStore
from adk_memory.stores.memory_bank.generated import MemoryBankGeneratedStore
from adk_memory.stores.uri import StoreUri
from adk_memory.stores.vertex import (
    base_url_override,
    call_settings,
    emulator_credentials,
    is_loopback_url,
)

_EXPRESS_ENV = ("GOOGLE_GENAI_USE_ENTERPRISE", "GOOGLE_GENAI_USE_VERTEXAI")
#: The store class each `?consolidation=` mode selects.
STORE_CLASSES: dict[str, type[MemoryBankStore]] = {
    "client": MemoryBankStore,
    "server": MemoryBankGeneratedStore,
}


def _env_true(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes")


def build_client(project: str, location: str, params: dict[str, str] | None = None) -> Any:
    """An `agentplatform` async client for Memory Bank, configured from env and URI params.

    - `GOOGLE_VERTEX_BASE_URL` on a loopback address (the emulator): fake token credentials.
    - `?auth=apikey`, or `GOOGLE_API_KEY` with `GOOGLE_GENAI_USE_ENTERPRISE` /
      `GOOGLE_GENAI_USE_VERTEXAI` true (ADK's rule): express mode with that API key.
    - otherwise Application Default Credentials.

    Raises:
        ConfigError: when the SDK is missing or no credentials can be found.
    """
    params = params or {}
    try:
        import agentplatform
        from google.auth import exceptions as auth_exceptions
    except ImportError as exc:
        raise ConfigError(
            "the memorybank backend needs the Vertex SDK: pip install 'adk-memory[vertex]'"
        ) from exc
    base_url = base_url_override(params)
    http_options: dict[str, Any] = {"api_version": params.get("api_version", "v1beta1")}
    if base_url:
        http_options["base_url"] = base_url
    auth = params.get("auth", "auto")
    if auth not in ("auto", "adc", "apikey"):
        raise ConfigError(f"bad auth={auth!r} in memorybank URI: use adc or apikey")
    try:
        fake = emulator_credentials(base_url)
        if fake is not None:
            return agentplatform.Client(
                project=project, location=location, credentials=fake, http_options=http_options
            ).aio
        api_key = os.environ.get("GOOGLE_API_KEY")
        express = auth == "apikey" or (
            auth == "auto" and bool(api_key) and any(_env_true(n) for n in _EXPRESS_ENV)
        )
        if express:
            if not api_key:
                raise ConfigError("auth=apikey needs GOOGLE_API_KEY (a Vertex express-mode key)")
            return agentplatform.Client(api_key=api_key, http_options=http_options).aio
        return agentplatform.Client(
            project=project, location=location, http_options=http_options
        ).aio
    except auth_exceptions.DefaultCredentialsError as exc:
        raise ConfigError(
            "no Google credentials for Memory Bank: run `gcloud auth application-default "
            "login`, or use an express-mode key (GOOGLE_API_KEY with ?auth=apikey)"
        ) from exc


async def open_memory_bank_store(uri: StoreUri) -> MemoryBankStore:
    """Opens the Memory Bank store a parsed `adkmem+memorybank://` URI names.

    URI params: `consolidation=client|server` (server: `MemoryBankGeneratedStore`),
    `auth=adc|apikey`, `api_version`, `distance=cosine|euclidean`, `timeout` (seconds per
    call), `retries` (attempts), `verify=false` (skip the engine check).

    Raises:
        ConfigError: on a bad URI, missing credentials or a missing engine.
        BackendError: if the engine cannot be reached or access is denied.
    """
    segments = uri.location.split("/")
    if len(segments) != 6:
        raise ConfigError(
            f"bad memorybank URI {uri.raw!r}: expected "
            "adkmem+memorybank://projects/P/locations/L/reasoningEngines/ID"
        )
    project, location = segments[1], segments[3]
    params = dict(uri.params)
    consolidation = params.get("consolidation", "client")
    store_class = STORE_CLASSES.get(consolidation)
    if store_class is None:
        raise ConfigError(f"bad consolidation={consolidation!r}: use client or server")
    timeout, attempts = call_settings(uri)
    store = store_class(
        uri.location,
        client_factory=lambda: build_client(project, location, params),
        call_timeout=timeout,
        retry_attempts=attempts,
        distance_metric=params.get("distance", "cosine"),
    )
    if params.get("verify", "true").lower() not in ("0", "false", "no"):
        try:
            await store.verify()
        except AdkMemoryError:
            await store.close()
            raise
    return store


__all__ = [
    "MAX_TOP_K",
    "STORE_CLASSES",
    "MemoryBankGeneratedStore",
    "MemoryBankStore",
    "build_client",
    "is_loopback_url",
    "open_memory_bank_store",
]
