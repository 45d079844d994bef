"""The inspector's access token.

The token is part of the URL `adk-memory inspect` prints. A page opened with it stores it in
a same-site cookie, so links need not carry it. Reads may be open (loopback) or need the
token (anything else). Every state-changing request needs the token *in the form or a header*,
never from the cookie alone: another site's page can make a browser send a POST with the
cookie, but it cannot read the token to put in the form.
"""

from __future__ import annotations

import hmac
import secrets

from starlette.requests import Request
from starlette.responses import Response

COOKIE = "adk_memory_inspector_token"
HEADER = "x-inspector-token"


def new_token() -> str:
    """A fresh, unguessable access token (URL-safe)."""
    return secrets.token_urlsafe(24)


class Access:
    """Who may read and who may act.

    Args:
        token: The access token; None disables every action (a read-only inspector).
        protect_reads: Pages need the token too (anything not bound to loopback).
    """

    def __init__(self, token: str | None, *, protect_reads: bool) -> None:
        if token is not None and len(token) < 16:
            raise ValueError("the inspector token must be at least 16 characters")
        if protect_reads and token is None:
            raise ValueError("protected reads need a token")
        self.token = token
        self.protect_reads = protect_reads

    def _valid(self, presented: str | None) -> bool:
        if self.token is None or not presented:
            return False
        return hmac.compare_digest(presented.encode(), self.token.encode())

    def presented_on_read(self, request: Request) -> str | None:
        """The valid token a page request carries (query, header or cookie), if any."""
        for candidate in (
            request.query_params.get("token"),
            request.headers.get(HEADER),
            request.cookies.get(COOKIE),
        ):
            if self._valid(candidate):
                return self.token
        return None

    def may_read(self, request: Request) -> bool:
        return not self.protect_reads or self.presented_on_read(request) is not None

    def may_act(self, request: Request, form_token: str | None) -> bool:
        """A state-changing request: the token must be in the form or the header."""
        return self._valid(form_token) or self._valid(request.headers.get(HEADER))

    def remember(self, request: Request, response: Response) -> None:
        """Stores a token given in the query string in the cookie, for the next pages."""
        if self._valid(request.query_params.get("token")) and self.token is not None:
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="strict", path="/")
