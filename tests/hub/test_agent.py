"""The agent against a real HTTP receiver: reports leave oldest first, wait while the hub fails, and one
the hub can never take does not block the rest; the key goes in the header only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.hub.agent import Agent, for_report
from app.hub.spool import Spool
from app.live.feed import LiveFeed
from app.live.monitor import Monitor
from app.snapshot import Snapshot
from tests.receiver import Receiver

KEY = "twk_" + "k" * 43
NOW = 1_796_000_040.0


def agent(tmp_path: Path, url: str) -> Agent:
    """An agent whose reports are taken and flushed by the test (its thread is never started)."""
    return Agent(url=url, key=KEY, machine="rig-a", spool=Spool(tmp_path / "spool.sqlite3"),
                 source=LiveFeed(Monitor(None)), interval_seconds=15.0, clock=lambda: NOW)


def snap(i: int) -> dict[str, Any]:
    return {"status_line": f"r{i}", "state": "training", "as_of": NOW + 15 * i, "history": [[NOW, 1.0]] * 120}


def test_the_newest_report_goes_first_and_the_older_follow_as_history_while_the_hub_fails(tmp_path: Path) -> None:
    receiver = Receiver()
    try:
        sender = agent(tmp_path, receiver.http_url("/").rstrip("/"))
        receiver.fail_first = 2
        for i in range(5):
            sender.take({**snap(i), "layer": 2, "rate": {"tokens_per_hour": 700_000.0 + i}, "queue": {"position": 9}})
        assert not sender.flush()  # the hub answers 500: everything stays
        assert sender.spool.count() == 5
        assert not sender.flush()
        assert sender.flush()
        got = receiver.wait_for(4)
        bodies = [r.json for r in got if r.path == "/hub/report"]
        # The present first: the newest report is the only one sent as a report...
        assert [b["snapshot"]["status_line"] for b in bodies] == ["r4", "r4", "r4"]
        assert bodies[-1]["seq"] == 5
        assert all("history" not in b["snapshot"] for b in bodies)  # the hour of history stays home
        # ...and the four before it go as one batch of history, a minute each (the minute's last report).
        history = [r.json for r in got if r.path == "/hub/history"]
        assert len(history) == 1 and history[0]["machine"] == "rig-a" and history[0]["sent_at"] == NOW
        # NOW is a whole minute: r0 to r3 (0, 15, 30, 45 s into it) are one minute, r3's.
        assert history[0]["points"] == [[NOW, 700_003.0, "training", 9, 2]]
        assert KEY not in "".join(r.body.decode() for r in got)  # the key is in the header, not the body
        assert sender.spool.count() == 0
    finally:
        receiver.close()


def test_a_refused_report_does_not_block_the_rest(tmp_path: Path) -> None:
    receiver = Receiver()
    try:
        sender = agent(tmp_path, receiver.http_url("/").rstrip("/"))
        sender.take(snap(0))
        receiver.mode = "ok"
        original = sender._send

        def refuse_first(body: str, url: str | None = None, calls: list[int] = []) -> str:  # noqa: B006 - a counter
            calls.append(1)
            return "refused" if len(calls) == 1 else original(body, url)

        sender._send = refuse_first  # type: ignore[method-assign]
        sender.take(snap(1))
        # The newest is refused for good: the one before it is the machine's report then.
        assert sender.flush() and sender.spool.count() == 0 and sender.sent == 1
        assert [r.json["snapshot"]["status_line"] for r in receiver.wait_for(1) if r.path == "/hub/report"] == ["r0"]
    finally:
        receiver.close()


def test_a_report_is_trimmed_to_fit_the_hub() -> None:
    events = [{"at": NOW - i, "kind": "note", "text": "x" * 290} for i in range(50)]
    trimmed = for_report({"status_line": "L1", "events": events, "history": [1] * 1000})
    assert "history" not in trimmed and 0 < len(trimmed["events"]) < 50
    assert trimmed["events"][0] == events[0]  # the newest are kept


def test_on_a_quiet_log_the_agent_sleeps_between_reports_and_stops_at_once(tmp_path: Path) -> None:
    import threading
    import time

    log = tmp_path / "miner.log"
    log.write_text("")
    looks: list[float] = []

    class Looked(LiveFeed):
        def snapshot(self, now: float | None = None) -> Snapshot:
            looks.append(time.monotonic())
            return super().snapshot(NOW)

    feed = Looked(Monitor(log))  # never started: its version never moves, as on a quiet log

    receiver = Receiver()
    try:
        sender = Agent(url=receiver.http_url("/").rstrip("/"), key=KEY, machine="rig-a",
                       spool=Spool(tmp_path / "spool.sqlite3"), source=feed,
                       interval_seconds=60.0)
        sender.start()
        receiver.wait_for(1)  # the first report, at once
        time.sleep(2.5)
        quiet_looks = len(looks)
        feed.changes.bump()  # the log moved: the state is looked at again within a second
        deadline = time.monotonic() + 3
        while len(looks) == quiet_looks and time.monotonic() < deadline:
            time.sleep(0.02)
        moved_looks = len(looks)
        started = time.monotonic()
        stopper = threading.Thread(target=sender.stop)
        stopper.start()
        stopper.join(10)
        stopped_in = time.monotonic() - started
    finally:
        receiver.close()
    # The first report's snapshot, then nothing for 2.5 s (a look every second would be 3 more).
    assert quiet_looks <= 2, looks
    assert moved_looks == quiet_looks + 1
    assert stopped_in < 2  # not the quiet look's 5 s, nor the report's 60 s


def test_a_key_the_header_refuses_is_never_written_in_clear(tmp_path: Path, caplog: Any) -> None:
    # Start-up refuses such a key (tests/config/test_secret_files.py); an agent built around it anyway
    # must still never write it: http.client quotes the whole header in its error.
    receiver = Receiver()
    try:
        key = "twk_" + "k" * 20 + "\n" + "k" * 23
        sender = Agent(url=receiver.http_url("/").rstrip("/"), key=key, machine="rig-a",
                       spool=Spool(tmp_path / "spool.sqlite3"), source=LiveFeed(Monitor(None)), clock=lambda: NOW)
        sender.take(snap(0))
        assert not sender.flush()
        assert sender.problem is not None and "kkkk" not in sender.problem
        assert "kkkk" not in caplog.text
        sender.spool.close()
    finally:
        receiver.close()


def test_more_of_the_past_goes_when_the_history_revision_moves_not_on_a_timer(tmp_path: Path) -> None:
    """A first start's import ends after the first report: the agent sees the history's revision move
    in the snapshot and sends its 7 days again at once (its quiet look at the history is 30 s away),
    and wakes the trainer run's sender too."""
    import threading
    import time
    from dataclasses import replace

    from app.hub.agent import HISTORY_QUIET_LOOK_SECONDS

    log = tmp_path / "miner.log"
    log.write_text("")
    revision = [0]
    mark = [(0, 0)]  # (files, bytes) imported: what changes when the import wrote

    class Importing(LiveFeed):
        def snapshot(self, now: float | None = None) -> Snapshot:
            return replace(super().snapshot(NOW), history_revision=revision[0])

    feed = Importing(Monitor(log))  # never started: only the test moves its version
    runs_woken = threading.Event()
    receiver = Receiver()
    try:
        sender = Agent(url=receiver.http_url("/").rstrip("/"), key=KEY, machine="rig-a",
                       spool=Spool(tmp_path / "spool.sqlite3"), source=feed, interval_seconds=60.0,
                       history=lambda since, until: [[int(until) - 60, 1000.0, "training", None, 1]],
                       history_mark=lambda: mark[0])
        sender.on_history_moved = runs_woken.set
        sender.start()
        # The first report, then its history once the hub took it.
        arrived = receiver.wait_for(2)
        assert [r.path for r in arrived] == ["/hub/report", "/hub/history"]
        time.sleep(0.5)
        assert len(receiver.received) == 2 and not runs_woken.is_set()
        moved = time.monotonic()
        mark[0], revision[0] = (1, 4096), 1  # the import wrote a file
        feed.changes.bump()
        again = receiver.wait_for(3, timeout=HISTORY_QUIET_LOOK_SECONDS - 5)[2]
        took = time.monotonic() - moved
        sender.stop()
    finally:
        receiver.close()
    assert again.path == "/hub/history"
    assert took < HISTORY_QUIET_LOOK_SECONDS / 2
    assert runs_woken.is_set()
