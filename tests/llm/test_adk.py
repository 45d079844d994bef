"""Any ADK model extracts, classifies and summarises: `ADK_MEMORY_LLM=<model string>` or a
`BaseLlm` in code, through `open_engine`, with retries, fallbacks and cost accounting."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse

from adk_memory.config import GeminiSettings, LlmBackend, Settings
from adk_memory.engine import MemoryEngine
from adk_memory.errors import ConfigError
from adk_memory.extraction.gemini import ExtractionReply, GeminiExtractor
from adk_memory.factory import open_engine, structured_model, summarizer
from adk_memory.google_api.gemini import GeminiStructuredModel
from adk_memory.google_api.retry import RetryNotice, retry_listener
from adk_memory.lifecycle.summarizer import LocalSummarizer
from adk_memory.llm.adk import AdkStructuredModel
from adk_memory.llm.base import StructuredModel
from adk_memory.model import Decision, InputEvent, Scope, Status
from adk_memory.testing.scripted_json_llm import ScriptedJsonLlm
from tests.lifecycle.support import fact
from tests.llm.conftest import GARBLED_TOKENS, INSTANT_RETRY, ProviderRejected, ProviderUnavailable

SCOPE = Scope(app_name="app", user_id="user")
T0 = datetime(2026, 3, 1, 9, tzinfo=UTC)
BERLIN = InputEvent(id="e1", author="user", text="I live in Berlin.", timestamp=T0, role="user")
MUNICH = InputEvent(
    id="e2",
    author="user",
    text="I moved to Munich last week.",
    timestamp=T0 + timedelta(days=40),
    role="user",
)


def settings_for(tmp_path: Path, llm: str | None = None) -> Settings:
    env = {"ADK_MEMORY_STORE": f"adkmem+sqlite:///{tmp_path / 'memory.db'}"}
    if llm is not None:
        env["ADK_MEMORY_LLM"] = llm
    return Settings.from_env(env).model_copy(update={"gemini": GeminiSettings(retry=INSTANT_RETRY)})


@pytest.fixture
async def opened() -> AsyncIterator[list[MemoryEngine]]:
    engines: list[MemoryEngine] = []
    yield engines
    for engine in engines:
        await engine.close()


async def engine_for(
    opened: list[MemoryEngine], settings: Settings, llm: BaseLlm | None = None
) -> MemoryEngine:
    engine = await open_engine(settings=settings, llm=llm)
    opened.append(engine)
    return engine


@pytest.mark.parametrize("model", ["scripted-json", "scripted-json-fenced"])
async def test_a_model_string_extracts_and_replaces(
    tmp_path: Path, opened: list[MemoryEngine], model: str
) -> None:
    """With or without structured output, the update supersedes the old value."""
    settings = settings_for(tmp_path, model)
    assert settings.llm_backend({}) is LlmBackend.ADK
    engine = await engine_for(opened, settings)

    first = await engine.ingest(SCOPE, [BERLIN])
    second = await engine.ingest(SCOPE, [MUNICH])

    assert [o.decision for o in first.outcomes] == [Decision.ADD]
    [update] = second.outcomes
    assert update.decision is Decision.REPLACE
    assert update.superseded == [first.outcomes[0].id]
    old = await engine.get(first.outcomes[0].id)
    assert old.status is Status.SUPERSEDED
    # One extraction call, then one extraction and one classification call, each billed.
    assert (first.model_calls, second.model_calls) == (1, 2)
    assert first.tokens > 0
    assert second.tokens > first.tokens


async def test_a_base_llm_in_code_gets_structured_requests(
    tmp_path: Path, opened: list[MemoryEngine]
) -> None:
    llm = ScriptedJsonLlm()
    engine = await engine_for(opened, settings_for(tmp_path, "local"), llm=llm)

    await engine.ingest(SCOPE, [BERLIN])
    result = await engine.ingest(SCOPE, [MUNICH])

    assert result.count(Decision.REPLACE) == 1
    assert len(llm.requests) == 3
    request = llm.requests[0]
    assert request.model == "scripted-json"
    assert request.config.response_schema is ExtractionReply
    assert request.config.response_mime_type == "application/json"
    assert request.config.temperature == 0.0
    instruction = str(request.config.system_instruction)
    # The schema is stated in words too, for models that drop `response_schema`.
    assert '"event_ids"' in instruction
    assert "JSON schema" in instruction


async def test_invalid_json_twice_falls_back_to_local_and_loses_nothing(
    tmp_path: Path, opened: list[MemoryEngine]
) -> None:
    engine = await engine_for(opened, settings_for(tmp_path, "scripted-garbled"))

    result = await engine.ingest(SCOPE, [BERLIN])

    assert result.events_ingested == 1
    assert [o.decision for o in result.outcomes] == [Decision.ADD]
    # Both invalid replies were paid for and are accounted.
    assert (result.model_calls, result.tokens) == (2, 2 * GARBLED_TOKENS)
    [hit] = await engine.recall(SCOPE, "where does the user live?")
    assert "Berlin" in hit.record.text


async def test_the_correction_round_shows_the_model_its_error(
    tmp_path: Path, opened: list[MemoryEngine]
) -> None:
    llm = ScriptedJsonLlm()
    llm.script('{"facts": [{"subject": "user"}]}')
    engine = await engine_for(opened, settings_for(tmp_path), llm=llm)

    result = await engine.ingest(SCOPE, [BERLIN])

    assert result.model_calls == 2
    assert [o.decision for o in result.outcomes] == [Decision.ADD]
    retry = llm.requests[1].contents
    assert [c.role for c in retry] == ["user", "model", "user"]
    assert "did not validate" in str(retry[2].parts[0].text if retry[2].parts else "")
    assert "predicate" in str(retry[2].parts[0].text if retry[2].parts else "")


async def test_transient_errors_are_retried_a_bounded_number_of_times(
    tmp_path: Path, opened: list[MemoryEngine]
) -> None:
    llm = ScriptedJsonLlm()
    llm.script(ProviderUnavailable("overloaded"), ProviderUnavailable("overloaded"))
    engine = await engine_for(opened, settings_for(tmp_path), llm=llm)
    notices: list[RetryNotice] = []

    with retry_listener(notices.append):
        result = await engine.ingest(SCOPE, [BERLIN])

    assert [(n.attempt, n.max_attempts) for n in notices] == [(1, 3), (2, 3)]
    assert notices[0].what == "model scripted-json"
    assert len(llm.requests) == 3
    assert result.model_calls == 1  # failed attempts got no reply and cost nothing
    assert [o.decision for o in result.outcomes] == [Decision.ADD]


async def test_a_model_that_stays_down_falls_back_after_max_attempts(
    tmp_path: Path, opened: list[MemoryEngine]
) -> None:
    llm = ScriptedJsonLlm()
    llm.script(*(ProviderUnavailable("down") for _ in range(5)))
    engine = await engine_for(opened, settings_for(tmp_path), llm=llm)

    result = await engine.ingest(SCOPE, [BERLIN])

    assert len(llm.requests) == INSTANT_RETRY.max_attempts
    assert result.model_calls == 0
    assert [o.decision for o in result.outcomes] == [Decision.ADD]  # the local extractor's


async def test_a_permanent_error_is_not_retried(tmp_path: Path, opened: list[MemoryEngine]) -> None:
    llm = ScriptedJsonLlm()
    llm.script(ProviderRejected("bad request"))
    engine = await engine_for(opened, settings_for(tmp_path), llm=llm)

    result = await engine.ingest(SCOPE, [BERLIN])

    assert len(llm.requests) == 1
    assert [o.decision for o in result.outcomes] == [Decision.ADD]


async def test_an_unknown_model_string_is_a_config_error(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, "no-such-model-anywhere")
    with pytest.raises(ConfigError, match="ADK_MEMORY_LLM='no-such-model-anywhere'"):
        await open_engine(settings=settings)
    assert not (tmp_path / "memory.db").exists()  # nothing opened


def test_gemini_stays_the_default_when_its_credentials_are_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GOOGLE_GEMINI_BASE_URL", "GOOGLE_GENAI_USE_VERTEXAI", "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GOOGLE_API_KEY", "test-key")
    assert isinstance(structured_model(settings_for(tmp_path)), GeminiStructuredModel)
    chosen = structured_model(settings_for(tmp_path, "scripted-json"))
    assert isinstance(chosen, AdkStructuredModel)
    assert isinstance(chosen, StructuredModel)
    assert chosen.name == "scripted-json"


async def test_summaries_come_from_the_model_with_the_local_one_as_fallback(
    tmp_path: Path,
) -> None:
    records = [fact("I went hiking in the mountains last weekend"), fact("I love hiking")]
    llm = ScriptedJsonLlm()
    llm.script('```json\n{"text": "User: hikes in the mountains."}\n```', "no", "still no")
    chosen = summarizer(settings_for(tmp_path), llm=llm)

    assert await chosen.summarize("user", records) == "User: hikes in the mountains."
    assert await chosen.summarize("user", records) == await LocalSummarizer().summarize(
        "user", records
    )
    assert isinstance(summarizer(settings_for(tmp_path, "local")), LocalSummarizer)


async def test_without_structured_output_the_schema_goes_in_the_instruction_only() -> None:
    llm = ScriptedJsonLlm(fenced=True)
    model = AdkStructuredModel(llm, retry=INSTANT_RETRY, structured_output=False)
    extractor = GeminiExtractor(settings=GeminiSettings(retry=INSTANT_RETRY), model=model)

    result = await extractor.extract([BERLIN])

    assert [f.object for f in result.facts] == ["Berlin"]
    assert result.fallback_event_ids == []
    [request] = llm.requests
    assert request.config.response_schema is None
    assert request.config.response_mime_type is None
    assert "JSON schema" in str(request.config.system_instruction)


class RefusingLlm(BaseLlm):
    """Answers every call with an error response instead of content (a safety block)."""

    model: str = "refusing"

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        yield LlmResponse(error_code="SAFETY", error_message="blocked")


async def test_an_error_response_falls_back_to_the_local_extractor() -> None:
    extractor = GeminiExtractor(settings=GeminiSettings(retry=INSTANT_RETRY), model=RefusingLlm())

    result = await extractor.extract([BERLIN])

    assert result.fallback_event_ids == [BERLIN.id]
    assert [f.object for f in result.facts] == ["Berlin"]
    assert result.usage.calls == 0


async def test_the_adk_service_extracts_with_a_base_llm_it_is_given(tmp_path: Path) -> None:
    from google.adk.events.event import Event
    from google.adk.sessions.session import Session
    from google.genai import types

    from adk_memory.adk.service import AdkMemoryService

    llm = ScriptedJsonLlm()
    service = AdkMemoryService(
        store_uri=f"adkmem+sqlite:///{tmp_path / 'memory.db'}",
        settings=settings_for(tmp_path, "local"),
        warm_up=False,
        llm=llm,
    )
    try:
        event = Event(
            author="user",
            invocation_id="i1",
            content=types.Content(role="user", parts=[types.Part(text="I live in Berlin.")]),
        )
        session = Session(id="s1", app_name="app", user_id="user", events=[event])
        await service.add_session_to_memory(session)
        found = await service.search_memory(app_name="app", user_id="user", query="Berlin")
    finally:
        await service.close()
    assert llm.requests, "the given model extracted the session"
    texts = [part.text or "" for m in found.memories for part in m.content.parts or []]
    assert any("Berlin" in text for text in texts)
