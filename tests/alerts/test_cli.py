"""Alerts as a user meets them: ``run.py --notify-test``, the config file, and ``run.py --notify``
following a real log, against a real HTTP receiver on this machine (nothing leaves it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.states import STATE_EXPLANATIONS
from app.text import clock_time
from tests.receiver import Receiver
from tests.web.test_serve import RunningProcess, start_run_py

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def run_py(home: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config")}
    return subprocess.run([sys.executable, str(ROOT / "run.py"), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT, env=env, check=False)


def write_config(home: Path, text: str, mode: int = 0o600) -> Path:
    path = home / "config" / "tokwatch" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)
    return path


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.load(response)


# --- --notify-test ----------------------------------------------------------------------


def test_notify_test_says_which_failed_and_why_and_exits_1(tmp_path: Path, receiver: Receiver) -> None:
    broken = Receiver("fail")
    try:
        done = run_py(tmp_path, "--notify-test", "--name", "rig-7",
                      "--notify", receiver.json_url("/ok/S3cret1"),
                      "--notify", broken.json_url("/broken/S3cret2"),
                      "--notify", "nosuchservice://S3cret3")
    finally:
        broken.close()
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == "tokwatch: sending a test message as 'rig-7' to 3 notification URLs"
    assert lines[1] == "  #1 json://…: delivered"
    assert lines[2].startswith("  #2 json://…: FAILED: ") and "500" in lines[2]
    assert lines[3] == "  #3 nosuchservice://…: FAILED: not a notification URL Apprise understands"
    assert done.stderr == "tokwatch: 2 of 3 failed\n"
    got = receiver.wait_for(1)[0].json
    assert got["title"] == "rig-7: test"
    # Served on loopback only: no link (127.0.0.1 on a phone is the phone).
    assert got["message"] == "A test from tokwatch: alerts for this machine will arrive here."
    for secret in ("S3cret1", "S3cret2", "S3cret3", str(receiver.port)):
        assert secret not in done.stdout + done.stderr


def test_notify_test_exits_0_when_all_arrive_including_the_heartbeat(tmp_path: Path, receiver: Receiver) -> None:
    write_config(tmp_path, f'name = "from-file"\n[alerts]\nnotify = ["{receiver.json_url("/a")}"]\n'
                           'dashboard_url = "http://rig-7.lan:8765/"\n')
    done = run_py(tmp_path, "--notify-test", "--notify", receiver.json_url("/b"),
                  "--heartbeat-url", receiver.http_url("/push?status=up"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "tokwatch: sending a test message as 'from-file' to 2 notification URLs",
        "  #1 json://…: delivered",
        "  #2 json://…: delivered",
        "  heartbeat URL: fetched",
        "tokwatch: all 3 delivered",
    ]
    # The config file's URL first, then the flag's; the heartbeat is a GET.
    assert [(r.method, r.path) for r in receiver.wait_for(3)] == [("POST", "/a"), ("POST", "/b"),
                                                                 ("GET", "/push?status=up")]
    assert receiver.received[0].json["message"].splitlines()[-1] == "http://rig-7.lan:8765/"


def test_notify_test_with_nothing_to_test_is_a_usage_error(tmp_path: Path) -> None:
    done = run_py(tmp_path, "--notify-test")
    assert done.returncode == 2
    assert done.stderr.startswith("tokwatch: nothing to test: pass --notify URL")


# --- the config file ----------------------------------------------------------------------


def test_a_config_file_others_can_read_stops_tokwatch_without_showing_its_secrets(tmp_path: Path) -> None:
    path = write_config(tmp_path, '[alerts]\nnotify = ["tgram://123456:S3cretBotToken/987"]\n', mode=0o644)
    done = run_py(tmp_path, "--notify-test")
    assert done.returncode == 2
    assert done.stderr == (f"tokwatch: {path}: other users can read or change it, and it may hold "
                           f"notification secrets; run: chmod 600 {path}\n")


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("nmae = 'x'\n", "unknown setting 'nmae'"),
        ("[alerts.rules.idle]\nhold_minutes = 'ten'\n", "alerts.rules.idle.hold_minutes must be a number"),
        ("[alerts]\nnotify = [\n", "not valid TOML"),
    ],
)
def test_a_bad_config_file_is_one_line_naming_the_setting(tmp_path: Path, text: str, complaint: str) -> None:
    write_config(tmp_path, text)
    done = run_py(tmp_path, "--demo", "--port", "0")
    assert done.returncode == 2
    assert complaint in done.stderr and len(done.stderr.splitlines()) == 1


def test_once_does_not_need_the_config_file(tmp_path: Path) -> None:
    write_config(tmp_path, "broken = [", mode=0o644)
    log = tmp_path / "miner.log"
    log.write_text("")
    assert run_py(tmp_path, "--once", "--log", str(log)).returncode == 0


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--heartbeat-url", "ftp://example.com/S3cret"], "--heartbeat-url must be an http:// or https:// URL"),
        (["--notify", " "], "--notify wants a URL"),
        (["--name", ""], "name must be 1 to 64 printable characters"),
        (["--notify-test", "--once"], "--notify-test and --once do not go together"),
    ],
)
def test_bad_alert_options(tmp_path: Path, args: list[str], complaint: str) -> None:
    done = run_py(tmp_path, *args)
    assert done.returncode == 2 and complaint in done.stderr and "S3cret" not in done.stderr


# --- run.py --notify, following a log ------------------------------------------------------


def nanogpt_lines(first: int, last: int) -> str:
    return "".join(f"iter {i}: loss {4 - i / 1000:.4f}, time 250.00ms, mfu 30.00%\n" for i in range(first, last + 1))


@pytest.fixture
def stalled_log(tmp_path: Path) -> Path:
    """A nanoGPT run whose last step was printed two hours ago."""
    log = tmp_path / "train.log"
    log.write_text("tokens per iteration will be: 491,520\n" + nanogpt_lines(0, 200))
    two_hours_ago = time.time() - 7200
    os.utime(log, (two_hours_ago, two_hours_ago))
    return log


def stop(running: RunningProcess) -> str:
    if running.process.poll() is None:
        _, stderr = running.stop()
        return stderr
    return running.process.communicate()[1]


def test_a_run_stalled_at_start_is_told_once_and_its_end_once(
    tmp_path: Path, stalled_log: Path, receiver: Receiver
) -> None:
    secret_url = receiver.json_url("/hook/S3cretHook")
    running = start_run_py(tmp_path, "--log", str(stalled_log), "--notify", secret_url, "--name", "gpu-box")
    stderr = ""
    try:
        assert "alerts as 'gpu-box' to #1 json://…" in running.banner
        base = f"http://127.0.0.1:{running.http_port}"
        opened = receiver.wait_for(1, timeout=30)[0].json
        last_step = clock_time(stalled_log.stat().st_mtime, time.time())  # dated when not today
        assert opened["title"] == "gpu-box: stalled"
        assert opened["message"] == (f"step 200 · stalled 2h00m\nStalled: no step since step 200 at {last_step} "
                                     f"(2 h 00 min).\n{STATE_EXPLANATIONS['stalled']}")
        snapshot = get(f"{base}/api/snapshot")
        assert [a["rule"] for a in snapshot["alerts"]["active"]] == ["stalled"]
        assert snapshot["alerts"]["targets"] == ["#1 json://…"]
        # The trainer goes on: new steps arrive, the stall ends, and that is told once.
        with stalled_log.open("a") as f:
            f.write(nanogpt_lines(201, 240))
        resolved = receiver.wait_for(2, timeout=30)[1].json
        assert resolved["title"].startswith("gpu-box: ")
        # the stall ends at step 201, which the trainer's step times place 39 × 250 ms before the
        # appended batch arrived: a little under two hours after step 200
        assert resolved["message"].splitlines()[1].startswith(
            ("Stalled resolved after 1 h 59 min (since ", "Stalled resolved after 2 h 00 min (since ")
        )
        assert resolved["type"] == "success"
        time.sleep(7)  # more looks at the log: nothing more is sent
        assert len(receiver.received) == 2
        assert get(f"{base}/api/snapshot")["alerts"]["active"] == []
        health = get(f"{base}/healthz")
        assert health["status"] == "ok"
        assert health["alerts"] == {"targets": 1, "failures": 0, "heartbeat_failures": 0, "problem": None}
    finally:
        stderr = stop(running)
    assert "S3cretHook" not in running.banner + stderr


def test_a_broken_notification_url_is_a_problem_not_a_crash(tmp_path: Path, stalled_log: Path) -> None:
    running = start_run_py(tmp_path, "--log", str(stalled_log), "--notify", "nosuchservice://S3cretTopic")
    try:
        base = f"http://127.0.0.1:{running.http_port}"
        deadline = time.monotonic() + 30
        while get(f"{base}/healthz")["alerts"]["problem"] is None and time.monotonic() < deadline:
            time.sleep(0.2)
        # The stall is told at once, so its message is dropped and counted as well.
        deadline = time.monotonic() + 30
        while get(f"{base}/healthz")["alerts"]["failures"] < 1 and time.monotonic() < deadline:
            time.sleep(0.2)
        health, snapshot = get(f"{base}/healthz")["alerts"], get(f"{base}/api/snapshot")["alerts"]
        assert health["failures"] == snapshot["failures"] == 1
        for problem in (health["problem"], snapshot["problem"]):
            assert "#1 nosuchservice://…" in problem and "not a notification URL Apprise understands" in problem
        assert running.process.poll() is None
    finally:
        stderr = stop(running)
    assert "S3cretTopic" not in stderr


def test_a_hanging_or_failing_channel_never_slows_the_live_page(tmp_path: Path, stalled_log: Path) -> None:
    hanging, failing = Receiver("hang"), Receiver("fail")
    try:
        running = start_run_py(tmp_path, "--log", str(stalled_log), "--notify", hanging.json_url(),
                               "--notify", failing.json_url())
        try:
            base = f"http://127.0.0.1:{running.http_port}"
            hanging.wait_for(1, timeout=30)  # a send is stuck there now
            failing.wait_for(1, timeout=30)
            latencies = []
            for _ in range(40):
                started = time.monotonic()
                snapshot = get(f"{base}/api/snapshot")
                latencies.append(time.monotonic() - started)
                assert snapshot["status_line"] == "step 200 · stalled 2h00m"
            latencies.sort()
            # A blocked server would take Apprise's 4 s timeout; a busy shared machine, a fraction of that.
            assert latencies[len(latencies) * 95 // 100] < 1.0, latencies
            assert len(hanging.received) == 1  # still the one send, still hanging
        finally:
            stop(running)
    finally:
        hanging.close()
        failing.close()
