"""Regular expressions compiled on first use, and readers of a text remembered."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any, Concatenate, ParamSpec, TypeVar


class LazyPattern:
    """A regular expression compiled on its first use, then kept.

    Every `recall` imports the cues package (to order its answers) but needs few of its
    patterns; compiling all of them at import cost ~25 ms of CPU per CLI command. The
    methods are those of `re.Pattern`, with the same results.
    """

    __slots__ = ("_compiled", "_flags", "_pattern")

    def __init__(self, pattern: str, flags: re.RegexFlag | int = 0) -> None:
        self._pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    @property
    def compiled(self) -> re.Pattern[str]:
        # Two threads may both compile it first: the same pattern either way.
        if self._compiled is None:
            self._compiled = re.compile(self._pattern, self._flags)
        return self._compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled.match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled.fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled.finditer(string, pos, endpos)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled.split(string, maxsplit)

    def sub(self, repl: str, string: str, count: int = 0) -> str:
        return self.compiled.sub(repl, string, count)


#: Statements up to this long have what their wording says remembered: recall reads the same
#: memories' wording query after query, and a short text's entry costs little.
_CACHED_CHARS = 600
_P = ParamSpec("_P")
_R = TypeVar("_R")


def remembered(read: Callable[Concatenate[str, _P], _R]) -> Callable[Concatenate[str, _P], _R]:
    """`read` of a text, remembered (4,096 entries) for texts up to `_CACHED_CHARS` long."""
    cached = functools.lru_cache(maxsize=4096)(read)

    @functools.wraps(read)
    def reader(text: str, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if len(text) <= _CACHED_CHARS:
            # Every remembered reader takes only a string and flags: all hashable.
            return cached(text, *args, **kwargs)  # type: ignore[arg-type]
        return read(text, *args, **kwargs)

    return reader
