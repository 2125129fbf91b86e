"""The import child's memory sits beside the server's for the whole import: it loads the reader
and the replay, never the web stack, the history's writer or SQLite."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from app.record import backfill

ROOT = Path(__file__).resolve().parents[2]
NOT_IN_THE_CHILD = ("sqlite3", "flask", "werkzeug", "jinja2", "waitress", "app.store.history", "app.store.queries",
                    "app.web", "app.live.monitor", "app.record.recorder", "app.record.backfill", "app.alerts",
                    "orjson")  # read by a step log's runs alone, imported at the first


def test_the_child_the_server_starts_imports_only_the_reader_and_the_replay() -> None:
    module = backfill.CHILD_MODULE
    assert module.endswith(".record.child")
    loaded = subprocess.run(
        [sys.executable, "-c", f"import sys, {module}; import json; print(json.dumps(sorted(sys.modules)))"],
        cwd=ROOT, capture_output=True, text=True, check=True, timeout=60,
    )
    modules = set(json.loads(loaded.stdout))
    assert f"{module.split('.')[0]}.record.replay" in modules
    present = [name for name in NOT_IN_THE_CHILD if name in modules]
    assert not present, f"the import child loads {present}"
