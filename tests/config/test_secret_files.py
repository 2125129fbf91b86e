"""Every file that holds a secret is checked alike (--notify-file, --report-key-file, --token-file):
owner, mode, type, size, the symlink target's folder, each refused in one line that never shows
the secret; a secret with a control character in it (a pasted line break) is refused at start-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.parse import UsageError, parse

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX modes")

ROOT = Path(__file__).resolve().parents[2]
KEY = "twk_" + "s" * 43
FLAGS = {
    "--report-key-file": ["--report-to", "http://127.0.0.1:8765"],
    "--token-file": [],
    "--notify-file": [],
}


def secret(tmp_path: Path, text: str = KEY + "\n", mode: int = 0o600, folder_mode: int = 0o700) -> Path:
    folder = tmp_path / "secrets"
    folder.mkdir(exist_ok=True)
    folder.chmod(folder_mode)
    path = folder / "secret"
    path.write_text(text, encoding="utf-8")
    path.chmod(mode)
    return path


def refused(tmp_path: Path, flag: str, path: Path | str) -> str:
    with pytest.raises(UsageError) as caught:
        parse(["--log", str(tmp_path / "m.log"), *FLAGS[flag], flag, str(path)])
    message = str(caught.value)
    assert "\n" not in message and KEY not in message and "sss" not in message
    return message


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_others_may_not_read_it(tmp_path: Path, flag: str) -> None:
    assert "chmod 600" in refused(tmp_path, flag, secret(tmp_path, mode=0o644))


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_others_may_not_swap_it(tmp_path: Path, flag: str) -> None:
    assert "chmod go-w" in refused(tmp_path, flag, secret(tmp_path, folder_mode=0o777))


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_a_symlink_is_checked_in_its_targets_folder(tmp_path: Path, flag: str) -> None:
    target = secret(tmp_path, folder_mode=0o777)  # the target's folder is open to all
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    (mine / "link").symlink_to(target)
    assert f"its folder {target.parent}" in refused(tmp_path, flag, mine / "link")


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_a_fifo_is_refused_at_once(tmp_path: Path, flag: str) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo, 0o600)
    # In a child with a deadline: reading a FIFO with no writer would hold start-up for ever.
    code = ("from app.cli.parse import parse, UsageError\n"
            f"try:\n    parse(['--log', 'm.log', *{FLAGS[flag]!r}, {flag!r}, {str(fifo)!r}])\n"
            "except UsageError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=30,
                          check=False)
    assert "not a regular file" in done.stdout and done.stderr == ""


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_dev_zero_is_refused_not_read(tmp_path: Path, flag: str) -> None:
    assert "not a regular file" in refused(tmp_path, flag, "/dev/zero")


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_a_file_too_large_is_refused(tmp_path: Path, flag: str) -> None:
    assert "at most 1,048,576" in refused(tmp_path, flag, secret(tmp_path, text="#" * (1 << 20) + "\n" + KEY))


@pytest.mark.parametrize("flag", ["--report-key-file", "--token-file"])
def test_a_secret_with_a_line_break_in_it_is_refused(tmp_path: Path, flag: str) -> None:
    message = refused(tmp_path, flag, secret(tmp_path, text="twk_sss\nsss\n"))
    assert "one line" in message


def test_the_environments_report_key_with_a_line_break_is_refused_unshown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOKWATCH_REPORT_KEY", KEY[:20] + "\n" + KEY[20:])
    with pytest.raises(UsageError) as caught:
        parse(["--log", str(tmp_path / "m.log"), "--report-to", "http://127.0.0.1:8765"])
    message = str(caught.value)
    assert "TOKWATCH_REPORT_KEY" in message and "line break" in message and "sss" not in message


def test_the_files_are_read_as_before_when_they_are_right(tmp_path: Path) -> None:
    key = secret(tmp_path)
    config = parse(["--log", str(tmp_path / "m.log"), "--report-to", "http://127.0.0.1:8765",
                    "--report-key-file", str(key)]).config
    assert config.report_key == KEY


def test_a_config_symlink_is_checked_in_its_targets_folder(tmp_path: Path) -> None:
    from app.config.file import ConfigFileError, load_config_file

    target = secret(tmp_path, text='notify = ["ntfys://sss-topic"]\n', folder_mode=0o777)
    mine = tmp_path / "config"
    mine.mkdir(mode=0o700)
    (mine / "config.toml").symlink_to(target)
    with pytest.raises(ConfigFileError, match=f"its folder {target.parent}"):
        load_config_file(mine / "config.toml")
