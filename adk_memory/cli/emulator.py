"""`adk-memory emulator`: serve the offline Memory Bank (+ Gemini) emulator.

It pre-creates a reasoning engine and prints the environment lines that point the SDKs, ADK
and adk-memory at it.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import click

from adk_memory.testing.emulator.app import EmulatorState
from adk_memory.testing.emulator.faults import FaultConfig, FaultInjector
from adk_memory.testing.emulator.server import run
from adk_memory.testing.emulator.vector_search import provision_default

DEFAULT_ENGINE_ID = "1000000000000000001"


def env_lines(host: str, port: int, project: str, location: str, engine_id: str) -> list[str]:
    """The `KEY=value` lines a shell or `.env` file needs to use the emulator."""
    base = f"http://{host}:{port}"
    engine = f"projects/{project}/locations/{location}/reasoningEngines/{engine_id}"
    return [
        f"GOOGLE_VERTEX_BASE_URL={base}",
        f"GOOGLE_GEMINI_BASE_URL={base}",
        "GOOGLE_API_KEY=fake",
        f"GOOGLE_CLOUD_PROJECT={project}",
        f"GOOGLE_CLOUD_LOCATION={location}",
        f"ADK_MEMORY_STORE=adkmem+memorybank://{engine}",
    ]


@click.command("emulator")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to bind.")
@click.option("--port", default=8765, show_default=True, type=int, help="Port to bind.")
@click.option(
    "--data",
    type=click.Path(dir_okay=False, path_type=Path),
    help="JSON file the emulator persists to (survives restarts).",
)
@click.option("--project", default="emulator-project", show_default=True)
@click.option("--location", default="us-central1", show_default=True)
@click.option(
    "--engine-id",
    default=DEFAULT_ENGINE_ID,
    show_default=True,
    help="Id of the reasoning engine to pre-create.",
)
@click.option("--latency-ms", default=0.0, type=float, help="Latency added to every request.")
@click.option("--error-rate", default=0.0, type=float, help="Share of requests that fail.")
@click.option("--error-code", default=503, type=int, show_default=True)
@click.option("--seed", default=None, type=int, help="Seed of the fault RNG.")
@click.option("--json", "as_json", is_flag=True, help="Print the settings as JSON.")
def emulator(
    host: str,
    port: int,
    data: Path | None,
    project: str,
    location: str,
    engine_id: str,
    latency_ms: float,
    error_rate: float,
    error_code: int,
    seed: int | None,
    as_json: bool,
) -> None:
    """Serve the offline Memory Bank and Gemini emulator.

    Example:

        adk-memory emulator --port 8765 --data .adk-memory/emulator.json --latency-ms 50

    Faults can be changed while it runs:

        curl -X POST localhost:8765/emulator/faults -d '{"error_rate": 0.2, "seed": 1}'
    """
    faults = FaultConfig(
        latency_ms=latency_ms, error_rate=error_rate, error_code=error_code, seed=seed
    )
    state = EmulatorState(faults=FaultInjector(faults), data_path=data)
    asyncio.run(state.memory_bank.load())
    state.memory_bank.ensure_engine(project, location, engine_id, "adk-memory")
    vs_uri = provision_default(state, project, location, f"{host}:{port}")
    lines = env_lines(host, port, project, location, engine_id)
    if as_json:
        click.echo(json.dumps(dict(line.split("=", 1) for line in lines)))
    else:
        click.echo("# adk-memory emulator: export these (or put them in .env)", err=True)
        for line in lines:
            click.echo(f"export {line}")
        click.echo(f"# Vector Search instead: export ADK_MEMORY_STORE='{vs_uri}'", err=True)
        click.echo("# admin: POST /emulator/faults  GET /emulator/health", err=True)
    sys.stdout.flush()
    run(host, port, state=state)
