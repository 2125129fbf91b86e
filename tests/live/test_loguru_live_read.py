"""A log printed through loguru read live, a line or a few at a time, names the format the whole file names.

loguru's record (``2022-01-20 15:04:05.123 | INFO     | module:function:42 - message``) is the IOTA miner's
signature and every other program's that logs through loguru: a trainer's (YOLOX's, ByteTrack's, DAMO-YOLO's) is
never the miner's unless the miner's own messages are among its lines. Read whole, ``detect`` says so; read live,
the first detection sees a few lines and the format watch follows the rest, and neither may make such a log the
miner's on its records alone: the live read ends where the whole read does and never passes through the miner's
format. A real miner log, read the same ways, is the miner's from its first record on.

Real loguru trainers (tests/data/real, sources in each file's header): ByteTrack #134 (YOLOX's start-up through
loguru, no iteration), DiffusionTrack #4 (its args and settings table through loguru), DAMO-YOLO #22 (an
iteration, a save, an evaluation's start, each a loguru record). Miner logs: tests/data/iota-*.log (their first
record is a miner message: the miner starting, or registered).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.live.monitor import Monitor
from tests.live.following import Live, append, following
from tests.reallogs import body

NOW = time.time()
DATA = Path(__file__).resolve().parents[1] / "data"
BATCHES = (1, 2, 3, 5, 7)

LOGURU_TRAINERS = (
    "loguru-startup-bytetrack-issue134-launch-banner-rank-init-no-iteration.log",
    "loguru-startup-diffusiontrack-issue4-args-and-exp-table-no-iteration.log",
    "generic-damo-yolo-issue22-epoch-10-iter-328-of-358-save-then-start-evaluation-on-coco-val.log",
)
MINER_LOGS = (
    "iota-sample.log",
    "iota-delivered.log",
    "iota-undelivered.log",
    "iota-queue-resets.log",
    "iota-requeue.log",
    "iota-stops-and-resumes.log",
    "iota-wording-drift.log",
)


def miner_log(name: str) -> list[str]:
    """A miner log's lines without its header comment (the records as the miner wrote them)."""
    return [line for line in (DATA / name).read_text(encoding="utf-8").splitlines() if not line.startswith("# ")]


def read_live(lines: list[str], batch: int) -> tuple[Monitor, list[str | None]]:
    """A Monitor fed ``lines`` ``batch`` at a time; the format it names after each batch."""
    monitor = Monitor(None, clock=lambda: NOW)
    formats: list[str | None] = []
    for i in range(0, len(lines), batch):
        monitor.lines(lines[i : i + batch])
        formats.append(monitor.parser.name if monitor.parser is not None else None)
    return monitor, formats


def read_whole(lines: list[str]) -> Monitor:
    """A Monitor reading the whole log at once, as a cold start does."""
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.backlog(iter([lines]))
    return monitor


@pytest.mark.parametrize("name", LOGURU_TRAINERS)
@pytest.mark.parametrize("batch", BATCHES)
def test_a_trainer_printing_through_loguru_is_never_the_miner_read_live(name: str, batch: int) -> None:
    lines = body(name)
    monitor, formats = read_live(lines, batch)
    assert "iota" not in formats
    assert formats[-1] == "generic"
    whole = read_whole(lines).snapshot(NOW)
    live = monitor.snapshot(NOW)
    assert whole.format == "generic"
    assert (live.format, live.state, live.step) == (whole.format, whole.state, whole.step)


def test_damo_yolo_read_a_line_at_a_time_keeps_its_iteration() -> None:
    """DAMO-YOLO #22: ``epoch: 10/300, iter: 328/358, … total_loss: 1.4``, its weights saved, then ``Start
    evaluation on coco_2017_val``: read a line at a time, the iteration and the evaluation begun are still the
    generic reader's, at iteration 328 (the save and the evaluation's start, two more loguru records, made it the
    miner's)."""
    monitor, formats = read_live(body(LOGURU_TRAINERS[2]), 1)
    assert formats == ["generic", "generic", "generic"]
    snap = monitor.snapshot(NOW)
    assert snap.format == "generic" and snap.training is not None and snap.step == 328


