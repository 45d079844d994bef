from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
from click.testing import CliRunner

from adk_memory.cli.emulator import emulator, env_lines


def test_env_lines_point_everything_at_the_emulator() -> None:
    lines = env_lines("127.0.0.1", 9999, "p", "us-central1", "42")
    assert "GOOGLE_VERTEX_BASE_URL=http://127.0.0.1:9999" in lines
    assert (
        "ADK_MEMORY_STORE=adkmem+memorybank://projects/p/locations/us-central1/reasoningEngines/42"
        in lines
    )


def test_help_has_an_example() -> None:
    result = CliRunner().invoke(emulator, ["--help"])
    assert result.exit_code == 0 and "adk-memory emulator --port" in result.output


def test_parse_resource_accepts_names_and_store_uris() -> None:
    from adk_memory.cli.emulator import parse_resource

    by_name = parse_resource("projects/p/locations/l/reasoningEngines/42", "memorybank")
    by_uri = parse_resource(
        "adkmem+memorybank://projects/p/locations/l/reasoningEngines/42", "memorybank"
    )
    assert by_name == by_uri
    assert (by_name.project, by_name.location, by_name.resource_id) == ("p", "l", "42")
    vs = parse_resource(
        "projects/p/locations/l/indexEndpoints/7?index=8&deployed=d", "vectorsearch"
    )
    assert vs.resource_id == "7" and vs.params == {"index": "8", "deployed": "d"}


def test_a_bad_engine_name_is_a_usage_error() -> None:
    result = CliRunner().invoke(emulator, ["--engine", "projects/p/engines/42"])
    assert result.exit_code == 2 and "reasoningEngines" in result.output
    assert "Traceback" not in result.output


def test_emulator_precreates_the_users_ids_and_prints_only_once_listening(
    tmp_path: Path,
) -> None:
    engine = "projects/my-proj/locations/europe-west4/reasoningEngines/4242"
    other = "projects/my-proj/locations/europe-west4/reasoningEngines/77"
    endpoint = "projects/my-proj/locations/europe-west4/indexEndpoints/55?index=66&deployed=mine"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "adk_memory.cli.main",
            "emulator",
            "--port",
            "0",
            "--data",
            str(tmp_path / "emu.json"),
            "--engine",
            engine,
            "--engine",
            other,
            "--vector-search",
            endpoint,
            "--json",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        settings = json.loads(proc.stdout.readline())
        # Printed only after the server listens: the very first request must succeed.
        base = settings["GOOGLE_VERTEX_BASE_URL"]
        assert httpx.get(f"{base}/emulator/health", timeout=10).status_code == 200
        assert settings["ADK_MEMORY_STORE"] == f"adkmem+memorybank://{engine}"
        assert settings["GOOGLE_CLOUD_PROJECT"] == "my-proj"
        assert settings["GOOGLE_CLOUD_LOCATION"] == "europe-west4"
        assert f"adkmem+memorybank://{other}" in settings["stores"]
        assert (
            "adkmem+vectorsearch://projects/my-proj/locations/europe-west4/indexEndpoints/55"
            "?index=66&deployed=mine"
        ) in settings["stores"]
        engines = httpx.get(
            f"{base}/v1beta1/projects/my-proj/locations/europe-west4/reasoningEngines/4242",
            timeout=10,
        )
        assert engines.status_code == 200 and engines.json()["name"] == engine
    finally:
        proc.terminate()
        proc.wait(timeout=20)
