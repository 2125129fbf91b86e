"""The IOTA miner tracker tells the truth when a miner stops: idle, silent, resumed, stale facts.

Scenarios on an explicit clock. Every expected figure is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from app.snapshot import Snapshot, SourceView, level_of, to_dict
from app.stats.events import (
    ActivationShape,
    ErrorLogged,
    ForwardPass,
    GpuMemory,
    Heartbeat,
    MinerReset,
    OptimizationStep,
    P2PTransfer,
    PhaseChanged,
    QueueUpdate,
    Registered,
    SourceChanged,
    Tick,
)
from app.stats.iota.tracker import IotaTracker

T0 = 1_760_000_000.0
SOURCE = SourceView(path="/x.log", size_bytes=1, lines_read=1, bad_lines=0, last_event_at=None)


def snap(engine: IotaTracker, now: float) -> Snapshot:
    return engine.snapshot(now, SOURCE)


def train(engine: IotaTracker, *, start: float = T0, passes: int = 80, every: float = 15.0, layer: int = 1,
          prefix: str = "a") -> float:
    """Register at ``start``, one pass (4 × 800 tokens) every ``every`` s; return the last pass time."""
    engine.apply(Registered(start, layer, 48))
    engine.apply(ActivationShape(start + 1, 4, 800))
    t = start
    for i in range(passes):
        t = start + every * (i + 1)
        engine.apply(ForwardPass(t, f"{prefix}{i}", layer))
    return t


def chatter(engine: IotaTracker, start: float, end: float, every: float = 10.0, error: str | None = None) -> None:
    """Log lines (heartbeat-like ticks, or an ERROR line) every ``every`` s in (start, end]."""
    t = start + every
    while t <= end:
        engine.apply(ErrorLogged(t, error) if error else Tick(t))
        t += every


# --- idle ------------------------------------------------------------------


def test_a_chatty_log_with_no_passes_turns_idle_after_five_minutes() -> None:
    engine = IotaTracker()
    last = train(engine)  # 80 passes, 15 s apart: 240 passes/h × 3200 = 768k tok/h
    assert last == T0 + 1200
    chatter(engine, last, last + 720)
    # The limit is max(5 min, 4 × 15 s) = 300 s after the last pass, strictly longer.
    before = snap(engine, last + 300)
    assert before.state == "training" and before.level == "ok"
    after = snap(engine, last + 301)
    assert (after.state, after.status_line, after.level) == ("idle", "L1 · idle 5 min", "warning")
    twelve = snap(engine, last + 720)
    assert twelve.status_line == "L1 · idle 12 min"
    assert twelve.details[0] == "was 768k tok/h"
    assert "last pass 12 min ago" in twelve.details
    assert twelve.rate.last_pass_at == last
    assert twelve.state_since == last
    # An idle miner produces nothing: no rate anywhere, only what it was doing (768k).
    assert twelve.rate.tokens_per_hour is None and twelve.rate.passes_per_hour is None
    assert twelve.rate.was_tokens_per_hour == pytest.approx(768_000)


def test_the_idle_limit_follows_the_stretchs_median_pass_interval() -> None:
    engine = IotaTracker()
    last = train(engine, passes=10, every=120)  # median 120 s → limit 4 × 120 = 480 s
    chatter(engine, last, last + 600)
    assert snap(engine, last + 480).state == "training"
    idle = snap(engine, last + 481)
    assert (idle.state, idle.status_line) == ("idle", "L1 · idle 8 min")


def test_no_pass_at_all_after_registration_is_idle_counted_from_registration() -> None:
    engine = IotaTracker()
    engine.apply(Registered(T0, 3, 48))
    chatter(engine, T0, T0 + 400)
    s = snap(engine, T0 + 400)
    assert (s.state, s.status_line, s.state_since) == ("idle", "L3 · idle 6 min", T0)
    assert s.details[0] == "not measured: no pass yet in layer 3"
    assert s.rate.last_pass_at is None


def test_merging_partitions_is_not_idle_until_it_takes_half_an_hour() -> None:
    engine = IotaTracker()
    last = train(engine)
    engine.apply(PhaseChanged(last + 5, "weights_uploading", 1))
    chatter(engine, last + 5, last + 2000)
    assert snap(engine, last + 1805).state == "training"  # 30 min after the phase began
    s = snap(engine, last + 1806)
    assert (s.state, s.status_line) == ("idle", "L1 · idle 30 min")  # counted from the last pass


def test_a_phase_back_to_training_restarts_the_idle_clock_from_the_phase() -> None:
    engine = IotaTracker()
    last = train(engine)
    engine.apply(PhaseChanged(last + 5, "merging_partitions", 1))
    engine.apply(PhaseChanged(last + 600, "training", 1))
    chatter(engine, last + 600, last + 1000)
    assert snap(engine, last + 900).state == "training"  # 300 s after training came back
    assert snap(engine, last + 901).status_line == "L1 · idle 15 min"


def test_a_miner_that_resumes_trains_again_and_the_timeline_says_so() -> None:
    engine = IotaTracker()
    last = train(engine)
    chatter(engine, last, last + 1190, error="Error getting activation from queue: Timed out")
    assert snap(engine, last + 1190).state == "idle"
    t = last + 1200
    for i in range(41):  # 20 min after the last pass: 41 passes, 15 s apart, over 10 min
        engine.apply(ForwardPass(t + 15 * i, f"r{i}", 1))
    end = t + 600
    s = snap(engine, end)
    # Measured afresh from the first pass back (t), which starts the window: the 40 passes after
    # it over 600 s = 240/h × 3200 = 768,000 (not the 20-minute window's 393k of before).
    assert (s.state, s.status_line) == ("training", "L1 · 768k tok/h")
    assert s.state_since == t + 180  # measuring from t, measured 3 minutes later
    kinds = [(e.kind, e.text) for e in s.events]
    assert kinds[0] == ("resumed", "passes resumed after 20 min")
    assert ("error", "Error getting activation from queue: Timed out (×119)") in kinds
    idle = next(e for e in s.events if e.kind == "idle")
    assert (idle.at, idle.text) == (last, "passes stopped · was 768k tok/h — cause unknown")


# --- silent ----------------------------------------------------------------


def test_a_log_that_stops_dead_reads_log_silent_after_three_minutes() -> None:
    engine = IotaTracker()
    last = train(engine)
    assert snap(engine, last + 179).state == "training"
    s = snap(engine, last + 180)
    assert (s.state, s.status_line, s.level, s.state_since) == ("silent", "L1 · log silent 3 min", "problem", last)
    assert s.details[0] == "was 768k tok/h"
    long = snap(engine, last + 3 * 3600 + 5 * 60)
    assert long.status_line == "L1 · log silent 3 h 05 min"
    days = snap(engine, last + 2 * 86400 + 4 * 3600)
    assert days.status_line == "L1 · log silent 2 d 4 h"
    assert [e.kind for e in s.events][:1] == ["silent"]


def test_a_warm_up_cut_short_by_silence_says_so() -> None:
    engine = IotaTracker()
    last = train(engine, passes=2, every=30)
    s = snap(engine, last + 600)
    assert (s.state, s.status_line) == ("silent", "L1 · log silent 10 min")
    assert s.details[0] == "not measured: 2 passes, then the log went silent"
    assert s.warmup.passes == 2 and not s.warmup.done


def test_silence_ends_with_the_next_line_and_idleness_with_the_next_pass() -> None:
    engine = IotaTracker()
    last = train(engine)
    engine.apply(Tick(last + 240))  # the log was silent 4 min, then talks again
    s = snap(engine, last + 250)
    assert s.state == "training"  # no pass for 250 s < 300 s: still training
    kinds = [(e.kind, e.text) for e in s.events[:2]]
    assert kinds == [("resumed", "log lines again after 4 min"), ("silent", "log silent for 4 min — cause unknown")]
    chatter(engine, last + 240, last + 400)
    assert snap(engine, last + 400).state == "idle"
    engine.apply(ForwardPass(last + 410, "back", 1))
    back = snap(engine, last + 410)
    assert (back.state, back.status_line) == ("measuring", "L1 · …")
    assert back.details[0] == "measuring… (1 pass so far) · was 768k tok/h"


# --- stale facts -------------------------------------------------------------


def test_re_registration_into_the_queue_shows_no_fact_from_before_as_current() -> None:
    engine = IotaTracker()
    last = train(engine, layer=2)
    engine.apply(Heartbeat(last + 5, "4.12.16.5-tah", 2, 49, "training", None))
    engine.apply(GpuMemory(last + 6, 3.0, 3.86))
    engine.apply(OptimizationStep(last + 7, 3))
    engine.apply(MinerReset(last + 30, "not_registered"))
    engine.apply(QueueUpdate(last + 40, "queued", 77, "q-1"))
    now = last + 7205  # two hours after the heartbeat
    chatter(engine, last + 40, now, every=60)
    s = snap(engine, now)
    assert (s.state, s.status_line) == ("queued", "Queue #77 (lost layer 2)")  # deregistered from layer 2
    assert s.run is None and s.gpu_memory is None and s.step is None and s.layer is None
    assert "Epoch 49 · training · 2 h ago" in s.details
    assert "GPU mem 3.00 / 3.86 GB · 1 h ago" in s.details  # 7199 s before: ages read in whole units
    assert not any(line.startswith("Step") for line in s.details)
    # The next heartbeat makes the run current again.
    engine.apply(Heartbeat(now + 1, "4.12.16.5-tah", 1, 49, "training", None))
    fresh = snap(engine, now + 1)
    assert fresh.run is not None and fresh.run.epoch == 49 and "Epoch 49 · training" in fresh.details


def test_a_switch_to_another_log_file_drops_everything_from_the_old_one() -> None:
    engine = IotaTracker()
    last = train(engine, layer=2)
    engine.apply(Heartbeat(last + 5, "4.12.16.5-tah", 2, 49, "training", None))
    engine.apply(GpuMemory(last + 6, 3.0, 3.86))
    engine.apply(P2PTransfer(last + 7, "recv", 206_107))
    engine.apply(SourceChanged(None, "switched", "2026-09-20-cli.log"))
    later = last + 78 * 86400
    engine.apply(MinerReset(later, "launch"))
    engine.apply(QueueUpdate(later + 10, "queued", 77, "q-2"))
    s = snap(engine, later + 20)
    assert (s.state, s.status_line) == ("queued", "Queue #77")
    assert s.run is None and s.gpu_memory is None and s.network is None
    assert not any("Epoch" in line or "GPU" in line or "Run" in line for line in s.details)
    assert ("source_changed", "now following 2026-09-20-cli.log") in [(e.kind, e.text) for e in s.events]


def test_a_truncated_log_keeps_its_facts_but_shows_their_age() -> None:
    engine = IotaTracker()
    last = train(engine)
    engine.apply(GpuMemory(last, 3.0, 3.86))
    engine.apply(SourceChanged(None, "truncated"))
    engine.apply(Tick(last + 600))
    s = snap(engine, last + 600)
    assert s.gpu_memory is None
    assert "GPU mem 3.00 / 3.86 GB · 10 min ago" in s.details
    engine.apply(GpuMemory(last + 601, 3.1, 3.86))
    assert "GPU mem 3.10 / 3.86 GB" in snap(engine, last + 601).details


def test_a_new_run_id_is_a_timeline_event_and_drops_the_old_phase() -> None:
    engine = IotaTracker()
    engine.apply(Heartbeat(T0, "run-a", 1, 48, "training", None))
    engine.apply(Heartbeat(T0 + 30, "run-a", 1, 49, None, None))
    engine.apply(Heartbeat(T0 + 60, "run-b", 1, 1, None, None))
    s = snap(engine, T0 + 60)
    kinds = [(e.kind, e.text) for e in s.events]
    assert kinds[:2] == [("run_changed", "run run-a → run-b"), ("epoch_changed", "epoch 48 → 49")]
    assert s.run is not None and (s.run.id, s.run.epoch, s.run.phase) == ("run-b", 1, None)


# --- the timeline --------------------------------------------------------------


def test_the_timeline_is_newest_first_bounded_and_counts_repeated_errors() -> None:
    engine = IotaTracker()
    engine.apply(Registered(T0, 2, 48))
    engine.apply(PhaseChanged(T0 + 1, "training", 2))
    engine.apply(PhaseChanged(T0 + 2, "weights_uploading", 2))
    for i in range(3):
        engine.apply(ErrorLogged(T0 + 10 + i, f"Error making request to /miner/{i}0a1: 500 - Internal Server Error"))
    for i in range(60):
        engine.apply(ErrorLogged(T0 + 100 + i, f"distinct failure {chr(65 + i % 26)}{chr(65 + i // 26)}"))
    s = snap(engine, T0 + 200)
    assert len(s.events) == 50
    assert [e.at for e in s.events] == sorted((e.at for e in s.events), reverse=True)
    assert s.events[0].text == "distinct failure HC"  # the 60th: i = 59 → H, C
    data = to_dict(s)["events"][0]
    assert set(data) == {"at", "kind", "text", "layers"}
    assert data["layers"] is None  # only a layer change carries its layers
    engine2 = IotaTracker()
    for i in range(3):
        engine2.apply(ErrorLogged(T0 + i, f"Error making request to /miner/{i}0a1: 500 - Internal Server Error"))
    texts = [e.text for e in snap(engine2, T0 + 3).events]
    assert texts == ["Error making request to /miner/20a1: 500 - Internal Server Error (×3)"]
    engine.apply(Registered(T0 + 300, 1, 48))
    changed = [(e.kind, e.text) for e in snap(engine, T0 + 300).events[:2]]
    assert changed == [("layer_changed", "layer 2 → 1"), ("registered", "registered in layer 1 (epoch 48)")]


# --- network -----------------------------------------------------------------


def test_network_is_transfer_bytes_over_the_twenty_minute_window() -> None:
    engine = IotaTracker()
    engine.apply(Registered(T0, 1, 48))
    assert snap(engine, T0 + 10).network is None  # no transfer seen: unknown, not zero
    for i in range(100):  # one 206,107-byte push and one pass every 15 s from T0 + 15 to T0 + 1500
        engine.apply(P2PTransfer(T0 + 15 * (i + 1), "recv", 206_107))
        engine.apply(ForwardPass(T0 + 15 * (i + 1), f"n{i}", 1))
    s = snap(engine, T0 + 1500)
    # (T0 + 300, T0 + 1500]: pushes 21..100 = 80 × 206,107 B / 1200 s = 13,740.47 B/s
    assert s.network is not None and s.network.window_seconds == 1200
    assert s.network.bytes_per_second == pytest.approx(80 * 206_107 / 1200)
    assert "Network 13 kB/s" in s.details


# --- level ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "problem", "level"),
    [
        ("training", None, "ok"), ("measuring", None, "ok"), ("done", None, "ok"),
        ("waiting", None, "waiting"), ("queued", None, "waiting"), ("working", None, "waiting"),
        ("idle", None, "warning"), ("stalled", None, "warning"),
        ("silent", None, "problem"), ("diverged", None, "problem"), ("unrecognised", None, "problem"),
        ("training", "permission denied reading /x.log", "problem"),
    ],
)
def test_level_of_every_state(state: str, problem: str | None, level: str) -> None:
    assert level_of(state, problem) == level


def test_lines_read_with_no_record_are_unrecognised_not_waiting() -> None:
    # The monitor words source.problem ("256 lines read, none looks like an IOTA miner log").
    engine = IotaTracker("iota")
    read = SourceView(path="/x.log", size_bytes=9000, lines_read=256, bad_lines=0, last_event_at=None)
    s = engine.snapshot(T0, read)
    assert (s.state, s.status_line, s.level) == ("unrecognised", "log format not recognised", "problem")
    nothing = engine.snapshot(T0, SourceView(path="/x.log", size_bytes=0, lines_read=0, bad_lines=0,
                                             last_event_at=None))
    assert (nothing.state, nothing.status_line, nothing.source.problem) == ("waiting", "waiting for log", None)


def test_a_repeated_error_keeps_one_counted_entry_whatever_comes_between() -> None:
    engine = IotaTracker()
    message = "Error getting activation from queue: Timed out"
    for i in range(10):
        engine.apply(ErrorLogged(T0 + 60 * i, message))
        for j in range(6):  # six timeline entries between two repeats
            engine.apply(PhaseChanged(T0 + 60 * i + 1 + j, "training" if j % 2 else "merging_partitions", 1))
    errors = [e for e in snap(engine, T0 + 600).events if e.kind == "error"]
    assert [(e.at, e.text) for e in errors] == [(T0 + 540, f"{message} (×10)")]
    engine.apply(ErrorLogged(T0 + 601, "Failed request after 3 attempts: 500, Internal Server Error"))
    engine.apply(ErrorLogged(T0 + 602, message))  # another message came between: counted anew
    errors = [e.text for e in snap(engine, T0 + 602).events if e.kind == "error"]
    assert errors == [message, "Failed request after 3 attempts: 500, Internal Server Error", f"{message} (×10)"]


# --- stale in any state, measured afresh after a pause -------------------------------------


def test_a_queued_miner_whose_app_died_is_silent_after_four_of_its_poll_gaps() -> None:
    engine = IotaTracker()
    # Polls 75 s apart (the real miner's `poll_after: 60` plus the request), each followed 12 s
    # later by the 503 queue_state warning: a line at least every 63 s while the app lives.
    t = T0
    for i in range(20):
        t = T0 + 75 * i
        engine.apply(QueueUpdate(t, "queued", 1480 - i, "q-1"))
        engine.apply(Tick(t + 12))
    last_poll, last_line = t, t + 12  # T0 + 1425, T0 + 1437
    # The limit: max(3 min, 4 × the median poll gap 75 s = 300 s) = 300 s after the last line.
    alive = snap(engine, last_line + 299)
    # One position per 75 s is 48/h towards the front: 1461 / 48 h = 30.4 h to go, "1 d" at a glance.
    assert (alive.state, alive.status_line, alive.level) == ("queued", "Queue #1461 · ▼ −48/h · front in ~1 d", "waiting")
    dead = snap(engine, last_line + 300)
    assert (dead.state, dead.level, dead.state_since) == ("silent", "problem", last_line)
    assert dead.status_line == "Queue #1461 · log silent 5 min"
    # 25 minutes after the last poll, as the community monitor would show it: red, not blue.
    late = snap(engine, last_poll + 25 * 60)
    assert late.status_line == "Queue #1461 · log silent 24 min"  # 1500 − 12 s since the last line
    assert [e.kind for e in late.events][:1] == ["silent"]
    # The app comes back: the next poll ends the silence; the timeline keeps the spell.
    engine.apply(QueueUpdate(last_poll + 1600, "queued", 1455, "q-1"))
    back = snap(engine, last_poll + 1601)
    assert (back.state, back.status_line) == ("queued", "Queue #1455")
    assert [e.kind for e in back.events][:2] == ["resumed", "silent"]


def test_a_queued_miner_with_fast_polls_is_still_given_three_minutes() -> None:
    engine = IotaTracker()
    for i in range(10):  # polls 20 s apart: 4 × 20 = 80 s < 3 min, so 3 min it is
        engine.apply(QueueUpdate(T0 + 20 * i, "queued", 50, "q-2"))
    last = T0 + 180
    assert snap(engine, last + 179).state == "queued"
    assert snap(engine, last + 180).state == "silent"


def test_after_idle_the_rate_is_measured_afresh_with_what_it_was() -> None:
    engine = IotaTracker()
    # 80 passes 15 s apart from T0 + 15: 240/h × 3200 = 768,000 tok/h.
    last = train(engine)
    chatter(engine, last, last + 720)  # 12 minutes idle, the log talking every 10 s
    idle = snap(engine, last + 720)
    assert (idle.state, idle.status_line) == ("idle", "L1 · idle 12 min")
    assert idle.rate.tokens_per_hour is None and idle.network is None
    # Passes come back at 240/h: one every 15 s from back = last + 725.
    back = last + 725
    seen = {}
    for i in range(13):
        engine.apply(ForwardPass(back + 15 * i, f"b{i}", 1))
        seen[15 * i] = snap(engine, back + 15 * i)
    first = seen[0]
    assert (first.state, first.status_line, first.level) == ("measuring", "L1 · …", "ok")
    assert first.details[0] == "measuring… (1 pass so far) · was 768k tok/h"
    assert first.rate.tokens_per_hour is None and first.rate.was_tokens_per_hour == pytest.approx(768_000)
    # 3 passes but 30 s: not yet (3 passes over 3 minutes).
    assert seen[30].details[0] == "measuring… (3 passes so far) · was 768k tok/h"
    assert seen[165].state == "measuring"
    assert snap(engine, back + 179.9).state == "measuring"
    # At back + 180: the 12 passes after the first over 180 s = 240/h → 768k, not the 20-minute
    # window's (80 − 48 + 12 = 44 passes)/1200 s = 132/h → 422k that a decaying window would say.
    fresh = snap(engine, back + 180)
    assert (fresh.state, fresh.status_line) == ("training", "L1 · 768k tok/h")
    assert fresh.rate.tokens_per_hour == pytest.approx(768_000)
    assert fresh.rate.was_tokens_per_hour is None
    assert fresh.state_since == back + 180
    # The chart: no figure while idle (last + 300 < t ≤ back), the rate before and after.
    history = dict(fresh.history)
    assert all(v is None for t, v in history.items() if last + 301 <= t < back + 180)
    # (the last sample before it falls between two passes: 79 passes over 1180–1200 s, within 2 %)
    assert [v for t, v in history.items() if t <= last][-1] == pytest.approx(768_000, rel=0.02)


def test_the_ages_in_the_words_are_given_for_the_page_to_tick() -> None:
    engine = IotaTracker()
    last = train(engine)
    chatter(engine, last, last + 720)
    s = snap(engine, last + 720)
    assert s.status_line == "L1 · idle 12 min"
    line = s.details.index("last pass 12 min ago")
    ticks = {(t.line, t.at, t.template, t.style) for t in s.ticking}
    # The status line's duration counts from the last pass (idle since then), as does "last pass".
    assert (-1, last, "L1 · idle {}", "duration") in ticks
    assert (line, last, "last pass {} ago", "ago") in ticks
    assert len(ticks) == 2  # "was 768k tok/h" holds no age
    # Training: the status line has no age; the details' last pass still ticks.
    fresh = IotaTracker()
    end = train(fresh)
    t = snap(fresh, end + 20)
    assert [(k.line, k.template) for k in t.ticking] == [(t.details.index("last pass 20 s ago"), "last pass {} ago")]
