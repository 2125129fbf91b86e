"""The swarm's alert rules on composed SN38 and hivemind sessions (tests/stats/test_swarm_sessions.py),
through the alert book: each told once its hold has passed, resolved when its state ends."""

from __future__ import annotations

from pathlib import Path

from app.alerts.book import AlertBook
from app.alerts.rules import NoGoodRound
from app.config.alerts import AlertSettings, RuleSettings
from app.hub.report import reported_snapshot
from tests.stats.test_swarm_sessions import SESSION, bt, dht, local, read, step

MINUTE = 60.0


def test_rounds_that_stop_succeeding_are_told_after_the_hold(tmp_path: Path) -> None:
    # the session's last good round ended at 10:30:45; then two rounds fail (10:40, 10:50)
    failing = [*SESSION,
               bt("10:40:00.000", "Received All Reduce Call"), bt("10:40:30.000", "All Reduce Failed At Checkpoint 1"),
               step("10:41:00.000", 43, 2),
               bt("10:50:00.000", "Received All Reduce Call"), bt("10:50:30.000", "All Reduce Failed At Checkpoint 1"),
               step("10:51:00.000", 43, 3)]
    rule = NoGoodRound(RuleSettings(hold_seconds=15 * MINUTE))
    at = local("2025-06-27 10:51:00.000")
    finding = rule.observe(reported_snapshot(read(tmp_path, failing, at)), at)
    assert finding is not None
    assert finding.began_at == local("2025-06-27 10:30:45.000")
    assert finding.text.startswith("no averaging round has succeeded since ") and finding.text.endswith("(2 failed since)")
    book = AlertBook(AlertSettings())
    first = local("2025-06-27 10:31:00.000")  # the first look: 15 s after the good round
    assert [t for t in book.step(reported_snapshot(read(tmp_path, SESSION[:-1], first)), first)
            if t.rule == "no_good_round"] == []
    later = local("2025-06-27 11:31:00.000")  # 60 min 15 s after the last good round
    before = [t for t in book.step(reported_snapshot(read(tmp_path, failing, at)), at) if t.rule == "no_good_round"]
    assert before == []  # 20 min: within the hold
    told = [t for t in book.step(reported_snapshot(read(tmp_path, failing, later)), later) if t.rule == "no_good_round"]
    assert [t.kind for t in told] == ["opened"]
    good = [*failing, bt("11:35:00.000", "Received All Reduce Call"), bt("11:35:40.000", "All Reduce Finish"),
            step("11:36:00.000", 44, 0)]
    end = local("2025-06-27 11:36:00.000")
    resolved = [t for t in book.step(reported_snapshot(read(tmp_path, good, end)), end) if t.rule == "no_good_round"]
    assert [t.kind for t in resolved] == ["resolved"]


def test_a_swarm_it_cannot_join_is_a_problem_told_at_once(tmp_path: Path) -> None:
    closed = "Daemon failed to start: failed to connect to bootstrap peers"
    lines = [dht("10:00:01.000", 1, closed), dht("10:00:07.000", 2, closed), dht("10:00:13.000", 3, closed)]
    at = local("2025-06-27 10:00:14.000")
    book = AlertBook(AlertSettings())
    told = [t for t in book.step(reported_snapshot(read(tmp_path, lines, at)), at) if t.rule == "cannot_join"]
    assert [(t.kind, t.level, t.headline) for t in told] == [("opened", "problem", "cannot join the swarm")]
