"""Report validation: a good report passes with only known fields; a bad envelope is refused, a bad field set aside."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from app.hub.report import MAX_REPORT_BYTES, ReportError, parse_report, report_body

NOW = 1_796_000_000.0


def good_snapshot() -> dict[str, Any]:
    return {
        "status_line": "L1 · 358k tok/h",
        "state": "training",
        "format": "iota",
        "layer": 1,
        "queue": None,
        "rate": {"measured": True, "tokens_per_hour": 358400.0, "passes_per_hour": 112.0, "tokens_per_pass": 3200,
                 "passes_in_window": 37, "observed_seconds": 1200.0, "window_seconds": 1200.0},
        "warmup": {"passes": 40, "passes_needed": 3, "observed_seconds": 1200.0, "seconds_needed": 180.0, "done": True},
        "step": 2,
        "run": {"id": "4.12.16.5-tah", "epoch": 49, "phase": "training"},
        "gpu_memory": {"used_gb": 3.02, "total_gb": 3.86},
        "backend_errors": {"queue_state_503": 3, "not_found_404": 0, "window_seconds": 3600.0},
        "details": ["358k tok/h · 112 passes/h (over 20 min)", "Step 2"],
        "source": {"path": "/home/me/miner.log", "size_bytes": 1, "lines_read": 10, "bad_lines": 0,
                   "last_event_at": NOW - 5, "problem": None, "demo": False, "skipped": {}},
        "as_of": NOW,
        "training": None,
        "history_range": None,
    }


def body(**changes: Any) -> bytes:
    report = report_body(machine="rig-a", stream="0123456789abcdef", seq=1, sent_at=NOW, interval_seconds=15.0,
                         snapshot=good_snapshot())
    report.update(changes)
    return json.dumps(report).encode()


def with_snapshot(path: str, value: Any) -> bytes:
    snap = copy.deepcopy(good_snapshot())
    target = snap
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[key]
    target[keys[-1]] = value
    return body(snapshot=snap)


def test_a_good_report_keeps_known_fields_only() -> None:
    report = parse_report(body())
    assert (report.machine, report.stream, report.seq, report.interval_seconds) == ("rig-a", "0123456789abcdef", 1, 15)
    snap = report.snapshot
    assert snap["rate"]["tokens_per_hour"] == 358400.0
    assert "warmup" not in snap and "history_range" not in snap  # not the hub's business
    assert "path" not in snap["source"]  # the agent's file paths are not shown on the hub
    assert snap["events"] is None and snap["network"] is None  # an older agent: absent reads as null


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "a JSON object"),
        (body(version=2), "version"),
        (body(machine="rig a"), "machine"),
        (body(machine="<script>"), "machine"),
        (body(stream="XYZ"), "stream"),
        (body(seq=0), "seq"),
        (body(seq=True), "seq: expected an integer"),
        (body(snapshot=None), "snapshot: expected an object"),
        (body(snapshot=[1]), "snapshot: expected an object"),
        (body().replace(b"358400.0", b"NaN"), "not a number JSON allows"),
        (body().replace(b"358400.0", b"Infinity"), "not a number JSON allows"),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_an_unusable_envelope_is_refused_with_a_reason(payload: bytes, reason: str) -> None:
    with pytest.raises(ReportError, match=None) as caught:
        parse_report(payload)
    assert reason in str(caught.value)


@pytest.mark.parametrize(
    ("payload", "note", "path", "kept"),
    [
        (with_snapshot("status_line", 5), "snapshot.status_line: expected a string", "status_line", ""),
        (with_snapshot("status_line", "x" * 301), "snapshot.status_line: longer than 300", "status_line",
         "x" * 299 + "…"),
        (with_snapshot("state", "<b>training</b>"), "snapshot.state", "state", "unrecognised"),
        (with_snapshot("layer", -1), "snapshot.layer", "layer", None),
        (with_snapshot("layer", 1.5), "snapshot.layer: expected an integer", "layer", None),
        (with_snapshot("rate.tokens_per_hour", -1), "snapshot.rate.tokens_per_hour", "rate.tokens_per_hour", None),
        (with_snapshot("rate.tokens_per_hour", "358k"), "snapshot.rate.tokens_per_hour: expected a number",
         "rate.tokens_per_hour", None),
        (with_snapshot("rate", None), "snapshot.rate: expected an object", "rate", None),
        (with_snapshot("details", ["ok"] * 41), "snapshot.details: more than 40", "details", ["ok"] * 40),
        (with_snapshot("details", [{"a": 1}]), "snapshot.details[0]", "details", []),
        (with_snapshot("level", "fine"), "snapshot.level", "level", None),
        (with_snapshot("run.id", ["a"]), "snapshot.run.id", "run.id", None),
        (with_snapshot("queue", {"position": "1"}), "snapshot.queue.position", "queue.position", None),
        (with_snapshot("counts", {"backend_errors": {"abc": 1}}), "not an HTTP status code",
         "counts.backend_errors", None),
        (with_snapshot("as_of", 5e9), "snapshot.as_of", "as_of", None),
    ],
)
def test_a_bad_field_is_set_aside_with_a_note_not_the_report(payload: bytes, note: str, path: str, kept: Any) -> None:
    report = parse_report(payload)
    assert any(note in n for n in report.notes), report.notes
    value: Any = report.snapshot
    for key in path.split("."):
        value = value[key]
    assert value == kept
    assert report.snapshot["rate"] is None or report.snapshot["rate"]["passes_per_hour"] == 112.0  # the rest kept


def test_an_odd_envelope_field_is_set_aside_too() -> None:
    assert "unknown field 'extra' dropped" in parse_report(body(extra=1)).notes
    assert parse_report(body(sent_at="now")).sent_at is None
    assert parse_report(body(interval_seconds=0)).interval_seconds == 15.0


def test_size_cap() -> None:
    padded = with_snapshot("details", ["x" * 290] * 40)
    assert len(padded) <= MAX_REPORT_BYTES  # forty long lines still fit
    with pytest.raises(ReportError, match="larger than"):
        parse_report(b" " * (MAX_REPORT_BYTES + 1))


def test_hostile_text_is_kept_as_text() -> None:
    # Escaping is the page's job; the hub keeps text as text, never as markup it trusts.
    report = parse_report(with_snapshot("status_line", "<img src=x onerror=alert(1)>"))
    assert report.snapshot["status_line"] == "<img src=x onerror=alert(1)>"
