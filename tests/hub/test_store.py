"""The hub's file: enrolment (hashed, revocable keys), idempotent reports, minute samples."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.hub.keys import hash_key
from app.hub.report import Report
from app.hub.store import HubStore, HubStoreError

NOW = 1_796_000_000.0


def report(seq: int, *, as_of: float = NOW, tph: float | None = 360_000.0, stream: str = "a" * 16,
           machine: str = "rig-a", state: str = "training", sent_at: float | None = None) -> Report:
    snap: dict[str, Any] = {"status_line": "x", "state": state, "as_of": as_of,
                            "rate": {"tokens_per_hour": tph}, "details": []}
    return Report(machine=machine, stream=stream, seq=seq, sent_at=as_of if sent_at is None else sent_at,
                  interval_seconds=15.0, snapshot=snap)


@pytest.fixture
def store(tmp_path: Path) -> HubStore:
    return HubStore(tmp_path / "hub.sqlite3")


def test_keys_are_kept_hashed_one_per_machine(store: HubStore, tmp_path: Path) -> None:
    key_a = store.enroll("rig-a", NOW)
    key_b = store.enroll("rig-b", NOW)
    assert key_a != key_b and key_a.startswith("twk_")
    assert store.machine_for_key(key_a) == "rig-a"
    assert store.machine_for_key(key_b) == "rig-b"
    assert store.machine_for_key(key_a[:-1] + ("A" if key_a[-1] != "A" else "B")) is None
    raw = (tmp_path / "hub.sqlite3").read_bytes() + (tmp_path / "hub.sqlite3-wal").read_bytes()
    assert key_a.encode() not in raw and hash_key(key_a).encode() in raw


def test_enrolling_twice_is_refused_and_revoking_kills_the_key(store: HubStore) -> None:
    key = store.enroll("rig-a", NOW)
    with pytest.raises(HubStoreError, match="tokwatch hub revoke rig-a"):
        store.enroll("rig-a", NOW)
    store.revoke("rig-a", NOW + 1)
    assert store.machine_for_key(key) is None
    assert [m.name for m in store.machines()] == []
    with pytest.raises(HubStoreError, match="no enrolled machine"):
        store.revoke("rig-a", NOW + 2)
    new_key = store.enroll("rig-a", NOW + 3)  # back, with a new key; the old stays dead
    assert store.machine_for_key(new_key) == "rig-a" and store.machine_for_key(key) is None


@pytest.mark.parametrize("name", ["", "a b", "-x", "x" * 64, "é", "<b>"])
def test_bad_machine_names(store: HubStore, name: str) -> None:
    with pytest.raises(ValueError, match="machine name"):
        store.enroll(name, NOW)


def test_a_resent_report_never_counts_twice(store: HubStore) -> None:
    store.enroll("rig-a", NOW)
    assert store.accept(report(1), NOW)
    assert store.accept(report(2, as_of=NOW + 60), NOW + 60)
    assert not store.accept(report(2, as_of=NOW + 60), NOW + 61)
    assert not store.accept(report(1), NOW + 62)
    # A new spool (the agent's data dir was wiped) starts its numbers again: taken.
    assert store.accept(report(1, as_of=NOW + 120, stream="b" * 16), NOW + 120)
    (row,) = store.machines()
    assert row.reports == 3  # the two resends were not counted
    assert row.received_at == NOW + 120 and row.snapshot is not None and row.snapshot["as_of"] == NOW + 120
    assert [t for t, _ in store.series("rig-a", NOW - 60, NOW + 600, 60)] == [
        int(NOW // 60 * 60), int(NOW // 60 * 60) + 60, int(NOW // 60 * 60) + 120]


def test_series_buckets_average_and_tokens_since(store: HubStore) -> None:
    store.enroll("rig-a", NOW)
    start = int(NOW // 3600 * 3600)
    for i in range(10):  # ten minutes at 360k, then ten at 720k
        store.accept(report(i + 1, as_of=start + 60 * i, tph=360_000.0), start + 60 * i)
    for i in range(10, 20):
        store.accept(report(i + 1, as_of=start + 60 * i, tph=720_000.0), start + 60 * i)
    assert store.series("rig-a", start, start + 3600, 600) == [(start, 360_000.0), (start + 600, 720_000.0)]
    # 10 min at 360k/h + 10 min at 720k/h = 60k + 120k.
    assert store.tokens_since("rig-a", start) == pytest.approx(180_000.0)
    assert store.tokens_since("rig-a", start + 600) == pytest.approx(120_000.0)
    assert store.tokens_since("rig-b", start) == 0.0


def test_prune_keeps_a_week(store: HubStore) -> None:
    store.enroll("rig-a", NOW)
    store.accept(report(1, as_of=NOW - 9 * 86400, sent_at=NOW), NOW)  # sent late: charted at its age
    store.accept(report(2, as_of=NOW - 6 * 86400, sent_at=NOW), NOW)
    assert store.prune(NOW) == 1
    assert len(store.series("rig-a", 0, NOW, 60)) == 1


def test_a_newer_schema_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "hub.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=99")
    conn.close()
    with pytest.raises(HubStoreError, match="newer tokwatch"):
        HubStore(path)


def test_the_snapshot_is_kept_as_validated_json(store: HubStore) -> None:
    store.enroll("rig-a", NOW)
    store.accept(report(1), NOW)
    (row,) = store.machines()
    assert json.loads(json.dumps(row.snapshot))["state"] == "training"


def test_a_version_2_file_gains_the_counted_batches_and_keeps_everything(tmp_path: Path) -> None:
    """A hub file written before the counted batches were kept (schema 2) opens with its machines,
    keys, reports and minutes as they were, and counts a backlog batch once from then on."""
    from app.hub import store as hub_store

    path = tmp_path / "hub.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(f"BEGIN; {hub_store._SCHEMA} {hub_store._SCHEMA_2} {hub_store._V2} PRAGMA user_version=2; COMMIT;")
    key = "tw_" + "k" * 40
    conn.execute("INSERT INTO machine VALUES ('rig-a', ?, ?, NULL)", (hash_key(key), NOW))
    conn.execute("INSERT INTO latest VALUES ('rig-a', ?, 7, ?, ?, 15, '{\"state\":\"training\"}', 7, NULL, 2, 'n')",
                 ("a" * 16, NOW, NOW))
    conn.execute("INSERT INTO stream VALUES ('rig-a', ?, 1, 7)", ("a" * 16,))
    conn.execute("INSERT INTO sample VALUES ('rig-a', ?, 360000.0, 'training', NULL, 1)", (int(NOW) - 60,))
    conn.close()
    store = HubStore(path)
    (row,) = store.machines()
    assert (row.name, row.reports, row.notes, row.last_note, row.snapshot) == ("rig-a", 7, 2, "n", {"state": "training"})
    assert store.minutes("rig-a", 0, NOW) == [(int(NOW) - 60, 360_000.0, "training", None, 1)]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == hub_store.SCHEMA_VERSION
    for _ in range(2):
        store.take_history("rig-a", [], reports=5, digest=b"d" * 32)
    assert store.machines()[0].reports == 7 + 5
    store.close()
    assert HubStore(path).machines()[0].reports == 12  # opened again: nothing migrated twice


def test_what_the_hub_keeps_between_looks_follows_every_writer(tmp_path: Path) -> None:
    """The hub's store keeps the machines and keys between reports and pushes; what another process
    (``tokwatch hub enroll`` / ``revoke`` while the hub runs) or its own writes change shows at the next look."""
    path = tmp_path / "hub.sqlite3"
    hub, cli = HubStore(path), HubStore(path)
    key_a = cli.enroll("rig-a", NOW)
    assert hub.machine_for_key(key_a) == "rig-a"
    assert [(row.name, row.received_at) for row in hub.machines()] == [("rig-a", None)]
    # Another process enrols a machine: its key works and it is listed at once.
    key_b = cli.enroll("rig-b", NOW)
    assert hub.machine_for_key(key_b) == "rig-b"
    assert [row.name for row in hub.machines()] == ["rig-a", "rig-b"]
    # The hub's own writes: a report, then minutes of history (with the reports they stand for).
    assert hub.accept(report(1), NOW + 1)
    rows = {row.name: row for row in hub.machines()}
    assert rows["rig-a"].received_at == NOW + 1 and rows["rig-a"].reports == 1 and rows["rig-b"].received_at is None
    hub.take_history("rig-b", [(int(NOW) - 600, 1.0, "training", None, 1)], 1, "a note", reports=3, digest=b"d")
    rows = {row.name: row for row in hub.machines()}
    assert (rows["rig-b"].reports, rows["rig-b"].notes, rows["rig-b"].last_note) == (3, 1, "a note")
    assert hub.accept(report(1, machine="rig-b", as_of=NOW + 2), NOW + 3)
    rows = {row.name: row for row in hub.machines()}
    assert rows["rig-b"].received_at == NOW + 3 and rows["rig-b"].reports == 4
    # Another process revokes: the key is refused at once and the machine leaves the list.
    cli.revoke("rig-a", NOW + 5)
    assert hub.machine_for_key(key_a) is None
    assert [row.name for row in hub.machines()] == ["rig-b"]
    # And through the hub's own store.
    hub.revoke("rig-b", NOW + 6)
    assert hub.machine_for_key(key_b) is None and hub.machines() == []
    key_a2 = hub.enroll("rig-a", NOW + 7)
    assert hub.machine_for_key(key_a2) == "rig-a" and hub.machine_for_key(key_a) is None
    assert [(row.name, row.received_at) for row in hub.machines()] == [("rig-a", None)]
    hub.close()
    cli.close()


def test_a_machines_samples_version_moves_when_its_minute_samples_may_have_changed(store: HubStore) -> None:
    """The fleet's sparklines and today's estimates are read again from the file only when the
    version moves: a minute's sample written again as it was moves it not, any other write does."""
    store.enroll("rig-a", NOW)
    minute = NOW // 60 * 60

    def version() -> int:
        return store.samples_versions()[1].get("rig-a", 0)

    store.accept(report(1, as_of=minute), minute)
    first = version()
    store.accept(report(2, as_of=minute + 15), minute + 15)  # the same minute, the same figures
    assert version() == first
    store.accept(report(3, as_of=minute + 30, tph=400_000.0), minute + 30)  # the same minute, a new rate
    assert version() > first
    moved = version()
    store.accept(report(4, as_of=minute + 45, tph=400_000.0), minute + 45)
    assert version() == moved
    store.accept(report(5, as_of=minute + 60, tph=400_000.0), minute + 60)  # the next minute
    assert version() > moved
    moved = version()
    store.take_history("rig-a", [(int(minute) - 600, 100.0, "training", None, None)])  # an earlier minute
    assert version() > moved
    moved = version()
    store.accept(report(6, as_of=minute + 75, tph=400_000.0), minute + 75)  # as it was, but after another write
    assert version() > moved
    assert store.series("rig-a", minute, minute + 120, 60) == [(int(minute), 400_000.0), (int(minute) + 60, 400_000.0)]
