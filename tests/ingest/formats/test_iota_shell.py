"""The app's shell log parser: one row per substring community parsers match (iota-2026.md §c.3).

The lines are composed around those substrings (no real shell log is public): the prefix is
electron-log's default, ``[YYYY-MM-DD HH:MM:SS.mmm] [level]  text``, in local time.
"""

from __future__ import annotations

import pytest

from app.ingest.formats.iota_shell import ShellParser, looks_like_shell_log


def _utc(year: int, month: int, day: int, hour: int, minute: int, second: int) -> float:
    import calendar

    return float(calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0)))


T = _utc(2026, 9, 30, 2, 14, 5)  # 02:14:05 as the fake zone reads it (UTC)


@pytest.mark.parametrize(
    ("line", "kind", "fields"),
    [
        ("[2026-09-30 02:14:05.120] [info]  [iota-cli runIotaCli] Connecting to CHANNEL", "session_started", {}),
        ("[2026-09-30 02:14:05.120] [info]  [iota-cli registerQuitHandler] Closing IOTA Cli", "quit", {}),
        ("[2026-09-30 02:14:05.120] [error] [TrainingControl] miner process exited code=null signal=SIGABRT",
         "miner_exited", {"code": None, "signal": "SIGABRT"}),
        ("[2026-09-30 02:14:05.120] [warn]  miner process exited code=1 signal=null",
         "miner_exited", {"code": 1, "signal": None}),
        ("[2026-09-30 02:14:05.120] [info]  Miner Process Exited code=0 signal=null",
         "miner_exited", {"code": 0, "signal": None}),  # case varies between the guardians' patterns
        ("[2026-09-30 02:14:05.120] [info]  training exited with code=1", "miner_exited", {"code": 1}),
        ("[2026-09-30 02:14:05.120] [info]  training.state accepted { state: 'waiting_training' }",
         "training_state", {"state": "waiting_training"}),
        ("[2026-09-30 02:14:05.120] [info]  training.state accepted { state: \"training_tick\", at: 3 }",
         "training_state", {"state": "training_tick"}),
        ("[2026-09-30 02:14:05.120] [info]  [AutoUpdater] Update downloaded: 3.8.0", "updated", {"version": "3.8.0"}),
        ("[2026-09-30 02:14:05.120] [error] Failed to execute script 'main_pool' due to unhandled exception",
         "script_failed", {}),
        ("[2026-09-30 02:14:05.120] [error] Miner control host gating failed: team identifier mismatch",
         "host_gate_failed", {}),
        ("[2026-09-30T02:14:05,120] [info] [iota-cli registerQuitHandler] Closing IOTA Cli", "quit", {}),
        ("[2026-09-30 02:14:05] Closing IOTA Cli", "quit", {}),  # no level, no milliseconds
    ],
)
def test_each_known_substring_is_one_event(line: str, kind: str, fields: dict[str, object]) -> None:
    parser = ShellParser(to_epoch=_utc)
    events = parser.feed([line])
    assert [e.kind for e in events] == [kind]
    assert int(events[0].at) == int(T)
    for name, value in fields.items():
        assert getattr(events[0], name) == value
    assert parser.unread_lines == 0


def test_lines_not_understood_are_counted_and_undated_ones_skipped() -> None:
    parser = ShellParser(to_epoch=_utc)
    events = parser.feed([
        "[2026-09-30 02:14:05.120] [info]  [Window] restored bounds 1200x800",
        "[2026-09-30 02:14:05.120] [info]  [AutoUpdater] Checking for update",  # known, nothing to show
        "    at Object.<anonymous> (main.js:12:3)",  # a multi-line message's rest
        "[2026-13-40 99:14:05.120] [info]  Closing IOTA Cli",  # a time that cannot be
        "[2026-09-30 02:14:05.120] [info]  training.state accepted { }",  # the key moved: not read
    ])
    assert events == []
    assert (parser.lines_read, parser.dated_lines, parser.unread_lines, parser.bad_lines) == (5, 3, 2, 1)


def test_a_lone_shell_log_is_known_for_what_it_is() -> None:
    assert looks_like_shell_log(["[2026-09-30 02:14:05.120] [info]  [iota-cli runIotaCli] Connecting to CHANNEL"])
    assert not looks_like_shell_log(["[2026-09-30 02:14:05.120] [info]  2026-09-30 02:14:05.120 | INFO | a:b:1 - x"])
