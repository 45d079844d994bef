"""The two filter languages Memory Bank accepts, as the emulator evaluates them.

- `filterGroups`: metadata filters in disjunctive normal form (OR of groups, AND within a
  group), each `{key, value{stringValue|doubleValue|boolValue|timestampValue}, op, negate}`.
- `filter`: a subset of AIP-160 over memory fields (`fact`, `create_time`, `update_time`,
  `display_name`, `scope.KEY`, `metadata.KEY`): comparisons joined by AND / OR (AND binds
  tighter). Parentheses and functions are refused with 400 rather than guessed at.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import Any

from adk_memory.testing.emulator.wire import ApiError, metadata_value, parse_time, pick

Memory = dict[str, Any]
Predicate = Callable[[Memory], bool]

_OPS = ("EQUAL", "GREATER_THAN", "LESS_THAN", "OPERATOR_UNSPECIFIED")


def _compare_metadata(stored: dict[str, Any] | None, wanted: dict[str, Any], op: str) -> bool:
    if stored is None:
        return False
    kind = next(iter(wanted))
    if kind not in stored:
        return False
    left: Any = stored[kind]
    right: Any = wanted[kind]
    if kind == "timestampValue":
        # The service compares timestamps at second granularity (SDK docstring).
        left = int(parse_time(left).timestamp())
        right = int(parse_time(right).timestamp())
    if op in ("EQUAL", "OPERATOR_UNSPECIFIED"):
        return bool(left == right)
    if kind == "boolValue":
        raise ApiError(400, f"operator {op} does not apply to boolean metadata")
    return bool(left > right) if op == "GREATER_THAN" else bool(left < right)


def filter_groups_predicate(groups: Any) -> Predicate:
    """A predicate for `filterGroups` (an empty or missing list matches everything).

    Raises:
        ApiError: 400 on a malformed filter.
    """
    if not groups:
        return lambda _memory: True
    if not isinstance(groups, list):
        raise ApiError(400, "filterGroups must be a list")
    compiled: list[list[tuple[str, dict[str, Any], str, bool]]] = []
    for group in groups:
        filters = pick(group, "filters") or []
        if not isinstance(filters, list):
            raise ApiError(400, "filterGroups[].filters must be a list")
        clauses = []
        for item in filters:
            key = pick(item, "key")
            if not isinstance(key, str) or not key:
                raise ApiError(400, f"filter without key: {item!r}")
            op = str(pick(item, "op") or "EQUAL").upper()
            if op not in _OPS:
                raise ApiError(400, f"unknown filter operator {op!r}")
            value = metadata_value(pick(item, "value"))
            clauses.append((key, value, op, bool(pick(item, "negate", False))))
        compiled.append(clauses)

    def predicate(memory: Memory) -> bool:
        metadata = memory.get("metadata") or {}
        return any(
            all(
                _compare_metadata(metadata.get(key), value, op) != negate
                for key, value, op, negate in clauses
            )
            for clauses in compiled
        )

    return predicate


_TERM = re.compile(
    r"""\s*(?P<field>[A-Za-z_][\w.]*)\s*(?P<op><=|>=|!=|=|<|>|:)\s*
        (?P<value>"(?:[^"\\]|\\.)*"|[^\s()"]+)\s*""",
    re.VERBOSE,
)
_JOIN = re.compile(r"\s*(AND|OR)\s+")
_TIME_FIELDS = {"create_time", "update_time", "expire_time"}


def _field_value(memory: Memory, field: str) -> Any:
    if field.startswith("scope."):
        return (memory.get("scope") or {}).get(field[len("scope.") :])
    if field.startswith("metadata."):
        stored = (memory.get("metadata") or {}).get(field[len("metadata.") :])
        return next(iter(stored.values())) if stored else None
    camel_name = {
        "fact": "fact",
        "create_time": "createTime",
        "update_time": "updateTime",
        "expire_time": "expireTime",
        "display_name": "displayName",
    }.get(field)
    if camel_name is None:
        raise ApiError(400, f"unsupported filter field {field!r}")
    return memory.get(camel_name)


def _term_predicate(field: str, op: str, raw: str) -> Predicate:
    value: Any = re.sub(r"\\(.)", r"\1", raw[1:-1]) if raw.startswith('"') else raw
    is_time = field in _TIME_FIELDS
    if is_time:
        value = parse_time(value)

    def predicate(memory: Memory) -> bool:
        stored = _field_value(memory, field)
        if stored is None:
            return op == "!="
        left: Any = parse_time(stored) if is_time else stored
        right: Any = value
        if isinstance(left, bool):
            right = str(value).lower() == "true"
        elif isinstance(left, int | float) and not isinstance(right, datetime):
            try:
                right = float(value)
            except ValueError:
                return False
        if op == ":":
            return str(right) in str(left)
        if op in ("=", "!="):
            return bool(left == right) == (op == "=")
        try:
            return bool(
                {"<": left < right, ">": left > right, "<=": left <= right, ">=": left >= right}[op]
            )
        except TypeError:
            return False

    return predicate


def aip160_predicate(expression: Any) -> Predicate:
    """A predicate for an AIP-160 `filter` string (empty matches everything).

    Raises:
        ApiError: 400 on syntax this emulator does not support.
    """
    if not expression:
        return lambda _memory: True
    if not isinstance(expression, str):
        raise ApiError(400, "filter must be a string")
    disjuncts: list[list[Predicate]] = [[]]
    pos = 0
    while True:
        match = _TERM.match(expression, pos)
        if match is None:
            raise ApiError(400, f"unsupported filter syntax at {expression[pos:]!r}")
        disjuncts[-1].append(_term_predicate(match["field"], match["op"], match["value"]))
        pos = match.end()
        if pos >= len(expression):
            break
        join = _JOIN.match(expression, pos)
        if join is None:
            raise ApiError(400, f"unsupported filter syntax at {expression[pos:]!r}")
        if join.group(1) == "OR":
            disjuncts.append([])
        pos = join.end()

    def predicate(memory: Memory) -> bool:
        return any(all(term(memory) for term in conj) for conj in disjuncts)

    return predicate
