"""`AdkStructuredModel`: structured JSON from any model ADK can run (a `BaseLlm`).

ADK reaches Gemini natively and OpenAI, Anthropic, Ollama, vLLM and a hundred more providers
through LiteLLM, all behind `BaseLlm.generate_content_async(LlmRequest)`. One request here is
what an `LlmAgent` with an `output_schema` sends: contents, a system instruction, temperature
0, and `response_mime_type` / `response_schema` on the config, which ADK's Gemini passes on and
`LiteLlm` turns into the provider's `response_format`. For any model but ADK's `Gemini` (which
enforces `response_schema` itself) the JSON schema is also stated in the system instruction,
so a model or provider that drops `response_schema` still knows the shape (about 225 tokens
per extraction call, 165 per classification). The reply is validated either way
(`adk_memory.llm.base.generate_validated`).

`resolve_llm("openai/gpt-4o")` goes through ADK's own `LLMRegistry`, so a model string means
here what it means in an `LlmAgent(model=...)`, and a `BaseLlm` subclass registered with
`LLMRegistry.register` is found the same way.

ADK is imported on first use: importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from pydantic import BaseModel

from adk_memory.config import ENV_LLM
from adk_memory.errors import ConfigError
from adk_memory.extraction.base import Usage
from adk_memory.google_api.retry import RetryPolicy, call_with_retries
from adk_memory.llm.base import (
    ModelCallError,
    ModelReply,
    StructuredModel,
    Turn,
    generate_validated,
    schema_hint,
)

if TYPE_CHECKING:
    from google.adk.models.base_llm import BaseLlm
    from google.adk.models.llm_request import LlmRequest

M = TypeVar("M", bound=BaseModel)


class ModelErrorResponse(Exception):
    """The model answered with an error instead of content (`LlmResponse.error_code`)."""


def resolve_llm(model: str, *, setting: str = ENV_LLM) -> BaseLlm:
    """The `BaseLlm` ADK's `LLMRegistry` builds for a model string.

    Args:
        model: An ADK model string: `gemini-2.5-flash`, `openai/gpt-4o` (LiteLLM),
            `ollama_chat/llama3.1`, or any pattern a registered `BaseLlm` supports.
        setting: Names the setting in the error.

    Raises:
        ConfigError: naming the setting, when the registry cannot resolve or build the model
            (unknown name, missing optional package such as litellm).
    """
    try:
        from google.adk.models.registry import LLMRegistry

        return LLMRegistry.new_llm(model)
    except Exception as exc:  # ValueError, ImportError or a model's own validation error
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ConfigError(
            f"{setting}={model!r}: ADK cannot resolve this model ({first_line}). Use 'gemini', "
            "'local', or an ADK model string such as 'gemini-2.5-flash' or 'openai/gpt-4o' "
            "(LiteLLM models need: pip install litellm)"
        ) from exc


class AdkStructuredModel:
    """`StructuredModel` over an ADK `BaseLlm`.

    Args:
        llm: The model (an instance, e.g. `LiteLlm(model="openai/gpt-4o")`).
        retry: Bounded retries for transient failures (429 / 5xx / timeouts / lost
            connections, whatever SDK the model sits on).
        structured_output: Send `response_schema` (default). Turn off for a provider that
            rejects it.
        schema_in_prompt: State the JSON schema in the system instruction too (None: for
            every model but ADK's `Gemini`; always when `structured_output` is off).
        max_output_tokens: Cap on reply tokens (None: the model's default).
    """

    def __init__(
        self,
        llm: BaseLlm,
        *,
        retry: RetryPolicy | None = None,
        structured_output: bool = True,
        schema_in_prompt: bool | None = None,
        max_output_tokens: int | None = None,
    ) -> None:
        self.llm = llm
        self.retry = retry or RetryPolicy(label=llm.model)
        self.structured_output = structured_output
        if schema_in_prompt is None:
            schema_in_prompt = not _enforces_response_schema(llm)
        self.schema_in_prompt = schema_in_prompt or not structured_output
        self.max_output_tokens = max_output_tokens

    @property
    def name(self) -> str:
        return self.llm.model

    async def generate_json(
        self,
        *,
        system_instruction: str,
        prompt: str,
        schema: type[M],
        check: Callable[[M], None] | None = None,
    ) -> tuple[M, Usage]:
        """One call whose reply must validate; see `StructuredModel.generate_json`.

        Raises:
            ModelCallError: after exhausted retries, a permanent error, or two invalid
                replies. Its `usage` counts the calls that did get a reply.
        """
        what = f"model {self.name}"
        instruction = system_instruction
        if self.schema_in_prompt:
            instruction = f"{system_instruction.rstrip()}\n\n{schema_hint(schema)}\n"

        async def send(turns: Sequence[Turn]) -> ModelReply:
            request = self._request(instruction, schema, turns)
            try:
                return await call_with_retries(lambda: self._call(request), self.retry, what=what)
            except Exception as exc:  # any provider SDK's errors, after the bounded retries
                raise ModelCallError(f"{what} call failed: {type(exc).__name__}: {exc}") from exc

        return await generate_validated(send, what=what, prompt=prompt, schema=schema, check=check)

    def _request(
        self, instruction: str, schema: type[BaseModel], turns: Sequence[Turn]
    ) -> LlmRequest:
        from google.adk.models.llm_request import LlmRequest
        from google.genai import types

        return LlmRequest(
            model=self.llm.model,
            contents=[types.Content(role=r, parts=[types.Part(text=t)]) for r, t in turns],
            config=types.GenerateContentConfig(
                system_instruction=instruction,
                temperature=0.0,
                max_output_tokens=self.max_output_tokens,
                response_mime_type="application/json" if self.structured_output else None,
                response_schema=schema if self.structured_output else None,
            ),
        )

    async def _call(self, request: LlmRequest) -> ModelReply:
        texts: list[str] = []
        tokens = 0
        error = ""
        # A fresh copy per attempt: models may annotate the request they are given.
        async for response in self.llm.generate_content_async(request.model_copy(deep=True)):
            if response.partial:
                continue
            parts = response.content.parts if response.content else None
            texts += [p.text for p in parts or [] if p.text and not p.thought]
            usage = response.usage_metadata
            if usage is not None:
                tokens = usage.total_token_count or (
                    (usage.prompt_token_count or 0) + (usage.candidates_token_count or 0)
                )
            if response.error_code:
                error = f"{response.error_code}: {response.error_message or ''}".strip()
        if error and not texts:
            raise ModelErrorResponse(error)
        return ModelReply(text="".join(texts), tokens=tokens)


def _enforces_response_schema(llm: BaseLlm) -> bool:
    """ADK's `Gemini` hands `response_schema` to the API, which constrains the reply to it."""
    from google.adk.models.google_llm import Gemini

    return isinstance(llm, Gemini)


def as_structured_model(
    model: StructuredModel | BaseLlm,
    *,
    retry: RetryPolicy | None = None,
    max_output_tokens: int | None = None,
) -> StructuredModel:
    """`model` itself when it is a `StructuredModel`, else an `AdkStructuredModel` over it.

    Args:
        model: A `StructuredModel`, or an ADK `BaseLlm` instance.
        retry: The retries of a wrapped `BaseLlm`.
        max_output_tokens: The output cap of a wrapped `BaseLlm`.
    """
    if isinstance(model, StructuredModel):
        return model
    return AdkStructuredModel(model, retry=retry, max_output_tokens=max_output_tokens)


__all__ = ["AdkStructuredModel", "ModelErrorResponse", "as_structured_model", "resolve_llm"]
