"""The enrol command works as printed from another machine: a second network namespace on this host.

A namespace ``twk…`` joined to this one by a veth pair (10.213.77.1/30 here, .2 there; a default
route back through it), so from there this host's LAN address is reached as from another
machine. A hub on loopback only (the default) refuses it: ``hub enroll`` says so with the
command that fixes it, and the agent's refusal says the likely cause. Restarted as told
(``--host 0.0.0.0``), the printed agent command, run in the namespace, reports to it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.hub.store import HubStore
from app.web.pairing import lan_address
from tests.hub.test_e2e import ROOT, env_for, start, training_log, wait_for
from tests.hub.test_pasted import TOKWATCH, as_run

HERE, THERE = "10.213.77.1", "10.213.77.2"


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=20)


@pytest.fixture
def namespace() -> Iterator[str]:
    if shutil.which("ip") is None or os.geteuid() != 0:
        pytest.skip("network namespaces need `ip` and root")
    name, here_link, there_link = f"twk{os.getpid()}", f"twh{os.getpid() % 100000}", f"twn{os.getpid() % 100000}"
    try:
        ip("netns", "add", name)
    except subprocess.CalledProcessError as e:
        pytest.skip(f"cannot make a network namespace here: {e.stderr.decode().strip()}")
    try:
        ip("link", "add", here_link, "type", "veth", "peer", "name", there_link)
        ip("link", "set", there_link, "netns", name)
        ip("addr", "add", f"{HERE}/30", "dev", here_link)
        ip("link", "set", here_link, "up")
        ip("netns", "exec", name, "ip", "addr", "add", f"{THERE}/30", "dev", there_link)
        ip("netns", "exec", name, "ip", "link", "set", there_link, "up")
        ip("netns", "exec", name, "ip", "link", "set", "lo", "up")
        ip("netns", "exec", name, "ip", "route", "add", "default", "via", HERE)
        yield name
    finally:
        subprocess.run(["ip", "link", "del", here_link], capture_output=True, timeout=20, check=False)
        subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=20, check=False)


def connects_from(namespace: str, host: str, port: int) -> bool:
    code = f"import socket; socket.create_connection(({host!r}, {port}), timeout=3).close()"
    done = subprocess.run(["ip", "netns", "exec", namespace, TOKWATCH[0], "-c", code], capture_output=True,
                          timeout=30, check=False)
    return done.returncode == 0


@pytest.mark.timeout(180)
def test_the_printed_enrol_command_works_from_another_machine(namespace: str, tmp_path: Path) -> None:
    lan = lan_address("0.0.0.0")
    if lan is None:
        pytest.skip("this host has no LAN address to print")
    hub_home, agent_home = tmp_path / "hub", tmp_path / "agent"
    hub = start(hub_home, "hub")  # the default: 127.0.0.1 only
    port = hub.port
    try:
        assert "listens on this machine only (127.0.0.1)" in hub.banner and "tokwatch hub --host 0.0.0.0" in hub.banner
        enrolled = subprocess.run([*TOKWATCH, "hub", "enroll", "rig-ns", "--port", str(port)], cwd=ROOT,
                                  env=env_for(hub_home), capture_output=True, text=True, timeout=60, check=True)
        lines = enrolled.stdout.splitlines()
        key = lines[-1]
        agent = next(line.strip() for line in lines if line.strip().startswith("tokwatch --report-to"))
        assert f"--report-to http://{lan}:{port} " in agent
        # The hub as it runs refuses the other machine, and the output says so, with the fix.
        assert not connects_from(namespace, lan, port)
        assert any("listens on this machine only (127.0.0.1)" in line and "tokwatch hub --host 0.0.0.0" in line
                   for line in lines), enrolled.stdout
    finally:
        hub.stop()
    try:
        hub = start(hub_home, "hub", "--host", "0.0.0.0", "--port", str(port))
    except AssertionError as e:
        # Between the stop and the restart another test on this machine may have taken the port:
        # the user's answer is another port, and the printed command with it.
        if "already in use" not in str(e):
            raise
        hub = start(hub_home, "hub", "--host", "0.0.0.0")
        agent = agent.replace(f"http://{lan}:{port} ", f"http://{lan}:{hub.port} ")
        port = hub.port
    process = None
    try:
        assert connects_from(namespace, lan, port)
        key_file = agent_home / ".config/tokwatch/report-key"
        key_file.parent.mkdir(parents=True)
        key_file.write_text(key + "\n")
        key_file.chmod(0o600)
        log = agent_home / "miner.log"
        training_log(log, time.time())
        argv = [*as_run(agent), "--port", "0", "--log", str(log), "--report-every", "1"]
        process = subprocess.Popen(["ip", "netns", "exec", namespace, *argv], cwd=agent_home, env=env_for(agent_home),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        store = HubStore(hub_home / "data/tokwatch/hub.sqlite3")
        try:
            wait_for("rig-ns's report from the other namespace", lambda: any(
                m.name == "rig-ns" and m.snapshot is not None and m.snapshot["status_line"].startswith("L1 ·")
                for m in store.machines()))
        finally:
            store.close()
    finally:
        if process is not None:
            process.terminate()
            _, stderr = process.communicate(timeout=15)
            assert key not in stderr
        hub.stop()


def test_a_refused_connection_says_the_likely_cause(tmp_path: Path) -> None:
    from app.hub.agent import Agent
    from app.hub.spool import Spool
    from app.live.feed import LiveFeed
    from app.live.monitor import Monitor

    lan = lan_address("0.0.0.0")
    if lan is None:
        pytest.skip("this host has no LAN address")
    hub = start(tmp_path / "hub", "hub")  # loopback only: the LAN address refuses
    try:
        sender = Agent(url=f"http://{lan}:{hub.port}", key="twk_" + "k" * 43, machine="rig-a",
                       spool=Spool(tmp_path / "spool.sqlite3"), source=LiveFeed(Monitor(None)))
        sender.take({"state": "training", "as_of": time.time()})
        assert not sender.flush()
        assert sender.problem is not None
        assert re.search(r"refused.*is the hub running, and started with --host 0\.0\.0\.0\?", sender.problem)
        sender.spool.close()
    finally:
        hub.stop()
