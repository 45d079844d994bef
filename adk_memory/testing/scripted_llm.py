"""`ScriptedLlm`: an offline, deterministic ADK model for demos, tests and benchmarks.

It answers from what its request holds, so a conversation shows what memory did:

* "what do you remember about X?" with the `load_memory` tool available: it calls
  `load_memory(query=X)`, then answers with the texts the tool returned.
* anything else: it acknowledges the user and lists the memories it was given in the
  memory block of its request (or says it was given none).

Select it for the sample agent with `ADK_MEMORY_AGENT_MODEL=scripted`.
"""

from __future__ import annotations

import asyncio
import re
from collections import deque
from collections.abc import AsyncGenerator, Mapping, Sequence
from typing import Any

from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.genai import types
from pydantic import BaseModel, Field, PrivateAttr

from adk_memory.adk.memory_block import is_memory_content, request_memories

LOAD_MEMORY = "load_memory"
_REMEMBER = re.compile(r"\bwhat do you remember about\s+(?P<topic>.+?)\s*[?.!]*\s*$", re.I)
#: Requests kept for inspection; bounded so a long-running server does not grow.
_KEEP_REQUESTS = 256


class ScriptedLlm(BaseLlm):
    """A model that needs no network: its answers are a function of the request.

    Args:
        model: Name reported in events.
        latency_s: Delay before the (single) response, to stand in for a real model's
            time to first token in benchmarks.
    """

    model: str = "scripted"
    latency_s: float = Field(default=0.0, ge=0.0)
    # Per instance, not a class attribute: BaseLlm is a pydantic model shared by sessions.
    _requests: deque[LlmRequest] = PrivateAttr(default_factory=lambda: deque(maxlen=_KEEP_REQUESTS))

    @property
    def requests(self) -> list[LlmRequest]:
        """The most recent requests this model received, oldest first."""
        return list(self._requests)

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        """Yields one complete response (streaming or not)."""
        self._requests.append(llm_request)
        if self.latency_s > 0:
            await asyncio.sleep(self.latency_s)
        reply = scripted_reply(llm_request)
        yield LlmResponse(
            content=types.Content(role="model", parts=[reply]),
            partial=False,
            turn_complete=True,
            usage_metadata=_usage(llm_request, reply),
        )


def scripted_reply(llm_request: LlmRequest) -> types.Part:
    """The scripted answer to a request (a text part or a `load_memory` call)."""
    # The memory block is context, not the conversation: the turn is what surrounds it.
    contents = [c for c in llm_request.contents or [] if not is_memory_content(c)]
    last = contents[-1] if contents else None
    loaded = _load_memory_result(last)
    if loaded is not None:
        if not loaded:
            return types.Part(text="I don't remember anything about that.")
        return types.Part(text=f"From memory: {'; '.join(loaded)}")
    text = _last_user_text(contents)
    asked = _REMEMBER.search(text)
    if asked and LOAD_MEMORY in llm_request.tools_dict:
        return types.Part(
            function_call=types.FunctionCall(name=LOAD_MEMORY, args={"query": asked.group("topic")})
        )
    memories = request_memories(llm_request)
    said = f"Noted: {text}" if text else "Hello."
    if memories:
        return types.Part(text=f"{said} Memories in context: {'; '.join(memories)}")
    return types.Part(text=f"{said} No memories in context.")


def _usage(
    llm_request: LlmRequest, reply: types.Part
) -> types.GenerateContentResponseUsageMetadata:
    """Token counts estimated at four characters a token (ADK's telemetry wants some)."""
    prompt = len(_system_instruction(llm_request)) + sum(
        len(p.text or "") for c in llm_request.contents or [] for p in c.parts or []
    )
    prompt_tokens, reply_tokens = prompt // 4 + 1, len(reply.text or "") // 4 + 1
    return types.GenerateContentResponseUsageMetadata(
        prompt_token_count=prompt_tokens,
        candidates_token_count=reply_tokens,
        total_token_count=prompt_tokens + reply_tokens,
    )


def _system_instruction(llm_request: LlmRequest) -> str:
    instruction = llm_request.config.system_instruction if llm_request.config else None
    return instruction if isinstance(instruction, str) else ""


def _last_user_text(contents: Sequence[types.Content]) -> str:
    for content in reversed(contents):
        if content.role != "user" or not content.parts:
            continue
        texts = [p.text for p in content.parts if p.text]
        if texts:
            return " ".join(t.strip() for t in texts).strip()
    return ""


def _load_memory_result(content: types.Content | None) -> list[str] | None:
    """Memory texts of a `load_memory` response in `content`; None if it holds none."""
    if content is None or not content.parts:
        return None
    for part in content.parts:
        response = part.function_response
        if response is None or response.name != LOAD_MEMORY:
            continue
        return _memory_texts(response.response or {})
    return None


def _memory_texts(response: Mapping[str, Any]) -> list[str]:
    # ADK wraps a tool's non-dict return value as {"result": value}; in process the value is
    # the tool's pydantic model, after a round trip through JSON it is a plain dict.
    payload = _plain(response.get("result", response))
    memories = payload.get("memories") if isinstance(payload, Mapping) else None
    texts: list[str] = []
    for item in memories or []:
        memory = _plain(item)
        content = memory.get("content") if isinstance(memory, Mapping) else None
        parts = content.get("parts") if isinstance(content, Mapping) else None
        for part in parts or []:
            if isinstance(part, Mapping) and part.get("text"):
                texts.append(str(part["text"]).strip())
    return texts


def _plain(value: Any) -> Any:
    return value.model_dump() if isinstance(value, BaseModel) else value
