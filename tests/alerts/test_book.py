"""The alert rules and the book on composed snapshots, on an explicit clock.

Every expected time and text here is worked out from the scenario, not read back from the code.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

from app.alerts.book import AlertBook, Transition
from app.alerts.message import compose
from app.config.alerts import (
    AlertSettings,
    RuleSettings,
    SettingsError,
    settings_from_table,
)
from app.config.file import file_settings
from app.snapshot import Snapshot
from app.states import STATE_EXPLANATIONS
from tests.snapshots import snapshot

T0 = 1_764_500_000.0  # 2025-11-30, a fixed clock
MIN = 60.0


def hm(t: float) -> str:
    return time.strftime("%H:%M", time.localtime(t))


def snap(state: str, at: float, *, since: float | None = None, **fields: Any) -> Snapshot:
    """A snapshot with only what a scenario needs: a miner on L1 whose log line came at ``at``."""
    fields.setdefault("status_line", f"L1 · {state}")
    fields.setdefault("layer", 1)
    rate = {"measured": state == "training", **fields.pop("rate", {})}
    source = {"last_event_at": at, **fields.pop("source", {})}
    return snapshot(state, at, since=since, rate=rate, source=source, **fields)


def run(book: AlertBook, steps: list[tuple[float, Snapshot]]) -> list[Transition]:
    out: list[Transition] = []
    for at, s in steps:
        out.extend(book.step(s, at))
    return out


def kinds(transitions: list[Transition]) -> list[tuple[str, str, float]]:
    return [(t.kind, t.rule, t.at) for t in transitions]


# --- idle: hold counted from when it began, one open, one prompt resolution ------------


def test_idle_opens_after_ten_minutes_from_its_start_and_resolves_once() -> None:
    book = AlertBook(AlertSettings())
    idle_since = T0 - 3 * MIN  # the last pass was 3 min before tokwatch looked
    steps = [(T0 + s, snap("idle", T0 + s, since=idle_since, rate={"last_pass_at": idle_since}))
             for s in range(0, 10 * 60, 5)]  # every 5 s for 10 min
    found = run(book, steps)
    assert kinds(found) == [("opened", "idle", idle_since + 10 * MIN)]
    opened = found[0]
    assert opened.since == idle_since
    assert opened.text == f"no pass since {hm(idle_since)}"
    assert [a.text for a in book.active()] == [f"Idle: no pass since {hm(idle_since)}"]
    # Still idle: nothing more, however many snapshots.
    assert run(book, [(T0 + 11 * MIN + s, snap("idle", T0 + 11 * MIN + s, since=idle_since)) for s in range(0, 600, 5)]) == []
    # Training again, 42 min after the idleness began: the resolution says so.
    back = idle_since + 42 * MIN
    resolved = book.step(snap("training", back + 4, since=back), back + 4)
    assert kinds(resolved) == [("resolved", "idle", back + 4)]
    assert resolved[0].ended_at == back
    message = compose(resolved[0], snap("training", back + 4, since=back, status_line="L1 · 358k tok/h"),
                      name="rig-7", dashboard_url="http://192.168.1.20:8765/")
    assert message.title == "rig-7: training"
    assert message.body == (f"L1 · 358k tok/h\nIdle resolved after 42 min (since {hm(idle_since)}).\n"
                            "http://192.168.1.20:8765/")
    assert book.active() == []
    assert book.step(snap("training", back + 60, since=back), back + 60) == []


def test_idle_shorter_than_its_hold_says_nothing_at_all() -> None:
    book = AlertBook(AlertSettings())
    steps = [(T0 + s, snap("idle", T0 + s, since=T0)) for s in range(0, 9 * 60, 5)]
    steps.append((T0 + 9 * MIN, snap("training", T0 + 9 * MIN, since=T0 + 9 * MIN)))
    assert run(book, steps) == []


def test_a_miner_idle_for_twenty_minutes_at_start_is_announced_on_the_first_look() -> None:
    book = AlertBook(AlertSettings())
    found = book.step(snap("idle", T0, since=T0 - 20 * MIN), T0)
    assert kinds(found) == [("opened", "idle", T0)]
    message = compose(found[0], snap("idle", T0, since=T0 - 20 * MIN, status_line="L1 · 0 tok/h"),
                      name="rig-7", dashboard_url="http://127.0.0.1:8765/")
    assert message.title == "rig-7: idle"
    # What happened and since when in one sentence, what it means in the page's words, and no
    # loopback link: on the phone that reads it, 127.0.0.1 is the phone.
    assert message.body == (f"L1 · 0 tok/h\nIdle: no pass yet (since {hm(T0 - 20 * MIN)}, 20 min).\n"
                            f"{STATE_EXPLANATIONS['idle']}")
    assert STATE_EXPLANATIONS["idle"].startswith("The log is still being written")


def test_idle_without_state_since_falls_back_to_the_last_pass() -> None:
    book = AlertBook(AlertSettings())
    found = book.step(snap("idle", T0, rate={"last_pass_at": T0 - 25 * MIN}), T0)
    assert [(t.kind, t.since) for t in found] == [("opened", T0 - 25 * MIN)]


def test_a_bad_state_of_unknown_age_at_start_is_announced_within_a_minute_once() -> None:
    book = AlertBook(AlertSettings())
    # "waiting" snapshots first (the backlog not read yet) do not count as the start.
    assert book.step(snap("waiting", T0), T0) == []
    steps = [(T0 + s, snap("idle", T0 + s)) for s in range(5, 300, 5)]
    found = run(book, steps)
    assert len(found) == 1 and found[0].kind == "opened"
    assert T0 + 5 < found[0].at <= T0 + 5 + 60


def test_a_condition_of_unknown_start_that_begins_later_waits_its_full_hold() -> None:
    book = AlertBook(AlertSettings())
    book.step(snap("training", T0), T0)
    found = run(book, [(T0 + s, snap("idle", T0 + s)) for s in range(60, 60 + 11 * 60, 5)])
    assert kinds(found) == [("opened", "idle", T0 + 60 + 10 * MIN)]


def test_a_silent_log_counts_from_its_last_line() -> None:
    book = AlertBook(AlertSettings())
    last_line = T0 - 4 * MIN
    steps = [(T0 + s, snap("silent", T0 + s, source={"last_event_at": last_line})) for s in range(0, 8 * 60, 10)]
    found = run(book, steps)
    assert [(t.kind, t.at, t.since, t.headline, t.text, t.level) for t in found] == [
        ("opened", last_line + 10 * MIN, last_line, "log silent", f"no new log line since {hm(last_line)}", "problem")
    ]


# --- flapping ------------------------------------------------------------------------


def test_a_flapping_condition_opens_at_most_once_per_ten_minutes_and_resolves_promptly() -> None:
    book = AlertBook(AlertSettings())
    book.step(snap("training", T0, since=T0 - 3600, rate={"last_pass_at": T0}), T0)
    timeline: list[tuple[float, dict[str, Any]]] = []
    # Queued for two minutes out of every three (hold: 1 min), for half an hour.
    for minute in range(30):
        at = T0 + minute * MIN
        queued_since = T0 + (minute - minute % 3) * MIN
        state = "training" if minute % 3 == 2 else "queued"
        timeline.append((at, snap(state, at, since=queued_since)))
        timeline.append((at + 30, snap(state, at + 30, since=queued_since)))
    found = run(book, timeline)
    opened = [t.at for t in found if t.kind == "opened"]
    resolved = [t.at for t in found if t.kind == "resolved"]
    # Opens need a 1-minute hold and 10 minutes since the last open.
    assert opened == [T0 + 1 * MIN, T0 + 13 * MIN, T0 + 25 * MIN]
    # Each open is resolved at the first snapshot that no longer shows it.
    assert resolved == [T0 + 2 * MIN, T0 + 14 * MIN, T0 + 26 * MIN]


# --- queue ---------------------------------------------------------------------------


def test_queued_is_news_only_after_the_miner_worked() -> None:
    fresh = AlertBook(AlertSettings())
    assert run(fresh, [(T0 + s, snap("queued", T0 + s, since=T0 - 3600, queue={"position": 900}))
                       for s in range(0, 600, 30)]) == []
    worked = AlertBook(AlertSettings())
    found = worked.step(snap("queued", T0, since=T0 - 5 * MIN, queue={"position": 1583},
                             rate={"last_pass_at": T0 - 6 * MIN}), T0)
    assert [(t.kind, t.headline, t.text) for t in found] == [("opened", "back in the queue", "queue position 1583")]


def test_a_queue_reset_is_told_once_and_old_ones_are_not() -> None:
    book = AlertBook(AlertSettings())
    old = {"at": T0 - 3600, "kind": "queue_reset", "text": "sent to the back of the queue (position 4000)"}
    assert book.step(snap("queued", T0, events=[old], queue={"position": 4000, "resets_24h": 1}), T0) == []
    new = {"at": T0 + 50, "kind": "queue_reset", "text": "sent to the back of the queue (position 4100)"}
    found = book.step(snap("queued", T0 + 60, events=[new, old], queue={"position": 4100, "resets_24h": 2}), T0 + 60)
    assert [(t.kind, t.rule, t.since) for t in found] == [("event", "queue_reset", T0 + 50)]
    assert found[0].text == "sent to the back of the queue (position 4100) (now at position 4100)"
    again = book.step(snap("queued", T0 + 70, events=[new, old], queue={"position": 4100, "resets_24h": 2}), T0 + 70)
    assert again == []


def test_a_queue_reset_seen_only_in_the_counter_is_told_and_a_second_one_waits_its_turn() -> None:
    book = AlertBook(AlertSettings())
    book.step(snap("queued", T0, queue={"position": 10, "resets_24h": 0}), T0)
    first = book.step(snap("queued", T0 + 60, queue={"position": 3000, "resets_24h": 1}), T0 + 60)
    assert [(t.rule, t.folded) for t in first] == [("queue_reset", 0)]
    # Two more within ten minutes: held, then told as one with the count folded in.
    assert book.step(snap("queued", T0 + 120, queue={"position": 3100, "resets_24h": 2}), T0 + 120) == []
    assert book.step(snap("queued", T0 + 180, queue={"position": 3200, "resets_24h": 3}), T0 + 180) == []
    assert book.step(snap("queued", T0 + 600, queue={"position": 3200, "resets_24h": 3}), T0 + 600) == []
    later = book.step(snap("queued", T0 + 660, queue={"position": 3200, "resets_24h": 3}), T0 + 660)
    assert [(t.rule, t.folded, t.since) for t in later] == [("queue_reset", 1, T0 + 180)]


# --- slow ---------------------------------------------------------------------------


def _training(at: float, rate: float, *, usual: float | None, history: list[list[Any]],
              since: float, layer: int = 1) -> dict[str, Any]:
    return snap("training", at, since=since, layer=layer,
                rate={"measured": True, "tokens_per_hour": rate},
                usual=None if usual is None else {"tokens_per_hour": usual, "basis_hours": 24, "delta_percent": 0},
                history=history)


def test_slow_already_for_forty_minutes_at_start_is_told_at_once() -> None:
    book = AlertBook(AlertSettings())
    history = [[T0 - 3600 + 30 * i, 300_000.0 if i < 40 else 150_000.0] for i in range(120)]
    found = book.step(_training(T0, 150_000, usual=300_000, history=history, since=T0 - 7200), T0)
    assert [(t.kind, t.since) for t in found] == [("opened", T0 - 3600 + 30 * 40)]
    assert found[0].headline == "slow (50 % of usual)"
    assert found[0].text == "150k tok/h, 50 % of your usual 300k on L1"


def test_slow_for_ten_minutes_at_start_waits_twenty_more() -> None:
    book = AlertBook(AlertSettings())
    began = T0 - 10 * MIN

    def history(at: float) -> list[list[Any]]:
        return [[at - 3600 + 30 * i, 150_000.0 if at - 3600 + 30 * i >= began else 280_000.0] for i in range(121)]

    steps = [(T0 + s, _training(T0 + s, 150_000, usual=300_000, history=history(T0 + s), since=T0 - 7200))
             for s in range(0, 25 * 60, 30)]
    assert [(t.kind, t.at) for t in run(book, steps)] == [("opened", began + 30 * MIN)]


def test_not_slow_without_a_usual_rate_or_above_sixty_percent() -> None:
    book = AlertBook(AlertSettings())
    history = [[T0 - 3600 + 30 * i, 10.0] for i in range(120)]
    assert book.step(_training(T0, 10, usual=None, history=history, since=T0 - 7200), T0) == []
    assert book.step(_training(T0 + 5, 181_000, usual=300_000, history=[], since=T0 - 7200), T0 + 5) == []


def test_slow_starts_over_on_another_layer() -> None:
    book = AlertBook(AlertSettings())
    low = [[T0 - 3600 + 30 * i, 100_000.0] for i in range(120)]
    found = book.step(_training(T0, 100_000, usual=300_000, history=low, since=T0 - 7200, layer=1), T0)
    assert [t.kind for t in found] == ["opened"]
    # Layer 2: the condition on layer 1 ended; on layer 2 it counts from the change, not the history.
    moved = book.step(_training(T0 + 30, 100_000, usual=300_000, history=low, since=T0 - 7200, layer=2), T0 + 30)
    assert [t.kind for t in moved if t.rule == "slow"] == []  # still slow: the open alert stays open
    settings = replace(AlertSettings(), rules={**AlertSettings().rules, "slow": RuleSettings(hold_seconds=30 * MIN)})
    fresh = AlertBook(settings)
    fresh.step(_training(T0, 300_000, usual=300_000, history=[], since=T0 - 7200, layer=1), T0)
    steps = [(T0 + s, _training(T0 + s, 100_000, usual=300_000, history=low, since=T0 - 7200, layer=2))
             for s in range(30, 40 * 60, 30)]
    # Newly slow on layer 2: counted from the change, not from layer 1's history.
    assert [(t.kind, t.at) for t in run(fresh, steps) if t.rule == "slow"] == [("opened", T0 + 30 + 30 * MIN)]


# --- backend errors ------------------------------------------------------------------


def test_twenty_backend_errors_within_ten_minutes_open_one_alert() -> None:
    book = AlertBook(AlertSettings())
    book.step(snap("training", T0, backend_errors={"queue_state_503": 7}), T0)  # the baseline: old errors
    steps = []
    for minute in range(1, 12):  # 3 new errors a minute
        at = T0 + minute * MIN
        steps.append((at, snap("training", at, backend_errors={"queue_state_503": 7 + 2 * minute,
                                                                "not_found_404": minute})))
    found = run(book, steps)
    # 3 a minute: the 7th minute brings the window to 21.
    assert [(t.kind, t.at, t.since) for t in found] == [("opened", T0 + 7 * MIN, T0 + 1 * MIN)]
    assert found[0].text == "21 backend errors in the last 10 min"
    # They stop: once fewer than 20 remain in the window, it resolves.
    quiet = [(T0 + m * MIN, snap("training", T0 + m * MIN, backend_errors={"queue_state_503": 29, "not_found_404": 11}))
             for m in range(12, 30)]
    resolved = run(book, quiet)
    assert [(t.kind, t.at) for t in resolved] == [("resolved", T0 + 15 * MIN)]


# --- layer change, step trainers ------------------------------------------------------


def test_a_layer_change_is_information_told_once() -> None:
    book = AlertBook(AlertSettings())
    assert book.step(snap("training", T0, layer=2), T0) == []
    found = book.step(snap("training", T0 + 60, layer=3), T0 + 60)
    assert [(t.kind, t.level, t.headline, t.text) for t in found] == [
        ("event", "info", "layer 3", "moved from layer 2 to layer 3")]
    assert book.step(snap("training", T0 + 120, layer=None), T0 + 120) == []
    assert book.step(snap("training", T0 + 180, layer=3), T0 + 180) == []


def test_what_the_log_dates_after_watching_began_is_news_even_at_the_first_look() -> None:
    # The server started at T0; the miner moved from layer 1 to 2 and was sent back in the queue a
    # moment later, and both were read before the alerts' first look. Older ones are the baseline.
    def first_look(events: list[dict[str, Any]], layer: int) -> list[tuple[str, str, str]]:
        book = AlertBook(AlertSettings())
        book.watching_since(T0)
        found = book.step(snap("queued", T0 + 5, layer=layer, events=events, queue={"position": 40}), T0 + 5)
        return [(t.rule, t.headline, t.text) for t in found]

    moved = {"at": T0 + 2, "kind": "registered", "text": "registered on layer 2", "layers": (1, 2)}
    reset = {"at": T0 + 3, "kind": "queue_reset", "text": "sent to the back of the queue"}
    assert first_look([reset, moved], layer=2) == [
        ("queue_reset", "queue reset", "sent to the back of the queue (now at position 40)"),
        ("layer_change", "layer 2", "moved from layer 1 to layer 2"),
    ]
    before = [dict(reset, at=T0 - 60), dict(moved, at=T0 - 90)]
    assert first_look(before, layer=2) == []
    assert first_look([dict(moved, layers=(2, 3))], layer=2) == []  # not the layer the miner is on now


@pytest.mark.parametrize(
    ("state", "training", "rule", "headline", "text"),
    [
        ("stalled", {"step": 383, "seconds_since_step": 3600.0, "stalled": True}, "stalled", "stalled",
         "no step since step 383 at {last}"),
        ("diverged", {"step": 1200, "loss_note": "loss is NaN"}, "diverged", "diverged", "loss is NaN at step 1200"),
        ("crashed", {"step": 17, "crash": {"error": "torch.OutOfMemoryError: CUDA out of memory.", "at": T0 - 60}},
         "crashed", "crashed", "at step 17: torch.OutOfMemoryError: CUDA out of memory."),
        ("broken", {"step": 40, "broken": "grad norm is nan at 3 logs in a row: the run is broken"}, "broken", "broken",
         "at step 40: grad norm is nan at 3 logs in a row: the run is broken"),
        ("done", {"step": 5567, "total_steps": 5568, "finished": True}, "done", "finished", "step 5567/5568"),
        # A trainer that says it finished, read from the training section alone.
        ("training", {"step": 20, "total_steps": 20, "finished": True}, "done", "finished", "step 20/20"),
        # The count in its own unit (TrainingView.step_word): a log whose lines are epochs, an RL loop's episodes, a
        # script's iterations; a pass's count is that pass's steps.
        ("stalled", {"step": 12, "step_unit": "epoch", "seconds_since_step": 3600.0, "stalled": True}, "stalled",
         "stalled", "no epoch since epoch 12 at {last}"),
        ("diverged", {"step": 73, "step_unit": "episode", "loss_note": "loss is NaN"}, "diverged", "diverged",
         "loss is NaN at episode 73"),
        ("crashed", {"step": 15, "step_unit": "iteration", "crash": {"error": "Killed", "at": T0 - 60}}, "crashed",
         "crashed", "at iteration 15: Killed"),
        ("done", {"step": 20, "total_steps": 20, "step_unit": "epoch", "finished": True}, "done", "finished",
         "epoch 20/20"),
        ("done", {"step": 11, "step_unit": "pass", "finished": True}, "done", "finished", "last step 11"),
    ],
)
def test_step_trainer_conditions(state: str, training: dict[str, Any], rule: str, headline: str, text: str) -> None:
    book = AlertBook(AlertSettings())
    found = book.step(snap(state, T0, since=T0 - 60, training=training, layer=None), T0)
    assert [(t.kind, t.rule, t.headline, t.text) for t in found] == [
        ("opened", rule, headline, text.format(last=hm(T0 - 3600)))]


def test_a_crash_resolves_when_training_resumes() -> None:
    """On by default; the run started again in the same file: the alert closes."""
    book = AlertBook(AlertSettings())
    crashed = snap("crashed", T0, since=T0 - 60, layer=None, training={"step": 17, "crash": {"error": "Killed"}})
    resumed = snap("measuring", T0 + 120, since=T0 + 100, layer=None, training={"step": 18})
    found = run(book, [(T0, crashed), (T0 + 120, resumed)])
    assert [(t.kind, t.rule) for t in found] == [("opened", "crashed"), ("resolved", "crashed")]


def test_a_run_stopped_by_hand_is_a_warning_of_its_own_not_a_crash() -> None:
    """On by default: someone stopped it (Ctrl-C), said with the line that stopped it; it resolves when training resumes."""
    book = AlertBook(AlertSettings())
    stopped = snap("stopped", T0, since=T0 - 60, layer=None, training={"step": 6, "crash": {"error": "KeyboardInterrupt"}})
    resumed = snap("measuring", T0 + 120, since=T0 + 100, layer=None, training={"step": 7})
    found = run(book, [(T0, stopped), (T0 + 120, resumed)])
    assert [(t.kind, t.rule, t.level) for t in found] == [("opened", "stopped", "warning"),
                                                          ("resolved", "stopped", "warning")]
    assert found[0].text == "at step 6: KeyboardInterrupt"


def test_a_broken_run_resolves_when_its_updates_go_through_again() -> None:
    """On by default; a finite grad norm ends the streak: the alert closes. A crash is its own alert."""
    book = AlertBook(AlertSettings())
    broken = snap("broken", T0, since=T0 - 60, layer=None,
                  training={"step": 40, "broken": "grad norm is nan at 3 logs in a row: the run is broken"})
    healthy = snap("training", T0 + 120, since=T0 + 100, layer=None, training={"step": 60})
    found = run(book, [(T0, broken), (T0 + 120, healthy)])
    assert [(t.kind, t.rule, t.level) for t in found] == [("opened", "broken", "warning"), ("resolved", "broken", "warning")]


def test_a_new_eval_figure_is_told_only_when_turned_on() -> None:
    def with_eval(at: float, step: int, value: float) -> dict[str, Any]:
        return snap("training", at, layer=None, training={"eval": {"val_bpb": {"value": value, "step": step}}})

    off = AlertBook(AlertSettings())
    assert run(off, [(T0, with_eval(T0, 250, 0.91)), (T0 + 60, with_eval(T0 + 60, 500, 0.87))]) == []
    on = AlertBook(settings_from_table({"rules": {"eval": {"enabled": True}}}))
    found = run(on, [(T0, with_eval(T0, 250, 0.91)), (T0 + 60, with_eval(T0 + 60, 500, 0.8712345))])
    assert [(t.rule, t.text) for t in found] == [("eval", "evaluation: val_bpb 0.8712 at step 500")]


def test_a_rule_turned_off_says_nothing() -> None:
    book = AlertBook(settings_from_table({"rules": {"idle": {"enabled": False}}}))
    assert book.step(snap("idle", T0, since=T0 - 3600), T0) == []


def test_a_hold_tuned_in_the_config_is_used() -> None:
    book = AlertBook(settings_from_table({"rules": {"idle": {"hold_minutes": 2}}}))
    assert book.step(snap("idle", T0, since=T0 - 60), T0) == []
    assert [t.at for t in book.step(snap("idle", T0 + 60, since=T0 - 60), T0 + 60)] == [T0 + 60]


# --- settings -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "complaint"),
    [
        ({"rules": {"idel": {}}}, "unknown rule 'idel'"),
        ({"rules": {"idle": {"hold": 3}}}, "unknown key 'hold'"),
        ({"rules": {"idle": {"hold_minutes": -1}}}, "alerts.rules.idle.hold_minutes must be a number"),
        ({"rules": {"idle": {"enabled": "yes"}}}, "alerts.rules.idle.enabled must be true or false"),
        ({"rules": {"slow": {"below_percent": 0}}}, "below_percent must be a number from 1 to 100"),
        ({"rules": {"idle": 3}}, "must be a table"),
        ({"notify": "x", "colour": 1}, "unknown key 'colour'"),
        ({"notify": [3]}, "alerts.notify must be a list of URLs"),
        ({"heartbeat_url": "ftp://secret.example/abc"}, "heartbeat_url must be an http:// or https:// URL"),
        ({"dashboard_url": "rig-7:8765"}, "dashboard_url must be an http:// or https:// URL"),
    ],
)
def test_bad_settings_are_refused_by_name(table: dict[str, Any], complaint: str) -> None:
    with pytest.raises(SettingsError, match="^.*$") as caught:
        file_settings({"alerts": table})
    assert complaint in str(caught.value)
    assert "secret" not in str(caught.value)


def test_settings_read_from_the_alerts_table() -> None:
    found = file_settings({"alerts": {
        "notify": ["ntfys://my-topic", " tgram://1:AA/2 "],
        "heartbeat_url": "https://hc-ping.com/0000",
        "dashboard_url": "http://rig-7.local:8765/",
        "reopen_minutes": 5,
        "rules": {"slow": {"below_percent": 50, "hold_minutes": 45},
                  "backend_errors": {"errors": 5, "window_minutes": 2}},
    }})
    assert found.notify == ("ntfys://my-topic", "tgram://1:AA/2")
    assert found.heartbeat_url == "https://hc-ping.com/0000"
    assert found.dashboard_url == "http://rig-7.local:8765/"
    assert found.alert_settings.reopen_seconds == 300
    assert found.alert_settings.rule("slow") == RuleSettings(hold_seconds=45 * MIN, below_fraction=0.5)
    assert found.alert_settings.rule("backend_errors").errors == 5
    assert found.alert_settings.rule("backend_errors").window_seconds == 120
    assert found.alert_settings.rule("idle").hold_seconds == 10 * MIN
