"""Comment lines above or inside a log are no crash, stop or end, whatever they quote.

A log may open with comments a script or a person wrote (Kaldi's and ESPnet's run.pl begin every log with
``# <command>`` and ``# Started at …``; a kept excerpt with a header that describes how the run died): the generic
reader takes a ``#`` line for no record, and the crash watch must agree, or a header that quotes ``CUDA out of memory``
crashes a run that is training.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.crash import CrashWatch
from app.stats.events import Event, RunCrashed
from tests.coldread import read_cold
from tests.reallogs import REAL, body


def whole(path: Path) -> list[str]:
    """The kept file as it is, header and all (without the empty text after its last newline)."""
    return path.read_text(encoding="utf-8").removesuffix("\n").split("\n")


def events(lines: list[str]) -> list[Event]:
    watch = CrashWatch()
    return [event for line in lines for event in watch.see(line)] + list(watch.cut_traceback())


# Real logs kept with a header of comments that quotes how the run went (``Exception: Current loss scale already at
# minimum``, ``CANCELLED AT … DUE TO TIME LIMIT``, ``Received 15 death signal``, ``CUDA out of memory``) from different
# repositories: read whole, header and all, the watch says what it says of the log alone.
HEADED = [
    "hf-chinese-llama-alpaca-issue534-bars-only-deepspeed.log",  # ymcui/Chinese-LLaMA-Alpaca #534: no crash in the lines
    "crash-generic-polymergnn-slurm-timelimit-glued-bar.log",
    "crash-generic-prime-rl-issue1360-sigterm-at-step0.log",
    "crash-detectron2-issue1563-oom-exception-during-training-then-hooks-summary.log",
    "broken-generic-mmdetection-issue1742-loss-explodes.log",
]


@pytest.mark.parametrize("name", HEADED)
def test_a_header_of_comments_adds_no_crash(name: str) -> None:
    lines = whole(REAL / name)
    assert lines[0].startswith("# ")
    assert events(lines) == events(body(name))


def test_every_kept_log_s_header_adds_nothing() -> None:
    for path in sorted(REAL.glob("*.log")):
        assert events(whole(path)) == events(body(path.name)), path.name


# Composed in the shape of a run.pl log (Kaldi's utils/run.pl, as ESPnet's recipes write exp/*/train.log): the command
# as a comment, its start, the trainer's lines; a person's note under it that quotes a past crash.
RUN_PL = [
    "# python3 -m espnet2.bin.lm_train --ngpu 1 --resume true --output_dir exp/lm_train",
    "# Started at Tue Jun 14 11:03:52 +06 2022",
    "# (restarted: the last try was Killed by the OOM killer: RuntimeError: CUDA out of memory)",
    "#",
    "[PC] 2020-11-11 16:30:04,578 (trainer:486) INFO: 1epoch:train:6376-6750batch: iter_time=0.001, loss=2.386",
]


def test_a_run_pl_header_is_no_crash() -> None:
    assert events(RUN_PL) == []


def test_a_native_stack_s_numbered_frames_are_no_comment(tmp_path: Path) -> None:
    # composed: a fault, then gdb-style numbered frames (``#0 0x… in …``): the fault is the crash, read as before
    lines = ["Fatal Python error: Segmentation fault", "#0  0x00007f3a in raise () from /lib/libc.so.6",
             "#1  0x00007f3b in abort () from /lib/libc.so.6"]
    crashes = [e for e in events(lines) if isinstance(e, RunCrashed)]
    assert [e.error for e in crashes][:1] == ["Fatal Python error: Segmentation fault"]


@pytest.mark.parametrize("name", HEADED[:3])
def test_a_log_read_with_its_header_reads_as_without(tmp_path: Path, name: str) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with_header = read_cold(tmp_path / "a", whole(REAL / name))
    alone = read_cold(tmp_path / "b", body(name))
    assert (with_header["state"], with_header["status_line"]) == (alone["state"], alone["status_line"])
    assert [e["kind"] for e in with_header["events"]] == [e["kind"] for e in alone["events"]]
