"""A night of events: what the history kept is listed with the live events, errors folded, pauses as spans.

The log is composed (Train-at-Home lines), ending a minute ago, so its night is older than the 80
minutes a cold start reads back: what "What happened" says of it comes from the history, which
the first-start import filled by replaying the file. Times are worked out here, by hand:

* R = 8 h ago: registered in layer 1; a pass every 15 s up to P1 = R + 2 h;
* from P1 + 30 s, every 30 s for 90 min: the same ERROR line, 180 times; no pass (idle);
* passes again from B1 = P1 + 5415 s every 15 s, up to S = B1 + 1 h; then not a line for 40 min;
* passes again from B2 = S + 2400 s, every 15 s, to a minute ago.

So: idle from P1 to B1 (`idle HH:MM–HH:MM`), the log silent from S to B2, and the error once
with its count, 180, in the list, in the chart's markers and in the store.
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.request
from pathlib import Path
from typing import Any

from app.text import clock
from tests.conftest import LogWriter, iota_line
from tests.web.test_serve import start_run_py

ERROR = "Error getting activations from queue: Timed out"


def compose(path: Path, now: float) -> dict[str, float]:
    r = float(int(now) - 8 * 3600)
    p1 = r + 7200
    b1 = p1 + 5415
    s = b1 + 3600
    b2 = s + 2400
    writer = LogWriter(path)
    lines = writer.registered(1, r)
    t = r + 15
    while t <= p1:
        lines += writer.forward(1, t)
        t += 15
    for k in range(1, 181):
        lines.append(iota_line(p1 + 30 * k, "ERROR", "miner.training.activation_queue:fetch:88", ERROR))
    t = b1
    while t <= s:
        lines += writer.forward(1, t)
        t += 15
    t = b2
    while t <= now - 60:
        lines += writer.forward(1, t)
        t += 15
    writer.write(lines)
    return {"r": r, "p1": p1, "b1": b1, "s": s, "b2": b2}


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as response:
        return json.loads(response.read())


def test_a_night_of_events_from_the_history(tmp_path: Path) -> None:
    now = time.time()
    log = tmp_path / "logs" / "miner.log"
    log.parent.mkdir()
    at = compose(log, now)
    data = tmp_path / "data"
    running = start_run_py(tmp_path, "--log", str(log), "--data-dir", str(data))
    try:
        base = f"http://127.0.0.1:{running.http_port}"
        idle = f"idle {clock(at['p1'])}–{clock(at['b1'])} — cause unknown"  # no shell log, no sleep records
        deadline = time.monotonic() + 90
        while True:  # the first-start import replays the file into the history
            chart = get(f"{base}/api/history?range=24h")
            if chart["status"]["importing"] is None and chart["totals"]:
                break
            assert time.monotonic() < deadline, chart["status"]
            time.sleep(0.5)
        events = get(f"{base}/api/events")["events"]
        texts = [e["text"] for e in events]
        assert f"log silent {clock(at['s'])}–{clock(at['b2'])} — cause unknown" in texts
        errors = [e for e in events if e["kind"] == "error"]
        assert [e["text"] for e in errors] == [f"{ERROR} (×180)"]
        assert errors[0]["at"] == at["p1"] + 30 * 180  # dated at its latest repeat
        span = next(e for e in events if e["text"] == idle)
        assert (span["at"], span["until"]) == (at["p1"], at["b1"])
        assert "registered in layer 1 (epoch 48)" in texts  # 8 h ago: within the day
        assert [e["at"] for e in events] == sorted((e["at"] for e in events), reverse=True)
        # The chart's markers: the error once, not 180 markers.
        assert [e["text"] for e in chart["events"] if e["kind"] == "error"] == [f"{ERROR} (×180)"], chart["events"]
        # The state band on the 24 h chart (5-min buckets, each in the state at its middle): training,
        # idle from the last pass P1 to B1, training, the log silent from S to B2, training.
        bands = chart["bands"]
        assert [b["state"] for b in bands] == ["training", "idle", "training", "silent", "training"], ([(b["from"] - at["r"], b["to"] - at["r"], b["state"]) for b in bands], {k: v - at["r"] for k, v in at.items()}, [(e["at"] - at["r"], e["kind"], e["text"][:30]) for e in chart["events"]])

        def state_at(t: float) -> str:
            return next(b["state"] for b in bands if b["from"] <= t < b["to"])

        assert state_at(at["p1"] + 45 * 60) == "idle" and state_at(at["s"] + 20 * 60) == "silent"
        assert state_at(at["r"] + 3600) == "training" and state_at(at["b1"] + 1800) == "training"
        idle_band = bands[1]
        # Its edges are the buckets whose middle is past P1, and the last whose middle is before B1.
        assert idle_band["from"] == next(t for t in range(int(at["p1"]) - 600, int(at["p1"]) + 600)
                                         if t % 300 == 0 and t + 150 >= at["p1"])
        assert idle_band["to"] == next(t for t in range(int(at["b1"]) - 600, int(at["b1"]) + 600)
                                       if t % 300 == 0 and t + 150 >= at["b1"])
    finally:
        running.stop()
    # The store keeps one row for the run of errors.
    with sqlite3.connect(data / "history.sqlite3") as conn:
        rows = conn.execute("SELECT text FROM event WHERE kind = 'error'").fetchall()
    assert rows == [(f"{ERROR} (×180)",)]
