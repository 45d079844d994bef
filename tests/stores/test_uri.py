"""Store URIs: what parses, what is refused and why, and where the Vertex stores send
credentials (`?base_url=`, `GOOGLE_VERTEX_BASE_URL`, `match_host`)."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from adk_memory.errors import ConfigError
from adk_memory.stores.memory_bank.store import build_client
from adk_memory.stores.uri import KNOWN_PARAMS, open_store, parse_store_uri
from adk_memory.stores.vector_search.store import build_clients
from adk_memory.stores.vertex import base_url_override

MB = "adkmem+memorybank://projects/p/locations/us-central1/reasoningEngines/123"
VS = "adkmem+vectorsearch://projects/p/locations/us-central1/indexEndpoints/456"


@pytest.fixture(autouse=True)
def no_env_override(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in ("GOOGLE_VERTEX_BASE_URL", "ADK_MEMORY_TRUST_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


# -- what parses ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("uri", "location"),
    [
        ("adkmem+sqlite:///abs/dir/memory.db", "/abs/dir/memory.db"),
        ("adkmem+sqlite:///./memory.db", "memory.db"),
        ("adkmem+sqlite:///../up/memory.db", "../up/memory.db"),
        ("adkmem+sqlite://memory.db", "memory.db"),
        ("adkmem+sqlite://localhost/abs/memory.db", "/abs/memory.db"),
        ("adkmem+sqlite:///tmp/:memory:", "/tmp/:memory:"),
    ],
)
def test_sqlite_paths(uri: str, location: str) -> None:
    parsed = parse_store_uri(uri)
    assert (parsed.backend, parsed.location, parsed.params) == ("sqlite", location, {})


@pytest.mark.parametrize(
    "uri",
    [
        MB,
        "adkmem+memorybank:///projects/p/locations/us-central1/reasoningEngines/123",
        "ADKMEM+MEMORYBANK://projects/my-proj-1/locations/europe-west4/reasoningEngines/42",
        "adkmem+memorybank://projects/example.com:my-proj/locations/us/reasoningEngines/a_b-1",
    ],
)
def test_vertex_resource_names(uri: str) -> None:
    parsed = parse_store_uri(uri)
    assert parsed.backend == "memorybank"
    assert parsed.location.startswith("projects/") and not parsed.location.endswith("/")


def test_known_params_are_kept() -> None:
    parsed = parse_store_uri(f"{VS}?index=projects/p/indexes/i&deployed=d&verify=false")
    assert parsed.params == {"index": "projects/p/indexes/i", "deployed": "d", "verify": "false"}
    parsed = parse_store_uri(f"{MB}?consolidation=server&timeout=5&trust_base_url=1")
    assert parsed.params == {"consolidation": "server", "timeout": "5", "trust_base_url": "1"}


# -- what is refused ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "uri",
    ["adkmem+sqlite:///:memory:", "adkmem+sqlite://:memory:", "adkmem+sqlite:///:memory:/"],
)
def test_in_memory_sqlite_is_refused(uri: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"in-memory SQLite is not supported.*persist"):
        parse_store_uri(uri)


def test_in_memory_sqlite_creates_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError):
        asyncio.run(open_store("adkmem+sqlite:///:memory:"))
    assert not Path("/:memory:").exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("uri", "name"),
    [
        ("adkmem+sqlite:///./memory.db?mode=ro", "mode"),
        ("adkmem+sqlite:///./memory.db?timeout=5", "timeout"),
        (f"{MB}?consolidaton=server", "consolidaton"),
        (f"{MB}?index=i", "index"),
        (f"{VS}?consolidation=server", "consolidation"),
    ],
)
def test_unknown_params_are_refused_listing_the_known_ones(uri: str, name: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_store_uri(uri)
    message = str(info.value)
    assert f"unknown parameter {name!r}" in message
    backend = parse_store_uri(uri.partition("?")[0]).backend
    expected = ", ".join(sorted(KNOWN_PARAMS[backend])) or "none"
    assert f"known parameters: {expected}" in message


def test_a_repeated_param_is_refused() -> None:
    with pytest.raises(ConfigError, match="'timeout' given twice"):
        parse_store_uri(f"{MB}?timeout=5&timeout=50")


def test_a_malformed_query_is_refused() -> None:
    with pytest.raises(ConfigError, match="malformed query"):
        parse_store_uri(f"{MB}?timeout")


@pytest.mark.parametrize(
    "uri",
    [
        "adkmem+sqlite:///./memory.db#other.db",
        "adkmem+sqlite:///./memory.db#",
        f"{MB}#x",
        f"{VS}?index=i#&deployed=d",
    ],
)
def test_a_fragment_is_refused(uri: str) -> None:
    with pytest.raises(ConfigError, match="#fragment"):
        parse_store_uri(uri)


@pytest.mark.parametrize(
    ("uri", "why"),
    [
        ("adkmem+memorybank://projects/p/locations/us-central1/reasoningEngines/..", "'\\.\\.'"),
        ("adkmem+memorybank://projects/../locations/us-central1/reasoningEngines/1", "'\\.\\.'"),
        ("adkmem+memorybank://projects/a..b/locations/us-central1/reasoningEngines/1", "a..b"),
        ("adkmem+memorybank://projects/p/locations/../reasoningEngines/1", "'\\.\\.'"),
        ("adkmem+memorybank://projects//locations/us-central1/reasoningEngines/1", "empty"),
        ("adkmem+memorybank://projects/p/locations/us-central1/reasoningEngines/", "empty"),
        ("adkmem+memorybank://projects/p/locations/us-central1/reasoningEngines/1/", "segments"),
        ("adkmem+memorybank://projects/p/locations/us-central1/reasoningEngines", "segments"),
        ("adkmem+memorybank://projects/p/locations/us-central1/agents/1", "'agents'"),
        ("adkmem+memorybank://projects/p/locations/US-CENTRAL1/reasoningEngines/1", "location"),
        ("adkmem+memorybank://projects/p/locations/evil.com:1/reasoningEngines/1", "location"),
        ("adkmem+memorybank://projects/p/locations/us-central1/reasoningEngines/1:x", "1:x"),
        ("adkmem+memorybank://projects/p/locations/us-central1/reasoningEngines/a%2F", "a%2F"),
        ("adkmem+memorybank://projects/p q/locations/us-central1/reasoningEngines/1", "p q"),
        ("adkmem+memorybank://u@projects/p/locations/us-central1/reasoningEngines/1", "u@"),
        ("adkmem+vectorsearch://projects/p/locations/us-central1/indexEndpoints/-1", "'-1'"),
        ("adkmem+vectorsearch://projects/p/locations/us-central1/indexes/1", "'indexes'"),
    ],
)
def test_bad_resource_names_are_refused(uri: str, why: str) -> None:
    with pytest.raises(ConfigError, match=f"bad (memorybank|vectorsearch) URI location.*{why}"):
        parse_store_uri(uri)


@pytest.mark.parametrize(
    "uri",
    ["adkmem+sqlite:///a\x00b.db", "adkmem+sqlite:///a\nb.db", f"{MB}\r\n"],
)
def test_control_characters_are_refused(uri: str) -> None:
    with pytest.raises(ConfigError, match="control character"):
        parse_store_uri(uri)


@pytest.mark.parametrize(
    "uri", ["memory.db", "sqlite:///memory.db", "adkmem+redis://x", "adkmem+://x"]
)
def test_unknown_schemes_are_refused(uri: str) -> None:
    with pytest.raises(ConfigError):
        parse_store_uri(uri)


# -- where credentials go -------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8765",
        "http://[::1]:8765",
        "http://[::ffff:127.0.0.1]:8765",
        "http://localhost:8765",
        "https://us-central1-aiplatform.googleapis.com",
    ],
)
def test_base_url_on_google_or_loopback_is_accepted(url: str) -> None:
    assert base_url_override({"base_url": url}) == url


@pytest.mark.parametrize("uri", [MB, VS])
async def test_a_base_url_on_another_host_is_refused_before_any_call(uri: str) -> None:
    with pytest.raises(ConfigError) as info:
        await open_store(f"{uri}?base_url=https://collector.example.com")
    message = str(info.value)
    assert "base_url='https://collector.example.com'" in message
    assert "?trust_base_url=1" in message


async def test_the_env_override_is_checked_too(no_env_override: pytest.MonkeyPatch) -> None:
    no_env_override.setenv("GOOGLE_VERTEX_BASE_URL", "http://10.1.2.3:8765")
    with pytest.raises(
        ConfigError, match=re.escape("GOOGLE_VERTEX_BASE_URL='http://10.1.2.3:8765'")
    ):
        base_url_override({})
    with pytest.raises(ConfigError, match="GOOGLE_VERTEX_BASE_URL"):
        await open_store(MB)


def test_an_explicit_opt_in_trusts_any_host(no_env_override: pytest.MonkeyPatch) -> None:
    url = "https://gateway.example.com"
    assert base_url_override({"base_url": url, "trust_base_url": "1"}) == url
    assert base_url_override({"base_url": url, "trust_base_url": "true"}) == url
    with pytest.raises(ConfigError):
        base_url_override({"base_url": url, "trust_base_url": "0"})
    with pytest.raises(ConfigError, match="bad trust_base_url='maybe'"):
        base_url_override({"base_url": url, "trust_base_url": "maybe"})
    no_env_override.setenv("ADK_MEMORY_TRUST_BASE_URL", "1")
    assert base_url_override({"base_url": url}) == url


def test_memory_bank_client_with_a_trusted_gateway(no_env_override: pytest.MonkeyPatch) -> None:
    # Express mode needs no ADC, so the client is built (and no call is made).
    no_env_override.setenv("GOOGLE_API_KEY", "express-key")
    params = {"base_url": "https://gateway.example.com", "auth": "apikey"}
    with pytest.raises(ConfigError, match="trust_base_url"):
        build_client("p", "us-central1", params)
    assert build_client("p", "us-central1", {**params, "trust_base_url": "1"}) is not None


def test_vector_search_match_host_must_be_google_or_loopback() -> None:
    with pytest.raises(ConfigError, match=re.escape("match_host='match.example.com'")):
        build_clients("us-central1", base_url=None, match_host="match.example.com")
    clients = build_clients("us-central1", base_url="http://127.0.0.1:1", match_host=None)
    clients.close()
