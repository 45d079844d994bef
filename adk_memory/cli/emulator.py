"""`adk-memory emulator`: serve the offline Memory Bank, Vector Search and Gemini emulator.

It pre-creates the resources the user names (`--engine`, `--vector-search`; a default engine
and deployment otherwise), listens, and only then prints the environment lines that point the
SDKs, ADK and adk-memory at it, so a script that waits for them can use the server at once.
"""

from __future__ import annotations

import asyncio
import errno
import json
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from adk_memory.cli.errors import call

if TYPE_CHECKING:
    from adk_memory.testing.emulator.app import EmulatorState
    from adk_memory.testing.emulator.faults import FaultConfig

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


@dataclass(frozen=True)
class Resource:
    """A resource name split into the parts the emulator's state wants."""

    project: str
    location: str
    resource_id: str
    params: dict[str, str]


def parse_resource(value: str, backend: str) -> Resource:
    """`projects/P/locations/L/<kind>/ID[?query]` or the matching `adkmem+...://` store URI.

    Raises:
        click.BadParameter: naming the expected shape.
    """
    from adk_memory.errors import ConfigError
    from adk_memory.stores.uri import parse_store_uri

    uri = value if "://" in value else f"adkmem+{backend}://{value}"
    try:
        parsed = parse_store_uri(uri)
    except ConfigError as exc:
        raise click.BadParameter(str(exc)) from exc
    if parsed.backend != backend:
        raise click.BadParameter(f"{value!r} is not an adkmem+{backend}:// resource")
    parts = parsed.location.split("/")
    return Resource(parts[1], parts[3], parts[5], dict(parsed.params))


def _listen(host: str, port: int) -> socket.socket:
    from adk_memory.testing.emulator.server import bind

    try:
        return bind(host, port)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"port {port} on {host} is already in use (another emulator?): stop it or "
                "pass --port N"
            ) from None
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def _provision(
    state: EmulatorState, engines: list[Resource], deployments: list[Resource], host: str
) -> list[str]:
    """Creates the named resources (idempotent); returns the store URI of everything that
    exists on the emulator, including what its data file brought back."""
    from adk_memory.testing.emulator.vector_search import (
        DEFAULT_DEPLOYED_ID,
        DEFAULT_INDEX_ID,
        EnsureRequest,
        ensure_deployment,
        store_uri,
        vector_search_state,
    )

    for engine in engines:
        state.memory_bank.ensure_engine(
            engine.project, engine.location, engine.resource_id, "adk-memory"
        )
    for d in deployments:
        body = EnsureRequest(
            project=d.project,
            location=d.location,
            endpoint_id=d.resource_id,
            index_id=d.params.get("index") or DEFAULT_INDEX_ID,
            deployed_index_id=d.params.get("deployed") or DEFAULT_DEPLOYED_ID,
        )
        ensure_deployment(state, body, host)
    uris = [f"adkmem+memorybank://{e['name']}" for e in state.memory_bank.engines.values()]
    for name, endpoint in vector_search_state(state).endpoints.items():
        for deployed in endpoint.get("deployedIndexes", []):
            names = {"index": deployed["index"], "indexEndpoint": name}
            uris.append(store_uri({**names, "deployedIndexId": deployed["id"]}))
    return uris


