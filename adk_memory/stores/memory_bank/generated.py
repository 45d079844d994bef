"""`MemoryBankGeneratedStore`: Memory Bank writes and consolidates the memories itself.

Selected by `adkmem+memorybank://...?consolidation=server`. A new record goes to Memory Bank
as an event of a generation stream (`memories:ingestEvents`, the call ADK's own
`VertexAiMemoryBankService` makes): the stream is the record's session, the event id is the
record id, so Memory Bank de-duplicates a retried or replayed write, and `force_flush` has
the generation run before the call returns. Memory Bank's model decides what it keeps and
merges the fact into an existing memory where it says the same thing; every memory it writes
carries the record's metadata (`metadata_merge_strategy=OVERWRITE`), so it reads back as that
record (its `rid`) with the fact sentence Memory Bank wrote.

The store calls no model of its own: generation is Memory Bank's. Updates of a record that
already exists (status, hits) patch its metadata as in `MemoryBankStore`, whose reads,
deletes, erase and single-valued slot re-check this class shares.

When Memory Bank merges a new statement into an existing memory it updates the fact in place
and keeps the earlier one as a revision; `history` shows those (`MemoryBankStore.revisions`,
timed by the revision labels each write carries) and `restore` rolls back to one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adk_memory.model import MemoryRecord, Scope
from adk_memory.stores.memory_bank import codec
from adk_memory.stores.memory_bank.direct import MemoryBankStore

#: The stream of records that name no session.
DEFAULT_STREAM = "adk-memory"


class MemoryBankGeneratedStore(MemoryBankStore):
    """A `MemoryStore` on one Memory Bank whose memories Memory Bank generates.

    Takes the same arguments as `MemoryBankStore`.
    """

    consolidation = "server"

    async def _find(self, record_id: str, scope: Scope | None) -> tuple[Any, MemoryRecord] | None:
        found = await super()._find(record_id, scope)
        if found is not None:
            return found
        # Memory Bank named the memory itself: find it by the record id in its metadata, in
        # the scope, or (a lookup by id alone: history, the CLI) in a listing of the engine.
        memories = (
            await self.api.list_all()
            if scope is None
            else await self.api.retrieve_all(
                codec.scope_dict(scope), codec.rid_filter_groups(record_id)
            )
        )
        for memory in memories:
            hit = self._accept(memory, record_id, scope)
            if hit is not None:
                return hit
        return None

    async def _generated(self, record: MemoryRecord) -> list[Any]:
        """The memories Memory Bank wrote for a record (they carry its id)."""
        return await self.api.retrieve_all(
            codec.scope_dict(record.scope), codec.rid_filter_groups(record.id)
        )

    async def _store(self, record: MemoryRecord) -> None:
        found = await self._find(record.id, record.scope)
        if found is not None:
            # Known already: a metadata update (status, hits), not a new statement.
            await self._patch(found[0], record)
            return
        event = {
            "content": {"role": "user", "parts": [{"text": record.text}]},
            "event_id": record.id,
            "event_time": record.stated_at,
        }
        await self.api.ingest_events(
            codec.scope_dict(record.scope),
            stream_id=record.source.session_id or DEFAULT_STREAM,
            events=[event],
            metadata=codec.encode_metadata(record),
            # Revisions carry no metadata: the labels keep who stated each value, and when.
            revision_labels=codec.revision_labels(record),
        )

    async def replace(self, new: MemoryRecord, superseded_ids: Sequence[str]) -> list[str]:
        """Generates `new`, then supersedes the active `superseded_ids` it did not merge into.

        Not atomic like `MemoryBankStore.replace`: the generation is one call whose memories
        are only known afterwards. A failure after it leaves the old value active beside the
        new one, a dated duplicate recall orders, never a lost fact.
        """
        targets = await self._active_targets(new, superseded_ids)
        await self._store(new)
        # Memory Bank may have merged the new fact into one of the old memories.
        touched = {codec.memory_id_of(m) for m in await self._generated(new)}
        targets = [
            t
            for t in targets
            if codec.memory_id_for(t) not in touched and codec.foreign_memory_id(t) not in touched
        ]
        superseded = await self._supersede(new.scope, targets, new.id)
        await self._converge([new])
        return superseded


__all__ = ["DEFAULT_STREAM", "MemoryBankGeneratedStore"]
