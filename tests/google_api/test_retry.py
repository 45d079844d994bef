"""The one retry policy and transient-error rule every Gemini and Vertex call goes through."""

from __future__ import annotations

import asyncio
import logging

import aiohttp
import httpx
import pytest
import requests
from google.api_core import exceptions as api_exceptions
from google.genai import errors as genai_errors

from adk_memory.google_api.retry import (
    RetryNotice,
    RetryPolicy,
    call_with_retries,
    is_transient,
    retry_listener,
    status_code,
)

#: No waiting between attempts, so the tests count attempts without sleeping.
INSTANT = RetryPolicy(max_attempts=4, initial_backoff=0, max_backoff=0, jitter=0, label="Test")


def api_error(code: int) -> genai_errors.APIError:
    return genai_errors.APIError(code, {"error": {"code": code, "message": "m", "status": "S"}})


class ProviderError(Exception):
    """Like LiteLLM's, OpenAI's and Anthropic's errors: the HTTP status as `status_code`."""

    def __init__(self, status: int) -> None:
        super().__init__(f"status {status}")
        self.status_code = status


class Flaky:
    """Fails with the given errors in turn, then answers "ok"; counts its calls."""

    def __init__(self, *errors: BaseException) -> None:
        self.errors = list(errors)
        self.calls = 0

    async def __call__(self) -> str:
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


@pytest.mark.parametrize(
    "exc",
    [
        api_error(429),
        api_error(503),
        api_error(408),
        api_exceptions.ServiceUnavailable("down"),
        api_exceptions.TooManyRequests("slow down"),
        TimeoutError(),
        ConnectionResetError(),
        httpx.ConnectError("refused"),
        httpx.ReadTimeout("slow"),
        requests.ConnectionError("refused"),
        requests.Timeout("slow"),
        aiohttp.ClientConnectionError("refused"),
        ProviderError(429),
        ProviderError(503),
    ],
)
def test_transient_failures_are_retried(exc: BaseException) -> None:
    assert is_transient(exc)


@pytest.mark.parametrize(
    "exc",
    [
        api_error(400),
        api_error(401),
        api_error(403),
        api_error(404),
        api_exceptions.NotFound("gone"),
        api_exceptions.PermissionDenied("no"),
        ValueError("bug"),
        KeyError("bug"),
        ProviderError(400),
        ProviderError(401),
    ],
)
def test_answers_and_bugs_are_not_retried(exc: BaseException) -> None:
    assert not is_transient(exc)


def test_status_code_reads_both_sdks() -> None:
    assert status_code(api_error(503)) == 503
    assert status_code(api_exceptions.NotFound("x")) == 404
    assert status_code(ValueError()) is None
    assert status_code(ProviderError(502)) == 502


async def test_transient_failures_are_retried_until_an_answer() -> None:
    call = Flaky(api_error(503), httpx.ConnectError("x"))
    assert await call_with_retries(call, INSTANT) == "ok"
    assert call.calls == 3


async def test_attempts_are_bounded_and_the_last_error_is_raised() -> None:
    call = Flaky(*(api_error(503) for _ in range(10)))
    with pytest.raises(genai_errors.APIError) as info:
        await call_with_retries(call, INSTANT)
    assert info.value.code == 503
    assert call.calls == INSTANT.max_attempts


async def test_a_permanent_error_is_raised_at_once() -> None:
    call = Flaky(api_error(400))
    with pytest.raises(genai_errors.APIError):
        await call_with_retries(call, INSTANT)
    assert call.calls == 1


async def test_no_attempt_starts_past_the_total_time_bound() -> None:
    # The first backoff (60 s) would end past the 1 s bound: no second attempt, no sleep.
    policy = RetryPolicy(max_attempts=10, initial_backoff=60, jitter=0, max_total_seconds=1)
    call = Flaky(api_error(503), api_error(503))
    with pytest.raises(genai_errors.APIError):
        await call_with_retries(call, policy)
    assert call.calls == 1


async def test_each_attempt_has_a_timeout() -> None:
    calls = 0

    async def hangs() -> str:
        nonlocal calls
        calls += 1
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    policy = INSTANT.model_copy(update={"max_attempts": 2, "call_timeout": 0.01})
    with pytest.raises(TimeoutError):
        await call_with_retries(hangs, policy)
    assert calls == 2


async def test_backoff_doubles_up_to_its_cap_with_bounded_jitter() -> None:
    notices: list[RetryNotice] = []
    policy = RetryPolicy(
        max_attempts=5, initial_backoff=0.001, max_backoff=0.004, jitter=0.0005, label="Test"
    )
    with retry_listener(notices.append):
        await call_with_retries(Flaky(*(api_error(503) for _ in range(4))), policy)
    bases = [0.001, 0.002, 0.004, 0.004]
    waits = [n.wait_seconds for n in notices]
    assert len(waits) == len(bases)
    assert all(base <= wait < base + 0.0005 for base, wait in zip(bases, waits, strict=True))


async def test_listeners_hear_each_retry_with_its_progress() -> None:
    notices: list[RetryNotice] = []
    with retry_listener(notices.append):
        await call_with_retries(Flaky(api_error(503), api_error(429)), INSTANT, what="Gemini x")
    assert [(n.what, n.attempt, n.next_attempt, n.max_attempts) for n in notices] == [
        ("Gemini x", 1, 2, 4),
        ("Gemini x", 2, 3, 4),
    ]
    assert notices[0].message().startswith("Gemini x failed (APIError: 503")
    assert "retrying (2 of 4)" in notices[0].message()


async def test_listener_scope_ends_with_the_block() -> None:
    notices: list[RetryNotice] = []
    with retry_listener(notices.append):
        pass
    await call_with_retries(Flaky(api_error(503)), INSTANT)
    assert notices == []


async def test_the_policy_label_names_calls_that_do_not_name_themselves() -> None:
    notices: list[RetryNotice] = []
    with retry_listener(notices.append):
        async for attempt in INSTANT.retrying():
            with attempt:
                if attempt.retry_state.attempt_number == 1:
                    raise api_error(503)
    assert [n.what for n in notices] == ["Test"]


async def test_a_failing_listener_never_fails_the_call(caplog: pytest.LogCaptureFixture) -> None:
    def broken(notice: RetryNotice) -> None:
        raise RuntimeError("display gone")

    with retry_listener(broken), caplog.at_level(logging.ERROR):
        assert await call_with_retries(Flaky(api_error(503)), INSTANT) == "ok"
    assert "retry listener" in caplog.text


async def test_each_retry_is_logged_with_its_notice(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="adk_memory.google_api.retry"):
        await call_with_retries(Flaky(api_error(503)), INSTANT, what="Memory Bank search")
    records = [r for r in caplog.records if hasattr(r, "retry_notice")]
    assert len(records) == 1
    notice = records[0].retry_notice
    assert isinstance(notice, RetryNotice)
    assert (notice.what, notice.next_attempt, notice.max_attempts) == ("Memory Bank search", 2, 4)
    assert "retrying (2 of 4)" in records[0].getMessage()
