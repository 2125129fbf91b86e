"""The agent's spool: numbered in order, one report a minute while the hub is away, kept across restarts."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.hub.spool import Spool

NOW = 1_796_000_040.0  # a whole minute


def add(spool: Spool, at: float, *, state: str = "training", keep: bool = False) -> int:
    return spool.add(machine="rig-a", snapshot={"state": state, "as_of": at}, sent_at=at, interval_seconds=15.0,
                     keep=keep)


def test_reports_are_numbered_in_order_and_survive_a_restart(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool.sqlite3")
    stream = spool.stream
    assert [add(spool, NOW + 60 * i) for i in range(3)] == [1, 2, 3]
    spool.taken(1)
    spool.close()
    again = Spool(tmp_path / "spool.sqlite3")
    assert again.stream == stream
    assert [seq for seq, _ in again.pending()] == [2, 3]
    assert add(again, NOW + 240) == 4
    _, body = again.pending()[0]
    report = json.loads(body)
    assert (report["seq"], report["stream"], report["machine"]) == (2, stream, "rig-a")


def test_every_report_waits_for_the_first_hour(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool.sqlite3", keep_all=240)
    for i in range(240):
        add(spool, NOW + 15 * i)
    assert [seq for seq, _ in spool.pending(1000)] == list(range(1, 241))


def test_past_an_hour_one_report_a_minute_waits_but_a_state_change_is_kept(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool.sqlite3", keep_all=1)
    for i in range(4):  # one minute at 15 s
        add(spool, NOW + 15 * i)
    add(spool, NOW + 60)
    add(spool, NOW + 70, state="idle", keep=True)
    add(spool, NOW + 80, state="idle")
    kept = [(seq, json.loads(body)["snapshot"]["as_of"]) for seq, body in spool.pending()]
    assert kept == [(4, NOW + 45), (6, NOW + 70), (7, NOW + 80)]


def test_the_spool_is_bounded(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool.sqlite3", max_reports=5)
    for i in range(12):
        add(spool, NOW + 60 * i)
    assert [seq for seq, _ in spool.pending()] == [8, 9, 10, 11, 12]


def test_reports_made_under_another_name_are_dropped(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool.sqlite3")
    add(spool, NOW)
    spool.add(machine="rig-b", snapshot={"state": "training", "as_of": NOW + 60}, sent_at=NOW + 60,
              interval_seconds=15.0)
    assert spool.keep_only("rig-b") == 1
    assert [json.loads(body)["machine"] for _, body in spool.pending()] == ["rig-b"]


def test_a_full_disk_says_so_not_cannot_rollback(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "spool.sqlite3")
    try:
        pages = spool._conn.execute("PRAGMA page_count").fetchone()[0]
        spool._conn.execute(f"PRAGMA max_page_count = {pages + 2}")  # the disk is full after a few pages
        big = {"status_line": "x", "state": "training", "as_of": 1.0, "details": ["d" * 3000]}
        with pytest.raises(sqlite3.OperationalError) as caught:
            for i in range(50):
                spool.add(machine="rig-a", snapshot={**big, "as_of": 60.0 * i}, sent_at=60.0 * i, interval_seconds=15.0)
        assert "full" in str(caught.value) and "rollback" not in str(caught.value)
    finally:
        spool.close()
