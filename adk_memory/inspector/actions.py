"""The inspector's state-changing actions, each one public engine or lifecycle call."""

from __future__ import annotations

from adk_memory.engine import MemoryEngine
from adk_memory.errors import InvalidInputError
from adk_memory.inspector.data import get_memory, is_revision, require_scope
from adk_memory.lifecycle import restore
from adk_memory.model import MemoryRecord, Scope, Status


async def forget_memory(engine: MemoryEngine, scope: Scope, memory_id: str) -> MemoryRecord:
    """Deletes one memory of `scope` for good. Returns what was deleted.

    Raises:
        NotFoundError: if the scope has no such memory.
    """
    record = await get_memory(engine, memory_id, scope)
    return await engine.forget(record.id, scope)


async def restore_memory(engine: MemoryEngine, scope: Scope, memory_id: str) -> MemoryRecord:
    """Brings an archived memory of `scope` back, or makes an earlier value of a memory
    current again (one its store keeps as a revision, as history shows it: Memory Bank).

    Returns:
        The memory as it is now (for an earlier value: the memory it was rolled back into).

    Raises:
        NotFoundError: if the scope has no such memory or earlier value.
        InvalidInputError: if the memory is neither archived nor an earlier value.
    """
    record = await get_memory(engine, memory_id, scope)
    if is_revision(engine, record.id) and record.superseded_by:
        await restore(engine, scope, [record.id])
        return await engine.get(record.superseded_by, scope)
    if record.status is not Status.ARCHIVED:
        raise InvalidInputError(
            f"memory {record.id} is {record.status.value}; only archived memories (and, on "
            "Memory Bank, the earlier values its history lists) can be restored"
        )
    await restore(engine, scope, [record.id])
    return await engine.get(record.id, scope)


async def erase_scope(engine: MemoryEngine, scope: Scope, confirmation: str) -> int:
    """Erases every memory of a user once `confirmation` repeats the user id exactly.

    Returns:
        How many records were removed.

    Raises:
        InvalidInputError: if the confirmation does not match (nothing is erased).
        NotFoundError: if the scope holds no record.
    """
    if confirmation != scope.user_id:
        raise InvalidInputError(
            f"the confirmation must be the user id {scope.user_id!r} typed exactly; "
            "nothing was erased"
        )
    await require_scope(engine, scope)
    return await engine.erase(scope)
