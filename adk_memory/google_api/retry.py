"""One retry policy and one transient-error rule for every Google API call (Gemini, Vertex).

Gemini goes through `google-genai` (httpx or aiohttp), Memory Bank through `agentplatform`
(which wraps google-genai) and Vector Search through the gapic REST clients (`requests`). All
of them answer the same HTTP statuses, so one rule decides what is worth another attempt
(408 / 429 / 5xx, timeouts, lost connections) and one policy bounds how long we keep trying:
jittered exponential backoff, a cap on attempts, a cap on total time, a per-attempt timeout.

Each retry is reported twice, so a caller can show progress ("retrying (2 of 4)") without
knowing which store or model is behind it:

- a log record on the `adk_memory.google_api.retry` logger (INFO) whose `retry_notice`
  attribute holds the `RetryNotice`;
- every listener installed with `retry_listener(callback)` for the current context (a
  `ContextVar`, so it follows `asyncio.run` and the tasks started inside it).

SDK modules, and tenacity itself, are imported on first use: importing this module needs no
Google SDK, and a command that makes no remote call (a sqlite `recall`) never loads tenacity.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    import tenacity

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: HTTP statuses worth another attempt: rate limits, timeouts and server-side failures.
TRANSIENT_STATUS = frozenset({408, 429, 500, 502, 503, 504})


def status_code(exc: BaseException) -> int | None:
    """The HTTP status of a model or API error; None for an error that carries none.

    Reads `google-genai` and `google-api-core` errors, and the integer `status_code` that
    the other model SDKs an ADK model may sit on put on theirs (LiteLLM, OpenAI, Anthropic).
    """
    from google.genai import errors as genai_errors

    if isinstance(exc, genai_errors.APIError):
        return int(exc.code)
    code = getattr(exc, "status_code", None)
    if isinstance(code, int) and not isinstance(code, bool):
        return code
    try:
        from google.api_core import exceptions as api_exceptions
    except ImportError:  # google-api-core comes with the Vertex extra only
        return None
    if isinstance(exc, api_exceptions.GoogleAPICallError) and exc.code is not None:
        return int(exc.code)
    return None


@functools.cache
def _transport_errors() -> tuple[type[BaseException], ...]:
    """Exceptions meaning "no answer arrived": the request may succeed when sent again."""
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
    except ImportError:  # google-genai uses aiohttp only when it is installed
        pass
    else:
        # Not every aiohttp.ClientError: a response error is an answer, mapped by status.
        errors += [aiohttp.ClientConnectionError, aiohttp.ServerTimeoutError]
    return tuple(errors)


def is_transient(exc: BaseException) -> bool:
    """Whether a retry may succeed: a transient HTTP status, a timeout or a lost connection."""
    code = status_code(exc)
    if code is not None:
        return code in TRANSIENT_STATUS
    return isinstance(exc, _transport_errors())


@dataclass(frozen=True, kw_only=True)
class RetryNotice:
    """One failed attempt that is about to be retried.

    Attributes:
        what: The call, e.g. `Gemini gemini-2.5-flash` or `Memory Bank`.
        attempt: The attempt that failed (1 is the first call).
        max_attempts: Attempts allowed in all (the next one is `attempt + 1` of these).
        wait_seconds: Backoff before the next attempt.
        error: The failure, as text.
    """

    what: str
    attempt: int
    max_attempts: int
    wait_seconds: float
    error: str

    @property
    def next_attempt(self) -> int:
        return self.attempt + 1

    def message(self) -> str:
        """`<what> failed (<error>); retrying (n of m) in s` for a status line or a log."""
        return (
            f"{self.what} failed ({self.error}); retrying ({self.next_attempt} of "
            f"{self.max_attempts}) in {self.wait_seconds:.1f}s"
        )


RetryListener = Callable[[RetryNotice], None]

_listeners: contextvars.ContextVar[tuple[RetryListener, ...]] = contextvars.ContextVar(
    "adk_memory_retry_listeners", default=()
)


@contextmanager
def retry_listener(listener: RetryListener) -> Iterator[None]:
    """Calls `listener` with a `RetryNotice` before each retry made inside the block.

    The listener runs on the event loop between attempts: keep it quick. An exception it
    raises is logged and ignored, never turned into a failed call.

    Example:
        with retry_listener(lambda n: console.print(n.message())):
            asyncio.run(main())
    """
    token = _listeners.set((*_listeners.get(), listener))
    try:
        yield
    finally:
        _listeners.reset(token)


def _notify(notice: RetryNotice) -> None:
    logger.info("%s", notice.message(), extra={"retry_notice": notice})
    for listener in _listeners.get():
        try:
            listener(notice)
        except Exception:  # a progress display must never fail the call it reports on
            logger.exception("retry listener %r failed", listener)


class RetryPolicy(BaseModel):
    """Bounded retries with jittered exponential backoff for transient failures.

    The backoff before attempt n+1 is `min(initial_backoff * 2**(n-1), max_backoff)` plus a
    uniform jitter in `[0, jitter)`.
    """

    model_config = ConfigDict(frozen=True)

    #: Attempts per call, the first one included.
    max_attempts: int = Field(default=4, ge=1)
    #: No new attempt starts once it would begin later than this after the first one.
    max_total_seconds: float = Field(default=30.0, gt=0)
    initial_backoff: float = Field(default=1.0, ge=0)
    max_backoff: float = Field(default=10.0, ge=0)
    jitter: float = Field(default=1.0, ge=0)
    #: Seconds one attempt may take before it counts as a (retryable) timeout.
    call_timeout: float = Field(default=60.0, gt=0)
    #: Names the calls in retry notices when the caller does not (`Memory Bank`).
    label: str = "Google API call"

    def retrying(self, *, what: str | None = None) -> tenacity.AsyncRetrying:
        """A fresh tenacity loop over transient failures; the last error is re-raised as is.

        The caller applies the per-attempt timeout (`call_with_retries` does it for you).

        Args:
            what: Names the call in retry notices and logs (default: `label`).
        """
        import tenacity

        name = what or self.label

        def before_sleep(state: tenacity.RetryCallState) -> None:
            exc = state.outcome.exception() if state.outcome else None
            _notify(
                RetryNotice(
                    what=name,
                    attempt=state.attempt_number,
                    max_attempts=self.max_attempts,
                    wait_seconds=state.next_action.sleep if state.next_action else 0.0,
                    error=f"{type(exc).__name__}: {exc}" if exc else "no result",
                )
            )

        return tenacity.AsyncRetrying(
            stop=(
                tenacity.stop_after_attempt(self.max_attempts)
                | tenacity.stop_before_delay(self.max_total_seconds)
            ),
            wait=tenacity.wait_exponential_jitter(
                initial=self.initial_backoff, max=self.max_backoff, jitter=self.jitter
            ),
            retry=tenacity.retry_if_exception(is_transient),
            before_sleep=before_sleep,
            reraise=True,
        )


async def call_with_retries(
    call: Callable[[], Awaitable[T]], policy: RetryPolicy, *, what: str | None = None
) -> T:
    """Runs `call` with the policy's per-attempt timeout, retrying transient failures.

    Args:
        call: Makes the call (a fresh awaitable per attempt).
        policy: Attempts, backoff, total time and per-attempt timeout.
        what: Names the call in retry notices and logs (default: the policy's `label`).

    Raises:
        The last exception once attempts or total time run out, or at once if not transient.
    """

    async def attempt() -> T:
        return await asyncio.wait_for(call(), timeout=policy.call_timeout)

    return await policy.retrying(what=what)(attempt)


__all__ = [
    "TRANSIENT_STATUS",
    "RetryListener",
    "RetryNotice",
    "RetryPolicy",
    "call_with_retries",
    "is_transient",
    "retry_listener",
    "status_code",
]
