"""Per-turn metrics: `plugin.metrics` and attributes on ADK's OpenTelemetry spans."""

from __future__ import annotations

import pytest
from google.adk.telemetry import tracing
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from adk_memory.adk.plugin import MemoryPlugin
from adk_memory.adk.service import AdkMemoryService
from tests.adk.support import Harness
from tests.adk.test_plugin_flow import remember


async def test_turn_metrics_are_recorded_and_set_on_adks_span(
    service: AdkMemoryService, monkeypatch: pytest.MonkeyPatch
) -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    # ADK's spans come from this module-level tracer; a local provider keeps the test from
    # touching the process-wide one.
    monkeypatch.setattr(tracing, "tracer", provider.get_tracer("adk-test"))
    await remember(service, "I live in Berlin.")
    plugin = MemoryPlugin(service, auto_save=False)
    app = Harness(service, plugin)
    try:
        session = await app.new_session()
        await app.turn(session, "Where do I live?")
    finally:
        await app.close()

    (metrics,) = plugin.metrics
    assert metrics.session_id == session and metrics.memories_injected == 1
    assert metrics.search_ms is not None and metrics.hidden_latency_ms is not None
    assert metrics.hidden_latency_ms == pytest.approx(
        metrics.search_ms - metrics.prefetch_wait_ms, abs=0.01
    )
    annotated = [
        s
        for s in exporter.get_finished_spans()
        if s.attributes and "adk_memory.memories_injected" in s.attributes
    ]
    assert annotated, [s.name for s in exporter.get_finished_spans()]
    attributes = annotated[0].attributes or {}
    assert attributes["adk_memory.memories_injected"] == 1
    assert {"adk_memory.prefetch_wait_ms", "adk_memory.hidden_latency_ms"} <= set(attributes)
