"""The config file: found where XDG says, read as TOML, refused when others can read it."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config.file import ConfigFileError, default_config_file, load_config_file


def test_the_file_is_found_under_xdg_config_home_or_dot_config(tmp_path: Path) -> None:
    assert default_config_file({"XDG_CONFIG_HOME": "/x/conf"}, home=tmp_path) == Path("/x/conf/tokwatch/config.toml")
    assert default_config_file({}, home=tmp_path) == tmp_path / ".config/tokwatch/config.toml"
    # A relative XDG_CONFIG_HOME is ignored, as the spec says.
    assert default_config_file({"XDG_CONFIG_HOME": "rel"}, home=tmp_path) == tmp_path / ".config/tokwatch/config.toml"


def test_a_missing_file_means_defaults(tmp_path: Path) -> None:
    assert load_config_file(tmp_path / "config.toml") == {}


def test_a_private_file_is_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('name = "rig-7"\n[alerts]\nnotify = ["ntfys://my-topic"]\n[alerts.rules.idle]\nhold_minutes = 15\n')
    path.chmod(0o600)
    assert load_config_file(path) == {
        "name": "rig-7",
        "alerts": {"notify": ["ntfys://my-topic"], "rules": {"idle": {"hold_minutes": 15}}},
    }


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o620])
def test_a_file_others_can_read_or_change_is_refused(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[alerts]\nnotify = ["tgram://123:s3cret/456"]\n')
    path.chmod(mode)
    with pytest.raises(ConfigFileError) as caught:
        load_config_file(path)
    assert str(caught.value) == (f"{path}: other users can read or change it, and it may hold notification "
                                 f"secrets; run: chmod 600 {path}")


def test_bad_toml_is_named_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('name = "rig-7"\n\nhold = minutes\n')
    path.chmod(0o600)
    with pytest.raises(ConfigFileError, match=r"config\.toml: not valid TOML \(.*line 3"):
        load_config_file(path)


def test_an_unreadable_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "tokwatch").write_text("")  # a file where the folder should be (root reads any mode)
    with pytest.raises(ConfigFileError, match=r"tokwatch/config\.toml: cannot read \(Not a directory\)"):
        load_config_file(tmp_path / "tokwatch" / "config.toml")


def test_a_directory_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "config.toml").mkdir(mode=0o700)
    with pytest.raises(ConfigFileError, match="is a directory"):
        load_config_file(tmp_path / "config.toml")
