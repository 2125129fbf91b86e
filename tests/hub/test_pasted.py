"""The commands tokwatch prints for a person to run work when pasted: ``hub enroll``'s recipe is run
as printed (split like a shell splits it) against a real hub on an ephemeral port, and its report
arrives. The key never appears on a command line."""

from __future__ import annotations

import re
import shlex
import stat
import subprocess
import sys
import time
from pathlib import Path

from app.hub.store import HubStore
from app.web.pairing import lan_address
from tests.hub.test_e2e import ROOT, env_for, start, training_log, wait_for

TOKWATCH = [sys.executable, str(ROOT / "run.py")]  # what `tokwatch` runs, from this checkout


def as_run(command: str) -> list[str]:
    """A printed ``tokwatch …`` command as this checkout runs it (``~`` expanded by tokwatch, as by a shell)."""
    argv = shlex.split(command)
    assert argv[0] == "tokwatch", command
    return [*TOKWATCH, *argv[1:]]


def test_the_printed_enrolment_recipe_works_when_pasted(tmp_path: Path) -> None:
    hub_home, agent_home = tmp_path / "hub", tmp_path / "agent"
    hub = start(hub_home, "hub", "--host", "0.0.0.0")
    try:
        assert re.search(r"add a machine: tokwatch hub enroll NAME \(here\)", hub.banner)
        enrolled = subprocess.run([*TOKWATCH, "hub", "enroll", "rig-a", "--port", str(hub.port)], cwd=ROOT,
                                  env=env_for(hub_home), capture_output=True, text=True, timeout=60, check=True)
        lines = enrolled.stdout.splitlines()
        key = lines[-1]
        save = next(line.strip() for line in lines if line.strip().startswith("(umask 077;"))
        agent = next(line.strip() for line in lines if line.strip().startswith("tokwatch --report-to"))
        assert key not in save and key not in agent
        if "://HUB:" in agent:
            raise AssertionError(f"this machine has no LAN address to print:\n{enrolled.stdout}")

        # The key is pasted on the standard input of the printed shell command, as a person would.
        agent_home.mkdir()
        subprocess.run(["sh", "-c", save], input=key + "\n", env=env_for(agent_home), text=True, check=True,
                       timeout=30)
        key_file = agent_home / ".config/tokwatch/report-key"
        assert key_file.read_text().strip() == key
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600

        log = agent_home / "miner.log"
        training_log(log, time.time())
        # Only what the test needs beside the printed words: its own ports, its log, a short interval.
        argv = [*as_run(agent), "--port", "0", "--log", str(log), "--report-every", "1"]
        process = subprocess.Popen(argv, cwd=agent_home, env=env_for(agent_home), stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, text=True)
        try:
            store = HubStore(hub_home / "data/tokwatch/hub.sqlite3")
            try:
                wait_for("rig-a's report of its training", lambda: any(
                    m.name == "rig-a" and m.snapshot is not None and m.snapshot["status_line"].startswith("L1 ·")
                    for m in store.machines()))
            finally:
                store.close()
        finally:
            process.terminate()
            _, stderr = process.communicate(timeout=15)
        assert key not in " ".join(argv) and key not in stderr
        assert "401" not in stderr

        revoke = next(re.search(r"`(tokwatch hub revoke [^`]+)`", line) for line in lines if "revoke" in line)
        assert revoke is not None
        subprocess.run(as_run(revoke.group(1)), cwd=ROOT, env=env_for(hub_home), check=True, timeout=60,
                       capture_output=True)
        store = HubStore(hub_home / "data/tokwatch/hub.sqlite3")
        assert store.machine_for_key(key) is None
        store.close()
    finally:
        hub.stop()


def test_the_fleet_pages_commands_are_the_same_words(tmp_path: Path) -> None:
    hub_home = tmp_path / "hub"
    hub = start(hub_home, "hub", "--data-dir", str(tmp_path / "a folder"))
    try:
        import urllib.request

        with urllib.request.urlopen(f"{hub.url}/fleet", timeout=10) as response:
            page = response.read().decode()
    finally:
        hub.stop()
    import html

    codes = [html.unescape(c) for c in re.findall(r"<code>(.*?)</code>", page, re.DOTALL)]
    assert f"tokwatch hub enroll NAME --data-dir '{tmp_path / 'a folder'}'" in codes
    # The address another machine reaches (this one's on the LAN), never 127.0.0.1; the hub listens on
    # loopback only, so the page says so and gives the command that fixes it.
    lan = lan_address("0.0.0.0") or "HUB"
    assert f"tokwatch --report-to http://{lan}:{hub.port} --report-key-file ~/.config/tokwatch/report-key " \
           "--name NAME" in codes
    assert f"tokwatch hub --host 0.0.0.0 --data-dir '{tmp_path / 'a folder'}'" in codes
    assert "This hub listens on this machine only (127.0.0.1)" in page
    assert not any("run.py" in c or "--report-key KEY" in c for c in codes)
    enroll = next(c for c in codes if c.startswith("tokwatch hub enroll"))
    assert shlex.split(enroll)[-1] == str(tmp_path / "a folder")
