"""Shared plumbing for every Gemini call: client construction, JSON replies, prompt payloads.

The extractor, the classifier, the summariser and the embedder all go through this module, so
there is one place that builds the client and decides what happens when a reply does not match
its schema (retried once with the validation error, then the caller falls back to the local
model). Settings come from `adk_memory.config`; retries from `adk_memory.google_api.retry`.

google-genai reads `GOOGLE_GEMINI_BASE_URL` / `GOOGLE_VERTEX_BASE_URL` itself
(`google/genai/_base_url.py`, consulted by `Client.__init__`), which is how the emulator is
reached. `build_client` checks the one that applies before the SDK sees it: credentials go
only to Google's hosts or to a loopback emulator (`adk_memory.google_api.endpoints`).
"""

from __future__ import annotations

import functools
import json
import logging
import os
import re
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import httpx
from google.genai import Client, types
from google.genai import errors as genai_errors
from pydantic import BaseModel, ValidationError

from adk_memory.config import (
    ENV_LLM,
    ENV_TRUST_BASE_URL,
    GeminiSettings,
    LlmBackend,
    llm_backend_from_env,
    trust_base_url_from_env,
)
from adk_memory.errors import ConfigError, ExtractionError
from adk_memory.extraction.base import Usage
from adk_memory.google_api.endpoints import (
    check_endpoint,
    emulator_credentials,
    gemini_credentials_configured,
    truthy,
)
from adk_memory.google_api.retry import RetryPolicy, call_with_retries, is_transient

try:
    import aiohttp

    _AIOHTTP_ERRORS: tuple[type[BaseException], ...] = (aiohttp.ClientError,)
except ImportError:  # google-genai only uses aiohttp when it is installed.
    _AIOHTTP_ERRORS = ()

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)

#: Failures of a call that mean "Gemini did not answer", as opposed to bugs in our code.
CALL_ERRORS: tuple[type[BaseException], ...] = (
    genai_errors.APIError,
    TimeoutError,
    httpx.HTTPError,
    *_AIOHTTP_ERRORS,
)

#: Marks the machine-readable part of a prompt; the emulator finds the payload by it.
PAYLOAD_FENCE = "```json"
_PAYLOAD_RE = re.compile(r"```json\s*\n(.*?)\n```", re.DOTALL)
#: Validation errors echoed back to the model are cut: the model needs the gist, not a dump.
_MAX_ERROR_ECHO = 1500


class GeminiCallError(ExtractionError):
    """A Gemini call failed after its bounded retries, or never produced a valid reply.

    `usage` holds what the failed attempts cost, so callers still account for it.
    """

    def __init__(self, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()


def build_client(*, credentials: Any = None, trust_base_url: bool | None = None) -> Client:
    """A google-genai client configured from the environment.

    Gemini API: `GOOGLE_API_KEY` or `GEMINI_API_KEY`. Vertex AI: `GOOGLE_GENAI_USE_VERTEXAI=1`
    with `GOOGLE_CLOUD_PROJECT` / `GOOGLE_CLOUD_LOCATION` and application default credentials.
    The base URL override google-genai will use (`GOOGLE_GEMINI_BASE_URL`, or
    `GOOGLE_VERTEX_BASE_URL` with Vertex AI) must name a Google API host or a loopback
    emulator, unless `trust_base_url`. When the Vertex base URL is a loopback emulator and no
    credentials are given, a static fake token is used: the emulator does not check it, and
    ADC may not exist.

    Args:
        credentials: google-auth credentials for Vertex AI (default: ADC).
        trust_base_url: Allow a base URL on any host (default: `ADK_MEMORY_TRUST_BASE_URL`).

    Raises:
        ConfigError: if no credentials are configured, a base URL override would send them
            to an untrusted host, or google-genai rejects the setup.
    """
    if not gemini_credentials_configured():
        raise ConfigError(
            "Gemini is not configured: set GOOGLE_API_KEY (or GEMINI_API_KEY), or "
            "GOOGLE_GENAI_USE_VERTEXAI=1 with GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION; "
            f"or set {ENV_LLM}=local"
        )
    vertex = truthy(os.environ.get("GOOGLE_GENAI_USE_VERTEXAI"))
    url_var = "GOOGLE_VERTEX_BASE_URL" if vertex else "GOOGLE_GEMINI_BASE_URL"
    base_url = os.environ.get(url_var) or None
    if base_url is not None:
        trusted = trust_base_url_from_env() if trust_base_url is None else trust_base_url
        check_endpoint(base_url, setting=url_var, trusted=trusted, opt_in=f"{ENV_TRUST_BASE_URL}=1")
    if vertex and credentials is None:
        credentials = emulator_credentials(base_url)
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
            response = await call_with_retries(
                call, settings.retry, what=f"Gemini {settings.model}"
            )
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


__all__ = [
    "CALL_ERRORS",
    "PAYLOAD_FENCE",
    "GeminiCallError",
    "GeminiSettings",
    "LlmBackend",
    "RetryPolicy",
    "build_client",
    "call_with_retries",
    "find_payload",
    "gemini_credentials_configured",
    "generate_json",
    "is_transient",
    "llm_backend_from_env",
    "payload_prompt",
]
