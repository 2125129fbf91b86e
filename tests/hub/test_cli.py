"""The fleet's commands: ``hub enroll`` (and ``--enroll``) prints the key on its last line, ``hub revoke``,
and the agent's flags checked up front."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.cli.main import main
from app.cli.parse import parse
from app.hub.store import HubStore


def test_enroll_prints_the_command_and_the_key_last(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--enroll", "rig-a", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    key = out[-1]
    assert re.fullmatch(r"twk_[A-Za-z0-9_-]{43}", key)
    assert any(re.search(r"tokwatch --report-to http://\S+:8765 --report-key-file \S+ --name rig-a$", line)
               for line in out)
    assert key not in "\n".join(out[:-1])  # shown once, never inside a command
    store = HubStore(tmp_path / "hub.sqlite3")
    assert store.machine_for_key(key) == "rig-a"
    store.close()

    assert main(["--enroll", "rig-a", "--data-dir", str(tmp_path)]) == 1
    assert "tokwatch hub revoke rig-a, then tokwatch hub enroll rig-a" in capsys.readouterr().err
    assert main(["hub", "revoke", "rig-a", "--data-dir", str(tmp_path)]) == 0
    store = HubStore(tmp_path / "hub.sqlite3")
    assert store.machine_for_key(key) is None
    store.close()
    assert main(["--revoke", "rig-a", "--data-dir", str(tmp_path)]) == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--enroll", "rig a"], "machine name"),
        (["--report-to", "http://10.0.0.2:8765"], "--report-key"),
        (["--report-key", "twk_x"], "--report-to"),
        (["--report-to", "ftp://hub", "--report-key", "k"], "--report-to wants http://HUB:PORT"),
        (["--report-to", "http://user:pw@hub:1", "--report-key", "k"], "no user, password"),
        (["--name", "<b>", "--report-to", "http://10.0.0.2:1", "--report-key", "k"], "--name"),
        (["--report-every", "0.1"], "report interval"),
    ],
)
def test_bad_fleet_flags_are_usage_errors(argv: list[str], message: str, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TOKWATCH_REPORT_KEY", raising=False)
    assert main([*argv, "--data-dir", str(tmp_path)]) == 2
    assert message in capsys.readouterr().err


def test_the_key_may_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOKWATCH_REPORT_KEY", "twk_" + "a" * 43)
    config = parse(["--report-to", "http://10.0.0.2:8765"]).config
    assert config.report_key == "twk_" + "a" * 43
    assert "twk_" not in repr(config)  # a logged config never shows it
