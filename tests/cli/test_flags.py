"""Forgiving, unsurprising flags: where `--store` goes, `.env`, id prefixes, stdin and files,
empty results, score-0 rows, erasing a user."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from adk_memory.cli.main import COMMANDS, cli
from adk_memory.model import Scope
from adk_memory.stores.sqlite.store import SqliteStore
from tests.helpers import make_record

SCOPE = ["--app", "shop", "--user", "alice"]


@pytest.fixture
def store(tmp_path: Path) -> str:
    return f"adkmem+sqlite:///{tmp_path}/flags.db"


def invoke(*args: str, input: str | bytes | None = None, ok: bool = True):
    result = CliRunner().invoke(cli, list(args), input=input)
    if ok:
        assert result.exit_code == 0, result.output
    return result


def remembered(store: str, text: str) -> str:
    out = invoke("remember", "--store", store, *SCOPE, "--json", text)
    memory_id: str = json.loads(out.stdout)["id"]
    return memory_id


def test_store_before_or_after_the_command_is_the_same_store(store: str) -> None:
    memory_id = remembered(store, "I live in Berlin.")
    before = json.loads(invoke("--store", store, "list", *SCOPE, "--json").stdout)
    after = json.loads(invoke("list", *SCOPE, "--json", "--store", store).stdout)
    assert [r["id"] for r in before] == [r["id"] for r in after] == [memory_id]


def test_store_after_the_command_wins_over_one_before_it(store: str, tmp_path: Path) -> None:
    remembered(store, "I live in Berlin.")
    other = f"adkmem+sqlite:///{tmp_path}/other.db"
    listed = invoke("--store", other, "list", *SCOPE, "--json", "--store", store)
    assert len(json.loads(listed.stdout)) == 1


def test_store_named_on_stderr_in_human_mode_only(store: str) -> None:
    human = invoke("--store", store, "list", *SCOPE)
    assert f"store: {store}" in human.stderr
    assert store not in human.stdout
    machine = invoke("--store", store, "list", *SCOPE, "--json")
    assert store not in machine.stderr and store not in machine.stdout
    assert json.loads(machine.stdout) == []


def test_dotenv_is_read_from_the_working_directory_upwards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    nested = project / "agents" / "deep"
    nested.mkdir(parents=True)
    db = tmp_path / "from-dotenv.db"
    (project / ".env").write_text(f"ADK_MEMORY_STORE=adkmem+sqlite:///{db}\n")
    monkeypatch.delenv("ADK_MEMORY_STORE", raising=False)
    monkeypatch.delenv("ADK_DISABLE_LOAD_DOTENV", raising=False)
    monkeypatch.chdir(nested)
    try:
        result = invoke("remember", *SCOPE, "I live in Lisbon.")
        assert f"store: adkmem+sqlite:///{db}" in result.stderr
        assert db.exists()
    finally:
        os.environ.pop("ADK_MEMORY_STORE", None)


def test_dotenv_never_overrides_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, store: str
) -> None:
    (tmp_path / ".env").write_text(f"ADK_MEMORY_STORE=adkmem+sqlite:///{tmp_path}/dotenv.db\n")
    monkeypatch.setenv("ADK_MEMORY_STORE", store)
    monkeypatch.delenv("ADK_DISABLE_LOAD_DOTENV", raising=False)
    monkeypatch.chdir(tmp_path)
    assert f"store: {store}" in invoke("list", *SCOPE).stderr


async def _seed(path: Path, ids: list[str]) -> None:
    scope = Scope(app_name="shop", user_id="alice")
    store = await SqliteStore(path).open()
    try:
        records = [make_record(scope, f"I own {n} bikes.") for n, _ in enumerate(ids)]
        await store.upsert(
            [r.model_copy(update={"id": i}) for r, i in zip(records, ids, strict=True)]
        )
    finally:
        await store.close()


def test_unique_id_prefixes_work_and_ambiguous_ones_are_a_clear_error(tmp_path: Path) -> None:
    ids = ["abcd1111" + "0" * 24, "abcd2222" + "0" * 24, "ffff3333" + "0" * 24]
    asyncio.run(_seed(tmp_path / "ids.db", ids))
    store = f"adkmem+sqlite:///{tmp_path}/ids.db"
    table = invoke("--store", store, "list", *SCOPE).stdout
    assert ids[0][:12] in table and ids[0] not in table  # tables print prefixes ...
    chain = json.loads(invoke("--store", store, "history", ids[0][:12], "--json").stdout)
    assert [r["id"] for r in chain] == [ids[0]]  # ... that work
    ambiguous = invoke("--store", store, "history", "abcd", ok=False)
    assert ambiguous.exit_code == 1 and "ambiguous: 2 memories match" in ambiguous.output
    assert "4+ characters" in invoke("--store", store, "forget", "abc", ok=False).output
    unknown = invoke("--store", store, "history", "0123456789ab", ok=False)
    assert unknown.exit_code == 1 and "no memory" in unknown.output
    deleted = json.loads(invoke("--store", store, "forget", "ffff", "--json").stdout)
    assert deleted == {"deleted": ids[2]}
    scoped = invoke("--store", store, "forget", "--app", "shop", "--user", "bob", "abcd1", ok=False)
    assert "no memory" in scoped.output  # --app/--user narrow the search
    restored = invoke("--store", store, "restore", *SCOPE, "abcd2", "--json")
    assert json.loads(restored.stdout) == {"restored": []}  # found, but not archived


def test_text_from_stdin_and_from_a_file(store: str, tmp_path: Path) -> None:
    from_stdin = invoke("remember", "--store", store, *SCOPE, "--json", "-", input="I like tea.")
    assert json.loads(from_stdin.stdout)["decision"] == "ADD"
    note = tmp_path / "note.txt"
    note.write_text("I'm allergic to peanuts.\n", encoding="utf-8")
    from_file = invoke("remember", "--store", store, *SCOPE, "--json", "--file", str(note))
    assert json.loads(from_file.stdout)["decision"] == "ADD"
    query = invoke("recall", "--store", store, *SCOPE, "--json", "-", input="allergies?")
    assert "peanuts" in json.loads(query.stdout)[0]["text"]
    both = invoke("remember", "--store", store, *SCOPE, "x", "--file", str(note), ok=False)
    assert "not both" in both.output
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    bad = invoke(
        "remember", "--store", store, *SCOPE, "--file", str(tmp_path / "bad.txt"), ok=False
    )
    assert "not UTF-8" in bad.output


def test_empty_results_say_so(store: str) -> None:
    assert "no memories" in invoke("--store", store, "list", *SCOPE).stdout
    assert "no memory matches" in invoke("--store", store, "recall", *SCOPE, "anything?").stdout
    assert json.loads(invoke("--store", store, "recall", *SCOPE, "--json", "x").stdout) == []


def test_recall_does_not_list_rows_whose_score_is_zero(store: str) -> None:
    remembered(store, "I play the cello.")
    # Five centuries on, the fact has decayed to a score that prints as 0: not a match.
    far = invoke("--store", store, "recall", *SCOPE, "--json", "--now", "2500-01-01", "cello?")
    assert json.loads(far.stdout) == []
    near = invoke("--store", store, "recall", *SCOPE, "--json", "cello?")
    assert [r["score"] > 0 for r in json.loads(near.stdout)] == [True]


def test_forget_all_erases_a_user_and_dry_run_only_counts(store: str) -> None:
    remembered(store, "I live in Berlin.")
    remembered(store, "I moved to Munich.")  # supersedes: two records, one active
    invoke("remember", "--store", store, "--app", "shop", "--user", "bob", "I like tea.")
    dry = invoke("--store", store, "forget", *SCOPE, "--all", "--dry-run", "--json")
    assert json.loads(dry.stdout) == {"erased": 2, "dry_run": True}
    assert len(json.loads(invoke("--store", store, "list", *SCOPE, "--json").stdout)) == 2
    done = invoke("--store", store, "forget", *SCOPE, "--all", "--json")
    assert json.loads(done.stdout) == {"erased": 2}
    assert json.loads(invoke("--store", store, "list", *SCOPE, "--json").stdout) == []
    bob = invoke("--store", store, "list", "--app", "shop", "--user", "bob", "--json")
    assert len(json.loads(bob.stdout)) == 1
    assert "--all needs --app" in invoke("--store", store, "forget", "--all", ok=False).output


def test_help_lists_every_command_with_its_own_first_line() -> None:
    for name, (_, short) in COMMANDS.items():
        command = cli.get_command(None, name)  # type: ignore[arg-type]
        assert command is not None and command.help is not None
        assert command.help.strip().splitlines()[0] == short, name
        assert short in " ".join(invoke("--help").stdout.split())


def test_demo_json_prints_one_document(tmp_path: Path) -> None:
    result = invoke("demo", "--json", "--store-dir", str(tmp_path))
    report = json.loads(result.stdout)
    assert report["store"].endswith("memory.db")
    assert len(report["sessions"]) == 3 and report["live"]
    assert "on the rocks" in report["whiskey"][-1]


def test_forget_all_drops_the_users_pending_saves_too(
    store: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from google.adk.events.event import Event
    from google.genai import types

    from adk_memory.adk.outbox import Outbox, default_outbox_path

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    default_outbox_path().parent.mkdir(parents=True)
    outbox = Outbox(default_outbox_path())
    said = Event(
        author="user", content=types.Content(role="user", parts=[types.Part(text="I like tea.")])
    )
    for user in ("alice", "bob"):
        outbox.put("dest", app_name="shop", user_id=user, session_id="s", events=[said])
    remembered(store, "I live in Berlin.")
    invoke("--store", store, "forget", *SCOPE, "--all", "--json")
    assert outbox.count() == 1  # bob's save waits; alice's is gone with her memories
    outbox.close()
