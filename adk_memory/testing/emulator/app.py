"""The emulator's FastAPI application: Memory Bank, Gemini (when present), fault injection.

`create_app()` composes the surfaces over one shared `EmulatorState`, so faults configured
through `POST /emulator/faults` apply to every backend the server fakes.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from adk_memory.testing.emulator import memory_bank, vector_search
from adk_memory.testing.emulator.faults import FaultConfig, FaultInjector, FaultState, error_body
from adk_memory.testing.emulator.memory_bank_state import MemoryBankState

#: Paths under this prefix are the emulator's own admin API: never faulted.
ADMIN_PREFIX = "/emulator/"
_GEMINI_MODULE = "adk_memory.testing.emulator.gemini"


def _local_embed(texts: Sequence[str]) -> np.ndarray:
    from adk_memory.embedding.local import LocalEmbedder

    return LocalEmbedder().embed_sync(texts)


@dataclass
class EmulatorState:
    """Everything one emulator server holds; shared by all its surfaces."""

    faults: FaultInjector = field(default_factory=FaultInjector)
    embed_sync: Callable[[Sequence[str]], np.ndarray] = _local_embed
    data_path: Path | None = None
    memory_bank: MemoryBankState = field(init=False)

    def __post_init__(self) -> None:
        self.memory_bank = MemoryBankState(self.embed_sync, data_path=self.data_path)


class EngineRequest(BaseModel):
    """Body of `POST /emulator/engines`: make sure an engine with this id exists."""

    project: str = "emulator-project"
    location: str = "us-central1"
    engine_id: str
    display_name: str = "adk-memory"


def _include_gemini(app: FastAPI, state: EmulatorState) -> bool:
    """Mounts the Gemini surface if its module is installed. Returns whether it was."""
    if importlib.util.find_spec(_GEMINI_MODULE) is None:
        return False
    module = importlib.import_module(_GEMINI_MODULE)
    register = getattr(module, "register_gemini_routes", None)
    if callable(register):
        register(app, state)
        return True
    router = getattr(module, "router", None)
    if router is not None:
        app.include_router(router)
        return True
    return False


def create_app(state: EmulatorState | None = None) -> FastAPI:
    """Builds the emulator app over `state` (a fresh in-memory one by default)."""
    state = state or EmulatorState()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await state.memory_bank.load()
        yield

    app = FastAPI(title="adk-memory emulator", lifespan=lifespan)
    app.state.emulator = state
    app.state.memory_bank = state.memory_bank

    @app.middleware("http")
    async def inject_faults(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        if request.url.path.startswith(ADMIN_PREFIX):
            return await call_next(request)
        failure = await state.faults.apply()
        if failure is not None:
            code, message = failure
            return JSONResponse(error_body(code, message), status_code=code)
        return await call_next(request)

    @app.get("/emulator/health")
    async def health() -> dict[str, object]:
        return {"ok": True, "engines": len(state.memory_bank.engines), "gemini": gemini}

    @app.get("/emulator/faults")
    async def get_faults() -> FaultState:
        return state.faults.state()

    @app.post("/emulator/faults")
    async def set_faults(config: FaultConfig) -> FaultState:
        state.faults.configure(config)
        return state.faults.state()

    @app.post("/emulator/engines")
    async def ensure_engine(body: EngineRequest) -> dict[str, object]:
        return state.memory_bank.ensure_engine(
            body.project, body.location, body.engine_id, body.display_name
        )

    gemini = _include_gemini(app, state)
    app.include_router(memory_bank.router)
    vector_search.register_vector_search_routes(app, state)
    return app
