"""`adk-memory history` and `restore` on the earlier values Memory Bank keeps as revisions:
a unique prefix of a revision id works like any id prefix, an ambiguous one is a clear error
(CliRunner, real SDK, the emulator in server-consolidation mode)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from click.testing import CliRunner, Result

from adk_memory.cli.main import cli
from adk_memory.model import Scope
from adk_memory.stores.memory_bank.generated import MemoryBankGeneratedStore
from adk_memory.testing.emulator import EmulatorServer
from tests.stores.memory_bank.support import emulator_store

ALICE = Scope(app_name="app", user_id="alice")
BOB = Scope(app_name="app", user_id="bob")
T0 = datetime(2025, 1, 1, tzinfo=UTC)
BEFORE, AFTER = "I have two cats.", "I have three cats."
#: What tables print of an id.
SHOWN = 12


class Cli:
    """The CLI on one fresh Memory Bank engine of the emulator."""

    def __init__(self, emulator: EmulatorServer) -> None:
        store = emulator_store(emulator, store_class=MemoryBankGeneratedStore)
        self.uri = f"adkmem+memorybank://{store.engine}?consolidation=server"
        self.runner = CliRunner()

    def invoke(self, *args: str) -> Result:
        return self.runner.invoke(cli, ["--store", self.uri, *args])

    def ok(self, *args: str) -> Any:
        result = self.invoke(*args)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout) if "--json" in args else result.stdout

    def updated_in_place(self, scope: Scope) -> tuple[str, str]:
        """States a fact and an update Memory Bank merges into the same memory: (the memory's
        id, the earlier value's id)."""
        who = scope_args(scope)
        self.ok("remember", *who, BEFORE, "--at", T0.isoformat())
        self.ok("remember", *who, AFTER, "--at", (T0 + timedelta(days=30)).isoformat())
        (current,) = self.ok("list", *who, "--json")
        earlier, now = self.ok("history", current["id"], "--json")
        assert (earlier["text"], now["id"]) == (BEFORE, current["id"])
        return current["id"], earlier["id"]


def scope_args(scope: Scope) -> list[str]:
    return ["--app", scope.app_name, "--user", scope.user_id]


@pytest.fixture
def run(emulator: EmulatorServer, monkeypatch: pytest.MonkeyPatch) -> Cli:
    monkeypatch.setenv("GOOGLE_VERTEX_BASE_URL", emulator.base_url)
    return Cli(emulator)


def test_restore_help_says_it_also_rolls_back_to_an_earlier_value(run: Cli) -> None:
    text = " ".join(run.ok("restore", "--help").split())
    assert "Bring archived memories back, or a Memory Bank memory's earlier value." in text
    assert "rev~N~" in text and "rolls the memory back" in text
    assert "Bring archived memories back, or a Memory Bank" in " ".join(run.ok("--help").split())


def test_a_revision_id_prefix_names_the_earlier_value(run: Cli) -> None:
    memory_id, earlier = run.updated_in_place(ALICE)
    prefix = earlier[:SHOWN]
    assert prefix != earlier

    # The history table prints the prefix; history and restore take it back.
    assert prefix in run.ok("history", memory_id)
    chain = run.ok("history", prefix, "--json")
    assert [r["id"] for r in chain] == [earlier, memory_id]

    restored = run.ok("restore", *scope_args(ALICE), prefix, "--json")
    assert restored == {"restored": [earlier]}
    (now,) = run.ok("list", *scope_args(ALICE), "--json")
    assert (now["id"], now["text"]) == (memory_id, BEFORE)
    # The value it replaced is an earlier value of its own, restorable by prefix in turn.
    _, replaced = run.ok("history", memory_id, "--json")
    assert replaced["text"] == AFTER and replaced["id"] != earlier
    assert run.ok("restore", *scope_args(ALICE), replaced["id"][:SHOWN], "--json") == {
        "restored": [replaced["id"]]
    }
    (again,) = run.ok("list", *scope_args(ALICE), "--json")
    assert again["text"] == AFTER


def test_an_ambiguous_or_unknown_revision_prefix_is_a_clear_error(run: Cli) -> None:
    alice_memory, alice_earlier = run.updated_in_place(ALICE)
    _, bob_earlier = run.updated_in_place(BOB)
    # Both memories have a first revision and the emulator's memory ids all start with 1.
    common = "rev~1~1"
    assert alice_earlier.startswith(common) and bob_earlier.startswith(common)

    ambiguous = run.invoke("history", common)
    assert ambiguous.exit_code != 0
    assert "ambiguous: 2 earlier values match" in ambiguous.output
    assert "Traceback" not in ambiguous.output
    # In one scope the same prefix is unique.
    restored = run.ok("restore", *scope_args(ALICE), common, "--json")
    assert restored == {"restored": [alice_earlier]}
    # Another user's earlier value is no value of this scope; an unknown one is none at all.
    for given in (bob_earlier, bob_earlier[:SHOWN], "rev~9~1"):
        unknown = run.invoke("restore", *scope_args(ALICE), given)
        assert unknown.exit_code != 0 and "no memory revision" in unknown.output, given
    (now,) = run.ok("list", *scope_args(ALICE), "--json")
    assert (now["id"], now["text"]) == (alice_memory, BEFORE)
    (bob_now,) = run.ok("list", *scope_args(BOB), "--json")
    assert bob_now["text"] == AFTER
