"""Every rule end to end: composed snapshots on an explicit clock go through the alert service and
Apprise's ``json://`` to a real receiver; each message's words, hold time, resolution and rate
limit are read back from what arrived. Expected texts are written out from each scenario."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.alerts import AlertService, Delivery, settings_from_table
from app.snapshot import training_dict
from app.states import STATE_EXPLANATIONS
from tests.alerts.test_book import MIN, T0, hm, snap
from tests.receiver import Receiver

URL = "http://192.168.1.20:8765/"
Steps = list[tuple[float, dict[str, Any]]]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def deliver(receiver: Receiver, steps: Steps, expected: int, table: dict[str, Any] | None = None) -> list[Any]:
    """Feed the steps; return what arrived as (title, message, type), with when each was told."""
    delivery = Delivery([receiver.json_url("/")], retry_delays_seconds=(0.05,))
    service = AlertService(settings_from_table(table or {}), name="rig-7", dashboard_url=URL, delivery=delivery)
    delivery.start()
    told: list[float] = []
    try:
        for at, s in steps:
            told.extend(at for _ in service.observe(s, at))
        got = receiver.wait_for(expected)
        time.sleep(0.3)
        assert len(receiver.received) == expected, [r.json["title"] for r in receiver.received]
    finally:
        service.stop()
    return [(r.json["title"], r.json["message"], r.json["type"], at) for r, at in zip(got, told)]


def every(seconds: int, until: int, make: Any, start: int = 0) -> Steps:
    return [(T0 + s, make(T0 + s)) for s in range(start, until, seconds)]


def test_silent(receiver: Receiver) -> None:
    last = T0 - 2 * MIN
    steps = every(10, 9 * 60, lambda t: snap("silent", t, since=last, source={"last_event_at": last},
                                              status_line="L1 · log silent"))
    steps.append((T0 + 9 * MIN, snap("training", T0 + 9 * MIN, since=T0 + 9 * MIN - 5, status_line="L1 · 358k tok/h")))
    got = deliver(receiver, steps, 2)
    assert got[0] == ("rig-7: log silent",
                      f"L1 · log silent\nLog silent: no new log line since {hm(last)} (10 min).\n{STATE_EXPLANATIONS['silent']}\n{URL}",
                      "failure", last + 10 * MIN)
    assert got[1][:3] == ("rig-7: training",
                          f"L1 · 358k tok/h\nLog silent resolved after 10 min (since {hm(last)}).\n{URL}", "success")


def test_queued_after_training_and_its_rate_limit(receiver: Receiver) -> None:
    steps: Steps = [(T0, snap("training", T0, since=T0 - 3600, status_line="L1 · 358k tok/h"))]
    # Queued at +1 min for 3 min, training for 1 min, queued again for 3 min (10 min not over), …
    for minute in range(1, 17):
        at = T0 + minute * MIN
        state = "training" if minute in (4, 8, 12, 16) else "queued"
        since = T0 + max(m for m in (1, 5, 9, 13) if m <= minute) * MIN if state == "queued" else at
        steps.append((at, snap(state, at, since=since, queue={"position": 1583} if state == "queued" else None,
                               status_line="Queue #1583" if state == "queued" else "L1 · 358k tok/h")))
    got = deliver(receiver, steps, 4)
    assert got[0] == ("rig-7: back in the queue",
                      (f"Queue #1583\nBack in the queue: queue position 1583 (since {hm(T0 + MIN)}, 1 min).\n"
                       f"{STATE_EXPLANATIONS['queued']}\n{URL}"),
                      "warning", T0 + 2 * MIN)
    assert got[1] == ("rig-7: training",
                      f"L1 · 358k tok/h\nBack in the queue resolved after 3 min (since {hm(T0 + MIN)}).\n{URL}",
                      "success", T0 + 4 * MIN)
    # Queued again at +5 and +9: held back (one alert per 10 min), and over before +12, so not told;
    # queued at +13, it opens at +14, and its end at +16 is told at once.
    assert [(title, at) for title, _, _, at in got[2:]] == [("rig-7: back in the queue", T0 + 14 * MIN),
                                                            ("rig-7: training", T0 + 16 * MIN)]


def test_queue_reset_is_an_event_with_its_text(receiver: Receiver) -> None:
    reset = {"at": T0 + 30, "kind": "queue_reset", "text": "queue reset #812 → #4100"}
    steps = [
        (T0, snap("queued", T0, queue={"position": 812, "resets_24h": 0}, status_line="Queue #812")),
        (T0 + 35, snap("queued", T0 + 35, events=[reset], queue={"position": 4100, "resets_24h": 1},
                       status_line="Queue #4100")),
        (T0 + 40, snap("queued", T0 + 40, events=[reset], queue={"position": 4100, "resets_24h": 1},
                       status_line="Queue #4100")),
    ]
    got = deliver(receiver, steps, 1)
    assert got[0][:3] == ("rig-7: queue reset",
                          f"Queue #4100\nQueue reset #812 → #4100 (now at position 4100), at {hm(T0 + 30)}.\n{URL}",
                          "warning")


def test_slow_for_thirty_minutes(receiver: Receiver) -> None:
    began = T0 + 5 * MIN

    def make(t: float) -> dict[str, Any]:
        rate = 140_000.0 if t >= began else 300_000.0
        history = [[t - 3600 + 30 * i, 140_000.0 if t - 3600 + 30 * i >= began else 300_000.0] for i in range(121)]
        return snap("training", t, since=T0 - 7200, rate={"measured": True, "tokens_per_hour": rate},
                    usual={"tokens_per_hour": 350_000.0, "basis_hours": 168, "delta_percent": -60},
                    history=history, status_line=f"L1 · {int(rate // 1000)}k tok/h")

    steps = every(30, 40 * 60, make)
    steps.append((T0 + 40 * MIN, snap("training", T0 + 40 * MIN, since=T0 - 7200, status_line="L1 · 351k tok/h",
                                      rate={"measured": True, "tokens_per_hour": 351_000.0},
                                      usual={"tokens_per_hour": 350_000.0})))
    got = deliver(receiver, steps, 2)
    assert got[0] == ("rig-7: slow (40 % of usual)",
                      (f"L1 · 140k tok/h\nSlow (40 % of usual): 140k tok/h, 40 % of your usual 350k on L1 "
                       f"(since {hm(began)}, 30 min).\n{URL}"), "warning", began + 30 * MIN)
    assert got[1][1].splitlines()[1] == f"Slow (40 % of usual) resolved after 35 min (since {hm(began)})."


def test_backend_errors_burst(receiver: Receiver) -> None:
    steps = every(60, 15 * 60, lambda t: snap("training", t, status_line="L1 · 358k tok/h", backend_errors={
        "queue_state_503": 4 * min(int((t - T0) // 60), 8), "not_found_404": 0}))
    got = deliver(receiver, steps, 2)
    # 4 a minute from +1 min: the 5th minute makes 20 within 10 minutes.
    assert got[0] == ("rig-7: backend errors",
                      (f"L1 · 358k tok/h\nBackend errors: 20 backend errors in the last 10 min "
                       f"(since {hm(T0 + MIN)}, 4 min).\n{URL}"), "warning", T0 + 5 * MIN)
    # They stopped at +8: at +14 only those seen at +5 … +8 (16) are left within the window.
    assert got[1][3] == T0 + 14 * MIN
    assert got[1][1].splitlines()[1] == f"Backend errors resolved after 13 min (since {hm(T0 + MIN)})."


def test_layer_change_is_information(receiver: Receiver) -> None:
    steps = [(T0, snap("training", T0, layer=2, status_line="L2 · 358k tok/h")),
             (T0 + 60, snap("measuring", T0 + 60, layer=3, status_line="L3 · …"))]
    got = deliver(receiver, steps, 1)
    assert got[0][:3] == ("rig-7: layer 3", f"L3 · …\nMoved from layer 2 to layer 3, at {hm(T0 + 60)}.\n{URL}", "info")


@pytest.mark.parametrize(
    ("state", "training", "title", "line", "kind"),
    [
        ("stalled", {"step": 383, "seconds_since_step": 600.0, "stalled": True}, "rig-7: stalled",
         "Stalled: no step since step 383 at {last} (1 min).", "warning"),
        ("diverged", {"step": 1200, "loss_note": "loss is NaN"}, "rig-7: diverged",
         "Diverged: loss is NaN at step 1200 (since {began}, 1 min).", "failure"),
        ("done", {"step": 5568, "total_steps": 5568, "finished": True}, "rig-7: finished",
         "Finished: step 5568/5568 (since {began}, 1 min).", "success"),
        ("crashed", {"step": 17, "crash": {"error": "Killed"}}, "rig-7: crashed", "Crashed: at step 17: Killed (since {began}, 1 min).",
         "failure"),
        ("broken", {"step": 382, "broken": "fp16 overflow at 5 steps in a row, every step skipped, loss scale down to 2:"
                                           " the run is broken"}, "rig-7: broken",
         ("Broken: at step 382: fp16 overflow at 5 steps in a row, every step skipped, loss scale down to 2: the run is"
         " broken (since {began}, 1 min)."), "warning"),
    ],
)
def test_step_trainers(receiver: Receiver, state: str, training: dict[str, Any], title: str, line: str,
                       kind: str) -> None:
    steps = [(T0 + s, snap(state, T0 + s, since=T0 - 60, layer=None, training=training, status_line=state))
             for s in range(0, 60, 5)]
    steps.append((T0 + 60, snap("training", T0 + 60, since=T0 + 55, layer=None, status_line="step 1300")))
    got = deliver(receiver, steps, 2)
    assert got[0][:3] == (title, f"{state}\n{line.format(last=hm(T0 - 600), began=hm(T0 - 60))}\n{STATE_EXPLANATIONS[state]}\n{URL}", kind)
    assert got[0][3] == T0
    assert got[1][:2] == ("rig-7: training",
                          f"step 1300\n{title.split(': ')[1].capitalize()} resolved after 1 min (since {hm(T0 - 60)}).\n{URL}")


def test_a_new_eval_figure_when_turned_on(receiver: Receiver) -> None:
    def make(t: float, step: int, value: float) -> dict[str, Any]:
        return snap("training", t, layer=None, status_line=f"step {step}",
                    training={"eval": {"val_bpb": {"value": value, "step": step}}})

    steps = [(T0, make(T0, 250, 0.91)), (T0 + 60, make(T0 + 60, 500, 0.874)), (T0 + 70, make(T0 + 70, 500, 0.874))]
    got = deliver(receiver, steps, 1, {"rules": {"eval": {"enabled": True}}})
    assert got[0][:3] == ("rig-7: new eval", f"step 500\nEvaluation: val_bpb 0.874 at step 500, at {hm(T0 + 60)}.\n{URL}", "info")


def test_a_real_broken_run_read_from_its_log_reaches_the_receiver(receiver: Receiver, tmp_path: Path) -> None:
    """Chinese-LLaMA-Alpaca #534 read cold (DeepSpeed skipping every step at loss scale 2): the page's
    snapshot goes through the rules and Apprise to a real receiver, as a warning, on by default."""
    from tests.live.test_real_logs import T0 as MTIME
    from tests.live.test_real_logs import cold

    monitor = cold(tmp_path, "broken-chinese-llama-alpaca-issue534-deepspeed-overflow-repeating.log")
    snapshot = monitor.snapshot(MTIME)
    assert snapshot.state == "broken" and snapshot.training is not None
    got = deliver(receiver, [(MTIME, snapshot)], 1)
    title, message, kind, _ = got[0]
    assert (title, kind) == ("rig-7: broken", "warning")
    lines = message.splitlines()
    assert lines[0] == "step 382/2724 · broken"
    assert lines[1].startswith(f"Broken: at step 382: {training_dict(snapshot.training)['broken']} (since ")
    assert lines[2] == STATE_EXPLANATIONS["broken"]


def test_a_crash_after_a_stall_is_one_failure_and_no_success(receiver: Receiver) -> None:
    # Stalled from T0 - 60 (told at once), crashed at T0 + 60: the stall ends into a crash.
    stalled = {"step": 383, "seconds_since_step": 600.0, "stalled": True}
    steps = [(T0 + s, snap("stalled", T0 + s, since=T0 - 60, layer=None, training=stalled, status_line="stalled"))
             for s in range(0, 60, 5)]
    steps += [(T0 + s, snap("crashed", T0 + s, since=T0 + 60, layer=None,
                            training={"step": 383, "crash": {"error": "Killed"}}, status_line="crashed"))
              for s in range(60, 120, 5)]
    got = deliver(receiver, steps, 2)
    assert [(title, kind) for title, _, kind, _ in got] == [("rig-7: stalled", "warning"), ("rig-7: crashed", "failure")]
    assert got[1][1] == (f"crashed\nCrashed: at step 383: Killed (since {hm(T0 + 60)}, 0 s).\n"
                         f"Before it: stalled for 2 min (since {hm(T0 - 60)}).\n{STATE_EXPLANATIONS['crashed']}\n{URL}")
    assert got[1][3] == T0 + 60


def test_a_requeued_miner_whose_log_stops_gets_no_success_while_the_page_is_red(receiver: Receiver) -> None:
    # Training, back in the queue at +1 min (told at +2), its log silent from +4 (the page red at
    # once; the silent alert after its 10-minute hold, at +14), then training again at +20.
    steps: Steps = [(T0, snap("training", T0, since=T0 - 3600, status_line="L1 · 358k tok/h"))]
    last_line = T0 + 4 * MIN
    for second in range(60, 20 * 60, 30):
        at = T0 + second
        if at < last_line:
            steps.append((at, snap("queued", at, since=T0 + MIN, queue={"position": 1583}, status_line="Queue #1583")))
        else:
            steps.append((at, snap("silent", at, since=last_line, source={"last_event_at": last_line},
                                   status_line="L1 · log silent")))
    steps.append((T0 + 20 * MIN, snap("training", T0 + 20 * MIN, since=T0 + 20 * MIN - 5,
                                      status_line="L1 · 358k tok/h")))
    got = deliver(receiver, steps, 3)
    assert [(title, kind, at) for title, _, kind, at in got] == [
        ("rig-7: back in the queue", "warning", T0 + 2 * MIN),
        ("rig-7: log silent", "failure", last_line + 10 * MIN),
        ("rig-7: training", "success", T0 + 20 * MIN),
    ]
    assert got[1][1].splitlines()[1:3] == [
        f"Log silent: no new log line since {hm(last_line)} (10 min).",
        f"Before it: back in the queue for 3 min (since {hm(T0 + MIN)}).",
    ]
    assert "Back in the queue resolved" not in "".join(message for _, message, _, _ in got)
