"""Lexical relevance: a memory sharing one word of the query does not take the whole lexical
half of the score."""

from __future__ import annotations

from pathlib import Path

from adk_memory.model import Scope
from adk_memory.stores.sqlite.store import SqliteStore, query_coverage
from tests.helpers import make_record, vector

SCOPE = Scope(app_name="a", user_id="u")


def test_query_coverage_counts_the_query_words_a_text_holds_in_any_form() -> None:
    terms = ["book", "reading"]
    assert query_coverage("User: I'm reading a book about bees.", terms) == 1.0
    assert query_coverage("User: I can't read my own handwriting.", terms) == 0.5
    assert query_coverage("User: I love bees.", terms) == 0.0
    assert query_coverage("anything", []) == 1.0
    # Whom the query is about is no word a memory must hold ("Where does the user live?").
    assert query_coverage("I live in Berlin.", ["user", "live"]) == 1.0


async def test_one_shared_word_of_the_query_weighs_less_than_all_of_them(tmp_path: Path) -> None:
    store = await SqliteStore(tmp_path / "m.db").open()
    try:
        one = make_record(SCOPE, "User: My blood type is O negative.")
        all_of_them = make_record(SCOPE, "User: My blood pressure medication is amlodipine.")
        await store.upsert([one, all_of_them])
        hits = await store.search(
            SCOPE,
            vector=vector("blood"),
            query="What blood pressure medication am I on?",
            k=5,
        )
        lexical = {h.record.id: h.lexical for h in hits}
        # Without the scaling, bm25 relative to the best match leaves the one-word match near it.
        assert lexical[all_of_them.id] > 0.5
        assert lexical[one.id] <= 0.25  # one of the query's four words
    finally:
        await store.close()
