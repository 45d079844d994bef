"""Wording cues: patterns compiled on their first use, read as `re.Pattern` reads."""

from __future__ import annotations

import re
import subprocess
import sys

from adk_memory.extraction.cues.lazy import LazyPattern

_SOURCE = r"(?P<x>\w+) and"
_TEXT = "Tea AND coffee and cake and"


def test_a_lazy_pattern_reads_as_the_compiled_pattern() -> None:
    lazy, compiled = LazyPattern(_SOURCE, re.IGNORECASE), re.compile(_SOURCE, re.IGNORECASE)

    def spans(found: re.Match[str] | None) -> tuple[int, int] | None:
        return None if found is None else found.span()

    for pos, endpos in ((0, len(_TEXT)), (4, 18), (9, 12)):
        assert spans(lazy.search(_TEXT, pos, endpos)) == spans(compiled.search(_TEXT, pos, endpos))
        assert spans(lazy.match(_TEXT, pos, endpos)) == spans(compiled.match(_TEXT, pos, endpos))
        assert spans(lazy.fullmatch(_TEXT, pos, endpos)) == spans(
            compiled.fullmatch(_TEXT, pos, endpos)
        )
        assert [m.span() for m in lazy.finditer(_TEXT, pos, endpos)] == [
            m.span() for m in compiled.finditer(_TEXT, pos, endpos)
        ]
    assert lazy.split(_TEXT, 1) == compiled.split(_TEXT, 1)
    assert lazy.sub("&", _TEXT, 2) == compiled.sub("&", _TEXT, 2)
    assert lazy.compiled is lazy.compiled


def test_importing_the_cues_compiles_none_of_their_patterns() -> None:
    # In a fresh interpreter: this one has long since imported and used them.
    spy = (
        "import re, sys\n"
        "real, callers = re.compile, []\n"
        "def compile(pattern, flags=0):\n"
        "    callers.append(sys._getframe(1).f_code.co_filename)\n"
        "    return real(pattern, flags)\n"
        "re.compile = compile\n"
        "import adk_memory.extraction.cues\n"
        "print(sum('extraction/cues/' in caller for caller in callers))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", spy], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "0"
