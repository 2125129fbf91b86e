"""The machine a history is kept under is tokwatch's name for it (``--name``), and what a store
kept under an earlier name (the host name, before names came from ``--name``) stays this machine's."""

from __future__ import annotations

import dataclasses
import sqlite3
import time
from pathlib import Path

from app.store import History, Observation, PassFact, Sample, SourceKey
from app.store.files import FILE_NAME
from app.store.schema import VERSION

T0 = int(time.mktime((2026, 11, 20, 12, 0, 0, 0, 0, -1)))
KEY = "/home/me/Library/Logs/IOTA Train at Home"


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def hour(machine: str, start: int, tag: str) -> Observation:
    """An hour of training: a sample every 30 s at 360k tok/h, a pass every 15 s."""
    return Observation(
        SourceKey(machine, KEY, "miner"),
        samples=tuple(Sample(t, 360_000.0, "training", 1, 2048) for t in range(start, start + 3600, 30)),
        passes=tuple(PassFact(t + 1.0, f"{tag}-{t}", 2048) for t in range(start, start + 3600, 15)),
    )


def written(data: Path, clock: Clock, *batches: Observation) -> None:
    h = History(data, clock=clock)
    h.start()
    for obs in batches:
        assert h.submit(obs)
    assert h.flush(20)
    h.stop()


def as_version_3(data: Path) -> None:
    """The file as tokwatch wrote it before version 4: no record of the names this machine used."""
    conn = sqlite3.connect(data / FILE_NAME)
    conn.executescript("DROP TABLE local_machine; DROP TABLE loss; DROP TABLE loss_bucket; DROP TABLE loss_level;"
                       " DROP INDEX step_by_time; PRAGMA user_version = 3;")
    conn.close()


def machines(data: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(data / FILE_NAME)
    try:
        return conn.execute("SELECT machine, key FROM source ORDER BY machine").fetchall()
    finally:
        conn.close()


def test_a_store_kept_under_the_host_name_is_read_and_renamed_to_the_machines_name(tmp_path: Path) -> None:
    data = tmp_path / "data"
    clock = Clock(T0 + 2 * 3600)
    written(data, clock, hour("rig-7.example.lan", T0, "a"))  # socket.gethostname(), as it used to be
    as_version_3(data)
    now_named = SourceKey("rig-7", KEY, "miner")  # --name's default: the host name up to its first dot

    # Read only (a second tokwatch, --once): the file is not migrated, and its history is there.
    reader = History(data, clock=clock, write=False)
    reader.start()
    assert reader.chart(now_named, "24h")["totals"]["passes"] == 240
    reader.stop()

    # The writer migrates; the first write moves the history to the machine's name, nothing lost.
    writer = History(data, clock=clock)
    writer.start()
    try:
        assert writer.submit(hour("rig-7", T0 + 3600, "b"))
        assert writer.flush(20)
        assert writer.read(lambda c: c.execute("PRAGMA user_version").fetchone()[0]) == VERSION == 7
        assert writer.chart(now_named, "24h")["totals"]["passes"] == 480
        assert machines(data) == [("rig-7", KEY)]
    finally:
        writer.stop()

    # Named otherwise later (--name miner-box): the same log's history follows the new name.
    written(data, clock, hour("miner-box", T0 + 2 * 3600, "c"))
    assert machines(data) == [("miner-box", KEY)]
    reader = History(data, clock=Clock(T0 + 3 * 3600), write=False)
    reader.start()
    chart = reader.chart(SourceKey("miner-box", KEY, "miner"), "24h")
    reader.stop()
    assert chart["totals"]["passes"] == 720


def test_two_names_of_one_log_from_an_old_store_are_merged_once(tmp_path: Path) -> None:
    # The host was renamed while an older tokwatch ran: two names, one log, one history.
    data = tmp_path / "data"
    clock = Clock(T0 + 3 * 3600)
    written(data, clock, hour("old-host", T0, "a"))
    conn = sqlite3.connect(data / FILE_NAME)
    conn.executescript("DELETE FROM local_machine;")  # as version 3 kept it: no name is known as an alias
    conn.close()
    written(data, clock, hour("new-host", T0 + 3600, "b"))
    as_version_3(data)
    assert machines(data) == [("new-host", KEY), ("old-host", KEY)]
    written(data, clock, hour("rig", T0 + 2 * 3600, "c"))
    assert machines(data) == [("rig", KEY)]
    reader = History(data, clock=clock, write=False)
    reader.start()
    chart = reader.chart(SourceKey("rig", KEY, "miner"), "24h")
    reader.stop()
    assert chart["totals"]["passes"] == 720
    assert chart["totals"]["since"] == T0  # the older name's first record


def test_another_machines_history_in_the_file_is_not_taken(tmp_path: Path) -> None:
    # A name this data dir's tokwatch never wrote under (kept by a version that knows names).
    data = tmp_path / "data"
    clock = Clock(T0 + 2 * 3600)
    written(data, clock, hour("rig", T0, "a"))
    conn = sqlite3.connect(data / FILE_NAME)
    conn.execute("INSERT INTO source (machine, key, kind, first_at) VALUES ('elsewhere', ?, 'miner', ?)", (KEY + "/x", T0))
    conn.commit()
    conn.close()
    other = dataclasses.replace(hour("rig", T0 + 3600, "b"), source=SourceKey("rig", KEY + "/x", "miner"))
    written(data, clock, other)
    assert machines(data) == [("elsewhere", KEY + "/x"), ("rig", KEY), ("rig", KEY + "/x")]
