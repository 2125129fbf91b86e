"""The config file may hold secrets: refused when someone else could have written it, and a FIFO is never opened for reading."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from app.config.file import ConfigFileError, load_config_file

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX owners and modes")


def private_file(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o700)
    path = folder / "config.toml"
    path.write_text('name = "rig-a"\n', encoding="utf-8")
    path.chmod(0o600)
    return path


def test_a_fifo_named_config_toml_is_refused_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "tokwatch"
    folder.mkdir(mode=0o700)
    os.mkfifo(folder / "config.toml", 0o600)
    outcome: list[BaseException | None] = []

    def load() -> None:
        try:
            load_config_file(folder / "config.toml")
            outcome.append(None)
        except ConfigFileError as e:
            outcome.append(e)

    thread = threading.Thread(target=load, daemon=True)
    thread.start()
    thread.join(3)
    if thread.is_alive():  # release the reader so the test ends
        with open(folder / "config.toml", "wb"):
            pass
        pytest.fail("start-up hangs on a FIFO named config.toml")
    assert isinstance(outcome[0], ConfigFileError) and "not a regular file" in str(outcome[0])


def test_a_file_in_a_folder_others_can_write_is_refused(tmp_path: Path) -> None:
    path = private_file(tmp_path / "tokwatch")
    assert load_config_file(path) == {"name": "rig-a"}
    path.parent.chmod(0o777)
    with pytest.raises(ConfigFileError, match="other users can replace it.*chmod go-w"):
        load_config_file(path)
    path.parent.chmod(0o1777)  # sticky, like /tmp: nobody else can swap this file
    assert load_config_file(path) == {"name": "rig-a"}


@pytest.mark.skipif(os.name == "posix" and os.geteuid() != 0, reason="giving a file away needs root")
def test_a_file_someone_else_owns_is_refused(tmp_path: Path) -> None:
    path = private_file(tmp_path / "tokwatch")
    os.chown(path, 65534, 65534)
    with pytest.raises(ConfigFileError, match="owned by user id 65534"):
        load_config_file(path)
