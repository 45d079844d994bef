"""How the Vertex stores call Google's HTTP APIs: error mapping, URI settings, the emulator.

Memory Bank goes through `google-genai` (httpx / aiohttp), Vector Search through the gapic
REST clients (`requests`). Both use the one retry policy and transient-error rule of
`adk_memory.google_api.retry` and the one endpoint check of `adk_memory.google_api.endpoints`
(re-exported here for the stores); this module adds what is specific to a store URI: its
`base_url` / `trust_base_url` / `timeout` / `retries` parameters, and turning whatever fails
for good into a `BackendError` or a `ConfigError` that names the fix.
SDK modules are imported on first use, so importing this one needs no Vertex SDK.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from adk_memory.config import ENV_TRUST_BASE_URL, trust_base_url_from_env
from adk_memory.errors import AdkMemoryError, BackendError, ConfigError
from adk_memory.google_api.endpoints import (
    check_endpoint,
    emulator_credentials,
    is_loopback_url,
)
from adk_memory.google_api.retry import TRANSIENT_STATUS, RetryPolicy, is_transient, status_code

if TYPE_CHECKING:
    from adk_memory.stores.uri import StoreUri

#: The store URI parameter that lets `base_url` name a host that is not Google's.
TRUST_PARAM = "trust_base_url"
_FLAGS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


def backend_error(
    exc: BaseException, what: str, *, service: str, resource: str, not_found: str
) -> AdkMemoryError:
    """Our error for a call that failed for good.

    Args:
        exc: The last exception of the call.
        what: The call, for the message (`search`, `upsertDatapoints`).
        service: The product name the message starts with (`Memory Bank`).
        resource: The resource the call was made on.
        not_found: What a 404 means and how to fix it; the SDK's detail is appended.
    """
    code = status_code(exc)
    detail = getattr(exc, "message", None) or str(exc) or type(exc).__name__
    if code == 403:
        return BackendError(
            f"{service} denied {what} on {resource} (403 PERMISSION_DENIED): the "
            f"caller needs roles/aiplatform.user on the project. {detail}"
        )
    if code == 401:
        return BackendError(f"{service} rejected the credentials for {what}: {detail}")
    if code == 404:
        return ConfigError(f"{not_found} {detail}")
    if code is not None and 400 <= code < 500 and code not in TRANSIENT_STATUS:
        return BackendError(f"{service} rejected {what} ({code}): {detail}")
    return BackendError(
        f"{service} {what} failed on {resource} after retries: {type(exc).__name__}: {detail}"
    )


def base_url_override(params: Mapping[str, str]) -> str | None:
    """The host that replaces Google's: `GOOGLE_VERTEX_BASE_URL`, else `?base_url=`.

    The override receives the caller's credentials (ADC token or API key), so it must name
    a Google API host or a loopback emulator, unless the URI has `?trust_base_url=1` or
    `ADK_MEMORY_TRUST_BASE_URL=1` is set.

    Raises:
        ConfigError: on an untrusted or malformed override, or a bad `trust_base_url`.
    """
    env_url = os.environ.get("GOOGLE_VERTEX_BASE_URL") or None
    url = env_url or params.get("base_url") or None
    if url is None:
        return None
    return check_endpoint(
        url,
        setting="GOOGLE_VERTEX_BASE_URL" if env_url else "base_url",
        trusted=uri_flag(params, TRUST_PARAM) or trust_base_url_from_env(),
        opt_in=f"?{TRUST_PARAM}=1 on the store URI (or {ENV_TRUST_BASE_URL}=1)",
    )


def uri_flag(params: Mapping[str, str], name: str, *, default: bool = False) -> bool:
    """A boolean store URI parameter (`1/true/yes`, `0/false/no`).

    Raises:
        ConfigError: on any other value.
    """
    raw = params.get(name)
    if raw is None:
        return default
    try:
        return _FLAGS[raw.strip().lower()]
    except KeyError:
        raise ConfigError(
            f"bad {name}={raw!r} in the store URI: use 1/true/yes or 0/false/no"
        ) from None


def call_settings(uri: StoreUri) -> tuple[float, int]:
    """(seconds per call, attempts per call) from a store URI's `timeout` and `retries`.

    Raises:
        ConfigError: if either is not a positive number.
    """
    retries = uri.params.get("retries", "5")
    if not retries.isdigit() or int(retries) < 1:
        raise ConfigError(f"bad retries={retries!r} in {uri.backend} URI: expected a count >= 1")
    raw = uri.params.get("timeout")
    if raw is None:
        return 10.0, int(retries)
    try:
        timeout = float(raw)
    except ValueError as exc:
        raise ConfigError(f"bad timeout={raw!r} in {uri.backend} URI: expected a number") from exc
    if timeout <= 0:
        raise ConfigError(f"bad timeout={raw!r} in {uri.backend} URI: must be positive")
    return timeout, int(retries)


__all__ = [
    "TRUST_PARAM",
    "RetryPolicy",
    "backend_error",
    "base_url_override",
    "call_settings",
    "check_endpoint",
    "emulator_credentials",
    "is_loopback_url",
    "is_transient",
    "status_code",
    "uri_flag",
]
