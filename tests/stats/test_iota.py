"""The miner tracker's scenarios on an explicit clock: every rule of the seed, to the second."""

from __future__ import annotations

import itertools

import pytest

from app import text
from app.snapshot import Snapshot, SourceView, to_json
from app.stats.events import (
    ActivationShape,
    BackendError,
    EpochReset,
    ForwardPass,
    ForwardUndelivered,
    GpuMemory,
    Heartbeat,
    LayerChanged,
    LayerSeen,
    MinerReset,
    OptimizationStep,
    P2PTransfer,
    PhaseChanged,
    QueueUpdate,
    Registered,
    RequestRetry,
    Tick,
)
from app.stats.iota.liveness import Liveness
from app.stats.iota.tracker import IotaTracker
from app.stats.unknown import UnknownTracker

T0 = 1_760_000_000.0  # an arbitrary log time
SOURCE = SourceView(path="/x.log", size_bytes=1, lines_read=1, bad_lines=0, last_event_at=None)


def snap(tracker: IotaTracker, now: float) -> Snapshot:
    return tracker.snapshot(now, SOURCE)


def training(tracker: IotaTracker, *, layer: int = 1, start: float = T0, passes: int = 0, every: float = 15.0,
             shape: tuple[int, int] = (4, 800), prefix: str = "a") -> float:
    """Register at ``start``, then one pass every ``every`` seconds; return the last pass time."""
    tracker.apply(Registered(start, layer, 48))
    tracker.apply(ActivationShape(start + 1, *shape))
    t = start
    for i in range(passes):
        t = start + every * (i + 1)
        tracker.apply(ForwardPass(t, f"{prefix}{i}", layer))
    return t


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (0, "0"),
        (999.9, "999"),
        (1_000, "1.0k"),  # two significant figures at least: never "1k" for 1,999
        (3_874, "3.8k"),
        (9.99, "9.9"),
        (358_400, "358k"),
        (999_999, "999k"),
        (1_000_000, "1.0M"),
        (1_234_567, "1.2M"),
        (1_299_999, "1.2M"),
        (12_345_678, "12.3M"),
        (466_000_000, "466M"),
    ],
)
def test_compact_rounds_down(value: float, written: str) -> None:
    assert text.compact(value) == written


def test_no_log_data_waits() -> None:
    nothing_read = SourceView(path="/x.log", size_bytes=0, lines_read=0, bad_lines=0, last_event_at=None)
    s = IotaTracker().snapshot(T0, nothing_read)
    assert (s.state, s.status_line) == ("waiting", "waiting for log")
    assert s.details == ()
    assert s.rate.measured is False and s.rate.tokens_per_hour is None


def test_unrecognised_format_says_so() -> None:
    tracker = UnknownTracker()
    tracker.has_records = True
    s = snap(tracker, T0)
    assert (s.state, s.status_line) == ("unrecognised", "log format not recognised")


def test_records_without_layer_are_working() -> None:
    tracker = IotaTracker()
    tracker.apply(Tick(T0))
    s = snap(tracker, T0)
    assert (s.state, s.status_line) == ("working", "working")


def test_queue_then_training() -> None:
    tracker = IotaTracker()
    tracker.apply(QueueUpdate(T0, "queued", 1583))
    s = snap(tracker, T0 + 1)
    assert (s.state, s.status_line) == ("queued", "Queue #1583")
    assert s.queue is not None and s.queue.position == 1583
    tracker.apply(QueueUpdate(T0 + 60, "queued", 57))
    assert snap(tracker, T0 + 61).status_line == "Queue #57"
    tracker.apply(QueueUpdate(T0 + 120, "confirmed", 0))
    tracker.apply(Registered(T0 + 125, 2, 48))
    s = snap(tracker, T0 + 126)
    assert (s.state, s.status_line, s.queue) == ("measuring", "L2 · …", None)
    # Registered 1 s ago, no pass yet: no pace, so no guess at the wait.
    assert s.details[0] == "measuring… (0 passes so far)"
    assert s.warmup.text == s.details[0]  # one count, said once


