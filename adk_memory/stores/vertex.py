"""How the Vertex stores call Google's HTTP APIs: retries, error mapping, the emulator.

Memory Bank goes through `google-genai` (httpx / aiohttp), Vector Search through the gapic
REST clients (`requests`); both answer the same HTTP codes, so one policy serves both:
408/429/5xx and connection failures are retried with bounded, jittered exponential backoff,
and whatever fails for good becomes a `BackendError` or a `ConfigError` that names the fix.
SDK modules are imported on first use, so importing this one needs no Vertex SDK.
"""

from __future__ import annotations

import functools
import ipaddress
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import tenacity

from adk_memory.errors import AdkMemoryError, BackendError, ConfigError

if TYPE_CHECKING:
    from google.oauth2.credentials import Credentials

    from adk_memory.stores.uri import StoreUri

TRANSIENT_CODES = frozenset({408, 429, 500, 502, 503, 504})


def status_code(exc: BaseException) -> int | None:
    """The HTTP status of a `google-genai` or `google-api-core` error; None for any other."""
    from google.api_core import exceptions as api_exceptions
    from google.genai import errors as genai_errors

    if isinstance(exc, genai_errors.APIError):
        return int(exc.code)
    if isinstance(exc, api_exceptions.GoogleAPICallError) and exc.code is not None:
        return int(exc.code)
    return None


@functools.cache
def _transport_errors() -> tuple[type[BaseException], ...]:
    import httpx
    import requests

    errors: list[type[BaseException]] = [
        TimeoutError,
        ConnectionError,
        httpx.TransportError,
        requests.ConnectionError,
        requests.Timeout,
    ]
    try:
        import aiohttp

        errors.append(aiohttp.ClientError)
    except ImportError:  # pragma: no cover - aiohttp ships with the SDK's async extra
        pass
    return tuple(errors)


def is_transient(exc: BaseException) -> bool:
    """Whether a retry may succeed: a transient HTTP status, a timeout or a lost connection."""
    code = status_code(exc)
    if code is not None:
        return code in TRANSIENT_CODES
    return isinstance(exc, _transport_errors())


@dataclass(frozen=True, kw_only=True)
class RetryPolicy:
    """Bounded retries of transient failures.

    Args:
        attempts: Attempts per call, the first included.
        initial: First backoff in seconds (then doubling, jittered, up to `maximum`).
        maximum: Largest backoff in seconds.
        deadline: Seconds after which a call stops retrying.
    """

    attempts: int
    initial: float
    maximum: float
    deadline: float

    def retrying(self) -> tenacity.AsyncRetrying:
        """A fresh tenacity loop; the last error is re-raised as is."""
        return tenacity.AsyncRetrying(
            stop=(
                tenacity.stop_after_attempt(max(1, self.attempts))
                | tenacity.stop_after_delay(self.deadline)
            ),
            wait=tenacity.wait_exponential_jitter(
                initial=self.initial, max=self.maximum, jitter=self.initial
            ),
            retry=tenacity.retry_if_exception(is_transient),
            reraise=True,
        )


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
    if code is not None and 400 <= code < 500 and code not in TRANSIENT_CODES:
        return BackendError(f"{service} rejected {what} ({code}): {detail}")
    return BackendError(
        f"{service} {what} failed on {resource} after retries: {type(exc).__name__}: {detail}"
    )


def base_url_override(params: dict[str, str]) -> str | None:
    """The host that replaces Google's: `GOOGLE_VERTEX_BASE_URL`, else `?base_url=`."""
    return os.environ.get("GOOGLE_VERTEX_BASE_URL") or params.get("base_url") or None


def is_loopback_url(url: str) -> bool:
    """Whether a base URL points at this machine (127.0.0.0/8, ::1, localhost)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def emulator_credentials(base_url: str | None) -> Credentials | None:
    """Fake token credentials when `base_url` is on a loopback address (the emulator)."""
    if not (base_url and is_loopback_url(base_url)):
        return None
    from google.oauth2.credentials import Credentials

    # The emulator checks no token; the SDK only needs one to send.
    return Credentials(token="fake")  # type: ignore[no-untyped-call]


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
