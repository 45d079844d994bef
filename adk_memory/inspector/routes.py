"""The inspector's routes, as a FastAPI router that any app can mount.

Pages are GET (they change nothing: the playground's recalls count no hits); forget, restore
and erase are POST and need the access token (see `adk_memory.inspector.auth`). Every failure
is a page (or JSON, for callers that accept only JSON) with a clear message and a status code,
never a traceback.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from datetime import datetime
from importlib import resources
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from pydantic import ValidationError
from starlette.datastructures import FormData
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from adk_memory.engine import MemoryEngine
from adk_memory.errors import AdkMemoryError, BackendError, InvalidInputError, NotFoundError
from adk_memory.inspector import actions, data, pages
from adk_memory.inspector.auth import Access
from adk_memory.model import MAX_TEXT_CHARS, Kind, Scope, Status, parse_timestamp

logger = logging.getLogger("adk_memory.inspector")

#: Route names are prefixed so the router can sit in an app beside other routes.
NAME = "adk_memory_inspector"
STATIC = {"inspector.css": "text/css", "inspector.js": "text/javascript"}
#: Longest form body an action accepts (an action carries ids, never memory text).
MAX_FORM_BYTES = 16_384

EngineSource = MemoryEngine | Callable[[], Awaitable[MemoryEngine]]


class HttpProblem(Exception):
    """A request the inspector refuses, with its status code and message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class _Links:
    """URLs of the router's pages, wherever it is mounted."""

    def __init__(self, request: Request) -> None:
        self.request = request

    def _url(self, route: str, query: dict[str, str] | None = None, **path: str) -> str:
        url = self.request.url_for(f"{NAME}.{route}", **path).path
        wanted = {k: v for k, v in (query or {}).items() if v}
        return f"{url}?{urlencode(wanted)}" if wanted else url

    @staticmethod
    def _scope(scope: Scope, query: dict[str, str]) -> dict[str, str]:
        return {"app": scope.app_name, "user": scope.user_id, **query}

    def scopes(self) -> str:
        return self._url("scopes")

    def scope(self, scope: Scope, **query: str) -> str:
        return self._url("memories", self._scope(scope, query))

    def memory(self, memory_id: str, scope: Scope) -> str:
        return self._url("memory", self._scope(scope, {}), memory_id=memory_id)

    def recall(self, scope: Scope, **query: str) -> str:
        return self._url("recall", self._scope(scope, query))

    def lifecycle(self, scope: Scope, **query: str) -> str:
        return self._url("lifecycle", self._scope(scope, query))

    def action(self, name: str) -> str:
        return self._url(name)

    def static(self, name: str) -> str:
        return self._url("static", name=name)


def wants_json(request: Request) -> bool:
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def problem_response(request: Request, status: int, message: str) -> Response:
    if wants_json(request):
        return JSONResponse({"error": message, "status": status}, status_code=status)
    return HTMLResponse(pages.error_page(_Links(request), status, message), status_code=status)