def test_warmup_needs_three_passes_and_three_minutes() -> None:
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, 48))
    tracker.apply(ActivationShape(T0, 4, 800))
    for i, t in enumerate((T0 + 10, T0 + 20, T0 + 30)):
        tracker.apply(ForwardPass(t, f"id{i}", 1))
    # three passes but only 179 s observed: still measuring
    s = snap(tracker, T0 + 179)
    assert s.state == "measuring" and s.status_line == "L1 · …"
    assert s.warmup.passes == 3 and not s.warmup.done
    # One count (the seed's), with the second left: never "3 of 3" beside "5 so far".
    assert s.details[0] == "measuring… (3 passes so far) · rate in under a minute"
    # at exactly 3 minutes the rate shows: 3 passes over 180 s = 60 passes/h × 3200 tokens
    s = snap(tracker, T0 + 180)
    assert s.warmup.done and s.rate.measured
    assert s.rate.passes_per_hour == pytest.approx(60)
    assert s.rate.tokens_per_hour == pytest.approx(192_000)
    assert s.status_line == "L1 · 192k tok/h"
    assert s.details[0] == "192k tok/h · 60 passes/h (over 3 min)"


def test_two_passes_over_ten_minutes_is_not_enough() -> None:
    tracker = IotaTracker()
    training(tracker)
    for t in range(60, 601, 60):  # the log talks every minute (never 3 minutes silent)...
        tracker.apply(Tick(T0 + t))
        if t in (240, 480):  # ...and passes at T0 + 290 and T0 + 580: never 5 minutes without one
            tracker.apply(ForwardPass(T0 + t + 50, f"a{t}", 1))
    s = snap(tracker, T0 + 600)
    assert s.state == "measuring" and s.warmup.passes == 2 and s.warmup.observed_seconds == 600


def test_rate_window_is_twenty_minutes_and_observed_is_capped() -> None:
    tracker = IotaTracker()
    # 160 passes, one every 15 s: 40 minutes of training
    last = training(tracker, passes=160, every=15)
    s = snap(tracker, last)
    assert s.rate.observed_seconds == 1200
    assert s.rate.passes_in_window == 80  # (last − 20 min, last]
    assert s.rate.passes_per_hour == pytest.approx(240)
    assert s.rate.tokens_per_hour == pytest.approx(240 * 3200)
    assert s.status_line == "L1 · 768k tok/h"
    assert s.details[0] == "768k tok/h · 240 passes/h (over 20 min)"


def test_window_edge_excludes_exactly_twenty_minutes_ago() -> None:
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, None))
    tracker.apply(ActivationShape(T0, 1, 1000))
    # A pass every 250 s from T0 + 100 (never idle: 250 < 300 s; never silent: a line a minute),
    # then three at T0 + 1200..1202: 8 passes.
    times = [T0 + 100 + 250 * i for i in range(5)] + [T0 + 1200 + i for i in range(3)]
    for i, t in enumerate(times):
        tracker.apply(ForwardPass(t, f"n{i}", 1))
        for tick in (t + 60, t + 120):
            if tick < T0 + 1200:
                tracker.apply(Tick(tick))
    assert snap(tracker, T0 + 1299.9).rate.passes_in_window == 8
    # at now = T0 + 1300 the window is (T0 + 100, T0 + 1300]: the pass at T0 + 100 is out
    assert snap(tracker, T0 + 1300).rate.passes_in_window == 7
    tracker.apply(Tick(T0 + 1300))
    assert snap(tracker, T0 + 1300).rate.passes_in_window == 7


def test_same_activation_id_counts_once() -> None:
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, None))
    tracker.apply(ActivationShape(T0, 4, 800))
    for t in (T0 + 10, T0 + 11, T0 + 12):
        tracker.apply(ForwardPass(t, "same", 1))
    tracker.apply(ForwardPass(T0 + 20, "other", 1))
    s = snap(tracker, T0 + 200)
    assert s.warmup.passes == 2 and s.rate.passes_in_window == 2


