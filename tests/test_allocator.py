"""The allocator's trimmer on an explicit clock, and glibc's calls where glibc is the C library."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

from app import allocator
from app.allocator import Trimmer


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


Later = list[tuple[float, Callable[[], None]]]


def make() -> tuple[Trimmer, Clock, list[float], Later]:
    clock = Clock()
    ran: list[float] = []
    scheduled: Later = []

    def release() -> bool:
        ran.append(clock.now)
        return True

    trimmer = Trimmer(1.0, clock=clock, release=release, later=lambda delay, call: scheduled.append((delay, call)))
    return trimmer, clock, ran, scheduled


def test_a_request_trims_at_once_when_none_ran_lately() -> None:
    trimmer, _, ran, scheduled = make()
    assert trimmer.request() is True
    assert ran == [100.0]
    assert not trimmer.pending
    assert scheduled == []


def test_requests_inside_the_interval_run_once_when_it_is_over() -> None:
    trimmer, clock, ran, scheduled = make()
    trimmer.request()
    clock.now = 100.4
    assert trimmer.request() is False
    assert trimmer.request() is False  # two requests, one timer, one trim
    assert trimmer.pending
    assert [delay for delay, _ in scheduled] == [pytest.approx(0.6)]
    clock.now = 101.0
    scheduled[0][1]()  # the timer fires
    assert ran == [100.0, 101.0]
    assert not trimmer.pending
    assert trimmer.due() is False  # nothing asked since


def test_a_loop_that_woke_anyway_runs_a_deferred_trim_and_the_timer_then_does_nothing() -> None:
    trimmer, clock, ran, scheduled = make()
    trimmer.request()
    clock.now = 100.5
    trimmer.request()
    clock.now = 101.2
    assert trimmer.due() is True
    scheduled[0][1]()
    assert ran == [100.0, 101.2]
    assert len(scheduled) == 1


def test_a_look_without_a_request_never_trims() -> None:
    trimmer, clock, ran, scheduled = make()
    for step in range(10):
        clock.now = 100.0 + step * 5
        assert trimmer.due() is False
    assert ran == []
    assert scheduled == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim and mallopt are Linux's")
def test_glibc_is_found_and_answers() -> None:
    if allocator.glibc() is None:
        pytest.skip("the C library here is not glibc (musl has no malloc_trim)")
    assert allocator.tune() is True
    assert allocator.trim() is True