@pytest.mark.parametrize("name", MINER_LOGS)
@pytest.mark.parametrize("batch", BATCHES)
def test_a_miner_log_read_live_is_the_miner_s_from_its_first_record(name: str, batch: int) -> None:
    """Each of these logs opens with a miner message (``🚀 Starting miner 🚀``, ``✅ Miner … registered``): the
    batch that holds it names the miner, and every batch after it does."""
    lines = miner_log(name)
    _, formats = read_live(lines, batch)
    assert formats == ["iota"] * len(formats)
    assert read_whole(lines).snapshot(NOW).format == "iota"


def test_a_trainer_s_loguru_start_up_then_the_miner_is_the_miner_from_its_first_message() -> None:
    """Composed: ByteTrack #134's start-up (loguru records, no miner message), then iota-sample.log's first record,
    the miner starting. The start-up alone is the generic reader's, in whatever batches; the miner's first message
    makes it the miner's, and the miner's reader reads from the first loguru record on (nothing read twice)."""
    startup = body(LOGURU_TRAINERS[0])
    miner = miner_log("iota-sample.log")
    for batch in BATCHES:
        monitor, formats = read_live(startup, batch)
        assert formats[-1] == "generic" and "iota" not in formats
        monitor.lines(miner[:1])
        assert monitor.snapshot(NOW).format == "iota"
        assert monitor.snapshot(NOW).source.lines_read == len(startup) + 1


@pytest.fixture
def follow() -> Iterator[Callable[..., Live]]:
    yield from following(NOW)


@pytest.mark.parametrize(("name", "lines", "expected"), [
    (LOGURU_TRAINERS[0], body(LOGURU_TRAINERS[0]), "generic"),
    (LOGURU_TRAINERS[2], body(LOGURU_TRAINERS[2]), "generic"),
    ("iota-sample.log", miner_log("iota-sample.log")[:12], "iota"),
])  # fmt: skip
def test_a_real_file_appended_a_line_at_a_time_is_read_as_its_whole(
    tmp_path: Path, follow: Callable[..., Live], name: str, lines: list[str], expected: str
) -> None:
    """The real tailer on a file a writer appends to, one line a write, each read before the next."""
    log = tmp_path / name
    log.write_bytes(b"")
    live = follow(log)
    seen: set[str | None] = set()
    for count, line in enumerate(lines, start=1):
        append(log, line + "\n")
        seen.add(live.caught_up(count).format)
    snap = live.snap()
    assert snap.format == expected and snap.source.lines_read == len(lines)
    assert seen - {None} == {expected}


TRACEBACK = [
    "Traceback (most recent call last):",
    '  File "tools/train.py", line 120, in <module>',
    "    main()",
    "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB",
]


@pytest.mark.parametrize("name", (LOGURU_TRAINERS[0], LOGURU_TRAINERS[2]))
def test_a_crash_after_a_trainer_s_loguru_records_is_no_miner_message(name: str) -> None:
    """Composed: a real loguru trainer's lines (ByteTrack #134's start-up, DAMO-YOLO #22's iteration, save and
    evaluation's start), then a Python traceback. A traceback is any program's: the log is the generic reader's and
    crashed, read whole or a few lines at a time (the crash once made the whole file the miner's)."""
    lines = body(name) + TRACEBACK
    whole = read_whole(lines).snapshot(NOW)
    assert (whole.format, whole.state) == ("generic", "crashed")
    for batch in BATCHES:
        monitor, formats = read_live(lines, batch)
        assert "iota" not in formats
        assert (monitor.snapshot(NOW).format, monitor.snapshot(NOW).state) == ("generic", "crashed")