def test_layer_change_starts_a_new_stretch() -> None:
    tracker = IotaTracker()
    last = training(tracker, layer=2, passes=100)
    assert snap(tracker, last).status_line.startswith("L2 · ")
    tracker.apply(LayerChanged(last + 5, 1, 2))
    s = snap(tracker, last + 6)
    assert (s.layer, s.status_line, s.warmup.passes) == (1, "L1 · …", 0)
    # passes of the old layer never mix into the new layer's window
    for i in range(3):
        tracker.apply(ForwardPass(last + 10 + 15 * i, f"new{i}", 1))
    s = snap(tracker, last + 5 + 180)
    assert s.rate.passes_in_window == 3
    assert s.rate.passes_per_hour == pytest.approx(60)


def test_forward_on_another_layer_is_a_layer_change() -> None:
    tracker = IotaTracker()
    last = training(tracker, layer=2, passes=20)
    tracker.apply(ForwardPass(last + 15, "x", 3))
    s = snap(tracker, last + 16)
    assert s.layer == 3 and s.warmup.passes == 1


def test_cold_start_mid_training_is_measured_at_once() -> None:
    # The log starts mid-training (no registration line): training began at the first line read.
    tracker = IotaTracker()
    tracker.apply(Tick(T0))
    tracker.apply(ActivationShape(T0 + 1, 4, 800))
    for i in range(100):
        tracker.apply(ForwardPass(T0 + 15 * (i + 1), f"p{i}", 1))
    s = snap(tracker, T0 + 1500)
    assert s.state == "training" and s.rate.observed_seconds == 1200


def test_last_layer_pass_without_layer_uses_known_layer() -> None:
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 5, None))
    tracker.apply(ForwardPass(T0 + 15, "last", None))
    s = snap(tracker, T0 + 16)
    assert s.layer == 5 and s.warmup.passes == 1


def test_a_stopped_miner_has_no_rate_only_what_it_was_doing() -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=100)
    assert snap(tracker, last).rate.tokens_per_hour == pytest.approx(240 * 3200)
    mid = snap(tracker, last + 600)
    assert mid.rate.passes_in_window == 40
    assert mid.rate.tokens_per_hour is None and mid.rate.was_tokens_per_hour == pytest.approx(240 * 3200)
    dead = snap(tracker, last + 1200)
    assert dead.rate.passes_in_window == 0
    assert dead.rate.tokens_per_hour is None
    # Not "L1 · 0 tok/h" (nor, before it, a healthy-looking decaying figure): the log is silent.
    assert (dead.state, dead.status_line) == ("silent", "L1 · log silent 20 min")


def test_step_and_epoch_reset() -> None:
    tracker = IotaTracker()
    tracker.apply(OptimizationStep(T0, 7))
    assert snap(tracker, T0).step == 7
    assert "Step 7" in snap(tracker, T0).details
    tracker.apply(EpochReset(T0 + 1, full=False))
    assert snap(tracker, T0 + 1).step == 0
    tracker.apply(OptimizationStep(T0 + 2, 1))
    assert snap(tracker, T0 + 2).step == 1


def test_heartbeat_gives_run_epoch_phase() -> None:
    tracker = IotaTracker()
    tracker.apply(Heartbeat(T0, "4.12.16.5-tah", 2, 48, "training", None))
    s = snap(tracker, T0)
    assert s.run is not None and (s.run.id, s.run.epoch, s.run.phase) == ("4.12.16.5-tah", 48, "training")
    assert "Run 4.12.16.5-tah" in s.details and "Epoch 48 · training" in s.details
    # a cut response keeps what it cannot read from the previous one
    tracker.apply(Heartbeat(T0 + 30, "4.12.16.5-tah", 2, None, None, None))
    s = snap(tracker, T0 + 30)
    assert s.run is not None and s.run.epoch == 48
    tracker.apply(PhaseChanged(T0 + 40, "weights_uploading", 2))
    assert "Epoch 48 · weights_uploading" in snap(tracker, T0 + 40).details


def test_gpu_memory_forms() -> None:
    tracker = IotaTracker()
    tracker.apply(GpuMemory(T0, 2.91, 3.75))
    assert "GPU mem 2.91 / 3.75 GB" in snap(tracker, T0).details
    tracker.apply(GpuMemory(T0 + 1, 3.37, None))  # short form keeps the last total
    assert "GPU mem 3.37 / 3.75 GB" in snap(tracker, T0 + 1).details
    tracker.apply(GpuMemory(T0 + 2, 4.10, None))  # above the known total: used alone
    assert "GPU mem 4.10 GB" in snap(tracker, T0 + 2).details


