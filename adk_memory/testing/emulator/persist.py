"""The one way every emulator surface reads and writes its JSON state file.

A save writes a temporary file in the same directory, flushes it to disk (`fsync`) and
renames it over the old one (`os.replace`, atomic on POSIX and Windows), then syncs the
directory so the rename itself survives a power cut. A crash at any point leaves either
the previous file or the new one, never a torn mix.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def save_json_atomic(path: Path, payload: Any) -> None:
    """Writes `payload` as JSON to `path`, replacing the old file atomically.

    Raises:
        OSError: when the directory is not writable (the old file is left as it was).
        TypeError: when `payload` is not JSON-serialisable (nothing is written).
    """
    text = json.dumps(payload)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _sync_directory(path.parent)


def load_json(path: Path) -> Any | None:
    """The JSON saved at `path`, or None when there is no file yet.

    Raises:
        RuntimeError: when the file exists but cannot be read or parsed.
    """
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RuntimeError(f"cannot read emulator data {path}: {exc}") from exc


def _sync_directory(directory: Path) -> None:
    # Directories cannot be opened for fsync on Windows; the rename is durable enough there.
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
