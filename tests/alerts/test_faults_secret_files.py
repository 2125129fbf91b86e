"""Secrets kept out of `ps`: notification and heartbeat URLs from files, checked like the config file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.cli.parse import UsageError, parse
from app.config import Config


def parse_config(argv: list[str]) -> tuple[Config, None]:
    return parse(argv).config, None

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes")


def secret_file(tmp_path: Path, name: str, text: str, mode: int = 0o600) -> Path:
    folder = tmp_path / "secrets"
    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def test_urls_come_from_files(tmp_path: Path) -> None:
    notify = secret_file(tmp_path, "notify", "# my phone\nntfys://rig-a-7f3k\n\ntgram://123:abc/456\n")
    heartbeat = secret_file(tmp_path, "heartbeat", "https://hc-ping.com/0b9e-secret\n")
    config, _ = parse_config(["--log", str(tmp_path / "m.log"), "--notify-file", str(notify),
                              "--heartbeat-url-file", str(heartbeat)])
    assert config.notify_urls == ("ntfys://rig-a-7f3k", "tgram://123:abc/456")
    assert config.heartbeat_url == "https://hc-ping.com/0b9e-secret"


def test_a_secret_file_others_can_read_is_refused_without_showing_it(tmp_path: Path) -> None:
    notify = secret_file(tmp_path, "notify", "ntfys://rig-a-7f3k\n", mode=0o644)
    with pytest.raises(UsageError, match="chmod 600") as caught:
        parse_config(["--log", str(tmp_path / "m.log"), "--notify-file", str(notify)])
    assert "rig-a-7f3k" not in str(caught.value)


def test_the_report_key_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOKWATCH_REPORT_KEY", "twk_" + "k" * 43)
    config, _ = parse_config(["--log", str(tmp_path / "m.log"), "--report-to", "http://127.0.0.1:8765"])
    assert config.report_key == "twk_" + "k" * 43
