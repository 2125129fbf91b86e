"""`run.py --once` end to end: a real log file in, the menu's text or the JSON contract out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parents[1] / "data"
SAMPLE = DATA / "iota-sample.log"


def wrapper_line(stamp: str, level: str, where: str, message: str) -> str:
    return f"[{stamp}] [info]  {stamp} | {level:<8} | {where} - {message}"


def training_log(start: float, minutes: int, *, layer: int = 1, every_seconds: int = 15) -> list[str]:
    """A real-shaped Train-at-Home log: registration, then a pass every ``every_seconds``."""

    def stamp(t: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}"

    lines = [
        wrapper_line(stamp(start), "SUCCESS", "miner.new_miner:_apply_registration_response:1369",
                     f"✅ Miner 5HmQx7Rc registered successfully in layer {layer} on training epoch 48"),
    ]
    t = start
    n = 0
    while t < start + minutes * 60 - every_seconds:
        t += every_seconds
        n += 1
        aid = f"00000000-0000-4000-8000-{n:012d}"
        lines.append(wrapper_line(stamp(t), "DEBUG", "miner.training.training:forward:191",
                                  "Got activation shape: torch.Size([4, 800, 32])"))
        lines.append(wrapper_line(stamp(t + 1), "SUCCESS", "miner.training.training:forward:240",
                                  f"✅ FORWARD complete | layer={layer} activation={aid} hotkey=5HmQx7Rc"))
        if n % 4 == 0:
            lines.append(wrapper_line(stamp(t + 2), "SUCCESS", "miner.training.training:backward:461",
                                      f"✅ Optimization step #{n // 4} | hotkey=5HmQx7Rc"))
        if n % 8 == 0:
            lines.append(wrapper_line(
                stamp(t + 3), "DEBUG", "subnet.common_api_client:orchestrator_request:84",
                "Successfully completed request to /miner/heartbeat?expected_phase=training; response: "
                f"{{'run_id': '4.12.16.5-tah', 'layer': {layer}, 'epoch': 48, 'phase': 'training'}}",
            ))
    return lines


def once(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "run.py"), "--once", *args],
        capture_output=True, text=True, timeout=30, cwd=cwd, check=False,
    )


def test_once_on_the_composed_sample_at_its_end() -> None:
    result = once("--log", str(SAMPLE), "--at", "end")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    # The sample ends 65 s after a layer change 2 → 1 with two passes: still measuring.
    assert lines[0] == "L1 · …"
    # 65 s observed of 180, 2 passes at 32.5 s each: the time is what is missing (115 s).
    # 65 s of 180 observed, 2 passes at 32.5 s each: the time is what is missing (115 s, "2 min").
    assert lines[1] == "  measuring… (2 passes so far) · rate in about 2 min"
    assert "  Run 4.12.16.5-tah" in lines
    assert "  Epoch 49 · training" in lines
    assert any(line.startswith("  GPU mem ") for line in lines)
    assert any(line.startswith("  Backend: ") for line in lines)


def test_once_json_is_the_contract(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    now = time.time()
    log.write_text("\n".join(training_log(now - 3600, 60)) + "\n", encoding="utf-8")
    result = once("--log", str(log), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["state"] == "training"
    assert data["format"] == "iota"
    assert data["layer"] == 1
    assert data["rate"]["measured"] is True
    assert data["rate"]["tokens_per_pass"] == 3200
    # one pass every 15 s → 240 passes/h; the newest pass may sit a second or two before now
    assert 230 <= data["rate"]["passes_per_hour"] <= 240
    assert data["status_line"].startswith("L1 · ") and data["status_line"].endswith("k tok/h")
    assert data["source"]["path"] == str(log)
    assert data["source"]["lines_read"] > 0


def test_cold_start_on_an_hour_old_log_is_measured_at_once(tmp_path: Path) -> None:
    log = tmp_path / "miner.log"
    now = float(int(time.time()))
    log.write_text("\n".join(training_log(now - 3600, 60)) + "\n", encoding="utf-8")
    # Read at the moment the log was written: a loaded machine's slow start must not age it.
    result = once("--log", str(log), "--at", time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now)))
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()[:2]
    assert first == "L1 · 768k tok/h"
    assert second == "  768k tok/h · 240 passes/h (over 20 min)"


def test_directory_follows_newest_log(tmp_path: Path) -> None:
    now = time.time()
    old = tmp_path / "2026-09-12-cli.log"
    new = tmp_path / "2026-09-13-cli.log"
    old.write_text("\n".join(training_log(now - 7200, 30, layer=3)) + "\n", encoding="utf-8")
    new.write_text("\n".join(training_log(now - 1800, 30, layer=2)) + "\n", encoding="utf-8")
    os.utime(old, (now - 3600, now - 3600))
    result = once("--log", str(tmp_path), "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["layer"] == 2 and data["source"]["path"] == str(new)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--log", "/nonexistent/miner.log"], "no such file or directory"),
        (["--bogus"], "unrecognized arguments"),
        (["--log", str(SAMPLE), "--at", "yesterday"], "--at wants end or"),
        (["--log", str(SAMPLE), "--format", "nope"], "unknown --format"),
        (["--port", "70000"], "between 0 and 65535"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    result = once(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_empty_directory_is_a_usage_error(tmp_path: Path) -> None:
    result = once("--log", str(tmp_path))
    assert result.returncode == 2 and "no *.log file" in result.stderr


def test_unreadable_file_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "miner.log"
    log.write_text("x\n", encoding="utf-8")
    real_open = os.open

    def deny(path: object, *a: object, **k: object) -> int:
        if os.fspath(path) == str(log):  # type: ignore[call-overload]
            raise PermissionError(13, "Permission denied")
        return real_open(path, *a, **k)  # type: ignore[call-overload, no-any-return]

    monkeypatch.setattr(os, "open", deny)  # root reads anything: refuse at the one open call
    assert main(["--once", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert "cannot read (Permission denied)" in err and len(err.strip().splitlines()) == 1


def test_unrecognised_log_says_so(tmp_path: Path) -> None:
    log = tmp_path / "notes.log"
    log.write_text("hello\nthis is not a training log\n", encoding="utf-8")
    result = once("--log", str(log))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "log format not recognised"


def test_once_into_a_reader_that_stops_early_exits_quietly() -> None:
    """``tokwatch --once | head -1``: the pipe is closed before the output is written."""
    child = subprocess.Popen(
        [sys.executable, str(ROOT / "run.py"), "--once", "--json", "--log", str(SAMPLE)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # like head, gone before the first byte
    status = child.wait(timeout=30)
    errors = child.stderr.read().decode()
    child.stderr.close()
    assert (status, errors) == (0, "")
