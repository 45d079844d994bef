"""`StructuredModel`: one model call that answers with JSON validated against a pydantic schema.

Every implementation sends the conversation its own way (google-genai, an ADK `BaseLlm`) and
hands the reply's text to `generate_validated`, the one loop that decides what happens next:
a reply that fails validation is shown its error and asked once more; a second failure, or a
call that failed after its bounded retries, raises `ModelCallError` carrying the usage spent,
and the caller falls back to its local model.

Replies are read leniently before validation (`parse_json_reply`): a model that cannot be
constrained to a schema often wraps its JSON in a ```json fence or a sentence.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel, ValidationError

from adk_memory.errors import ExtractionError
from adk_memory.extraction.base import Usage

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)

#: Who said a turn of the conversation sent to the model.
Role = Literal["user", "model"]
Turn = tuple[Role, str]

#: Validation errors echoed back to the model are cut: the model needs the gist, not a dump.
MAX_ERROR_ECHO = 1500
_FENCED = re.compile(r"```(?:json|JSON)?[ \t]*\n?(.*?)```", re.DOTALL)


class ModelCallError(ExtractionError):
    """A model call failed after its bounded retries, or never produced a valid reply.

    `usage` holds what the failed attempts cost, so callers still account for it.
    """

    def __init__(self, message: str, *, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage or Usage()


@dataclass(frozen=True, kw_only=True)
class ModelReply:
    """The text of one model answer and the tokens it was billed for."""

    text: str
    tokens: int = 0


#: Sends the conversation once (with its own bounded retries) and returns the reply; raises
#: `ModelCallError` when no reply came.
Send = Callable[[Sequence[Turn]], Awaitable[ModelReply]]


@runtime_checkable
class StructuredModel(Protocol):
    """A model that answers a prompt with an instance of a pydantic schema."""

    @property
    def name(self) -> str:
        """The model, as named in logs and errors (e.g. `gemini-2.5-flash`)."""
        ...

    async def generate_json(
        self,
        *,
        system_instruction: str,
        prompt: str,
        schema: type[M],
        check: Callable[[M], None] | None = None,
    ) -> tuple[M, Usage]:
        """One call at temperature 0 whose reply must validate against `schema`.

        Args:
            system_instruction: The task's standing instructions.
            prompt: The user turn (instructions and the fenced JSON payload).
            schema: The reply's pydantic model.
            check: Further validation; raises ValueError to ask the model again.

        Returns:
            The validated reply and the usage of every call made.

        Raises:
            ModelCallError: after exhausted retries, a permanent error, or two invalid
                replies; its `usage` counts the calls that did get a reply.
        """
        ...


def parse_json_reply(text: str, schema: type[M]) -> M:
    """Validates a reply as `schema`: the text as is, else the JSON inside a fence or a
    sentence (the first `{` to the last `}`).

    Raises:
        ValidationError: the error of the text as is, when no reading validates.
    """
    try:
        return schema.model_validate_json(text)
    except ValidationError as first:
        for candidate in _embedded_json(text):
            try:
                return schema.model_validate_json(candidate)
            except ValidationError:
                continue
        raise first


def _embedded_json(text: str) -> list[str]:
    found = [m.group(1).strip() for m in _FENCED.finditer(text)]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        found.append(text[start : end + 1])
    return found


def schema_hint(schema: type[BaseModel]) -> str:
    """The reply's JSON schema as an instruction, for models that ignore `response_schema`.

    Titles are left out: pydantic repeats every field name as one, and each costs tokens on
    every call.
    """
    document = json.dumps(_untitled(schema.model_json_schema()), separators=(",", ":"))
    return (
        "Reply with only one JSON object, no prose and no code fence, that validates "
        f"against this JSON schema:\n{document}"
    )


def _untitled(node: Any) -> Any:
    if isinstance(node, dict):
        return {
            k: _untitled(v)
            for k, v in node.items()
            # "title" as a key of `properties` is a field name, not a title.
            if k != "title" or not isinstance(v, str)
        }
    if isinstance(node, list):
        return [_untitled(v) for v in node]
    return node


async def generate_validated(
    send: Send,
    *,
    what: str,
    prompt: str,
    schema: type[M],
    check: Callable[[M], None] | None = None,
    error: type[ModelCallError] = ModelCallError,
) -> tuple[M, Usage]:
    """Asks through `send` until a reply validates: at most twice, the second time with the
    first reply and its validation error in the conversation.

    Args:
        send: Sends a conversation once (its own retries included).
        what: Names the model in logs and errors.
        prompt: The first user turn.
        schema: The reply's pydantic model.
        check: Further validation; a ValueError counts as an invalid reply.
        error: The `ModelCallError` subclass raised.

    Returns:
        The validated reply and the usage of every call that got a reply.

    Raises:
        ModelCallError (as `error`): when a call fails, or both replies are invalid.
    """
    turns: list[Turn] = [("user", prompt)]
    usage = Usage()
    problem = ""
    for round_ in range(2):
        try:
            reply = await send(list(turns))
        except ModelCallError as exc:
            raise error(str(exc), usage=usage + exc.usage) from exc
        usage = usage + Usage(calls=1, tokens=reply.tokens)
        try:
            value = parse_json_reply(reply.text, schema)
            if check is not None:
                check(value)
            return value, usage
        except (ValidationError, ValueError) as exc:
            problem = str(exc)[:MAX_ERROR_ECHO]
        logger.warning("%s reply failed validation (round %d): %s", what, round_ + 1, problem)
        turns += [
            # An empty turn is rejected by some APIs; the model still needs to see its turn.
            ("model", reply.text or "(empty reply)"),
            (
                "user",
                "Your reply did not validate against the response schema:\n"
                f"{problem}\nReply again with only the corrected JSON.",
            ),
        ]
    raise error(f"{what} replies failed validation twice: {problem}", usage=usage)


__all__ = [
    "ModelCallError",
    "ModelReply",
    "Role",
    "Send",
    "StructuredModel",
    "Turn",
    "generate_validated",
    "parse_json_reply",
    "schema_hint",
]
