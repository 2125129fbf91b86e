"""What happened: stored and live events as one list; counts and spans worked out by hand."""

from __future__ import annotations

from app.store.happened import what_happened
from app.text import clock

T = 1_796_000_000.0


def e(at: float, kind: str, words: str) -> dict[str, object]:
    return {"at": T + at, "kind": kind, "text": words}


def test_runs_of_one_error_sum_and_a_later_sight_of_a_run_does_not_count_twice() -> None:
    stored = [
        e(10, "error", "Error getting activations"),
        e(20, "error", "Error getting activations (×2)"),  # the same run, seen again: 2 so far
        e(30, "error", "Backend down"),  # another error: the next one starts a new run
        e(40, "error", "Error getting activations"),
        e(50, "error", "Error getting activations (×3)"),
    ]
    live = [e(60, "error", "Error getting activations (×4)")]  # the live run, newer: 4 in it
    found = what_happened(stored, live)
    # 2 (first run) + 4 (second run) = 6, dated at its latest sight; the other error once.
    assert [(x["at"], x["text"]) for x in found] == [
        (T + 60, "Error getting activations (×6)"), (T + 30, "Backend down")]


def test_a_pause_and_its_end_are_one_span_and_an_open_pause_stays_as_it_is() -> None:
    events = [
        e(0, "idle", "passes stopped · was 768k tok/h"),
        e(5400, "resumed", "passes resumed after 1 h 30 min"),
        e(9000, "silent", "log silent for 40 min"),
        e(11400, "resumed", "log lines again after 40 min"),
        e(12000, "idle", "passes stopped · was 768k tok/h"),
    ]
    found = what_happened(events, [events[-1]])
    assert [x["text"] for x in found] == [
        "passes stopped · was 768k tok/h",
        f"log silent {clock(T + 9000)}–{clock(T + 11400)}",
        f"idle {clock(T)}–{clock(T + 5400)}",
    ]
    assert found[2]["until"] == T + 5400
