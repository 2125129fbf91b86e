"""``tokwatch service``: the generated systemd unit and launchd agent, read back as their managers read
them, and install / uninstall / status in a home of the test's own (the real one is never touched)."""

from __future__ import annotations

import configparser
import os
import plistlib
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from app.cli.parse import UsageError
from app.cli.service import run_service
from app.cli.units import absolute_paths, launchd_plist, systemd_unit

ROOT = Path(__file__).resolve().parents[2]
EXE = "/opt/tok watch/bin/tokwatch"
# Options a person may give, with what a unit file must escape: spaces, quotes, %, $, a backslash.
AWKWARD = ["--log", "/Users/me/Library/Logs/IOTA Train at Home/", "--name", 'rig "7"', "--allow-host",
           "100%-$HOME\\x", "--port", "9000"]


def exec_start_words(unit_text: str) -> list[str]:
    """ExecStart as systemd reads it: specifiers (%%), then C-style quoted words, then $$ variables."""
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(unit_text)
    line = parser["Service"]["ExecStart"].replace("%%", "%")
    return [word.replace("$$", "$") for word in shlex.split(line)]


def unit_sections(unit_text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(unit_text)
    return parser


def test_the_systemd_unit_runs_the_options_given_and_restarts_on_failure() -> None:
    text = systemd_unit(EXE, AWKWARD, "/home/me/.config/tokwatch/service.env")
    assert exec_start_words(text) == [EXE, *AWKWARD]
    unit = unit_sections(text)
    assert unit["Service"]["Restart"] == "on-failure"
    assert unit["Service"]["EnvironmentFile"] == "-/home/me/.config/tokwatch/service.env"
    assert unit["Install"]["WantedBy"] == "default.target"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    unit = tmp_path / "tokwatch.service"
    # systemd checks that the command exists: point at one that does.
    unit.write_text(systemd_unit(sys.executable, AWKWARD, str(tmp_path / "service.env")))
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    result = subprocess.run(["systemd-analyze", "verify", "--user", str(unit)], capture_output=True, text=True,
                            env={**os.environ, "HOME": str(tmp_path), "XDG_RUNTIME_DIR": str(runtime)},
                            timeout=60, check=False)
    assert (result.returncode, result.stderr.strip()) == (0, "")


def test_the_launchd_agent_reads_back_as_written(tmp_path: Path) -> None:
    log_file = tmp_path / "Library/Logs/tokwatch/tokwatch.log"
    agent = plistlib.loads(launchd_plist(EXE, AWKWARD, log_file))
    assert agent["Label"] == "local.tokwatch"
    assert agent["ProgramArguments"] == [EXE, *AWKWARD]
    assert agent["RunAtLoad"] is True
    assert agent["KeepAlive"] == {"SuccessfulExit": False}  # started again after a failure, not after a stop
    assert agent["StandardOutPath"] == agent["StandardErrorPath"] == str(log_file)


class Recorder:
    """Stands in for systemctl / launchctl: records each command, succeeds."""

    def __init__(self) -> None:
        self.commands: list[list[str]] = []

    def __call__(self, command: Sequence[str]) -> int:
        self.commands.append(list(command))
        return 0


def test_install_status_uninstall_on_linux_in_a_home_of_its_own(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    (tmp_path / "work/logs").mkdir(parents=True)  # the log itself may come later: the service waits for it
    env = {"HOME": str(home)}
    ran = Recorder()
    args = ["--log", "logs/miner 1.log", "--data-dir", "~/tw data", "--port", "9000"]
    assert run_service("install", args, home=home, environ=env, platform="linux", runner=ran,
                       cwd=tmp_path / "work") == 0
    unit = home / ".config/systemd/user/tokwatch.service"
    words = exec_start_words(unit.read_text())
    assert Path(words[0]).name == "tokwatch" and Path(words[0]).is_absolute()
    # Relative paths and ~ are made absolute: a service starts in another folder.
    assert words[1:] == ["--log", str(tmp_path / "work/logs/miner 1.log"), "--data-dir", str(home / "tw data"),
                         "--port", "9000"]
    assert ran.commands == [["systemctl", "--user", "daemon-reload"],
                            ["systemctl", "--user", "enable", "--now", "tokwatch.service"]]
    out = capsys.readouterr().out
    assert f"written to {unit}" in out and "journalctl --user -u tokwatch" in out

    assert run_service("status", [], home=home, environ=env, platform="linux", runner=ran) == 0
    out = capsys.readouterr().out
    assert f"installed: {unit}" in out and "journalctl --user -u tokwatch" in out

    assert run_service("uninstall", [], home=home, environ=env, platform="linux", runner=ran) == 0
    assert not unit.exists()
    assert ran.commands[-2:] == [["systemctl", "--user", "disable", "--now", "tokwatch.service"],
                                 ["systemctl", "--user", "daemon-reload"]]
    assert run_service("status", [], home=home, environ=env, platform="linux", runner=ran) == 0
    assert "no service installed" in capsys.readouterr().out


def test_install_on_macos_writes_a_launch_agent(tmp_path: Path) -> None:
    ran = Recorder()
    assert run_service("install", ["--log", "/var/log/x.log"], home=tmp_path, environ={"HOME": str(tmp_path)},
                       platform="darwin", runner=ran) == 0
    plist = tmp_path / "Library/LaunchAgents/local.tokwatch.plist"
    agent = plistlib.loads(plist.read_bytes())
    assert agent["ProgramArguments"][1:] == ["--log", "/var/log/x.log"]
    assert (tmp_path / "Library/Logs/tokwatch").is_dir()
    assert ran.commands == [["launchctl", "bootstrap", f"gui/{os.getuid()}", str(plist)]]
    assert run_service("uninstall", [], home=tmp_path, environ={"HOME": str(tmp_path)}, platform="darwin",
                       runner=ran) == 0
    assert ran.commands[-1] == ["launchctl", "bootout", f"gui/{os.getuid()}/local.tokwatch"]
    assert not plist.exists()


@pytest.mark.parametrize(
    ("args", "complaint"),
    [
        (["--token", "abcdefgh12"], "--token would be written into the service's file in clear: use --token-file"),
        (["--report-key=twk_x"], "--report-key would be written"),
        (["--notify", "tgram://secret/1"], "put notify = "),
        (["--heartbeat-url", "https://hc.example/secret"], "heartbeat_url"),
        (["--once"], "not a command that exits"),
        (["hub", "enroll", "rig-a"], "not a command that exits"),
        (["--port", "70000"], "port must be between 0 and 65535"),
        (["--name", "a\nb"], "control characters"),
    ],
)
def test_install_refuses_secrets_and_options_that_cannot_serve(args: list[str], complaint: str,
                                                                tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        run_service("install", args, home=tmp_path, environ={"HOME": str(tmp_path)}, platform="linux",
                    runner=Recorder())
    assert complaint in str(caught.value)
    assert "secret" not in str(caught.value)
    assert not (tmp_path / ".config").exists()


@pytest.mark.skipif(sys.platform != "linux", reason="the Linux unit; macOS is tested above with launchctl stood in for")
def test_the_command_prints_how_to_start_it_without_a_user_manager(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR")}
    env.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / ".config"))
    result = subprocess.run([sys.executable, str(ROOT / "run.py"), "service", "install", "hub", "--port", "9000"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert "systemctl --user enable --now tokwatch.service" in result.stdout
    unit = tmp_path / ".config/systemd/user/tokwatch.service"
    assert exec_start_words(unit.read_text())[1:] == ["hub", "--port", "9000"]


@pytest.mark.parametrize("option", ["--notify-file", "--heartbeat-url-file", "--token-file", "--report-key-file"])
def test_a_secret_file_given_relative_is_read_from_where_it_was_given(tmp_path: Path, option: str) -> None:
    # The service starts in another folder: the file it names must still be the same file.
    home, cwd = tmp_path / "home", tmp_path / "work"
    assert absolute_paths([option, "secrets/x", f"{option}=~/y"], cwd, home) == [
        option, str(cwd / "secrets/x"), f"{option}={home / 'y'}"]


def test_abbreviated_path_options_are_written_in_full_and_absolute(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    (work / "logs").mkdir(parents=True)
    (work / "logs/m.log").write_text("")
    args = ["--lo", "logs/m.log", "--data", "tw", "--port", "9000"]  # argparse takes --lo and --data
    assert run_service("install", args, home=home, environ={"HOME": str(home)}, platform="linux",
                       runner=Recorder(), cwd=work) == 0
    words = exec_start_words((home / ".config/systemd/user/tokwatch.service").read_text())
    assert words[1:] == ["--log", str(work / "logs/m.log"), "--data-dir", str(work / "tw"), "--port", "9000"]


def test_a_log_whose_folder_does_not_exist_is_refused_and_a_missing_log_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    work.mkdir()
    with pytest.raises(UsageError, match="neither it nor its folder exists"):
        run_service("install", ["--log", "no/such/miner.log"], home=home, environ={"HOME": str(home)},
                    platform="linux", runner=Recorder(), cwd=work)
    assert not (home / ".config/systemd/user/tokwatch.service").exists()
    assert run_service("install", ["--log", "later.log"], home=home, environ={"HOME": str(home)},
                       platform="linux", runner=Recorder(), cwd=work) == 0
    assert f"{work / 'later.log'} does not exist yet; the service waits for it" in capsys.readouterr().out


def test_installing_again_says_what_it_replaces(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    env = {"HOME": str(home)}
    assert run_service("install", ["--port", "9000"], home=home, environ=env, platform="linux",
                       runner=Recorder(), cwd=tmp_path) == 0
    assert "replaces" not in capsys.readouterr().out
    assert run_service("install", ["--port", "9100"], home=home, environ=env, platform="linux",
                       runner=Recorder(), cwd=tmp_path) == 0
    out = capsys.readouterr().out
    assert "it replaces the service installed before, which ran: " in out
    replaced = next(line for line in out.splitlines() if "replaces" in line)
    assert replaced.endswith("--port 9000")


def test_status_without_a_service_manager_says_whether_it_runs(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli.service import place, status

    home = tmp_path / "home"
    where = place(home, {"HOME": str(home)}, "linux")
    where.file.parent.mkdir(parents=True)
    marker = f"tokwatch-status-{os.getpid()}"
    # A unit whose command is a process this test runs (its own marker, so no other process matches).
    where.file.write_text(f"[Service]\nExecStart={sys.executable} -c \"import time; time.sleep(60)\" {marker}\n")
    assert status(where, run=Recorder(), manager=False, environ={}) == 0
    assert "it does not run now" in capsys.readouterr().out
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", marker])
    try:
        # Until the child has exec'd, its /proc cmdline is still the parent's: wait for the command.
        cmdline = Path(f"/proc/{process.pid}/cmdline")
        deadline = time.monotonic() + 30
        while marker.encode() not in cmdline.read_bytes():
            assert time.monotonic() < deadline, "the child never started its command"
            time.sleep(0.01)
        assert status(where, run=Recorder(), manager=False, environ={}) == 0
        assert f"it runs now (pid {process.pid})" in capsys.readouterr().out
    finally:
        process.kill()
        process.wait()
