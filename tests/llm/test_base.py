"""The one validate-and-correct loop and the lenient reading of a reply's JSON."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pydantic import BaseModel, ValidationError

from adk_memory.llm.base import (
    ModelCallError,
    ModelReply,
    Turn,
    generate_validated,
    parse_json_reply,
    schema_hint,
)


class Reply(BaseModel):
    text: str
    count: int


class Scripted:
    """A `Send` that answers with the given texts in turn and records each conversation."""

    def __init__(self, *texts: str | ModelCallError) -> None:
        self.texts = list(texts)
        self.seen: list[list[Turn]] = []

    async def __call__(self, turns: Sequence[Turn]) -> ModelReply:
        self.seen.append(list(turns))
        item = self.texts.pop(0)
        if isinstance(item, ModelCallError):
            raise item
        return ModelReply(text=item, tokens=10)


@pytest.mark.parametrize(
    "text",
    [
        '{"text": "a", "count": 1}',
        '```json\n{"text": "a", "count": 1}\n```',
        '```\n{"text": "a", "count": 1}```',
        'Sure! Here it is: {"text": "a", "count": 1} Anything else?',
    ],
)
def test_json_is_read_plain_fenced_or_inside_prose(text: str) -> None:
    assert parse_json_reply(text, Reply) == Reply(text="a", count=1)


@pytest.mark.parametrize(
    "text", ['{"text": "a", "count": 1', '{"text": "a"}', "no JSON here", "", '["a", 1]']
)
def test_cut_off_or_off_schema_json_is_invalid(text: str) -> None:
    with pytest.raises(ValidationError):
        parse_json_reply(text, Reply)


def test_the_schema_hint_names_every_field_without_titles() -> None:
    hint = schema_hint(Reply)
    assert '"text"' in hint and '"count"' in hint
    assert '"title"' not in hint


async def test_a_valid_first_reply_costs_one_call() -> None:
    send = Scripted('{"text": "a", "count": 1}')
    reply, usage = await generate_validated(send, what="m", prompt="p", schema=Reply)
    assert reply.count == 1
    assert (usage.calls, usage.tokens) == (1, 10)


async def test_an_invalid_reply_is_corrected_once_with_its_error() -> None:
    send = Scripted('{"text": "a"}', '{"text": "a", "count": 2}')
    reply, usage = await generate_validated(send, what="m", prompt="p", schema=Reply)
    assert reply.count == 2
    assert (usage.calls, usage.tokens) == (2, 20)
    roles = [role for role, _ in send.seen[1]]
    assert roles == ["user", "model", "user"]
    assert send.seen[1][1][1] == '{"text": "a"}'
    assert "count" in send.seen[1][2][1]


async def test_a_check_failure_counts_as_invalid() -> None:
    def check(reply: Reply) -> None:
        if reply.count < 0:
            raise ValueError("count must not be negative")

    send = Scripted('{"text": "a", "count": -1}', '{"text": "a", "count": -2}')
    with pytest.raises(ModelCallError, match="negative") as caught:
        await generate_validated(send, what="m", prompt="p", schema=Reply, check=check)
    assert caught.value.usage.calls == 2


async def test_a_failed_call_keeps_the_usage_of_earlier_replies() -> None:
    class Down(ModelCallError):
        pass

    send = Scripted('{"text": "a"}', ModelCallError("down"))
    with pytest.raises(Down) as caught:
        await generate_validated(send, what="m", prompt="p", schema=Reply, error=Down)
    assert (caught.value.usage.calls, caught.value.usage.tokens) == (1, 10)