def test_backend_errors_over_the_last_hour() -> None:
    tracker = IotaTracker()
    tracker.apply(BackendError(T0, "queue_state_503", None))
    tracker.apply(BackendError(T0 + 100, "queue_state_503", None))
    tracker.apply(BackendError(T0 + 200, "not_found_404", "/miner/register/status/x"))
    tracker.apply(BackendError(T0 + 300, "queue_state_503", None))
    s = snap(tracker, T0 + 300)
    assert (s.backend_errors.queue_state_503, s.backend_errors.not_found_404) == (3, 1)
    assert s.details[-1] == "Backend: 3×503 queue_state, 1×404"
    s = snap(tracker, T0 + 3700)  # the first two 503s fell out of (T0 + 100, T0 + 3700]
    assert (s.backend_errors.queue_state_503, s.backend_errors.not_found_404) == (1, 1)
    s = snap(tracker, T0 + 4000)
    assert not any(line.startswith("Backend") for line in s.details)


def test_details_order() -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=100)
    tracker.apply(OptimizationStep(last, 2))
    tracker.apply(Heartbeat(last, "run-1", 1, 49, "training", None))
    tracker.apply(GpuMemory(last, 3.0, 3.9))
    tracker.apply(BackendError(last, "queue_state_503", None))
    s = snap(tracker, last)
    assert s.details == (
        "768k tok/h · 240 passes/h (over 20 min)",
        "last pass 0 s ago",
        "Step 2",
        "Run run-1",
        "Epoch 49 · training",
        "GPU mem 3.00 / 3.90 GB",
        "Backend: 1×503 queue_state, 0×404",
    )


def test_miner_reset_drops_the_layer() -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=30)
    tracker.apply(MinerReset(last + 1, "not registered"))
    s = snap(tracker, last + 2)
    assert (s.state, s.layer, s.status_line) == ("working", None, "working")


def test_requeue_after_training() -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=30)
    tracker.apply(QueueUpdate(last + 5, "queued", 6))
    s = snap(tracker, last + 6)
    assert (s.state, s.status_line, s.layer) == ("queued", "Queue #6", None)


def test_history_samples_every_30s_for_an_hour() -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=400, every=15)  # 100 minutes
    s = snap(tracker, last)
    times = [t for t, _ in s.history]
    assert len(times) == 120
    assert all(b - a == 30 for a, b in itertools.pairwise(times))
    assert times[-1] <= last and times[0] > last - 3600
    values = [v for _, v in s.history]
    assert all(v == pytest.approx(240 * 3200) for v in values)


def test_history_extends_to_now_on_a_quiet_log() -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=100)
    s = snap(tracker, last + 1800)
    assert s.history[-1][0] > last + 1770
    # Silent from last + 180 on: no figure (a gap), and the last point before it is the rate.
    assert all(v is None for t, v in s.history if t >= last + 180)
    assert [v for t, v in s.history if t <= last][-1] == pytest.approx(240 * 3200)


def test_history_during_warmup_is_null() -> None:
    tracker = IotaTracker()
    training(tracker, passes=2, every=15)
    tracker.apply(Tick(T0 + 90))
    s = snap(tracker, T0 + 90)
    assert s.history and all(v is None for _, v in s.history)


def test_times_going_backwards_are_clamped() -> None:
    tracker = IotaTracker()
    training(tracker, passes=10)
    tracker.apply(ForwardPass(T0 - 5000, "back", 1))
    s = snap(tracker, T0 + 151)
    assert s.warmup.passes == 11 and s.rate.passes_in_window == 11


def test_far_future_lines_do_not_move_the_clock() -> None:
    tracker = IotaTracker()
    training(tracker, passes=10)
    tracker.apply(Tick(T0 + 10 * 365 * 86400), now=T0 + 200)
    s = snap(tracker, T0 + 200)
    assert s.source.last_event_at == T0 + 150
    assert s.source.skipped["future_timestamps"] == 1


