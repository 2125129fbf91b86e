"""What happened: stored and live events as one list; counts and spans worked out by hand."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

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


def test_each_repeated_error_moves_to_its_latest_sight_among_the_others() -> None:
    events = [
        e(10, "error", "Error getting activations"),
        e(20, "registered", "registered in layer 1"),
        e(30, "error", "Backend down"),
        e(40, "error", "Error getting activations"),  # a new run (another error came between): 1 + 1
        e(50, "error", "Timeout for request 7"),
        e(60, "error", "Timeout for request 9"),  # the same message but its number, right after: one run
        e(70, "error", "Backend down (×3)"),  # a new run of 3 after the first one: 1 + 3
    ]
    found = what_happened(events, [])
    assert [(x["at"] - T, x["kind"], x["text"]) for x in found] == [
        (70, "error", "Backend down (×4)"),
        (60, "error", "Timeout for request 9"),
        (40, "error", "Error getting activations (×2)"),
        (20, "registered", "registered in layer 1"),
    ]


def _folded_plainly(events: list[dict[str, object]]) -> list[tuple[object, ...]]:
    """The same fold written the plain way: the list searched for an entry each time it moves."""
    by_key: dict[tuple[float, object], dict[str, object]] = {}

    def split(words: str) -> tuple[str, int]:
        if words.endswith(")") and " (×" in words:
            return words.rsplit(" (×", 1)[0], int(words.rsplit(" (×", 1)[1][:-1])
        return words, 1

    for event in events:
        key = (round(float(event["at"]), 3), event["kind"])  # type: ignore[arg-type]
        seen = by_key.get(key)
        # The same error at the same instant counted twice (the live view from the log's tail,
        # the store from its start): the larger count is the log's.
        if seen is not None and event["kind"] == "error":
            old, new = split(str(seen["text"])), split(str(event["text"]))
            if old[0] == new[0] and old[1] > new[1]:
                continue
        by_key[key] = dict(event)
    out: list[dict[str, object]] = []
    runs: dict[str, list[object]] = {}
    last = None
    for event in sorted(by_key.values(), key=lambda x: x["at"]):  # type: ignore[arg-type, return-value]
        if event["kind"] != "error":
            out.append(event)
            continue
        words = str(event["text"])
        message, count = (words.rsplit(" (×", 1)[0], int(words.rsplit(" (×", 1)[1][:-1])) if words.endswith(")") and " (×" in words else (words, 1)
        key = re.sub(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+", "#", message, flags=re.ASCII)
        if key in runs:
            entry, before, current = runs[key]
            if not (last == key and count >= current):  # type: ignore[operator]
                before += current  # type: ignore[operator]
            out = [x for x in out if x is not entry]
            entry["at"] = event["at"]  # type: ignore[index]
        else:
            entry, before = dict(event), 0
        runs[key] = [entry, before, count]
        total = before + count  # type: ignore[operator]
        entry["text"] = message if total == 1 else f"{message} (×{total})"  # type: ignore[index]
        out.append(entry)  # type: ignore[arg-type]
        last = key
    return [(x["at"], x["kind"], x["text"]) for x in reversed(out)]


_WORDS = st.sampled_from(["Error getting activations", "Backend down", "Timeout for request 7",
                          "Timeout for request 12", "registered in layer 2"])


@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["error", "error", "error", "registered"]),
                          _WORDS, st.integers(1, 5)), max_size=40))
def test_the_fold_is_the_plain_one_whatever_the_order_of_repeats(rows: list[tuple[int, str, str, int]]) -> None:
    events = [e(at, kind, words if n == 1 else f"{words} (×{n})") for at, kind, words, n in rows]
    found = what_happened(events, [], spans=False)
    assert [(x["at"], x["kind"], x["text"]) for x in found] == _folded_plainly(events)


def test_a_pause_keeps_its_cause_in_its_span() -> None:
    events = [
        e(0, "silent", "log silent for 40 min — you quit the app at 02:14"),
        e(2400, "resumed", "log lines again after 40 min"),
        e(3000, "idle", "passes stopped · was 768k tok/h — cause unknown"),
        e(3600, "resumed", "passes resumed after 10 min"),
    ]
    found = what_happened(events, [])
    assert [x["text"] for x in found] == [
        f"idle {clock(T + 3000)}–{clock(T + 3600)} — cause unknown",
        f"log silent {clock(T)}–{clock(T + 2400)} — you quit the app at 02:14",
    ]
