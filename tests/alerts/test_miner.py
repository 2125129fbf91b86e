"""The miner going idle and coming back, as a user would try it: ``run.py --log miner.log --notify
json://127.0.0.1:PORT/`` against a real receiver; one message each way, with the right words.

The log is composed: a Train-at-Home miner registered in layer 1, a pass every 15 s, then no pass
while its heartbeats go on every 20 s (so the log is alive: idle, not silent).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.states import STATE_EXPLANATIONS
from app.text import clock_time
from tests.alerts.test_cli import get, stop, write_config
from tests.conftest import iota_line
from tests.receiver import Receiver
from tests.web.test_serve import start_run_py


def hm(t: float) -> str:
    """The time as the message writes it: with the date when it is not today (a run across midnight)."""
    return clock_time(t, time.time())


def forward(t: float, n: int) -> list[str]:
    aid = f"00000000-0000-4000-8000-{n:012d}"
    return [
        iota_line(t, "DEBUG", "miner.training.training:forward:191", "Got activation shape: torch.Size([4, 800, 32])"),
        iota_line(t + 1, "SUCCESS", "miner.training.training:forward:240",
                  f"✅ FORWARD complete | layer=1 activation={aid} hotkey=5HmQx7Rc"),
    ]


def heartbeat(t: float) -> str:
    return iota_line(t, "DEBUG", "subnet.common_api_client:orchestrator_request:84",
                     "Successfully completed request to /miner/heartbeat?expected_phase=training; response: "
                     "{'run_id': '4.12.16.5-tah', 'layer': 1, 'epoch': 48, 'phase': 'training'}")


def miner_log(path: Path, now: float, last_pass_ago: float) -> float:
    """Write the log; return when its last pass was."""
    start = now - 40 * 60
    lines = [(start, iota_line(start, "SUCCESS", "miner.new_miner:_apply_registration_response:1369",
                               "✅ Miner 5HmQx7Rc registered successfully in layer 1 on training epoch 48"))]
    last_pass = now - last_pass_ago  # the last FORWARD line, a second after its shape line
    passes = [last_pass - 1 - 15 * i for i in range(int((last_pass - 1 - start) // 15), -1, -1)]
    for n, t in enumerate(passes, 1):
        lines.extend((t, line) for line in forward(t, n))
    beat = start
    while beat + 20 < now:
        beat += 20
        lines.append((beat, heartbeat(beat)))
    lines.sort(key=lambda pair: pair[0])
    path.write_text("".join(line + "\n" for _, line in lines))
    return last_pass


def resume(path: Path) -> float:
    """The miner passes again, now."""
    now = time.time()
    with path.open("a") as f:
        f.write("".join(line + "\n" for i in range(3) for line in forward(now + i, 10_000 + i)))
    return now


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


def test_a_miner_idle_for_twenty_minutes_is_told_at_start_and_when_it_resumes(
    tmp_path: Path, receiver: Receiver
) -> None:
    log = tmp_path / "miner.log"
    last_pass = miner_log(log, time.time(), last_pass_ago=20 * 60)
    pings = Receiver()
    running = start_run_py(tmp_path, "--log", str(log), "--notify", receiver.json_url("/"), "--name", "rig-7",
                           "--heartbeat-url", pings.http_url("/api/push/K3y?status=up"))
    try:
        base = f"http://127.0.0.1:{running.http_port}"
        opened = receiver.wait_for(1, timeout=30)[0].json
        assert opened["title"] == "rig-7: idle"
        # Served on loopback only: no link, which would open nothing on the phone reading it.
        status, what, means = opened["message"].splitlines()
        assert re.fullmatch(r"L1 · idle (19|20) min", status)
        assert what == f"Idle: no pass since {hm(last_pass)} (20 min)."
        assert means == STATE_EXPLANATIONS["idle"]
        assert opened["type"] == "warning"
        assert [a["rule"] for a in get(f"{base}/api/snapshot")["alerts"]["active"]] == ["idle"]

        assert pings.received == []  # idle: the dead-man heartbeat stays quiet
        back = resume(log)
        resolved = receiver.wait_for(2, timeout=30)[1].json
        # Back from a pause, the rate is measured afresh: the message says so rather than a blend.
        assert resolved["title"] == "rig-7: measuring"
        status, what, measuring = resolved["message"].splitlines()[:3]
        assert status == "L1 · …"
        assert what == f"Idle resolved after 20 min (since {hm(last_pass)})."
        # 80 passes in the 20 minutes before the pause: 240/h × 3200 = 768k; 1 to 3 passes back so far.
        assert re.fullmatch(r"Rate being measured \([123] pass(es)? so far; was 768k tok/h\)\.", measuring)
        assert resolved["type"] == "success"
        assert back - last_pass > 20 * 60
        time.sleep(6)  # the next looks send nothing more
        assert len(receiver.received) == 2
        assert get(f"{base}/api/snapshot")["alerts"]["active"] == []
        # Passing again: the heartbeat goes out (a GET, the Uptime Kuma / healthchecks.io way).
        assert [(r.method, r.path) for r in pings.wait_for(1, timeout=20)] == [("GET", "/api/push/K3y?status=up")]
        assert get(f"{base}/api/snapshot")["alerts"]["heartbeat"]["sending"] is True
    finally:
        stop(running)
        pings.close()


def test_a_miner_that_goes_idle_while_watched_is_told_when_it_does(tmp_path: Path, receiver: Receiver) -> None:
    # No hold: the message goes when tokwatch calls the miner idle (5 min without a pass).
    write_config(tmp_path, "[alerts.rules.idle]\nhold_minutes = 0\n")
    log = tmp_path / "miner.log"
    started = time.time()
    last_pass = miner_log(log, started, last_pass_ago=5 * 60 - 15)
    running = start_run_py(tmp_path, "--log", str(log), "--notify", receiver.json_url("/"), "--name", "rig-7")
    try:
        opened = receiver.wait_for(1, timeout=45)[0]
        # Not before the miner was idle, and promptly after.
        assert last_pass + 5 * 60 <= opened.at <= last_pass + 5 * 60 + 20
        assert opened.json["title"] == "rig-7: idle"
        assert opened.json["message"].splitlines()[1] == f"Idle: no pass since {hm(last_pass)} (5 min)."
        resume(log)
        resolved = receiver.wait_for(2, timeout=30)[1].json
        assert resolved["message"].splitlines()[1] == f"Idle resolved after 5 min (since {hm(last_pass)})."
        assert len(receiver.received) == 2
    finally:
        stop(running)
