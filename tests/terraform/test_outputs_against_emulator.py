"""End to end: the module's output URIs, filled in with what the resources would return, work
as `--store` for the CLI against the emulator (the stand-in for the provisioned GCP side)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from adk_memory.cli.main import cli
from adk_memory.testing.emulator import EmulatorServer
from tests.stores.memory_bank.support import new_engine
from tests.stores.vector_search.support import LOCATION, PROJECT, new_deployment
from tests.terraform.test_terraform import module


@pytest.fixture(scope="module")
def server() -> Iterator[EmulatorServer]:
    with EmulatorServer() as running:
        yield running


def render(template: str, values: dict[str, str]) -> str:
    """Substitutes `${reference}` interpolations (the attributes the resources export)."""

    def value(match: re.Match[str]) -> str:
        reference = match.group(1)
        assert reference in values, f"output uses {reference}, which the test does not model"
        return values[reference]

    return re.sub(r"\$\{([^}]+)\}", value, template)


def _cli(server: EmulatorServer, store: str, *args: str) -> object:
    env = {"GOOGLE_VERTEX_BASE_URL": server.base_url, "ADK_MEMORY_LLM": "local"}
    result = CliRunner(env=env).invoke(
        cli, ["--store", store, *args, "--json"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _remember_update_recall(server: EmulatorServer, store: str) -> None:
    scope = ["--app", "tf", "--user", "alice"]
    first = _cli(server, store, "remember", *scope, "--at", "2026-01-01", "I live in Berlin.")
    second = _cli(server, store, "remember", *scope, "--at", "2026-03-01", "I moved to Munich.")
    assert second["superseded"] == [first["id"]]
    recalled = _cli(server, store, "recall", *scope, "where does alice live?")
    assert recalled[0]["id"] == second["id"]
    assert all(r["id"] != first["id"] for r in recalled)


def test_memory_bank_output_uri_drives_the_cli(server: EmulatorServer) -> None:
    engine = new_engine(server)  # projects/P/locations/L/reasoningEngines/ID
    store = render(
        module().locals["memory_bank_uri"],
        {
            "var.project_id": engine.split("/")[1],
            "var.region": engine.split("/")[3],
            "google_vertex_ai_reasoning_engine.memory_bank.name": engine.rsplit("/", 1)[1],
        },
    )
    assert store == f"adkmem+memorybank://{engine}"
    _remember_update_recall(server, store)


def test_vector_search_output_uri_drives_the_cli(server: EmulatorServer, tmp_path: Path) -> None:
    names = new_deployment(server)
    conditional = module().locals["vector_search_uri"]
    enabled = re.search(r'\?\s*"(.+)"\s*:\s*null\}$', conditional)
    assert enabled is not None, "vector_search_uri is a URI when enabled, null otherwise"
    store = render(
        enabled.group(1),
        {
            "var.project_id": PROJECT,
            "var.region": LOCATION,
            "google_vertex_ai_index_endpoint.memory[0].name": names["indexEndpoint"].rsplit("/")[
                -1
            ],
            "google_vertex_ai_index.memory[0].name": names["index"].rsplit("/")[-1],
            "google_vertex_ai_index_endpoint_deployed_index.memory[0].deployed_index_id": names[
                "deployedIndexId"
            ],
        },
    )
    _remember_update_recall(server, f"{store}&docs={tmp_path / 'records.db'}")
