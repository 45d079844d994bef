"""Shared plumbing for every Gemini call: settings, client construction, retries, JSON replies.

The extractor, the classifier and the embedder all go through this module, so there is one
place that decides which backend is configured, how long a flaky API is retried, and what
happens when a reply does not match its schema (retried once with the validation error, then
the caller falls back to the local model).

google-genai reads `GOOGLE_GEMINI_BASE_URL` / `GOOGLE_VERTEX_BASE_URL` itself
(`google/genai/_base_url.py`, consulted by `Client.__init__`), which is how the emulator is
reached; this module does not need to handle them beyond choosing credentials for a loopback
Vertex endpoint.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import re
from collections.abc import Awaitable, Callable, Mapping
from enum import StrEnum
from typing import Any, TypeVar
from urllib.parse import urlparse

import httpx
from google.genai import Client, types
from google.genai import errors as genai_errors
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    stop_before_delay,
    wait_exponential_jitter,
)

from adk_memory.errors import ConfigError, ExtractionError
from adk_memory.extraction.base import Usage

try:
    import aiohttp

    _AIOHTTP_TRANSIENT: tuple[type[BaseException], ...] = (
        aiohttp.ClientConnectionError,
        aiohttp.ServerTimeoutError,
    )
    _AIOHTTP_ERRORS: tuple[type[BaseException], ...] = (aiohttp.ClientError,)
except ImportError:  # google-genai only uses aiohttp when it is installed.
    _AIOHTTP_TRANSIENT = ()
    _AIOHTTP_ERRORS = ()

logger = logging.getLogger(__name__)

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

#: Selects the model backend for extraction and classification: `gemini` or `local`.
LLM_ENV = "ADK_MEMORY_LLM"
ENV_PREFIX = "ADK_MEMORY_GEMINI_"

DEFAULT_MODEL = "gemini-2.5-flash"
DEFAULT_EMBEDDING_MODEL = "gemini-embedding-001"
DEFAULT_EMBEDDING_DIMENSION = 768

#: HTTP statuses worth another attempt: rate limits, timeouts and server-side failures.
TRANSIENT_STATUS = frozenset({408, 429, 500, 502, 503, 504})

#: Failures of a call that mean "Gemini did not answer", as opposed to bugs in our code.
CALL_ERRORS: tuple[type[BaseException], ...] = (
    genai_errors.APIError,
    TimeoutError,
    httpx.HTTPError,
    *_AIOHTTP_ERRORS,
)

_TRUE = frozenset({"1", "true", "yes", "on"})
_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
#: Marks the machine-readable part of a prompt; the emulator finds the payload by it.
PAYLOAD_FENCE = "```json"
_PAYLOAD_RE = re.compile(r"```json\s*\n(.*?)\n```", re.DOTALL)
#: Validation errors echoed back to the model are cut: the model needs the gist, not a dump.
_MAX_ERROR_ECHO = 1500


class LlmBackend(StrEnum):
    GEMINI = "gemini"
    LOCAL = "local"


class GeminiCallError(ExtractionError):
    """A Gemini call failed after its bounded retries, or never produced a valid reply.

    `usage` holds what the failed attempts cost, so callers still account for it.
    """

    def __init__(self, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()


class RetryPolicy(BaseModel):
    """Bounded retries with jittered exponential backoff for transient Gemini failures."""

    model_config = ConfigDict(frozen=True)

    #: Attempts per call, the first one included.
    max_attempts: int = Field(default=4, ge=1)
    #: No new attempt starts once this much time has passed since the first one.
    max_total_seconds: float = Field(default=30.0, gt=0)
    initial_backoff: float = Field(default=1.0, ge=0)
    max_backoff: float = Field(default=10.0, ge=0)
    jitter: float = Field(default=1.0, ge=0)
    #: Seconds one HTTP call may take before it counts as a (retryable) timeout.
    call_timeout: float = Field(default=60.0, gt=0)


class GeminiSettings(BaseModel):
    """Everything the Gemini code paths need besides credentials (which google-genai reads)."""

    model_config = ConfigDict(frozen=True)

    model: str = DEFAULT_MODEL
    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    embedding_dimension: int = Field(default=DEFAULT_EMBEDDING_DIMENSION, ge=1)
    #: None leaves the model's default; 0 turns thinking off on models that allow it.
    thinking_budget: int | None = None
    max_output_tokens: int | None = Field(default=None, ge=1)
    #: Facts whose best candidate is below this cosine are ADDed without asking the model.
    #: Depends on the embedder: MiniLM puts unrelated "User ..." facts around 0.15-0.3.
    classifier_min_similarity: float = Field(default=0.3, ge=-1.0, le=1.0)
    retry: RetryPolicy = Field(default_factory=RetryPolicy)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> GeminiSettings:
        """Reads `ADK_MEMORY_GEMINI_*` variables; unset ones keep their defaults.

        Raises:
            ConfigError: if a variable holds an invalid value.
        """
        source = os.environ if env is None else env

        def get(name: str) -> str | None:
            value = source.get(ENV_PREFIX + name)
            return value.strip() if value and value.strip() else None

        fields: dict[str, Any] = {
            "model": get("MODEL"),
            "embedding_model": get("EMBEDDING_MODEL"),
            "embedding_dimension": get("EMBEDDING_DIMENSION"),
            "thinking_budget": get("THINKING_BUDGET"),
            "max_output_tokens": get("MAX_OUTPUT_TOKENS"),
            "classifier_min_similarity": get("MIN_SIMILARITY"),
        }
        retry: dict[str, Any] = {
            "max_attempts": get("MAX_ATTEMPTS"),
            "max_total_seconds": get("RETRY_SECONDS"),
            "initial_backoff": get("INITIAL_BACKOFF"),
            "max_backoff": get("MAX_BACKOFF"),
            "call_timeout": get("TIMEOUT"),
        }
        try:
            return cls(
                **{k: v for k, v in fields.items() if v is not None},
                retry=RetryPolicy(**{k: v for k, v in retry.items() if v is not None}),
            )
        except ValidationError as exc:
            raise ConfigError(f"invalid {ENV_PREFIX}* setting: {exc}") from exc


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() in _TRUE


def gemini_credentials_configured(env: Mapping[str, str] | None = None) -> bool:
    """Whether the environment configures a Gemini API key or a Vertex AI project."""
    source = os.environ if env is None else env
    if _truthy(source.get("GOOGLE_GENAI_USE_VERTEXAI")):
        return bool(source.get("GOOGLE_CLOUD_PROJECT") or source.get("GOOGLE_API_KEY"))
    return bool(source.get("GOOGLE_API_KEY") or source.get("GEMINI_API_KEY"))


def llm_backend_from_env(env: Mapping[str, str] | None = None) -> LlmBackend:
    """The model backend for extraction and classification.

    `ADK_MEMORY_LLM` decides when set; otherwise Gemini when credentials are configured,
    else the offline local models.

    Raises:
        ConfigError: if `ADK_MEMORY_LLM` is neither `gemini` nor `local`.
    """
    source = os.environ if env is None else env
    choice = (source.get(LLM_ENV) or "").strip().lower()
    if not choice:
        return LlmBackend.GEMINI if gemini_credentials_configured(source) else LlmBackend.LOCAL
    try:
        return LlmBackend(choice)
    except ValueError:
        raise ConfigError(f"{LLM_ENV}={choice!r}: expected 'gemini' or 'local'") from None


def _is_loopback(url: str | None) -> bool:
    return bool(url) and urlparse(url).hostname in _LOOPBACK


def build_client(*, credentials: Any = None) -> Client:
    """A google-genai client configured from the environment.

    Gemini API: `GOOGLE_API_KEY` or `GEMINI_API_KEY`. Vertex AI: `GOOGLE_GENAI_USE_VERTEXAI=1`
    with `GOOGLE_CLOUD_PROJECT` / `GOOGLE_CLOUD_LOCATION` and application default credentials.
    When the Vertex base URL points at a loopback emulator and no credentials are given, a
    static fake token is used: the emulator does not check it, and ADC may not exist.

    Args:
        credentials: google-auth credentials for Vertex AI (default: ADC).

    Raises:
        ConfigError: if no credentials are configured or google-genai rejects the setup.
    """
    if not gemini_credentials_configured():
        raise ConfigError(
            "Gemini is not configured: set GOOGLE_API_KEY (or GEMINI_API_KEY), or "
            "GOOGLE_GENAI_USE_VERTEXAI=1 with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION; "
            f"or set {LLM_ENV}=local"
        )
    vertex = _truthy(os.environ.get("GOOGLE_GENAI_USE_VERTEXAI"))
    if vertex and credentials is None and _is_loopback(os.environ.get("GOOGLE_VERTEX_BASE_URL")):
        from google.oauth2.credentials import Credentials

        credentials = Credentials(token="emulator")  # type: ignore[no-untyped-call]
    try:
        project = os.environ.get("GOOGLE_CLOUD_PROJECT")
        if vertex and project:
            # Passed explicitly: with a custom base URL and only env project/location,
            # google-genai treats the URL as a gateway and drops the resource path.
            location = os.environ.get("GOOGLE_CLOUD_LOCATION") or "global"
            return Client(
                vertexai=True, project=project, location=location, credentials=credentials
            )
        return Client()
    except Exception as exc:  # google-auth and google-genai raise a mix of types here.
        raise ConfigError(f"cannot create the Gemini client: {exc}") from exc


def is_transient(exc: BaseException) -> bool:
    """Whether a failed call is worth retrying (rate limit, server error, timeout, network)."""
    if isinstance(exc, genai_errors.APIError):
        return exc.code in TRANSIENT_STATUS
    return isinstance(exc, (TimeoutError, httpx.TransportError, *_AIOHTTP_TRANSIENT))


def _log_retry(state: RetryCallState) -> None:
    exc = state.outcome.exception() if state.outcome else None
    wait = state.next_action.sleep if state.next_action else 0.0
    logger.info(
        "Gemini call failed (%s); attempt %d, retrying in %.2fs", exc, state.attempt_number, wait
    )


async def call_with_retries(call: Callable[[], Awaitable[T]], policy: RetryPolicy) -> T:
    """Runs `call` with a per-attempt timeout, retrying transient failures per `policy`.

    Raises:
        The last exception once attempts or total time run out, or at once if not transient.
    """

    async def attempt() -> T:
        return await asyncio.wait_for(call(), timeout=policy.call_timeout)

    retrying = AsyncRetrying(
        stop=stop_after_attempt(policy.max_attempts) | stop_before_delay(policy.max_total_seconds),
        wait=wait_exponential_jitter(
            initial=policy.initial_backoff, max=policy.max_backoff, jitter=policy.jitter
        ),
        retry=retry_if_exception(is_transient),
        before_sleep=_log_retry,
        reraise=True,
    )
    return await retrying(attempt)


def payload_prompt(instructions: str, payload: Mapping[str, Any]) -> str:
    """A user prompt: short instructions, then the data as one fenced JSON document.

    Keeping the data as JSON lets the model see exact ids and timestamps, and lets the
    emulator recover the request without parsing prose.
    """
    document = json.dumps(payload, ensure_ascii=False, indent=1)
    return f"{instructions.strip()}\n\n{PAYLOAD_FENCE}\n{document}\n```\n"


def find_payload(text: str) -> dict[str, Any] | None:
    """The first fenced JSON object in `text` that carries a `task` key, if any."""
    for match in _PAYLOAD_RE.finditer(text):
        try:
            value = json.loads(match.group(1))
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and "task" in value:
            return value
    return None


async def generate_json(
    client: Client,
    *,
    settings: GeminiSettings,
    system_instruction: str,
    prompt: str,
    schema: type[M],
    check: Callable[[M], None] | None = None,
) -> tuple[M, Usage]:
    """One structured-output call: temperature 0, JSON constrained to `schema`.

    A reply that fails validation (pydantic, or `check` raising ValueError) is retried once
    with the error appended to the conversation.

    Returns:
        The validated reply and the usage of every call made.

    Raises:
        GeminiCallError: after exhausted retries, a non-transient API error, or two invalid
            replies. Its `usage` counts the calls that did get a reply.
    """
    config = types.GenerateContentConfig(
        system_instruction=system_instruction,
        temperature=0.0,
        response_mime_type="application/json",
        response_schema=schema,
        max_output_tokens=settings.max_output_tokens,
        thinking_config=(
            None
            if settings.thinking_budget is None
            else types.ThinkingConfig(thinking_budget=settings.thinking_budget)
        ),
    )
    contents: list[types.Content] = [types.Content(role="user", parts=[types.Part(text=prompt)])]
    usage = Usage()
    problem = ""
    for round_ in range(2):
        call = functools.partial(
            client.aio.models.generate_content,
            model=settings.model,
            contents=list(contents),
            config=config,
        )
        try:
            response = await call_with_retries(call, settings.retry)
        except CALL_ERRORS as exc:
            message = f"Gemini {settings.model} call failed: {exc}"
            raise GeminiCallError(message, usage=usage) from exc
        tokens = response.usage_metadata.total_token_count if response.usage_metadata else None
        usage = usage + Usage(calls=1, tokens=tokens or 0)
        text = response.text or ""
        try:
            reply = schema.model_validate_json(text)
            if check is not None:
                check(reply)
            return reply, usage
        except (ValidationError, ValueError) as exc:
            problem = str(exc)[:_MAX_ERROR_ECHO]
        logger.warning("Gemini reply failed validation (round %d): %s", round_ + 1, problem)
        contents += [
            # An empty part is rejected by the API; the model still needs to see its turn.
            types.Content(role="model", parts=[types.Part(text=text or "(empty reply)")]),
            types.Content(
                role="user",
                parts=[
                    types.Part(
                        text="Your reply did not validate against the response schema:\n"
                        f"{problem}\nReply again with only the corrected JSON."
                    )
                ],
            ),
        ]
    raise GeminiCallError(f"Gemini replies failed validation twice: {problem}", usage=usage)
