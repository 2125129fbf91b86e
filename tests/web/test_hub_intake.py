"""An agent's report on a real hub (``run.py --hub``, port 0, a real HTTP client): what it is answered
— status, JSON, headers — for every outcome, and that it is kept (the fleet shows it)."""

from __future__ import annotations

import http.client
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from app.hub.report import report_body
from app.hub.store import HubStore
from tests.hub.test_e2e import Proc, get, start

STREAM = "c" * 16


def body(machine: str, seq: int, **snapshot: Any) -> bytes:
    snap = {"status_line": f"report {seq}", "state": "training", "as_of": time.time(), "rate": {}, "details": [],
            **snapshot}
    return json.dumps(report_body(machine=machine, stream=STREAM, seq=seq, sent_at=time.time(),
                                  interval_seconds=15.0, snapshot=snap)).encode()


def post(hub: Proc, data: bytes, key: str | None, *, host: str | None = None,
         path: str = "/hub/report") -> tuple[int, dict[str, str], Any]:
    conn = http.client.HTTPConnection("127.0.0.1", hub.port, timeout=10)
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    if host is not None:
        headers["Host"] = host
    conn.request("POST", path, body=data, headers=headers)
    answer = conn.getresponse()
    raw = answer.read()
    conn.close()
    return answer.status, {name.lower(): value for name, value in answer.getheaders()}, json.loads(raw)


@pytest.fixture
def hub(tmp_path: Path) -> Any:
    home = tmp_path / "hub"
    store = HubStore(home / "data" / "tokwatch" / "hub.sqlite3")
    keys = {name: store.enroll(name, time.time()) for name in ("rig-a", "rig-b")}
    store.close()
    proc = start(home, "--hub")
    try:
        yield proc, keys
    finally:
        proc.stop()


@pytest.mark.timeout(120)
def test_every_answer_to_an_agent_is_the_hubs_own_with_the_safe_headers(hub: tuple[Proc, dict[str, str]]) -> None:
    proc, keys = hub
    ws_port = int(re.search(r"websocket on port (\d+)", proc.banner).group(1))  # type: ignore[union-attr]

    status, headers, answer = post(proc, body("rig-a", 1), keys["rig-a"])
    assert (status, answer) == (200, {"taken": True, "seq": 1})
    assert headers["content-type"] == "application/json" and headers["cache-control"] == "no-store"
    assert int(headers["content-length"]) == len(json.dumps(answer, separators=(",", ":")))
    # The safe headers, the websocket of the name the agent used when the Host rule allows it...
    assert f"connect-src 'self' ws://127.0.0.1:{ws_port};" in headers["content-security-policy"]
    assert (headers["x-content-type-options"], headers["x-frame-options"], headers["referrer-policy"]) == (
        "nosniff", "DENY", "no-referrer")
    assert headers["cross-origin-opener-policy"] == headers["cross-origin-resource-policy"] == "same-origin"
    # ...and a report reaching the hub by another name is taken too, its policy naming no websocket.
    status, headers, answer = post(proc, body("rig-a", 2), keys["rig-a"], host="hub.example:80")
    assert (status, answer) == (200, {"taken": True, "seq": 2})
    assert "connect-src 'self';" in headers["content-security-policy"]
    # A resend is answered, not kept twice.
    assert post(proc, body("rig-a", 2), keys["rig-a"])[2] == {"taken": False, "seq": 2}
    # A field the hub sets aside: taken, with the note for the agent's log.
    status, _, answer = post(proc, body("rig-a", 3, layer=-4), keys["rig-a"])
    assert status == 200 and answer["taken"] is True and "snapshot.layer" in answer["notes"][0]

    status, headers, answer = post(proc, body("rig-a", 4), None)
    assert status == 401 and headers["www-authenticate"] == 'Bearer realm="tokwatch hub"'
    assert "missing report key" in answer["error"]
    assert post(proc, body("rig-a", 4), "twk_" + "x" * 43)[0] == 401
    status, _, answer = post(proc, body("rig-a", 4), keys["rig-b"])
    assert status == 403 and answer == {"error": "this key belongs to rig-b, not rig-a"}
    status, headers, answer = post(proc, b"{not json", keys["rig-a"])
    assert status == 400 and answer["error"].startswith("not JSON") and headers["cache-control"] == "no-store"
    # History minutes take the same door.
    minute = int(time.time()) // 60 * 60 - 3600
    status, _, answer = post(proc, json.dumps({"machine": "rig-b", "points": [[minute, 1000.0, "training", None, 1]]})
                             .encode(), keys["rig-b"], path="/hub/history")
    assert (status, answer) == (200, {"taken": 1})

    # Past the key's burst: 429 with the seconds to wait.
    seq, statuses = 10, []
    while 429 not in statuses and seq < 400:
        status, headers, answer = post(proc, body("rig-b", seq), keys["rig-b"])
        statuses.append(status)
        seq += 1
    assert statuses[-1] == 429 and int(headers["retry-after"]) >= 1 and "retry_after" in answer

    # What was taken is what the fleet shows; anything else on the path is the app's.
    cards = {card["name"]: card for card in get(f"{proc.url}/api/fleet")["machines"]}
    assert cards["rig-a"]["status_line"] == "report 3" and cards["rig-a"]["layer"] is None
    conn = http.client.HTTPConnection("127.0.0.1", proc.port, timeout=10)
    conn.request("GET", "/hub/report")
    assert conn.getresponse().status == 405
    conn.close()
