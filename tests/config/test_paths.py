"""The one rule for the user's folders: an absolute XDG variable wins, a relative one is ignored."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Config, paths
from app.config.file import default_config_file


def test_config_dir_follows_xdg(tmp_path: Path) -> None:
    assert paths.config_dir({"XDG_CONFIG_HOME": str(tmp_path)}) == tmp_path / "tokwatch"
    assert paths.config_dir({"XDG_CONFIG_HOME": "relative"}, home=tmp_path) == tmp_path / ".config" / "tokwatch"
    assert paths.config_dir({}, home=tmp_path) == tmp_path / ".config" / "tokwatch"
    assert paths.config_dir({"HOME": str(tmp_path)}) == tmp_path / ".config" / "tokwatch"


@pytest.mark.parametrize(
    ("platform", "expected"),
    [("linux", ".local/share/tokwatch"), ("darwin", "Library/Application Support/tokwatch")],
)
def test_data_dir_follows_xdg_then_the_platform(tmp_path: Path, platform: str, expected: str) -> None:
    assert paths.data_dir({"XDG_DATA_HOME": "/x/data"}, platform=platform) == Path("/x/data/tokwatch")
    assert paths.data_dir({"XDG_DATA_HOME": "rel", "HOME": str(tmp_path)}, platform=platform) == tmp_path / expected
    assert paths.data_dir({}, home=tmp_path, platform=platform) == tmp_path / expected


def test_state_dir_follows_xdg(tmp_path: Path) -> None:
    assert paths.state_dir({"XDG_STATE_HOME": "/x/state"}) == Path("/x/state/tokwatch")
    assert paths.state_dir({"XDG_STATE_HOME": "rel"}, home=tmp_path) == tmp_path / ".local/state/tokwatch"


def test_config_and_its_file_use_the_same_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    config = Config()
    assert config.resolved_config_dir == tmp_path / "conf/tokwatch" == default_config_file().parent
    assert config.resolved_data_dir == tmp_path / "data/tokwatch"
    assert Config(data_dir=tmp_path).resolved_data_dir == tmp_path
