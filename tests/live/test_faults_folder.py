"""Folder mode against the other files a log folder holds, end to end: real files → Tailer → Monitor.

The Train at Home app writes its miner's dated ``<YYYY-MM-DD>-cli.log`` per launch and its
Electron shell's own ``main.log`` beside it (research/iota-log-format.md §1.2); a run folder may
hold other programs' logs. Each case writes a real-shaped miner log (``bench.synth``) while
something else writes the other files, and checks that no pass is lost or counted twice and
that ``source.following`` says which file is followed, why, and what was passed over.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.snapshot import to_dict
from bench.synth import IotaSynth, Truth
from tests.live.following import Live, append, following

START = time.mktime((2026, 9, 14, 9, 0, 0, 0, 0, -1))
NOW = START + 86400
# Electron-log lines as the app's shell writes them: dated, but no miner record inside.
SHELL_LINES = (
    "[2026-09-14 09:20:00.000] [info]  Checking for update\n"
    "[2026-09-14 09:20:00.120] [warn]  Update check failed: net::ERR_INTERNET_DISCONNECTED\n"
    "[2026-09-14 09:20:01.000] [info]  Worker stdout attached\n"
)
NANOCHAT = Path(__file__).parents[1] / "data" / "sample-nanochat.log"


def miner(minutes: float, *, seed: int, start: float = START) -> tuple[list[bytes], Truth]:
    synth = IotaSynth(seed=seed, start=start, epoch_seconds=None, requeue_seconds=None, error_seconds=None)
    return [line.encode() + b"\n" for line in synth.run(minutes * 60)], synth.truth


@pytest.fixture
def follow() -> Iterator[Callable[..., Live]]:
    yield from following(NOW)


def test_the_apps_own_log_written_later_does_not_take_over(tmp_path: Path, follow: Callable[..., Live]) -> None:
    folder = tmp_path / "IOTA Train at Home"
    folder.mkdir()
    cli = folder / "2026-09-14-cli.log"
    lines, truth = miner(30, seed=1)
    half = len(lines) // 2
    cli.write_bytes(b"".join(lines[:half]))
    live = follow(folder)
    live.wait("the first half", lambda s: s.source.lines_read == half)
    shell = folder / "main.log"
    for i in range(0, len(lines) - half, 200):  # the shell writes between the miner's appends
        append(shell, SHELL_LINES)
        append(cli, b"".join(lines[half + i : half + i + 200]))
        time.sleep(0.01)
    append(shell, SHELL_LINES)
    snap = live.wait("every miner line", lambda s: s.source.lines_read >= len(lines))
    time.sleep(0.3)  # a late switch would show now
    snap = live.snap()
    assert snap.source.path == str(cli)
    assert snap.source.lines_read == len(lines)
    assert snap.warmup.passes == truth.passes
    assert snap.source.problem is None
    following = to_dict(snap)["source"]["following"]
    assert following["path"] == str(cli)
    assert "-cli.log" in following["reason"] and "Train at Home" in following["reason"]
    assert following["ignored"] == [str(shell)] and following["ignored_total"] == 1
    assert following["text"] == (
        "The newest *-cli.log: the miner's log in the Train at Home folder; passed over main.log"
    )
    assert snap.source.skipped["rotations"] == 0


def test_a_relaunch_switches_to_its_new_dated_log(tmp_path: Path, follow: Callable[..., Live]) -> None:
    folder = tmp_path / "IOTA Train at Home"
    folder.mkdir()
    first, first_truth = miner(20, seed=1)
    old = folder / "2026-09-14-cli.log"
    old.write_bytes(b"".join(first))
    live = follow(folder)
    live.wait("the first launch", lambda s: s.source.lines_read == len(first))
    append(folder / "main.log", SHELL_LINES)
    # The app relaunches the next day: a new dated log, with new activation ids.
    second, second_truth = miner(20, seed=2, start=START + 3600)
    new = folder / "2026-09-15-cli.log"
    new.write_bytes(b"".join(second[:50]))
    snap = live.wait("the switch", lambda s: s.source.path == str(new))
    append(new, b"".join(second[50:]))
    snap = live.wait("every line", lambda s: s.source.lines_read == len(first) + len(second))
    assert snap.warmup.passes == second_truth.passes  # the relaunch's stretch, none of the first's
    assert snap.source.skipped["rotations"] == 1
    following = snap.source.following
    assert following is not None and following.path == str(new)
    assert following.reason.startswith("a newer *-cli.log")
    assert first_truth.passes > 0


def test_a_folder_of_other_logs_picks_by_content(tmp_path: Path, follow: Callable[..., Live]) -> None:
    """Not the Train at Home folder: the file whose lines read as a training log, and only its kind."""
    folder = tmp_path / "runs"
    folder.mkdir()
    lines, truth = miner(20, seed=3)
    log = folder / "miner.log"
    log.write_bytes(b"".join(lines[:100]))
    (folder / "loader.log").write_text("loading shard 1\nloading shard 2\n")
    soon = time.time() + 3600
    os.utime(folder / "loader.log", (soon, soon))  # the newest file, and no training log
    live = follow(folder)
    snap = live.wait("the miner's log", lambda s: s.source.lines_read == 100)
    assert snap.source.path == str(log)
    # Another trainer's log appears, newer: a different kind, never followed instead.
    append(log, b"".join(lines[100:]))
    (folder / "nanochat.log").write_bytes(NANOCHAT.read_bytes())
    os.utime(folder / "nanochat.log", (soon, soon))
    snap = live.wait("every line", lambda s: s.source.lines_read == len(lines))
    newer = str(folder / "nanochat.log")
    snap = live.wait("a listing that saw the newer file",
                     lambda s: s.source.following is not None and newer in s.source.following.ignored)
    assert snap.source.path == str(log)
    assert snap.warmup.passes == truth.passes
    following = snap.source.following
    assert following is not None
    assert following.reason == "the newest *.log whose lines read as iota"
    assert sorted(following.ignored) == sorted([str(folder / "loader.log"), str(folder / "nanochat.log")])


def test_a_forced_format_follows_only_its_own_kind(tmp_path: Path, follow: Callable[..., Live]) -> None:
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "train.log").write_bytes(NANOCHAT.read_bytes())
    lines, _ = miner(5, seed=4)
    (folder / "miner.log").write_bytes(b"".join(lines))
    os.utime(folder / "train.log", (START, START))  # the miner's log is newer
    live = follow(folder, "nanochat")
    snap = live.wait("the nanochat log", lambda s: s.source.path == str(folder / "train.log") and s.source.lines_read > 0)
    assert snap.format == "nanochat"
    following = snap.source.following
    assert following is not None and "nanochat (--format)" in following.reason
    assert following.ignored == (str(folder / "miner.log"),)


def test_a_fifo_named_like_a_log_is_skipped_never_opened(tmp_path: Path, follow: Callable[..., Live]) -> None:
    folder = tmp_path / "IOTA Train at Home"
    folder.mkdir()
    lines, truth = miner(10, seed=5)
    cli = folder / "2026-09-14-cli.log"
    cli.write_bytes(b"".join(lines))
    fifo = folder / "2026-09-15-cli.log"
    os.mkfifo(fifo)  # newer, and the right name: opening it would wait for a writer forever
    live = follow(folder)
    snap = live.wait("the regular file", lambda s: s.source.lines_read == len(lines))
    assert snap.source.path == str(cli) and snap.warmup.passes == truth.passes
    assert snap.source.following is not None and snap.source.following.ignored == (str(fifo),)
    append(cli, lines[-1].replace(b"FORWARD", b"NOTHING"))  # the tailer goes on living
    live.wait("one more line", lambda s: s.source.lines_read == len(lines) + 1)


def test_waiting_for_a_log_says_what_it_waits_for(tmp_path: Path, follow: Callable[..., Live]) -> None:
    folder = tmp_path / "IOTA Train at Home"
    folder.mkdir()
    (folder / "main.log").write_text(SHELL_LINES)
    live = follow(folder)
    snap = live.wait("the waiting", lambda s: s.source.problem is not None)
    assert snap.source.problem is not None and "waiting for a *.log file whose lines" in snap.source.problem
    lines, truth = miner(10, seed=6)
    cli = folder / "2026-09-14-cli.log"
    cli.write_bytes(b"".join(lines))
    snap = live.wait("the miner's log", lambda s: s.source.lines_read == len(lines))
    assert snap.warmup.passes == truth.passes and snap.source.path == str(cli)
    assert snap.source.problem is None


def test_listing_a_large_folder_is_rate_limited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """10,000 other *.log files: the folder is listed about once per 100 × what a listing costs."""
    from app.ingest import folder as folder_module

    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(10_000):
        (folder / f"other-{i:05d}.log").write_bytes(b"")
    lines, _ = miner(3, seed=7)
    (folder / "miner.log").write_bytes(b"".join(lines))
    listings: list[float] = []
    real = folder_module.FolderScout.listing

    def counted(self: folder_module.FolderScout) -> list[folder_module.Candidate]:
        started = time.monotonic()
        found = real(self)
        listings.append(time.monotonic() - started)
        return found

    monkeypatch.setattr(folder_module.FolderScout, "listing", counted)
    live = Live(folder, NOW)
    live.monitor.start()
    try:
        live.wait("the miner's log", lambda s: s.source.lines_read == len(lines))
        first = len(listings)
        time.sleep(4.0)
        idle = listings[first:]
    finally:
        live.monitor.stop()
    cost = min(listings)
    # At most one listing per max(1 s, 100 × its cost) while nothing changes (+1 for the edges).
    assert len(idle) <= 4.0 / max(1.0, 100 * cost) + 1, (len(idle), cost)


@pytest.mark.parametrize(("record", "real", "status"), [
    ("trainer_state.json", "hf-trainerstate-llm-training-done-45-of-45.trainer_state.json", "done · step 45/45"),
    ("trainer_log.jsonl", "generic-llamafactory-trainer-log-jsonl-mistral-translator-tail-done.log",
     "done · step 8660/8660"),
])  # fmt: skip
def test_a_trainer_s_own_record_is_followed_in_a_folder(
    tmp_path: Path, follow: Callable[..., Live], record: str, real: str, status: str
) -> None:
    """An output folder with the HF Trainer's state or LLaMA-Factory's log, and an older loader's .log."""
    from tests.reallogs import body

    folder = tmp_path / "output"
    folder.mkdir()
    (folder / "loader.log").write_text("loading shard 1\nloading shard 2\n")
    os.utime(folder / "loader.log", (START, START))
    (folder / record).write_text("\n".join(body(real)) + "\n", encoding="utf-8")
    live = follow(folder)
    snap = live.wait("the record", lambda s: s.source.path == str(folder / record) and s.status_line == status)
    following = snap.source.following
    assert following is not None and following.reason.startswith(f"the newest training record in the folder, {record}")


def test_a_log_beside_a_record_wins_unless_it_was_quiet_five_minutes_before_it(tmp_path: Path) -> None:
    """The same run's stdout (HF bars) and its trainer_state.json, both hf-trainer: the record ranks 5 min earlier."""
    from app.ingest.folder import resolve_log
    from app.ingest.formats.detect import log_kind
    from tests.reallogs import body

    folder = tmp_path / "output"
    folder.mkdir()
    log, state = folder / "train.log", folder / "trainer_state.json"
    log.write_text("\n".join(body("hf-zeehu-t5-bars-at-saves.log")) + "\n", encoding="utf-8")
    state.write_text("\n".join(body("hf-trainerstate-llm-training-done-45-of-45.trainer_state.json")) + "\n",
                     encoding="utf-8")  # fmt: skip
    os.utime(state, (START, START))
    os.utime(log, (START - 4 * 60, START - 4 * 60))  # the log's last write 4 min before the record's
    assert resolve_log(folder, log_kind)[0] == log
    os.utime(log, (START - 6 * 60, START - 6 * 60))  # 6 min before: the record is the newest
    assert resolve_log(folder, log_kind)[0] == state
