"""The router mounted beside ADK's own routes in the app `get_fast_api_app` builds (what
`adk api_server` serves), as the README shows."""

from __future__ import annotations

from pathlib import Path

import httpx
from google.adk.cli.fast_api import get_fast_api_app

from adk_memory import AdkMemoryService, inspector_router
from adk_memory.inspector import new_token
from adk_memory.model import Scope

REPO = Path(__file__).resolve().parents[2]


async def test_inspector_mounts_beside_the_adk_api_server(tmp_path: Path) -> None:
    memory = AdkMemoryService(store_uri=f"adkmem+sqlite://{tmp_path.as_posix()}/m.db")
    app = get_fast_api_app(
        agents_dir=str(REPO / "agents"),
        web=False,
        session_service_uri="memory://",
        artifact_service_uri="memory://",
    )
    token = new_token()
    app.include_router(inspector_router(memory.engine, token=token), prefix="/memory")
    engine = await memory.engine()
    await engine.remember(Scope(app_name="memory_agent", user_id="u1"), "I live in Berlin.")

    def client() -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app)
        return httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")

    try:
        async with client() as http:
            assert (await http.get("/list-apps")).json() == ["memory_agent"]
            assert (await http.get("/memory/")).status_code == 403  # reads need the token
            page = await http.get("/memory/", params={"token": token})
            assert page.status_code == 200
            assert 'href="/memory/scope?app=memory_agent&amp;user=u1"' in page.text
            scope = await http.get("/memory/scope", params={"app": "memory_agent", "user": "u1"})
            assert scope.status_code == 200 and "I live in Berlin." in scope.text
    finally:
        await memory.close()
