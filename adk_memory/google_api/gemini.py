"""Shared plumbing for every Gemini call: client construction, JSON replies, prompt payloads.

The extractor, the classifier, the summariser and the embedder all go through this module, so
there is one place that builds the client. `GeminiStructuredModel` is the google-genai
`adk_memory.llm.base.StructuredModel`; what happens when a reply does not match its schema
(retried once with the validation error, then the caller falls back to the local model) is
decided by the loop it shares with every other model (`adk_memory.llm.base.generate_validated`).
Settings come from `adk_memory.config`; retries from `adk_memory.google_api.retry`.

google-genai reads `GOOGLE_GEMINI_BASE_URL` / `GOOGLE_VERTEX_BASE_URL` itself
(`google/genai/_base_url.py`, consulted by `Client.__init__`), which is how the emulator is
reached. `build_client` checks the one that applies before the SDK sees it: credentials go
only to Google's hosts or to a loopback emulator (`adk_memory.google_api.endpoints`).
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import httpx
from google.genai import Client, types
from google.genai import errors as genai_errors
from pydantic import BaseModel

from adk_memory.config import (
    ENV_LLM,
    ENV_TRUST_BASE_URL,
    GeminiSettings,
    LlmBackend,
    llm_backend_from_env,
    trust_base_url_from_env,
)
from adk_memory.errors import ConfigError
from adk_memory.extraction.base import Usage
from adk_memory.google_api.endpoints import (
    check_endpoint,
    emulator_credentials,
    gemini_credentials_configured,
    truthy,
)
from adk_memory.google_api.retry import RetryPolicy, call_with_retries, is_transient
from adk_memory.llm.adk import as_structured_model
from adk_memory.llm.base import (
    ModelCallError,
    ModelReply,
    StructuredModel,
    Turn,
    generate_validated,
)

try:
    import aiohttp

    _AIOHTTP_ERRORS: tuple[type[BaseException], ...] = (aiohttp.ClientError,)
except ImportError:  # google-genai only uses aiohttp when it is installed.
    _AIOHTTP_ERRORS = ()

if TYPE_CHECKING:
    from google.adk.models.base_llm import BaseLlm

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


class GeminiCallError(ModelCallError):
    """A Gemini call failed after its bounded retries, or never produced a valid reply.

    `usage` holds what the failed attempts cost, so callers still account for it.
    """


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
    base_url = check_base_url(trust_base_url=trust_base_url)
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


def check_base_url(*, trust_base_url: bool | None = None) -> str | None:
    """The base URL override google-genai will use (`GOOGLE_GEMINI_BASE_URL`, or
    `GOOGLE_VERTEX_BASE_URL` with Vertex AI), once checked; None when there is none.

    Args:
        trust_base_url: Allow any host (default: `ADK_MEMORY_TRUST_BASE_URL`).

    Raises:
        ConfigError: if the URL would send credentials to a host that is neither Google's
            nor loopback, and it is not trusted.
    """
    vertex = truthy(os.environ.get("GOOGLE_GENAI_USE_VERTEXAI"))
    url_var = "GOOGLE_VERTEX_BASE_URL" if vertex else "GOOGLE_GEMINI_BASE_URL"
    base_url = os.environ.get(url_var) or None
    if base_url is not None:
        trusted = trust_base_url_from_env() if trust_base_url is None else trust_base_url
        check_endpoint(base_url, setting=url_var, trusted=trusted, opt_in=f"{ENV_TRUST_BASE_URL}=1")
    return base_url


def check_adk_gemini(llm: BaseLlm, *, trust_base_url: bool | None = None) -> None:
    """Applies `build_client`'s rule for credentials to ADK's own `Gemini` model, which
    builds its google-genai client itself: a base URL from the environment must name a
    Google API host or loopback unless trusted. A `base_url` set on the model in code is
    the caller's explicit choice and is left alone.

    Raises:
        ConfigError: as `check_base_url`.
    """
    from google.adk.models.google_llm import Gemini

    if isinstance(llm, Gemini) and llm.base_url is None:
        check_base_url(trust_base_url=trust_base_url)


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


class GeminiStructuredModel:
    """`StructuredModel` on the google-genai client: Gemini's structured output
    (`response_schema`) at temperature 0, with the settings' retries and token limits.

    Args:
        client: A google-genai client (see `build_client`).
        settings: Model name, retry policy, thinking budget, output cap.
    """

    def __init__(self, client: Client, settings: GeminiSettings) -> None:
        self.client = client
        self.settings = settings

    @property
    def name(self) -> str:
        return self.settings.model

    async def generate_json(
        self,
        *,
        system_instruction: str,
        prompt: str,
        schema: type[M],
        check: Callable[[M], None] | None = None,
    ) -> tuple[M, Usage]:
        """One structured-output call; see `StructuredModel.generate_json`.

        Raises:
            GeminiCallError: after exhausted retries, a non-transient API error, or two
                invalid replies. Its `usage` counts the calls that did get a reply.
        """
        settings = self.settings
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
        what = f"Gemini {settings.model}"

        async def send(turns: Sequence[Turn]) -> ModelReply:
            call = functools.partial(
                self.client.aio.models.generate_content,
                model=settings.model,
                contents=[types.Content(role=r, parts=[types.Part(text=t)]) for r, t in turns],
                config=config,
            )
            try:
                response = await call_with_retries(call, settings.retry, what=what)
            except CALL_ERRORS as exc:
                raise GeminiCallError(f"{what} call failed: {exc}") from exc
            usage = response.usage_metadata
            tokens = usage.total_token_count if usage else None
            return ModelReply(text=response.text or "", tokens=tokens or 0)

        return await generate_validated(
            send, what=what, prompt=prompt, schema=schema, check=check, error=GeminiCallError
        )


def structured_model(
    client: Client | None,
    settings: GeminiSettings,
    model: StructuredModel | BaseLlm | None,
) -> StructuredModel:
    """The model a model-driven stage calls: `model` when given (a `BaseLlm` wrapped with the
    settings' retries and output cap), else Gemini on `client` (default: from the environment).
    """
    if model is not None:
        return as_structured_model(
            model, retry=settings.retry, max_output_tokens=settings.max_output_tokens
        )
    return GeminiStructuredModel(client if client is not None else build_client(), settings)


__all__ = [
    "CALL_ERRORS",
    "PAYLOAD_FENCE",
    "GeminiCallError",
    "GeminiSettings",
    "GeminiStructuredModel",
    "LlmBackend",
    "RetryPolicy",
    "build_client",
    "call_with_retries",
    "check_adk_gemini",
    "check_base_url",
    "find_payload",
    "gemini_credentials_configured",
    "is_transient",
    "llm_backend_from_env",
    "payload_prompt",
    "structured_model",
]
