"""`adk-memory inspect`: serve the memory inspector on a local port.

The first line on stdout is the URL to open; it carries the access token that every action
(forget, restore, erase) needs. Bound to loopback, pages are readable without it; bound to
anything else, every request needs it.
"""

from __future__ import annotations

import errno
import socket
import sys

import click

from adk_memory.cli.errors import run
from adk_memory.cli.options import chosen_store, store_option
from adk_memory.google_api.endpoints import is_loopback_host

#: Loopback names a browser may send as the Host header.
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
#: Request-line and header bytes accepted: a long playground query must reach the inspector,
#: which answers it with a clear error, rather than be cut off by the HTTP parser.
MAX_REQUEST_HEAD = 256 * 1024


def bind(host: str, port: int) -> socket.socket:
    """A listening socket (port 0: any free port), or a one-line error."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"port {port} is in use; choose another with --port"
            ) from exc
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(host: str, port: int, token: str) -> str:
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    return f"http://{shown}:{port}/?token={token}"


@click.command("inspect")
@store_option
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to bind. Anything but loopback makes every page need the token.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8799,
    show_default=True,
    help="Port to bind (0: any free port).",
)
@click.option(
    "--token",
    default=None,
    help="Access token (env ADK_MEMORY_INSPECTOR_TOKEN; default: a new random one).",
)
@click.pass_context
def inspect(ctx: click.Context, host: str, port: int, token: str | None) -> None:
    """Browse, explain and correct the memories of a store in a web page.

    Prints the URL (with its access token) on the first line, then serves until Ctrl-C.

    \b
    Example:
      adk-memory --store adkmem+sqlite:///./memory.db inspect --port 8799
      adk-memory inspect --host 0.0.0.0   # reachable from elsewhere: token on every page
    """
    from adk_memory.config import Settings
    from adk_memory.inspector.auth import new_token

    token = token or Settings.from_env().inspector_token
    if token is not None and len(token) < 16:
        raise click.BadParameter("use at least 16 characters", param_hint="--token")
    access_token = token or new_token()
    loopback = is_loopback_host(host)
    run(_serve(chosen_store(ctx), host, port, access_token, loopback))


async def _serve(store: str | None, host: str, port: int, token: str, loopback: bool) -> None:
    import uvicorn

    from adk_memory.config import Settings
    from adk_memory.factory import open_engine
    from adk_memory.inspector import create_app

    settings = Settings.from_env()
    engine = await open_engine(store or settings.store_uri, settings=settings)
    try:
        sock = bind(host, port)
        app = create_app(
            engine,
            token=token,
            protect_reads=not loopback,
            allowed_hosts=[*LOOPBACK_HOSTS, host] if loopback else None,
        )
        config = uvicorn.Config(
            app,
            log_level="warning",
            h11_max_incomplete_event_size=MAX_REQUEST_HEAD,
            lifespan="off",
        )
        click.echo(url_of(host, sock.getsockname()[1], token))
        sys.stdout.flush()
        click.echo(f"store: {store or settings.store_uri} (Ctrl-C to stop)", err=True)
        await uvicorn.Server(config).serve(sockets=[sock])
    finally:
        await engine.close()