class _GuardedRoute(APIRoute):
    """Turns every failure of a handler into a clear page or JSON error."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except HttpProblem as exc:
                return problem_response(request, exc.status, exc.message)
            except NotFoundError as exc:
                return problem_response(request, 404, str(exc))
            except InvalidInputError as exc:
                return problem_response(request, 400, str(exc))
            except ValidationError as exc:
                problem = exc.errors()[0]
                where = ".".join(str(p) for p in problem["loc"]) or "input"
                return problem_response(request, 400, f"invalid {where}: {problem['msg']}")
            except BackendError as exc:
                logger.warning("inspector: backend failed", exc_info=True)
                return problem_response(request, 502, f"the store failed: {exc}")
            except AdkMemoryError as exc:
                return problem_response(request, 400, str(exc))
            except Exception:
                logger.exception("inspector: unexpected failure on %s", request.url.path)
                return problem_response(
                    request, 500, "the inspector failed on this request; see the server log"
                )

        return guarded


def _text(params: Any, name: str, *, limit: int = 256) -> str:
    value = params.get(name)
    text = value.strip() if isinstance(value, str) else ""
    if len(text) > limit:
        raise HttpProblem(400, f"{name} is {len(text)} characters; the limit is {limit}")
    return text


def _scope(params: Any) -> Scope:
    app, user = _text(params, "app"), _text(params, "user")
    if not app or not user:
        raise HttpProblem(400, "name the scope: both app and user are required")
    return Scope(app_name=app, user_id=user)


def _choice(params: Any, name: str, enum: type[Status] | type[Kind]) -> Any:
    value = _text(params, name)
    if not value:
        return None
    try:
        return enum(value)
    except ValueError:
        allowed = ", ".join(m.value for m in enum)
        raise HttpProblem(400, f"unknown {name} {value!r}; expected one of {allowed}") from None


def _now(params: Any) -> datetime | None:
    value = _text(params, "now", limit=64)
    return parse_timestamp(value) if value else None


def _int(params: Any, name: str, default: int | None, low: int, high: int) -> int | None:
    value = _text(params, name, limit=16)
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise HttpProblem(400, f"{name} must be a whole number, got {value!r}") from None
    if not low <= number <= high:
        raise HttpProblem(400, f"{name} must be between {low} and {high}")
    return number


def _float(params: Any, name: str) -> float | None:
    value = _text(params, name, limit=32)
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        raise HttpProblem(400, f"{name} must be a number, got {value!r}") from None


def inspector_router(
    engine: EngineSource, *, token: str | None = None, protect_reads: bool = True
) -> APIRouter:
    """The inspector's pages and actions as a router to mount in a FastAPI app.

    Args:
        engine: The engine to inspect, or an async callable returning it (opened on first
            use, e.g. `AdkMemoryService(...).engine`).
        token: Access token actions need (and pages, with `protect_reads`); None makes the
            inspector read-only.
        protect_reads: Pages need the token too (keep it on anywhere but loopback).

    Returns:
        A router whose routes work under any prefix: `app.include_router(router,
        prefix="/memory")`.
    """
    access = Access(token, protect_reads=protect_reads and token is not None)
    router = APIRouter(route_class=_GuardedRoute)
    opened: list[MemoryEngine] = []

    async def resolve() -> tuple[MemoryEngine, MemoryEngine]:
        if not opened:
            real = engine if isinstance(engine, MemoryEngine) else await engine()
            opened.extend([real, data.quiet_engine(real)])
        return opened[0], opened[1]

    def reader(request: Request) -> tuple[_Links, str | None]:
        if not access.may_read(request):
            raise HttpProblem(403, "this inspector needs its access token: open the printed URL")
        return _Links(request), access.presented_on_read(request)

    def page(request: Request, text: str) -> HTMLResponse:
        response = HTMLResponse(text)
        access.remember(request, response)
        return response

    @router.get("/", name=f"{NAME}.scopes")
    async def scopes_view(request: Request) -> Response:
        links, _ = reader(request)
        real, _quiet = await resolve()
        summaries = await data.scope_summaries(real)
        if wants_json(request):
            return JSONResponse(
                [
                    {
                        "app_name": s.scope.app_name,
                        "user_id": s.scope.user_id,
                        "counts": {k.value: v for k, v in s.counts.items()},
                    }
                    for s in summaries
                ]
            )
        notice = _text(request.query_params, "notice", limit=300)
        return page(request, pages.scopes_page(links, summaries, notice=notice))

    @router.get("/scope", name=f"{NAME}.memories")
    async def memories_view(request: Request) -> Response:
        links, token_ = reader(request)
        params = request.query_params
        scope = _scope(params)
        wanted = data.MemoryFilter(
            status=_choice(params, "status", Status),
            kind=_choice(params, "kind", Kind),
            text=_text(params, "q", limit=1000),
        )
        real, _quiet = await resolve()
        listing = await data.list_memories(real, scope, wanted)
        if wants_json(request):
            return JSONResponse([r.model_dump(mode="json") for r in listing.records])
        notice = _text(params, "notice", limit=300)
        text = pages.memories_page(
            links, listing, wanted, token=token_, read_only=token_ is None, notice=notice
        )
        return page(request, text)

    @router.get("/memory/{memory_id}", name=f"{NAME}.memory")
    async def memory_view(request: Request, memory_id: str) -> Response:
        links, token_ = reader(request)
        params = request.query_params
        scope = _scope(params) if params.get("app") or params.get("user") else None
        real, _quiet = await resolve()
        history = await data.memory_history(real, memory_id, scope)
        if wants_json(request):
            return JSONResponse(history.model_dump(mode="json"))
        notice = _text(params, "notice", limit=300)
        text = pages.history_page(
            links, history, token=token_, read_only=token_ is None, notice=notice
        )
        return page(request, text)

    @router.get("/recall", name=f"{NAME}.recall")
    async def recall_view(request: Request) -> Response:
        links, _ = reader(request)
        params = request.query_params
        scope = _scope(params)
        query = params.get("q") or ""
        if len(query) > MAX_TEXT_CHARS:
            raise HttpProblem(
                413, f"the query is {len(query)} characters; the limit is {MAX_TEXT_CHARS}"
            )
        now = _now(params)
        top_k = _int(params, "top_k", data.PLUGIN_TOP_K, 1, 100) or data.PLUGIN_TOP_K
        max_chars = _int(params, "max_chars", None, 1, 1_000_000)
        _real, quiet = await resolve()
        await data.require_scope(quiet, scope)
        result = None
        if query.strip():
            result = await data.playground(
                quiet, scope, query, now=now, top_k=top_k, max_chars=max_chars
            )
        if wants_json(request) and result is not None:
            return JSONResponse(
                {
                    "ranked": [m.model_dump(mode="json") for m in result.ranked],
                    "block": result.block,
                    "block_chars": result.block_chars,
                    "injected": result.injected,
                }
            )
        text = pages.recall_page(
            links,
            scope,
            query=query,
            now=_text(params, "now", limit=64),
            top_k=top_k,
            max_chars=str(max_chars or ""),
            result=result,
        )
        return page(request, text)

    @router.get("/lifecycle", name=f"{NAME}.lifecycle")
    async def lifecycle_view(request: Request) -> Response:
        links, _ = reader(request)
        params = request.query_params
        scope = _scope(params)
        real, _quiet = await resolve()
        dry = await data.dry_run(
            real, scope, now=_now(params), similarity=_float(params, "similarity")
        )
        if wants_json(request):
            return JSONResponse(
                {
                    "gc": dry.gc.model_dump(mode="json"),
                    "consolidation": dry.consolidation.model_dump(mode="json"),
                }
            )
        text = pages.lifecycle_page(
            links,
            scope,
            dry,
            now=_text(params, "now", limit=64),
            similarity=_text(params, "similarity", limit=32),
        )
        return page(request, text)

    @router.get("/static/{name}", name=f"{NAME}.static")
    async def static_file(name: str) -> Response:
        if name not in STATIC:
            raise HttpProblem(404, f"no static file {name[:64]!r}")
        body = (resources.files("adk_memory.inspector") / "static" / name).read_bytes()
        return Response(body, media_type=STATIC[name], headers={"cache-control": "no-cache"})

    async def acting(request: Request) -> tuple[FormData, Scope]:
        if int(request.headers.get("content-length") or 0) > MAX_FORM_BYTES:
            raise HttpProblem(413, "the form is too large")
        form = await request.form()
        raw = form.get("token")
        if not access.may_act(request, raw if isinstance(raw, str) else None):
            reason = (
                "this inspector is read-only (mounted without a token)"
                if access.token is None
                else "missing or wrong access token: nothing was changed; open the URL that "
                "adk-memory inspect printed"
            )
            raise HttpProblem(403, reason)
        return form, _scope(form)

    def done(request: Request, url: str, payload: dict[str, Any]) -> Response:
        if wants_json(request):
            return JSONResponse(payload)
        return RedirectResponse(url, status_code=303)

    @router.post("/actions/forget", name=f"{NAME}.forget")
    async def forget_action(request: Request) -> Response:
        form, scope = await acting(request)
        real, _quiet = await resolve()
        record = await actions.forget_memory(real, scope, _text(form, "id"))
        links = _Links(request)
        notice = f"Forgot {pages.short(record.id)}: {record.text[:120]}"
        return done(request, links.scope(scope, notice=notice), {"forgot": record.id})

    @router.post("/actions/restore", name=f"{NAME}.restore")
    async def restore_action(request: Request) -> Response:
        form, scope = await acting(request)
        real, _quiet = await resolve()
        wanted = _text(form, "id")
        record = await actions.restore_memory(real, scope, wanted)
        links = _Links(request)
        notice = (
            f"Restored {pages.short(record.id)}: now {record.status.value}"
            if record.id == wanted
            else f"Rolled {pages.short(record.id)} back to an earlier value: {record.text[:120]}"
        )
        url = links.memory(record.id, scope) + "&" + urlencode({"notice": notice})
        payload = {"restored": wanted, "memory": record.id, "status": record.status.value}
        return done(request, url, payload)

    @router.post("/actions/erase", name=f"{NAME}.erase")
    async def erase_action(request: Request) -> Response:
        form, scope = await acting(request)
        real, _quiet = await resolve()
        count = await actions.erase_scope(real, scope, _text(form, "confirm"))
        notice = f"Erased {count} memories of {scope}"
        url = _Links(request).scopes() + "?" + urlencode({"notice": notice})
        return done(request, url, {"erased": count})

    return router


def create_app(
    engine: EngineSource,
    *,
    token: str | None,
    protect_reads: bool,
    allowed_hosts: list[str] | None = None,
) -> FastAPI:
    """A standalone app serving the inspector at `/` (what `adk-memory inspect` runs).

    Args:
        allowed_hosts: Host headers accepted (None: any). On loopback this refuses pages
            fetched through a rebound DNS name.
    """
    app = FastAPI(title="adk-memory inspector", docs_url=None, redoc_url=None, openapi_url=None)
    app.include_router(inspector_router(engine, token=token, protect_reads=protect_reads))
    if allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    return app
