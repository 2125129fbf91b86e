"""When live pushes go, on an explicit clock: soon after quiet, bursts together, never over 4 a second."""

from __future__ import annotations

import itertools

import pytest

from app.web.pacing import GATHER_SECONDS, QUIET_SECONDS, WINDOW_SECONDS, Pacer, PushWindow


def run(pacer: Pacer, changes: list[float]) -> list[tuple[float, list[float]]]:
    """Feed change times (sorted) through the pacer as the broadcaster does; return (push time, changes in it)."""
    pushes: list[tuple[float, list[float]]] = []
    i = 0
    while i < len(changes):
        first = last = changes[i]
        j = i + 1
        # The burst grows while its lines come before it is ready (within the gather cap).
        while j < len(changes) and changes[j] < pacer.ready_at(first, last):
            last = changes[j]
            j += 1
        at = pacer.due(first, last)
        pacer.pushed(at, first, last)
        carried = [c for c in changes[i:] if c <= at]
        pushes.append((at, carried))
        i += len(carried)
    return pushes


def most_in_one_second(times: list[float], window: float = 1.0) -> int:
    return max(sum(1 for t in times if start <= t < start + window) for start in times)


def test_a_lone_change_goes_once_the_log_is_quiet() -> None:
    pacer = Pacer(0.25)
    assert pacer.due(100.0, 100.0) == pytest.approx(100.0 + QUIET_SECONDS)


def test_a_burst_goes_together_after_its_last_line() -> None:
    pacer = Pacer(0.25)
    burst = [100.0, 100.001, 100.002, 100.003, 100.004]
    ((at, carried),) = run(pacer, burst)
    assert carried == burst
    assert at == pytest.approx(100.004 + QUIET_SECONDS)


def test_a_burst_that_never_pauses_goes_at_the_gather_cap() -> None:
    pacer = Pacer(0.25)
    steady = [100.0 + i * 0.005 for i in range(100)]  # a line every 5 ms for half a second
    pushes = run(pacer, steady)
    assert pushes[0][0] == pytest.approx(100.0 + GATHER_SECONDS)


def test_a_change_just_after_a_push_waits_less_than_the_steady_interval() -> None:
    pacer = Pacer(0.25)
    (first, second) = run(pacer, [100.0, 100.05])
    assert first[0] == pytest.approx(100.02)
    assert second[0] - first[0] == pytest.approx(0.15)  # the minimum gap, not 250 ms


def test_a_change_after_a_quiet_spell_is_not_held_by_the_last_push() -> None:
    pacer = Pacer(0.25)
    (_, second) = run(pacer, [100.0, 100.4])
    assert second[0] == pytest.approx(100.4 + QUIET_SECONDS)


def test_a_flood_never_gets_more_than_4_pushes_in_any_second() -> None:
    pacer = Pacer(0.25)
    flood = [100.0 + i * 0.01 for i in range(1000)]  # 100 lines a second for 10 s
    times = [at for at, _ in run(pacer, flood)]
    # Not even in a second and a twentieth: a push that reaches the page late cannot make it five.
    assert most_in_one_second(times, WINDOW_SECONDS) <= 4
    assert len(times) >= 4 * 10 / WINDOW_SECONDS - 2  # and it uses the budget


def test_a_steady_stream_is_paced_evenly_not_in_clumps() -> None:
    pacer = Pacer(0.25)
    stream = [100.0 + i * 0.05 for i in range(200)]  # 20 lines a second for 10 s
    pushes = run(pacer, stream)
    times = [at for at, _ in pushes]
    assert most_in_one_second(times) <= 4
    gaps = [b - a for a, b in itertools.pairwise(times[5:])]  # after the first second
    assert max(gaps) == pytest.approx(0.25, abs=0.051)  # every line within about a slot
    assert pacer.steady


def test_the_miners_cadence_gets_each_burst_promptly() -> None:
    # Five fetcher lines 1 ms apart every 510 ms, and a pass's lines 10–20 ms apart in between.
    changes: list[float] = []
    for k in range(20):
        t = 100.0 + k * 0.51
        changes += [t + i * 0.001 for i in range(5)]
        if k % 3 == 1:
            changes += [t + 0.2, t + 0.22, t + 0.23, t + 0.24, t + 0.25]
    changes.sort()
    pushes = run(Pacer(0.25), changes)
    waits = [at - c for at, carried in pushes for c in carried]
    assert len(waits) == len(changes)
    assert max(waits) < 0.15
    assert most_in_one_second([at for at, _ in pushes]) <= 4


def test_calm_ends_the_even_pace() -> None:
    pacer = Pacer(0.25)
    run(pacer, [100.0 + i * 0.05 for i in range(60)])
    assert pacer.steady
    (late,) = run(pacer, [110.0])
    assert late[0] == pytest.approx(110.0 + QUIET_SECONDS)
    assert not pacer.steady


def test_a_refresh_counts_towards_the_limit() -> None:
    pacer = Pacer(0.25)
    for t in (100.0, 100.2, 100.4, 100.6):
        pacer.pushed(t)
    assert pacer.allowed_at(100.61) == pytest.approx(100.0 + WINDOW_SECONDS)


def test_the_window_holds_the_fifth_push_until_the_first_is_a_window_old() -> None:
    window = PushWindow(4)
    assert window.allowed_at() == float("-inf")
    for t in (100.0, 100.1, 100.2, 100.3):
        window.went(t)
    assert window.allowed_at() == pytest.approx(100.0 + WINDOW_SECONDS)
    assert WINDOW_SECONDS > 1.0  # a margin for delivery: four a second as the page counts them
    window.went(101.05)
    assert window.allowed_at() == pytest.approx(100.1 + WINDOW_SECONDS)


def test_no_limit_is_no_window() -> None:
    window = PushWindow(0)
    for t in (100.0, 100.0, 100.0, 100.0, 100.0):
        window.went(t)
    assert window.allowed_at() == float("-inf") and window.last is None