def test_memory_stays_bounded() -> None:
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, None))
    for i in range(50_000):
        tracker.apply(ForwardPass(T0 + i * 1.0, f"id{i}", 1))
        if i % 7 == 0:
            tracker.apply(BackendError(T0 + i, "queue_state_503", None))
    assert len(tracker._passes) <= 1200
    assert len(tracker._seen_ids) <= 2400
    assert len(tracker._errors_503) <= 3600 // 7 + 1
    assert len(tracker._history) == 120


def test_running_counts_never_count_a_pass_twice_and_outlive_the_windows() -> None:
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, None))
    tracker.apply(ActivationShape(T0, 4, 800))
    for i in range(10):
        tracker.apply(ForwardPass(T0 + 60 * i, f"id{i}", 1))
    tracker.apply(ForwardPass(T0 + 600, "id3", 1))  # the same activation again
    tracker.apply(BackendError(T0 + 10, "queue_state_503", None))
    tracker.apply(BackendError(T0 + 20, "not_found_404", None))
    tracker.apply(BackendError(T0 + 30, "queue_state_503", None))
    late = snap(tracker, T0 + 3 * 3600)  # hours later: the windows are empty, the totals are not
    assert late.counts is not None
    assert (late.counts.passes, late.counts.tokens) == (10, 10 * 3200)
    assert late.counts.backend_errors == {"503": 2, "404": 1}
    assert late.backend_errors.queue_state_503 == 0


def test_an_id_seen_is_forgotten_on_time_while_only_gpu_lines_come() -> None:
    # A pass's id is kept 40 minutes (twice the rate's window), however few lines add to a window
    # after it: GPU readings alone move the clock past that, and the id counts as a pass again.
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, None))
    tracker.apply(ActivationShape(T0, 4, 800))
    tracker.apply(ForwardPass(T0 + 10, "again", 1))
    for minute in range(1, 42):
        tracker.apply(GpuMemory(T0 + 10 + 60 * minute, 3.0, 4.0))
    tracker.apply(ForwardPass(T0 + 10 + 41 * 60 + 5, "again", 1))
    assert tracker.passes_total == 2
    tracker.apply(ForwardPass(T0 + 10 + 41 * 60 + 20, "again", 1))  # within 40 minutes: the same pass
    assert tracker.passes_total == 2


def _kept_in(tracker: IotaTracker, window: str) -> int:
    parts = {
        "passes": lambda: len(tracker._passes),
        "forwards": lambda: len(tracker.delivery._forwards),
        "ids": lambda: len(tracker._seen_ids),
        "transfers": lambda: len(tracker._p2p_bytes),
        "undelivered": lambda: len(tracker.delivery._failed),
        "retries": lambda: len(tracker.retries._by_endpoint),
        "errors": lambda: len(tracker._errors_404),
    }
    return parts[window]()


@pytest.mark.parametrize(("event", "window", "span_minutes"), [
    (ForwardPass(T0 + 5, "one", 1), "passes", 20),
    (ForwardPass(T0 + 5, "one", 1), "forwards", 10),
    (ForwardPass(T0 + 5, "one", 1), "ids", 40),
    (P2PTransfer(T0 + 5, "recv", 1000), "transfers", 20),
    (ForwardUndelivered(T0 + 5, "failed", None), "undelivered", 10),
    (RequestRetry(T0 + 5, "/miner/submit_activation"), "retries", 10),
    (BackendError(T0 + 5, "not_found_404", None), "errors", 60),
])
def test_each_window_forgets_on_time_while_only_gpu_lines_come(event: object, window: str, span_minutes: int) -> None:
    # Each window forgets from its own due time: one added to alone is emptied once its span has
    # passed, the clock moved by GPU lines only, and not a minute before.
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, None))
    tracker.apply(event)  # type: ignore[arg-type]
    for minute in range(1, span_minutes + 2):
        tracker.apply(GpuMemory(T0 + 60 * minute, 3.0, 4.0))
        assert _kept_in(tracker, window) == (1 if minute <= span_minutes else 0), minute


