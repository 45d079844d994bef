"""`ScriptedJsonLlm`: an offline ADK model that answers adk-memory's structured prompts.

It is a real `BaseLlm`: register it with ADK's model registry and `ADK_MEMORY_LLM` names it
like any other model, so the any-model path (`adk_memory.llm.adk`) runs offline end to end:

    from google.adk.models.registry import LLMRegistry
    LLMRegistry.register(ScriptedJsonLlm)          # resolves "scripted-json", "scripted-json-…"

Answers are those of the Gemini emulator (`testing.emulator.gemini.answer_payload`: the local
extractor and classifier read the prompt's fenced payload), so every offline model agrees.
A task they do not answer gets the smallest value of the requested schema. A model whose name
ends in `-fenced` (or built with `fenced=True`) behaves like a model without structured
output: it ignores `response_schema` and wraps its JSON in prose and a ```json fence.
Replies or exceptions queued with `script()` are served first, one per call.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import AsyncGenerator
from typing import Any

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types
from pydantic import BaseModel, PrivateAttr, model_validator

from adk_memory.google_api.gemini import find_payload
from adk_memory.testing.emulator.gemini import CHARS_PER_TOKEN, answer_payload, conform, example_of

#: Requests kept for inspection; bounded so a long-running process does not grow.
_KEEP_REQUESTS = 256


class ScriptedJsonLlm(BaseLlm):
    """A deterministic model for adk-memory's extraction, classification and summary calls.

    Args:
        model: Its name; `…-fenced` turns `fenced` on.
        fenced: Reply in prose with a ```json fence, ignoring `response_schema`.
    """

    model: str = "scripted-json"
    fenced: bool = False
    _script: deque[str | BaseException] = PrivateAttr(default_factory=deque)
    _requests: deque[LlmRequest] = PrivateAttr(default_factory=lambda: deque(maxlen=_KEEP_REQUESTS))

    @model_validator(mode="after")
    def _fenced_by_name(self) -> ScriptedJsonLlm:
        if self.model.endswith("-fenced"):
            self.fenced = True
        return self

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r"scripted-json(-.*)?"]

    @property
    def requests(self) -> list[LlmRequest]:
        """The most recent requests this model received, oldest first."""
        return list(self._requests)

    def script(self, *replies: str | BaseException) -> None:
        """Queues reply texts (served as is) or exceptions (raised), one per coming call."""
        self._script.extend(replies)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        """Yields one complete response (streaming or not)."""
        self._requests.append(llm_request)
        if self._script:
            item = self._script.popleft()
            if isinstance(item, BaseException):
                raise item
            text = item
        else:
            text = await self._answer(llm_request)
        yield LlmResponse(
            content=types.Content(role="model", parts=[types.Part(text=text)]),
            partial=False,
            turn_complete=True,
            usage_metadata=_usage(llm_request, text),
        )

    async def _answer(self, llm_request: LlmRequest) -> str:
        prompt = "\n".join(
            part.text
            for content in llm_request.contents
            if content.role == "user"
            for part in content.parts or []
            if part.text
        )
        payload = find_payload(prompt)
        schema = _json_schema(llm_request.config.response_schema if llm_request.config else None)
        value: Any = await answer_payload(payload) if payload else None
        if value is None:
            value = example_of(schema) if schema else {}
        if self.fenced:
            document = json.dumps(value, ensure_ascii=False, indent=1)
            return f"Here is the JSON you asked for:\n```json\n{document}\n```\n"
        return json.dumps(conform(value, schema) if schema else value, ensure_ascii=False)


def _json_schema(schema: object) -> dict[str, Any] | None:
    if isinstance(schema, type) and issubclass(schema, BaseModel):
        return schema.model_json_schema()
    return schema if isinstance(schema, dict) else None


def _usage(llm_request: LlmRequest, text: str) -> types.GenerateContentResponseUsageMetadata:
    """Token counts at the emulator's characters per token, so both offline models agree."""
    instruction = llm_request.config.system_instruction if llm_request.config else None
    sent = len(instruction if isinstance(instruction, str) else "") + sum(
        len(p.text or "") for c in llm_request.contents for p in c.parts or []
    )
    prompt_tokens = -(-sent // CHARS_PER_TOKEN)
    reply_tokens = -(-len(text) // CHARS_PER_TOKEN)
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt_tokens,
        candidates_token_count=reply_tokens,
        total_token_count=prompt_tokens + reply_tokens,
    )


__all__ = ["ScriptedJsonLlm"]
