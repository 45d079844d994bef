"""Where credentials may be sent: Google's API hosts, or an emulator on this machine.

An API key or an access token is a secret; a base URL override (`GOOGLE_VERTEX_BASE_URL`,
`GOOGLE_GEMINI_BASE_URL`, a store URI's `?base_url=`) decides where it goes. So every override
is checked here before a client is built:

- a loopback host (`localhost`, 127.0.0.0/8, `::1`, an IPv4-mapped loopback such as
  `::ffff:127.0.0.1`) is the emulator: allowed over http or https, with fake token credentials
  (`emulator_credentials`) when no real ones are wanted;
- a Google API host (`*.googleapis.com`, and `*.vertexai.goog`, where Vector Search serves
  public endpoints) is allowed over https;
- anything else is refused with a `ConfigError`, unless the user opts in explicitly
  (`trusted=True`: `?trust_base_url=1` on a store URI, `ADK_MEMORY_TRUST_BASE_URL=1` for
  Gemini), e.g. for a corporate gateway they run.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from adk_memory.errors import ConfigError

if TYPE_CHECKING:
    from google.oauth2.credentials import Credentials

#: Host suffixes Google serves its APIs from (regional, `rep`, `mtls` and `p` forms included).
GOOGLE_HOST_SUFFIXES = (".googleapis.com", ".vertexai.goog")
#: The token the emulator receives; it checks none, the SDKs only need one to send.
EMULATOR_TOKEN = "emulator"

_TRUE = frozenset({"1", "true", "yes", "on"})


def is_loopback_host(host: str | None) -> bool:
    """Whether `host` (a name or an IP, IPv6 with or without brackets) is this machine."""
    if not host:
        return False
    name = host.strip().strip("[]").rstrip(".").lower()
    if name == "localhost":
        return True
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def _split(url: str) -> tuple[str, str]:
    """(scheme, host) of a URL; a bare `host[:port]` (an `api_endpoint`) means https."""
    text = url.strip()
    parts = urlsplit(text if "://" in text else f"https://{text}")
    try:
        host = parts.hostname or ""
        _ = parts.port  # raises ValueError on a malformed port
    except ValueError as exc:
        raise ConfigError(f"malformed URL {url!r}: {exc}") from exc
    if parts.username is not None or parts.password is not None:
        raise ConfigError(f"malformed URL {url!r}: user info (`user@host`) is not accepted")
    return parts.scheme.lower(), host


def is_loopback_url(url: str | None) -> bool:
    """Whether a base URL (or bare `host[:port]`) points at this machine."""
    if not url:
        return False
    try:
        return is_loopback_host(_split(url)[1])
    except ConfigError:
        return False


def is_google_host(host: str | None) -> bool:
    """Whether `host` is one of Google's API hosts (`*.googleapis.com`, `*.vertexai.goog`)."""
    name = (host or "").strip().rstrip(".").lower()
    return name.endswith(GOOGLE_HOST_SUFFIXES)


def check_endpoint(url: str, *, setting: str, trusted: bool = False, opt_in: str) -> str:
    """Checks that credentials may be sent to `url`; returns it unchanged.

    Args:
        url: A base URL (`https://host[:port][/path]`) or a bare `host[:port]`.
        setting: Where the URL came from, for the message (`GOOGLE_VERTEX_BASE_URL`).
        trusted: The user opted in to any host.
        opt_in: How to opt in, for the message (`?trust_base_url=1`).

    Raises:
        ConfigError: on a malformed URL, or a host that is neither loopback nor Google's
            (or Google's over plain http) when not `trusted`.
    """
    scheme, host = _split(url)
    if scheme not in ("http", "https") or not host:
        raise ConfigError(f"{setting}={url!r} is not an http(s) URL with a host")
    if trusted or is_loopback_host(host):
        return url
    if is_google_host(host):
        if scheme != "https":
            raise ConfigError(
                f"{setting}={url!r}: Google API hosts are reached over https only; plain "
                "http would send the credentials unencrypted"
            )
        return url
    raise ConfigError(
        f"{setting}={url!r} names {host!r}, which is neither a Google API host "
        f"(*{', *'.join(GOOGLE_HOST_SUFFIXES)}) nor a loopback emulator: your API key or "
        f"access token would be sent to it. If you run that host (a gateway or proxy) and "
        f"trust it with your Google credentials, opt in with {opt_in}."
    )


def emulator_credentials(base_url: str | None) -> Credentials | None:
    """Fake token credentials when `base_url` is on a loopback address (the emulator).

    Returns None for any other URL: real credentials are then needed, and fake ones must
    never reach a real service.
    """
    if not is_loopback_url(base_url):
        return None
    from google.oauth2.credentials import Credentials

    return Credentials(token=EMULATOR_TOKEN)  # type: ignore[no-untyped-call]


def truthy(value: str | None) -> bool:
    """`1`, `true`, `yes`, `on` (any case, surrounding blanks ignored)."""
    return value is not None and value.strip().lower() in _TRUE


def gemini_credentials_configured(env: Mapping[str, str] | None = None) -> bool:
    """Whether the environment configures a Gemini API key or a Vertex AI project.

    These are google-genai's own variables (`GOOGLE_*`), read the way it reads them.
    """
    source = os.environ if env is None else env
    if truthy(source.get("GOOGLE_GENAI_USE_VERTEXAI")):
        return bool(source.get("GOOGLE_CLOUD_PROJECT") or source.get("GOOGLE_API_KEY"))
    return bool(source.get("GOOGLE_API_KEY") or source.get("GEMINI_API_KEY"))


__all__ = [
    "EMULATOR_TOKEN",
    "GOOGLE_HOST_SUFFIXES",
    "check_endpoint",
    "emulator_credentials",
    "gemini_credentials_configured",
    "is_google_host",
    "is_loopback_host",
    "is_loopback_url",
    "truthy",
]
