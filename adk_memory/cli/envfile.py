"""`.env` loading the way `adk` does it: the nearest `.env` from the working directory up.

ADK (`google.adk.cli.utils.envs`) walks from the agent's folder to the root, loads the first
`.env` it finds, keeps variables already set in the environment, and skips all of it when
`ADK_DISABLE_LOAD_DOTENV` is set. The CLI does the same from the working directory, so the
`.env` that Terraform (or `adk-memory emulator`) wrote works for `adk-memory` and `adk` alike.
"""

from __future__ import annotations

import os
from pathlib import Path

DISABLE_ENV = "ADK_DISABLE_LOAD_DOTENV"


def find_env_file(start: Path, name: str = ".env") -> Path | None:
    """The nearest file called `name` in `start` or one of its parents."""
    for folder in (start, *start.parents):
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def load_env_file(start: Path | None = None) -> Path | None:
    """Loads the nearest `.env` into `os.environ` without overriding what is set already.

    Returns:
        The file loaded, or None when there is none (or loading is disabled).
    """
    if os.environ.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return None
    try:
        found = find_env_file(start or Path.cwd())
    except OSError:  # the working directory was removed, or a parent is unreadable
        return None
    if found is None:
        return None
    from dotenv import dotenv_values

    for key, value in dotenv_values(found).items():
        if value is not None and key not in os.environ:
            os.environ[key] = value
    return found
