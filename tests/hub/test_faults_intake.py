"""Honest reports the hub used to refuse whole, and envelopes that used to give a 500.

An exploding loss (finite, above 1e12, before it turns NaN), an eval or detail line longer than
300 characters, a log replayed from 1999: the machine stayed off the fleet exactly when
something was going wrong. Now the report is taken; what cannot be kept as sent is set aside
with a note counted on the machine's page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.hub.report import report_body
from app.hub.service import Hub
from app.hub.store import HubStore

NOW = 1_796_000_040.0


def snapshot(**changes: Any) -> dict[str, Any]:
    snap: dict[str, Any] = {"status_line": "step 1200 · loss 3.2e13", "state": "training", "as_of": NOW,
                            "rate": {"tokens_per_hour": 1.2e6}, "details": ["loss 3.2e13"], "events": []}
    snap.update(changes)
    return snap


def body(seq: int, snap: dict[str, Any]) -> bytes:
    return json.dumps(report_body(machine="rig-a", stream="c" * 16, seq=seq, sent_at=NOW, interval_seconds=15.0,
                                  snapshot=snap)).encode()


@pytest.fixture
def hub(tmp_path: Path) -> tuple[Hub, str]:
    store = HubStore(tmp_path / "hub.sqlite3")
    key = store.enroll("rig-a", NOW)
    return Hub(store, clock=lambda: NOW), f"Bearer {key}"


def test_an_exploding_loss_is_reported(hub: tuple[Hub, str]) -> None:
    hub_, auth = hub
    training = {"stage": "pretrain", "step": 1200, "loss": 3.2e13, "tokens_per_second": 41_000.0, "finished": False}
    status, answer = hub_.take(auth, body(1, snapshot(training=training)))
    assert (status, answer.get("notes")) == (200, None)
    kept = hub_.metric_snapshots()[0][1].training
    assert kept is not None
    assert (kept.loss, kept.tokens_per_second) == (3.2e13, 41_000.0)


def test_long_lines_and_an_old_log_are_reported(hub: tuple[Hub, str]) -> None:
    hub_, auth = hub
    eval_line = "eval " + "hellaswag_zeroshot_acc_norm/" * 20 + ": 0.2931"  # 573 characters, a real shape
    events = [{"at": 946_684_000.0, "kind": "pass", "text": "pass in a log from 1999"}]
    snap = snapshot(details=[eval_line], events=events,
                    source={"last_event_at": 946_684_000.0, "lines_read": 10, "bad_lines": 0})
    status, answer = hub_.take(auth, body(1, snap))
    assert status == 200 and "notes" not in answer
    page = hub_.machine("rig-a")
    assert page is not None and page["details"] == [eval_line] and page["events"][0]["at"] == 946_684_000.0
    assert page["notes"] == 0 and page["notes_text"] is None


def test_what_cannot_be_kept_is_set_aside_and_counted(hub: tuple[Hub, str]) -> None:
    hub_, auth = hub
    snap = snapshot(layer=-3, details=["x" * 5000], queue={"position": "12"})
    status, answer = hub_.take(auth, body(1, snap))
    assert status == 200 and answer["taken"] and len(answer["notes"]) == 3
    assert len(hub_.store.machines()[0].snapshot["details"][0]) == 1000  # type: ignore[index]
    status, answer = hub_.take(auth, body(2, snapshot(layer=-3)))
    page = hub_.machine("rig-a")
    assert page is not None and page["notes"] == 4
    assert page["notes_text"] == "4 field(s) set aside; last: snapshot.layer: -3 is out of range [0, 100000]"
    assert page["card"]["layer"] is None and page["card"]["state"] == "training"


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
        (b'{"version": 1, "x": ' + b"[" * 3000 + b"]" * 3000 + b"}", "nested too deeply"),
        (body(1, snapshot(status_line="\ud800 lone")), "lone surrogate"),
        (body(1, snapshot(details=["ok \udfff"])), "lone surrogate"),
    ],
)
def test_deep_json_and_lone_surrogates_are_a_400(hub: tuple[Hub, str], payload: bytes, reason: str) -> None:
    hub_, auth = hub
    status, answer = hub_.take(auth, payload)
    assert status == 400 and reason in answer["error"]


def test_a_surrogate_pair_is_text(hub: tuple[Hub, str]) -> None:
    hub_, auth = hub
    status, _ = hub_.take(auth, body(1, snapshot(status_line="training 🚀")))  # json.dumps writes \ud83d\ude80
    assert status == 200 and hub_.fleet()["machines"][0]["status_line"] == "training 🚀"
