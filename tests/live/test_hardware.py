"""Power, opt-in: fake ``nvidia-smi`` and ``macmon`` on PATH replay composed outputs (tests/data/tools)."""

from __future__ import annotations

import calendar
import shutil
import stat
import threading
import time
from pathlib import Path

import pytest

from app.hub.fleet import machine_card
from app.hub.report import SNAPSHOT
from app.hub.store import MachineRow
from app.ingest.formats.iota import IotaParser
from app.ingest.hardware import HardwareWatch, parse_macmon, parse_nvidia
from app.prometheus import SnapshotCollector, exposition, registry_for
from app.snapshot import SourceView, to_dict
from app.stats.events import HardwareSample
from app.stats.iota.tracker import IotaTracker
from app.stats.power import hardware_view

# Times are worked out in UTC: this process reads local time as UTC (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("utc_zone")

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tests" / "data" / "tools"


def fake(folder: Path, name: str, body: str) -> None:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)


def watch_with(tmp_path: Path, choice: str, tools: dict[str, str], **kw: float) -> HardwareWatch:
    folder = tmp_path / "bin"
    for name, body in tools.items():
        fake(folder, name, body)
    return HardwareWatch(choice, which=lambda name: shutil.which(name, path=str(folder)), **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        ("nvidia-normal.txt", HardwareSample(0, 71.23, 65.0, False, ())),
        # two GPUs: watts summed, the hotter one, thermal throttling (0x20 | 0x40) on the first; idle (0x1) is none
        ("nvidia-throttled.txt", HardwareSample(0, 360.5, 87.0, True, ("thermal",))),
        ("nvidia-na.txt", HardwareSample(0, None, 45.0, None, ())),  # [N/A]: unknown, never zero
    ],
)
def test_nvidia_smi_lines(output: str, expected: HardwareSample) -> None:
    assert parse_nvidia((TOOLS / output).read_text(), 0) == expected


def test_macmon_json() -> None:
    # sys_power (the whole system) before all_power (CPU + GPU + ANE); the hotter of CPU and GPU
    assert parse_macmon((TOOLS / "macmon.jsonl").read_text(), 0) == HardwareSample(0, 38.2, 61.8, None)
    assert parse_macmon("not json", 0) is None


def test_wh_per_million_tokens_over_the_rate_s_window() -> None:
    lines = (ROOT / "tests" / "data" / "iota-delivered.log").read_text(encoding="utf-8").splitlines()
    tracker = IotaTracker()
    tracker.apply_all(IotaParser(to_epoch=lambda *w: float(calendar.timegm((*w, 0, 0, 0)))).feed(lines))
    now = float(calendar.timegm((2026, 9, 30, 10, 30, 0, 0, 0, 0)))
    snap = tracker.snapshot(now, SourceView("/x", 1, 1, 0, None))
    assert snap.rate.tokens_per_hour == 230_400 and snap.rate.observed_seconds == 1200
    samples = [HardwareSample(now - 1500, 500.0, 70, False),  # before the 20-min window: not counted
               HardwareSample(now - 600, 60.0, 70, False), HardwareSample(now - 300, 62.0, 71, False),
               HardwareSample(now, 64.0, 72, True, ("thermal",))]
    view = hardware_view(samples, "nvidia-smi", None, snap)
    # mean 62 W over the window; 62 Wh an hour for 230,400 tokens an hour → 62 / 0.2304 = 269.1 Wh per million
    assert view.mean_watts == 62.0
    assert view.wh_per_million_tokens == pytest.approx(269.097, abs=1e-3)
    assert view.text == "Power 64 W · 72 °C · throttled (thermal) · 269 Wh per million tokens"
    assert [point[2] for point in view.strip] == [False, False, False, True]
    from dataclasses import replace

    snap = replace(snap, hardware=view)
    text = exposition(registry_for(SnapshotCollector(lambda: [({}, snap)]), process=False)).decode()
    assert "tokwatch_power_watts 64.0" in text and "tokwatch_throttled 1.0" in text
    assert "tokwatch_wh_per_million_tokens 269.09" in text
    reported = SNAPSHOT(to_dict(snap), "snapshot")
    card = machine_card(MachineRow("m", now, now, 15.0, reported), now)
    assert card["power_text"] == "64 W · 269 Wh/Mtok · throttled"


def test_a_fake_nvidia_smi_is_sampled_and_a_throttled_one_says_so(tmp_path: Path) -> None:
    watch = watch_with(tmp_path, "auto", {"nvidia-smi": f'cat "{TOOLS / "nvidia-throttled.txt"}"'})
    assert watch.tool == "nvidia-smi"
    watch.sample_once()
    (sample,) = watch.samples()
    assert (sample.watts, sample.temperature_c, sample.throttled) == (360.5, 87.0, True)
    assert watch.problem is None


def test_auto_prefers_macmon(tmp_path: Path) -> None:
    watch = watch_with(tmp_path, "auto", {"macmon": f'cat "{TOOLS / "macmon.jsonl"}"', "nvidia-smi": "exit 1"})
    watch.sample_once()
    assert watch.tool == "macmon" and watch.samples()[0].watts == 38.2


def test_an_absent_tool_runs_nothing_and_says_so(tmp_path: Path) -> None:
    watch = watch_with(tmp_path, "nvidia-smi", {})
    watch.start()
    assert watch.tool is None and watch.runs == 0
    assert watch.problem == "nvidia-smi not found: no power figures"
    assert not any(t.name == "tokwatch-hardware" for t in threading.enumerate())
    off = HardwareWatch("off")
    off.start()
    assert off.problem is None and off.tool is None and off.runs == 0


def test_a_hanging_tool_is_killed_and_the_thread_stops(tmp_path: Path) -> None:
    watch = watch_with(tmp_path, "nvidia-smi", {"nvidia-smi": "sleep 30"}, interval_seconds=0.05, timeout_seconds=0.3)
    watch.start()
    deadline = time.monotonic() + 10
    while watch.runs < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert watch.runs >= 2 and watch.samples() == ()
    assert watch.problem == "nvidia-smi did not answer within 0 s"
    started = time.monotonic()
    watch.stop()
    assert time.monotonic() - started < 5
    assert not any(t.name == "tokwatch-hardware" and t.is_alive() for t in threading.enumerate())


def test_na_fields_give_no_figure_and_no_error(tmp_path: Path) -> None:
    watch = watch_with(tmp_path, "nvidia-smi", {"nvidia-smi": f'cat "{TOOLS / "nvidia-na.txt"}"'})
    watch.sample_once()
    assert watch.samples()[0].watts is None and watch.problem is None


def test_wh_per_step_for_a_trainer_from_its_steps_per_hour() -> None:
    from dataclasses import replace

    from app.snapshot import TrainingView

    lines = (ROOT / "tests" / "data" / "iota-delivered.log").read_text(encoding="utf-8").splitlines()
    tracker = IotaTracker()
    tracker.apply_all(IotaParser(to_epoch=lambda *w: float(calendar.timegm((*w, 0, 0, 0)))).feed(lines))
    now = float(calendar.timegm((2026, 9, 30, 10, 30, 0, 0, 0, 0)))
    snap = replace(tracker.snapshot(now, SourceView("/x", 1, 1, 0, None)), training=TrainingView(steps_per_hour=1200.0))
    samples = [HardwareSample(now - 600, 300.0, 70, False), HardwareSample(now, 300.0, 70, False)]
    # 300 W for an hour is 300 Wh over 1,200 steps: 0.25 Wh a step
    assert hardware_view(samples, "nvidia-smi", None, snap).wh_per_step == pytest.approx(0.25)