async def _serve(state: EmulatorState, sock: socket.socket, on_listening: Any) -> None:
    import uvicorn

    from adk_memory.testing.emulator.app import create_app

    config = uvicorn.Config(create_app(state), log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    serving = asyncio.ensure_future(server.serve(sockets=[sock]))
    while not server.started:
        if serving.done():
            break
        await asyncio.sleep(0.02)
    else:
        on_listening()
    await serving


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
    "--engine",
    "engines",
    multiple=True,
    metavar="NAME",
    help="Pre-create this reasoning engine: projects/P/locations/L/reasoningEngines/ID or "
    "its adkmem+memorybank:// URI (repeatable). The first one goes in ADK_MEMORY_STORE.",
)
@click.option(
    "--vector-search",
    "deployments",
    multiple=True,
    metavar="NAME",
    help="Pre-create this Vector Search deployment: projects/P/locations/L/indexEndpoints/E"
    "[?index=I&deployed=D] or its adkmem+vectorsearch:// URI (repeatable).",
)
@click.option(
    "--engine-id",
    default=DEFAULT_ENGINE_ID,
    show_default=True,
    help="Id of the engine to pre-create under --project/--location when no --engine is given.",
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
    engines: tuple[str, ...],
    deployments: tuple[str, ...],
    engine_id: str,
    latency_ms: float,
    error_rate: float,
    error_code: int,
    seed: int | None,
    as_json: bool,
) -> None:
    """Serve the offline Memory Bank, Vector Search and Gemini emulator.

    \b
    Example:
      adk-memory emulator --port 8765 --data .adk-memory/emulator.json --latency-ms 50
      adk-memory emulator --engine projects/my-proj/locations/us-central1/reasoningEngines/42

    Faults can be changed while it runs:

    \b
      curl -X POST localhost:8765/emulator/faults -d '{"error_rate": 0.2, "seed": 1}'
    """
    named = [parse_resource(e, "memorybank") for e in engines]
    vector = [parse_resource(d, "vectorsearch") for d in deployments]
    first = named[0] if named else Resource(project, location, engine_id, {})
    from adk_memory.testing.emulator.faults import FaultConfig

    faults = FaultConfig(
        latency_ms=latency_ms, error_rate=error_rate, error_code=error_code, seed=seed
    )
    sock = _listen(host, port)
    port = sock.getsockname()[1]  # the one the system chose for --port 0
    try:
        state, uris = call(_prepare, data, [first, *named[1:]], vector, f"{host}:{port}", faults)
        lines = env_lines(host, port, first.project, first.location, first.resource_id)

        def on_listening() -> None:
            if as_json:
                settings = dict(line.split("=", 1) for line in lines)
                click.echo(json.dumps({**settings, "stores": uris}))
            else:
                click.echo(
                    "# adk-memory emulator listening: export these (or put them in .env)", err=True
                )
                for line in lines:
                    click.echo(f"export {line}")
                click.echo("# stores that exist on it:", err=True)
                for uri in uris:
                    click.echo(f"#   {uri}", err=True)
                click.echo("# admin: POST /emulator/faults  GET /emulator/health", err=True)
            sys.stdout.flush()

        call(asyncio.run, _serve(state, sock, on_listening))
    finally:
        sock.close()


def _check_data_file(data: Path | None) -> None:
    """Refuses a `--data` file that is not the emulator's JSON object, before the emulator
    could save over it."""
    if data is None or not data.exists():
        return
    try:
        content = json.loads(data.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise click.ClickException(
            f"cannot load emulator data {data}: {reason}; move it away or pass another --data"
        ) from None
    if not isinstance(content, dict):
        raise click.ClickException(
            f"cannot load emulator data {data}: not a JSON object; move it away or pass "
            "another --data"
        )


def _prepare(
    data: Path | None,
    engines: list[Resource],
    deployments: list[Resource],
    host: str,
    faults: FaultConfig,
) -> tuple[EmulatorState, list[str]]:
    from adk_memory.testing.emulator.app import EmulatorState
    from adk_memory.testing.emulator.faults import FaultInjector
    from adk_memory.testing.emulator.vector_search import DEFAULT_ENDPOINT_ID

    _check_data_file(data)
    if not deployments:
        first = engines[0]
        deployments = [Resource(first.project, first.location, DEFAULT_ENDPOINT_ID, {})]
    try:
        state = EmulatorState(faults=FaultInjector(faults), data_path=data)
        asyncio.run(state.memory_bank.load())
        return state, _provision(state, engines, deployments, host)
    except (RuntimeError, ValueError, TypeError, KeyError, AttributeError) as exc:
        # A data file that is not JSON, or JSON of another shape than the emulator writes.
        problem = str(exc) if isinstance(exc, RuntimeError) else f"{type(exc).__name__}: {exc}"
        raise click.ClickException(
            f"cannot load emulator data {data}: {problem}; move it away or pass another --data"
        ) from None
