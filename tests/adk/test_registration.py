"""`--memory_service_uri` schemes: `register_schemes`, `agents/services.py`, the YAML form."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from google.adk.cli import service_registry
from google.adk.cli.service_registry import ServiceRegistry

from adk_memory.adk.registry import memory_service_factory, register_schemes
from adk_memory.adk.service import AdkMemoryService
from adk_memory.stores.uri import known_schemes

AGENTS = Path(__file__).resolve().parents[2] / "agents"
SAMPLE_URIS = {
    "adkmem+sqlite": "adkmem+sqlite:///tmp/x/m.db",
    "adkmem+memorybank": "adkmem+memorybank://projects/p/locations/l/reasoningEngines/1",
    "adkmem+vectorsearch": (
        "adkmem+vectorsearch://projects/p/locations/l/indexEndpoints/e?index=i&deployed=d"
    ),
}


def test_every_known_scheme_is_registered() -> None:
    registry = ServiceRegistry()
    assert register_schemes(registry) == known_schemes()
    assert "adkmem+sqlite" in known_schemes()
    service = registry.create_memory_service("adkmem+sqlite:///tmp/x/m.db", agents_dir="agents")
    assert isinstance(service, AdkMemoryService)


def test_relative_sqlite_paths_resolve_against_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    for uri in ("adkmem+sqlite:///./m.db", "adkmem+sqlite://m.db"):
        service = memory_service_factory(uri)
        assert service._store_uri == f"adkmem+sqlite://{tmp_path.resolve().as_posix()}/m.db"


def test_a_bad_uri_fails_when_adk_builds_the_service() -> None:
    registry = ServiceRegistry()
    register_schemes(registry)
    with pytest.raises(ValueError, match="sqlite URI has no file path"):
        registry.create_memory_service("adkmem+sqlite://")


@pytest.mark.parametrize("config", ["services.py", "services.yaml.example"])
def test_the_agents_directory_registers_the_schemes(
    config: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ADK's own loader, run on a copy holding one of the two registration files.
    name = "services.yaml" if config.endswith(".example") else config
    shutil.copy(AGENTS / config, tmp_path / name)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.delitem(sys.modules, "services", raising=False)
    registry = ServiceRegistry()
    monkeypatch.setattr(service_registry, "_service_registry_instance", registry)
    service_registry.load_services_module(str(tmp_path))
    for scheme in known_schemes():
        uri = SAMPLE_URIS.get(scheme)
        if uri is None:  # a backend added without a sample here: registered is all we know
            assert scheme in registry._memory_factories
            continue
        service = registry.create_memory_service(uri, agents_dir=str(tmp_path))
        assert isinstance(service, AdkMemoryService)
    monkeypatch.delitem(sys.modules, "services", raising=False)
