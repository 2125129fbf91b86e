"""A miner log's import leaves out the events that store nothing (a GPU reading, a transfer, the
layer named again) between two lines of the same 30 s, and stores exactly what applying every
event stores: the same samples, passes and timeline entries in the same batches.

Held to the import that applies each event, on the miner logs in tests/data and on composed logs
whose times are nudged onto 30-s boundaries, sent backwards, and broken by gaps around the
silence limit (180 s), where a left-out event could move a sample, a gap's words or a batch cut.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from app.record.replay import MinerReplay, replay_file
from app.stats.events import Event
from app.store import Observation
from bench.synth import IotaSynth

DATA = Path(__file__).resolve().parents[1] / "data"
NOW = 1_796_000_000.0
_STAMP = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d):(\d\d)\.(\d{3})")


def _nudged(lines: list[str], seed: int) -> list[str]:
    """``lines`` with a sixth of their times moved: onto a 30-s boundary, back, forward, a hair off one."""
    rng = random.Random(seed)
    moved: list[str] = []
    for line in lines:
        found = _STAMP.search(line)
        if found is not None and rng.random() < 0.16:
            t = time.mktime(time.strptime(found.group(1), "%Y-%m-%d %H:%M")) + int(found.group(2)) + int(found.group(3)) / 1000
            how = rng.random()
            if how < 0.3:
                t = round(t / 30) * 30
            elif how < 0.6:
                t -= rng.uniform(0, 40)
            elif how < 0.8:
                t += rng.uniform(0, 20)
            else:
                t = round(t / 30) * 30 + rng.choice((-0.001, 0.001, 29.999))
            seconds = round(t % 60, 3)
            if seconds >= 60:
                continue
            line = _STAMP.sub(time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) + f":{seconds:06.3f}", line)
        moved.append(line)
    return moved


def _composed(tmp_path: Path, seed: int) -> Path:
    rng = random.Random(seed)
    synth = IotaSynth(seed=seed, start=1_782_000_000.0, fetcher=seed % 2 == 0, requeue_seconds=9_000.0)
    lines: list[str] = []
    for _ in range(8):
        lines += synth.text(1_800.0).splitlines()
        synth.t += rng.choice((0, 170, 179, 181, 200, 400, 3_600))  # quiet spells around the silence limit
    path = tmp_path / f"composed-{seed}.log"
    path.write_text("\n".join(_nudged(lines, seed) if seed else lines) + "\n", encoding="utf-8")
    return path


def _imported(path: Path) -> list[Observation]:
    batches: list[Observation] = []
    replay_file(path, "iota", NOW, threading.Event(), batches.append)
    return batches


def _every_event(self: MinerReplay, events: Iterable[Event], *, last: bool = False) -> Iterator[Event]:
    return iter(events)


LOGS = [path.name for path in sorted(DATA.glob("iota-*.log"))] + ["composed-0", "composed-1", "composed-2", "composed-3"]


@pytest.mark.parametrize("name", LOGS)
def test_the_import_stores_what_applying_every_event_stores(name: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = _composed(tmp_path, int(name[-1])) if name.startswith("composed") else DATA / name
    parsed, applied = [0], [0]
    original = MinerReplay._kept

    def counted(self: MinerReplay, events: list[Event], *, last: bool = False) -> Iterator[Event]:
        parsed[0] += len(events)
        for event in original(self, events, last=last):
            applied[0] += 1
            yield event

    monkeypatch.setattr(MinerReplay, "_kept", counted)
    kept = _imported(path)
    monkeypatch.setattr(MinerReplay, "_kept", _every_event)
    every = _imported(path)
    assert kept == every
    assert sum(len(obs.samples) for obs in every) > 0
    if name.startswith("composed"):
        passes = sum(len(obs.passes) for obs in every)
        assert passes > 100 and sum(len(obs.events) for obs in every) > 10
        if name == "composed-0":  # (its times as the miner writes them: in order)
            assert applied[0] < parsed[0] / 3, "most events are left out"