def test_snapshot_serialises_to_the_contract() -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=100)
    tracker.apply(QueueUpdate(last + 1, "queued", 3))
    tracker.apply(LayerSeen(last + 2, 1))
    data = __import__("json").loads(to_json(snap(tracker, last + 3)))
    assert set(data) == {
        "status_line", "state", "format", "layer", "queue", "rate", "warmup", "step", "run",
        "gpu_memory", "backend_errors", "details", "history", "source", "as_of", "training",
        "level", "state_since", "events", "network", "usual", "today", "history_revision", "alerts", "counts",
        "history_unit", "training_fields", "lost_layer", "ticking", "problems", "delivery", "drift", "hardware", "cause",
    }
    assert data["history_unit"] == "tok/h" and data["training_fields"] == []
    assert max(v for _, v in data["history"] if v is not None) == 768_000
    assert set(data["rate"]) == {
        "measured", "tokens_per_hour", "passes_per_hour", "tokens_per_pass", "passes_in_window",
        "observed_seconds", "window_seconds", "last_pass_at", "was_tokens_per_hour",
    }
    assert set(data["warmup"]) == {"passes", "passes_needed", "observed_seconds", "seconds_needed", "done", "text"}
    assert set(data["backend_errors"]) == {"queue_state_503", "not_found_404", "window_seconds", "text"}
    assert {"path", "size_bytes", "lines_read", "bad_lines", "last_event_at"} <= set(data["source"])
    assert isinstance(data["history"], list) and all(len(p) == 2 for p in data["history"])


def test_phase_without_a_heartbeat_reads_as_phase() -> None:
    tracker = IotaTracker()
    tracker.apply(PhaseChanged(T0, "training", 2))
    s = snap(tracker, T0)
    assert "Phase training" in s.details
    assert not any(line.startswith("Epoch") for line in s.details)


@pytest.mark.parametrize("dim", [10**7 + 1, 10**200, 10**400])
def test_an_absurd_shape_never_breaks_the_rate(dim: int) -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=100)
    tracker.apply(ActivationShape(last, dim, dim))
    s = snap(tracker, last + 30)
    assert s.rate.tokens_per_pass == 3200 or s.rate.tokens_per_hour is None or s.rate.tokens_per_hour < 1e30
    to_json(s)  # serialises: no inf, no exception
    text.compact(s.rate.tokens_per_hour or 0)


def test_a_rate_that_overflows_is_not_a_figure() -> None:
    tracker = IotaTracker()
    last = training(tracker, passes=100)
    tracker.tokens_per_pass = 10**308  # past what the parser and the shape bound let through
    s = snap(tracker, last)
    assert s.rate.tokens_per_hour is None and s.status_line == "L1 · …"
    to_json(s)


def test_the_warm_up_has_one_count_past_three_passes() -> None:
    # Five passes in 2 min 27 s: the seed's count is 5, and 33 s are left to observe.
    tracker = IotaTracker()
    tracker.apply(Registered(T0, 1, 48))
    tracker.apply(ActivationShape(T0, 4, 800))
    for i in range(5):
        tracker.apply(ForwardPass(T0 + 20 + 25 * i, f"id{i}", 1))
    s = snap(tracker, T0 + 147)
    assert s.state == "measuring" and s.warmup.passes == 5
    assert s.warmup.text == "measuring… (5 passes so far) · rate in under a minute"
    assert [line for line in s.details if line.startswith("measuring")] == [s.warmup.text]


def test_the_idle_limit_follows_the_median_of_the_last_64_intervals() -> None:
    # max(5 min, 4 × the median of the last 64 pass intervals), worked out by hand.
    live = Liveness()
    live.start_stretch(0.0)
    t = 0.0
    for _ in range(65):  # 64 intervals of 100 s
        t += 100
        live.on_pass(t)
    assert live.limit_seconds == 400
    for _ in range(32):  # the oldest 32 fall out: 32 of 100 s and 32 of 200 s, median 150
        t += 200
        live.on_pass(t)
    assert live.limit_seconds == 600
    for _ in range(32):  # only 200 s left
        t += 200
        live.on_pass(t)
    assert live.limit_seconds == 800
    t += 10  # 63 of 200 s and one of 10 s: 200
    live.on_pass(t)
    assert live.limit_seconds == 800
    live.start_stretch(t)  # a new stretch forgets the pace
    live.on_pass(t + 20)
    live.on_pass(t + 40)
    assert live.limit_seconds == 300
