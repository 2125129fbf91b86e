"""A notification URL loads the one Apprise plugin that serves it, and is still checked at start."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
from app.alerts.plugin import load_plugin
plugin = load_plugin(sys.argv[1])
loaded = sorted(m for m in sys.modules if m.startswith("apprise.plugins."))
print(type(plugin).__name__, len(loaded))
"""


def probe(url: str) -> tuple[str, int]:
    out = subprocess.run([sys.executable, "-c", PROBE, url], cwd=ROOT, capture_output=True, text=True,
                         timeout=60, check=True)
    name, count = out.stdout.split()
    return name, int(count)


def test_a_url_loads_only_its_own_plugin() -> None:
    name, loaded = probe("ntfys://ntfy.example.org/tokwatch-alerts")
    assert name == "NotifyNtfy"
    assert loaded <= 5  # its module (and what it imports), not Apprise's 200-odd plugins


def test_a_url_its_plugin_cannot_read_is_refused_at_start() -> None:
    assert probe("tgram://not-a-bot-token/")[0] == "NoneType"  # the Telegram plugin's own check
    assert probe("nosuchscheme://example.org")[0] == "NoneType"  # no plugin names the scheme


CHECKED = """
import sys, time
from app.alerts.delivery import Delivery
delivery = Delivery(sys.argv[1:])
delivery.start()
deadline = time.monotonic() + 50
while delivery._checker.is_alive() and time.monotonic() < deadline:
    time.sleep(0.05)
print(delivery.status().problem)
print(any(m == "apprise" or m.startswith("apprise.") for m in sys.modules))
delivery.stop()
"""


def test_the_start_check_runs_in_a_child_and_the_server_loads_no_apprise() -> None:
    def checked(*urls: str) -> tuple[str, str]:
        out = subprocess.run([sys.executable, "-c", CHECKED, *urls], cwd=ROOT, capture_output=True, text=True,
                             timeout=120, check=True)
        problem, loaded = out.stdout.splitlines()
        return problem, loaded

    # A good URL: checked, nothing to say, and Apprise (with requests) not loaded until an alert.
    assert checked("ntfys://ntfy.example.org/tokwatch-alerts") == ("None", "False")
    # A bad one is still refused at start, by its plugin's own check.
    problem, loaded = checked("ntfys://ntfy.example.org/tokwatch-alerts", "tgram://not-a-bot-token/")
    assert problem == "#2 tgram://…: not a notification URL Apprise understands" and loaded == "False"
