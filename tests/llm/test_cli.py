"""The CLI runs on the model `ADK_MEMORY_LLM` names: `remember` extracts with it and
`consolidate --summarizer auto` has it write the summaries."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator
from pathlib import Path

from click.testing import CliRunner
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.models.registry import LLMRegistry
from google.genai import types

from adk_memory.cli.main import cli
from adk_memory.testing.scripted_json_llm import ScriptedJsonLlm

SUMMARY = "Alice: hikes in the mountains on weekends."
SCOPE = ["--app", "shop", "--user", "alice"]


class SummaryLlm(ScriptedJsonLlm):
    """Extracts and classifies like `ScriptedJsonLlm`; writes one recognisable summary."""

    model: str = "scripted-summary"

    @classmethod
    def supported_models(cls) -> list[str]:
        return [r"scripted-summary"]

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        prompt = "".join(p.text or "" for c in llm_request.contents for p in c.parts or [])
        if '"summarize_memories"' in prompt:
            part = types.Part(text=json.dumps({"text": SUMMARY}))
            yield LlmResponse(content=types.Content(role="model", parts=[part]))
            return
        async for response in super().generate_content_async(llm_request, stream):
            yield response


def test_consolidate_auto_uses_the_configured_adk_model(tmp_path: Path) -> None:
    LLMRegistry.register(SummaryLlm)
    runner = CliRunner(env={"ADK_MEMORY_LLM": "scripted-summary"})
    store = ["--store", f"adkmem+sqlite:///{tmp_path}/cli.db"]
    for text in (
        "I went hiking in the mountains last weekend",
        "I love hiking in the mountains",
        "Hiking in the mountains is my favourite weekend activity",
    ):
        done = runner.invoke(cli, ["remember", *store, *SCOPE, "--at", "2025-05-01", text])
        assert done.exit_code == 0, done.output

    options = ["--similarity", "0.5", "--include-slots", "--json"]
    result = runner.invoke(cli, ["consolidate", *store, *SCOPE, *options])

    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary_count"] == 1
    listed = runner.invoke(cli, ["list", *store, *SCOPE, "--status", "active", "--json"])
    assert [r["text"] for r in json.loads(listed.stdout)] == [SUMMARY]
