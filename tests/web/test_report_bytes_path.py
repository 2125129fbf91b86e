"""The queue report (``/api/report.txt``) of a log whose path is not UTF-8: shown with visible escapes, not a 500."""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path

import pytest

from app.config import Config
from app.live.monitor import Monitor
from tests.conftest import LogWriter, start_server


@pytest.mark.skipif(os.name != "posix", reason="POSIX file names are bytes")
def test_the_report_of_a_log_named_in_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    folder = tmp_path / os.fsdecode(b"runs-\xff")
    folder.mkdir()
    log_file = folder / os.fsdecode(b"miner-\xe9.log")
    writer = LogWriter(log_file)
    writer.write(writer.queued(1583))
    config = Config(log_path=log_file, port=0, data_dir=tmp_path / "data", config_dir=tmp_path / "config")
    server = start_server(config, Monitor(log_file))
    try:
        with urllib.request.urlopen(f"{server.http_url.rstrip('/')}/api/report.txt", timeout=10) as response:
            assert response.status == 200
            text = response.read().decode("utf-8")
        assert "runs-\\xff" in text and "miner-\\xe9.log" in text
    finally:
        server.dashboard.stop()
