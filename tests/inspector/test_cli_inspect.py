"""`adk-memory inspect`: the printed URL, the token rules by bind address, clear CLI errors."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from adk_memory.cli.main import cli
from adk_memory.google_api.endpoints import is_loopback_host as is_loopback
from adk_memory.stores.sqlite.store import SqliteStore
from tests.inspector.support import local_env, run_async, seed, serving


@pytest.fixture
def store(tmp_path: Path) -> str:
    path = tmp_path / "memory.db"

    async def build() -> None:
        await seed(await SqliteStore(path).open())

    run_async(build())
    return f"adkmem+sqlite://{path.as_posix()}"


def test_loopback_serves_pages_but_refuses_other_host_names(store: str, tmp_path: Path) -> None:
    with serving(store, local_env(tmp_path)) as url:
        base, _, token = url.partition("?token=")
        assert base.startswith("http://127.0.0.1:") and len(token) >= 16
        assert httpx.get(base).status_code == 200
        rebound = httpx.get(base, headers={"host": "attacker.example"})
        assert rebound.status_code == 400
        forgot = httpx.post(
            f"{base}actions/forget", data={"app": "shop", "user": "alice", "id": "x"}
        )
        assert forgot.status_code == 403


def test_any_loopback_address_accepts_its_own_host_name(store: str, tmp_path: Path) -> None:
    with serving(store, local_env(tmp_path), "--host", "127.0.0.2") as url:
        assert url.startswith("http://127.0.0.2:")
        assert httpx.get(url.partition("?")[0]).status_code == 200


def test_beyond_loopback_every_page_needs_the_token(store: str, tmp_path: Path) -> None:
    with serving(store, local_env(tmp_path), "--host", "0.0.0.0") as url:
        base, _, token = url.partition("?token=")
        port = base.rsplit(":", 1)[1].rstrip("/")
        local = f"http://127.0.0.1:{port}/"
        assert httpx.get(local).status_code == 403
        assert (
            httpx.get(f"{local}scope", params={"app": "shop", "user": "alice"}).status_code == 403
        )
        opened = httpx.get(local, params={"token": token})
        assert opened.status_code == 200 and "alice" in opened.text


def test_given_token_is_used_and_a_short_one_refused(store: str, tmp_path: Path) -> None:
    token = "a-fixed-token-for-scripts"
    with serving(store, local_env(tmp_path), "--token", token) as url:
        assert url.endswith(f"?token={token}")
    result = CliRunner().invoke(cli, ["--store", store, "inspect", "--token", "short"])
    assert result.exit_code == 2 and "at least 16 characters" in result.output


def test_a_port_in_use_is_a_one_line_error(store: str, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = CliRunner().invoke(
            cli, ["--store", store, "inspect", "--port", str(port)], env=local_env(tmp_path)
        )
    assert result.exit_code == 1
    assert f"port {port} is in use" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("host", "loopback"),
    [
        ("127.0.0.1", True),
        ("127.9.9.9", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("192.0.2.7", False),
        ("example.com", False),
    ],
)
def test_what_counts_as_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback
