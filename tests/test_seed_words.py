"""Every string the core seed documents, pinned where a person reads it: a change of wording that
drops one fails here, not silently.

The seed (the miner's guide) names: the status line ``L1 · 358k tok/h``, ``L1 · …`` while the
rate is measured, ``working`` before the layer is known; the details ``358k tok/h · 112 passes/h
(over 18 min)``, ``measuring… (N passes so far)``, ``Step N``, ``Run …`` and ``Epoch …``, ``GPU
mem …`` and ``Backend: 3×503 queue_state, 0×404``. The figures below are the seed's own example,
built from events: 34 passes of 4 × 800 tokens, one every 32 s after registering, read 4 s after
the last one (34 passes over 1092 s = 112.09 passes/h × 3200 tokens = 358.7k tok/h).
"""

from __future__ import annotations

from app.snapshot import Snapshot, SourceView
from app.stats.events import BackendError, ForwardPass, GpuMemory, Heartbeat, OptimizationStep, Registered
from app.stats.iota.tracker import IotaTracker
from tests.stats.test_iota import T0, training

SOURCE = SourceView(path="/x.log", size_bytes=1, lines_read=1, bad_lines=0, last_event_at=None)


def measured() -> Snapshot:
    tracker = IotaTracker()
    t = training(tracker, passes=34, every=32.0)
    tracker.apply(OptimizationStep(t, 12))
    tracker.apply(Heartbeat(t, "4.12.16.5-tah", 1, 49, "training", None))
    tracker.apply(GpuMemory(t, 10.5, 24.0))
    for _ in range(3):
        tracker.apply(BackendError(t, "queue_state_503", "register.queue_state"))
    return tracker.snapshot(t + 4, SOURCE)


def test_the_status_line_once_measured() -> None:
    assert measured().status_line == "L1 · 358k tok/h"


def test_the_rate_line() -> None:
    assert measured().details[0] == "358k tok/h · 112 passes/h (over 18 min)"


def test_step_run_epoch_gpu_memory_and_backend_lines() -> None:
    details = measured().details
    assert "Step 12" in details
    assert any(line.startswith("Run ") for line in details)
    assert any(line.startswith("Epoch ") for line in details)
    assert any(line.startswith("GPU mem ") for line in details)
    assert "Backend: 3×503 queue_state, 0×404" in details


def test_while_measuring() -> None:
    """``L1 · …`` and ``measuring… (N passes so far)``, N as counted, also past the three needed, then
    the warm-up's time left in the same line (one count, not two)."""
    tracker = IotaTracker()
    t = training(tracker, passes=5, every=10.0)  # 5 passes in 50 s: more than 3, too few minutes
    snapshot = tracker.snapshot(t + 1, SOURCE)
    assert snapshot.status_line == "L1 · …"
    # Passes at T0 + 10 … T0 + 50, asked at T0 + 51: some 2 of the warm-up's 3 min remain.
    assert snapshot.details[0] == "measuring… (5 passes so far) · rate in about 2 min"


def test_working_before_the_layer_is_known() -> None:
    tracker = IotaTracker()
    tracker.apply(ForwardPass(T0, "a0", None))
    assert tracker.snapshot(T0 + 1, SOURCE).status_line == "working"


def test_one_pass_is_said_in_the_singular() -> None:
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, 48))
    tracker.apply(ForwardPass(T0 + 10, "a0", 1))
    assert tracker.snapshot(T0 + 11, SOURCE).details[0] == "measuring… (1 pass so far) · rate in about 3 min"
