"""Offline ADK models registered with ADK's own model registry, as a user would register one."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import pytest
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.genai import types

from adk_memory.google_api.retry import RetryPolicy
from adk_memory.testing.scripted_json_llm import ScriptedJsonLlm

#: Retries with no waiting: tests count attempts without sleeping.
INSTANT_RETRY = RetryPolicy(
    max_attempts=3, initial_backoff=0, max_backoff=0, jitter=0, call_timeout=5, label="Test"
)
#: Tokens a `GarbledLlm` reply is billed for.
GARBLED_TOKENS = 7


class GarbledLlm(BaseLlm):
    """Always answers with cut-off JSON: a model that never manages the schema."""

    model: str = "scripted-garbled"

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r"scripted-garbled"]

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        yield LlmResponse(
            content=types.Content(role="model", parts=[types.Part(text='{"facts": [{"subj')]),
            usage_metadata=types.GenerateContentResponseUsageMetadata(
                total_token_count=GARBLED_TOKENS
            ),
        )


class ProviderUnavailable(Exception):
    """What LiteLLM / OpenAI SDKs raise on a 503: an exception with an int `status_code`."""

    status_code = 503


class ProviderRejected(Exception):
    """A permanent provider error (400): never worth another attempt."""

    status_code = 400


@pytest.fixture(scope="session", autouse=True)
def registered_models() -> None:
    LLMRegistry.register(ScriptedJsonLlm)
    LLMRegistry.register(GarbledLlm)
