from __future__ import annotations

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
