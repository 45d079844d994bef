"""Where credentials may go: Google's API hosts, a loopback emulator, or an explicit opt-in."""

from __future__ import annotations

import pytest

from adk_memory.errors import ConfigError
from adk_memory.google_api.endpoints import (
    EMULATOR_TOKEN,
    check_endpoint,
    emulator_credentials,
    gemini_credentials_configured,
    is_google_host,
    is_loopback_host,
    is_loopback_url,
)

LOOPBACK_URLS = [
    "http://127.0.0.1:8765",
    "http://127.8.9.10:1",
    "http://localhost:8765",
    "http://LOCALHOST.:8765/v1",
    "http://[::1]:8765",
    "http://[::ffff:127.0.0.1]:8765",
    "http://[::ffff:7f00:1]:8765",
    "https://127.0.0.1",
    "127.0.0.1:8765",
]
FOREIGN_URLS = [
    "https://evil.example.com",
    "http://10.0.0.1:8765",
    "http://0.0.0.0:8765",
    "http://[::ffff:10.0.0.1]:8765",
    "http://127.0.0.1.nip.io:8765",
    "http://localhost.evil.com",
    "https://googleapis.com.evil.com",
    "https://evilgoogleapis.com",
    "https://aiplatform.googleapis.com.evil.com/v1",
]
GOOGLE_URLS = [
    "https://us-central1-aiplatform.googleapis.com",
    "https://aiplatform.googleapis.com/",
    "https://aiplatform.eu.rep.googleapis.com/",
    "https://generativelanguage.googleapis.com",
    "https://1234.us-central1-5678.vdb.vertexai.goog",
    "us-central1-aiplatform.googleapis.com",
    "1234.us-central1-5678.vdb.vertexai.goog:443",
]


@pytest.mark.parametrize("url", LOOPBACK_URLS)
def test_loopback_forms(url: str) -> None:
    assert is_loopback_url(url)
    assert check_endpoint(url, setting="base_url", opt_in="X") == url


@pytest.mark.parametrize("url", FOREIGN_URLS + GOOGLE_URLS)
def test_anything_else_is_not_loopback(url: str) -> None:
    assert not is_loopback_url(url)


def test_loopback_hosts_with_and_without_brackets() -> None:
    assert is_loopback_host("::1") and is_loopback_host("[::1]")
    assert is_loopback_host("::ffff:127.0.0.1")
    assert not is_loopback_host("") and not is_loopback_host(None)


@pytest.mark.parametrize("url", GOOGLE_URLS)
def test_google_hosts_are_allowed_over_https(url: str) -> None:
    assert check_endpoint(url, setting="base_url", opt_in="X") == url


def test_google_host_suffix_needs_a_dot() -> None:
    assert is_google_host("aiplatform.googleapis.com")
    assert not is_google_host("evilgoogleapis.com")
    assert not is_google_host("googleapis.com.evil.com")


@pytest.mark.parametrize("url", FOREIGN_URLS)
def test_other_hosts_are_refused_with_the_opt_in_named(url: str) -> None:
    with pytest.raises(ConfigError) as info:
        check_endpoint(url, setting="GOOGLE_VERTEX_BASE_URL", opt_in="?trust_base_url=1")
    message = str(info.value)
    assert "GOOGLE_VERTEX_BASE_URL" in message
    assert "neither a Google API host" in message
    assert "?trust_base_url=1" in message


@pytest.mark.parametrize("url", FOREIGN_URLS)
def test_an_explicit_opt_in_allows_any_host(url: str) -> None:
    assert check_endpoint(url, setting="base_url", trusted=True, opt_in="X") == url


def test_google_over_plain_http_is_refused() -> None:
    with pytest.raises(ConfigError, match="https only"):
        check_endpoint("http://aiplatform.googleapis.com", setting="base_url", opt_in="X")


@pytest.mark.parametrize(
    "url",
    [
        "ftp://127.0.0.1/",
        "https://",
        "https://user:pw@aiplatform.googleapis.com",
        "https://aiplatform.googleapis.com@evil.com",
        "https://aiplatform.googleapis.com:99999",
    ],
)
def test_malformed_urls_are_refused_even_when_trusted(url: str) -> None:
    with pytest.raises(ConfigError):
        check_endpoint(url, setting="base_url", trusted=True, opt_in="X")


@pytest.mark.parametrize("url", LOOPBACK_URLS)
def test_fake_credentials_for_loopback(url: str) -> None:
    credentials = emulator_credentials(url)
    assert credentials is not None and credentials.token == EMULATOR_TOKEN


@pytest.mark.parametrize("url", [None, "", *FOREIGN_URLS, *GOOGLE_URLS])
def test_no_fake_credentials_anywhere_else(url: str | None) -> None:
    assert emulator_credentials(url) is None


@pytest.mark.parametrize(
    ("env", "configured"),
    [
        ({}, False),
        ({"GOOGLE_API_KEY": "k"}, True),
        ({"GEMINI_API_KEY": "k"}, True),
        ({"GOOGLE_GENAI_USE_VERTEXAI": "1"}, False),
        ({"GOOGLE_GENAI_USE_VERTEXAI": "true", "GOOGLE_CLOUD_PROJECT": "p"}, True),
        ({"GOOGLE_GENAI_USE_VERTEXAI": "true", "GEMINI_API_KEY": "k"}, False),
    ],
)
def test_gemini_credentials_configured(env: dict[str, str], configured: bool) -> None:
    assert gemini_credentials_configured(env) is configured
