"""Fault injection for the emulator: latency, random errors, outages and hung requests.

Faults are switched at runtime (`POST /emulator/faults`) so one server can play a healthy
backend, a flaky one and a dead one within a single test. Decisions come from a seeded RNG so
a sequential client sees the same faults on every run.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

from pydantic import BaseModel, Field

#: Google API error statuses, as the real services put them in error bodies.
STATUS_NAMES = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ALREADY_EXISTS",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
    502: "UNAVAILABLE",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
}


def error_body(code: int, message: str) -> dict[str, object]:
    """The JSON error envelope Google APIs return (and the SDKs parse)."""
    return {
        "error": {"code": code, "message": message, "status": STATUS_NAMES.get(code, "UNKNOWN")}
    }


class FaultConfig(BaseModel):
    """What to inject. All zero means a healthy server."""

    #: Added to every request before it is handled.
    latency_ms: float = Field(default=0.0, ge=0)
    #: Uniform extra latency in [0, jitter_ms).
    jitter_ms: float = Field(default=0.0, ge=0)
    #: Probability that a request fails with `error_code` (before it has any effect).
    error_rate: float = Field(default=0.0, ge=0, le=1)
    error_code: int = Field(default=503, ge=400, le=599)
    #: From the moment this config is set, every request fails with `error_code` for this long.
    outage_seconds: float = Field(default=0.0, ge=0)
    #: Probability that a request hangs for `timeout_ms` and then fails with 504.
    timeout_rate: float = Field(default=0.0, ge=0, le=1)
    timeout_ms: float = Field(default=30_000.0, ge=0)
    seed: int | None = None


class FaultState(BaseModel):
    """The active config plus when its outage ends (monotonic seconds), for the admin API."""

    config: FaultConfig
    outage_remaining_s: float
    injected: int
    #: Requests to the emulated APIs so far (admin calls not counted): what a client costs.
    requests: int = 0


class FaultInjector:
    """Applies a `FaultConfig` to requests; reconfigurable while the server runs."""

    def __init__(
        self, config: FaultConfig | None = None, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._clock = clock
        self._config = FaultConfig()
        self._rng = random.Random(0)
        self._outage_until = 0.0
        self.injected = 0
        self.requests = 0
        self.configure(config or FaultConfig())

    @property
    def config(self) -> FaultConfig:
        return self._config

    def configure(self, config: FaultConfig) -> None:
        """Replaces the active faults; an outage starts now; a seed restarts the RNG."""
        self._config = config
        self._rng = random.Random(config.seed if config.seed is not None else 0)
        self._outage_until = self._clock() + config.outage_seconds if config.outage_seconds else 0.0

    def state(self) -> FaultState:
        return FaultState(
            config=self._config,
            outage_remaining_s=max(0.0, self._outage_until - self._clock()),
            injected=self.injected,
            requests=self.requests,
        )

    async def apply(self) -> tuple[int, str] | None:
        """Sleeps the configured latency; returns (status, message) if the request must fail."""
        self.requests += 1
        cfg = self._config
        delay = cfg.latency_ms + (self._rng.random() * cfg.jitter_ms if cfg.jitter_ms else 0.0)
        if delay:
            await asyncio.sleep(delay / 1000.0)
        if self._clock() < self._outage_until:
            self.injected += 1
            return cfg.error_code, "emulator: injected outage"
        if cfg.timeout_rate and self._rng.random() < cfg.timeout_rate:
            self.injected += 1
            await asyncio.sleep(cfg.timeout_ms / 1000.0)
            return 504, "emulator: injected timeout"
        if cfg.error_rate and self._rng.random() < cfg.error_rate:
            self.injected += 1
            return cfg.error_code, "emulator: injected error"
        return None
