"""The command line: every command in both its forms (``tokwatch once`` and ``tokwatch --once``),
every option onto its Config field, and the defaults left to Config."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from app.cli.parse import Invocation, UsageError, build_parser, parse
from app.config import Config

LOG = "/var/log/miner.log"


@pytest.mark.parametrize(
    ("flag_form", "command_form"),
    [
        (["--once", "--json", "--at", "end", "--log", LOG], ["once", "--json", "--at", "end", "--log", LOG]),
        (["--once", "--report", "--log", LOG], ["once", "--report", "--log", LOG]),
        (["--once", "--at", "2026-01-02 03:04:05", "--demo"], ["once", "--at", "2026-01-02 03:04:05", "--demo"]),
        (["--once", "--log", LOG, "--format", "nanogpt", "--data-dir", "/d"],
         ["once", "--log", LOG, "--format", "nanogpt", "--data-dir", "/d"]),
        (["--notify-test", "--notify", "json://localhost:1/", "--name", "rig-7"],
         ["notify-test", "--notify", "json://localhost:1/", "--name", "rig-7"]),
        (["--enroll", "rig-a", "--data-dir", "/d"], ["hub", "enroll", "rig-a", "--data-dir", "/d"]),
        (["--revoke", "rig-a", "--data-dir", "/d", "--port", "9000"],
         ["hub", "revoke", "rig-a", "--data-dir", "/d", "--port", "9000"]),
        (["--hub", "--host", "0.0.0.0", "--port", "0", "--token", "abcdefgh12"],
         ["hub", "--host", "0.0.0.0", "--port", "0", "--token", "abcdefgh12"]),
        (["--log", LOG, "--port", "9000", "--open"], ["serve", "--log", LOG, "--port", "9000", "--open"]),
        ([], ["serve"]),
    ],
)
def test_both_forms_mean_the_same(flag_form: list[str], command_form: list[str]) -> None:
    assert parse(flag_form) == parse(command_form)


def test_new_token_renews_then_serves_and_token_renew_only_renews() -> None:
    assert parse(["--new-token", "--log", LOG]) == Invocation("serve", Config(log_path=Path(LOG)), renew_token=True)
    assert parse(["token", "renew"]).command == "token-renew"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--once"], Invocation("once", Config())),
        (["--once", "--json"], Invocation("once", Config(), output="json")),
        (["once", "--report", "--at", "end"], Invocation("once", Config(), output="report", at="end")),
        (["--enroll", "rig-a"], Invocation("enroll", Config(), machine="rig-a")),
        (["hub", "revoke", "rig-a"], Invocation("revoke", Config(), machine="rig-a")),
        (["hub"], Invocation("serve", Config(hub=True))),
        (["-v"], Invocation("serve", Config(), verbose=True)),
        (["once", "--verbose"], Invocation("once", Config(), verbose=True)),
        (["service", "install", "--log", "a b", "--port", "9"],
         Invocation("service", Config(), service_action="install", service_args=("--log", "a b", "--port", "9"))),
    ],
)
def test_each_command_is_recognised(argv: list[str], expected: Invocation) -> None:
    assert parse(argv) == expected


# Every option of the dashboard, and the Config field it sets (with a value unlike the default).
OPTIONS: list[tuple[list[str], str, Any]] = [
    (["--log", LOG], "log_path", Path(LOG)),
    (["--format", "nanochat"], "format_name", "nanochat"),
    (["--host", "0.0.0.0", "--token", "abcdefgh12"], "host", "0.0.0.0"),
    (["--port", "9000"], "port", 9000),
    (["--ws-port", "9100"], "ws_port", 9100),
    (["--demo"], "demo", True),
    (["--compare", __file__, "--compare", str(Path(__file__).parent / "__init__.py")], "compare_paths",
     (Path(__file__), Path(__file__).parent / "__init__.py")),
    (["--token", "abcdefgh12"], "token", "abcdefgh12"),
    (["--allow-host", "rig.local", "--allow-host", "rig"], "allow_hosts", ("rig.local", "rig")),
    (["--data-dir", "/d"], "data_dir", Path("/d")),
    (["--no-history"], "history", False),
    (["--open"], "open_browser", True),
    (["--notify", "json://a/", "--notify", " json://b/ "], "notify_urls", ("json://a/", "json://b/")),
    (["--heartbeat-url", "https://hc.example/x"], "heartbeat_url", "https://hc.example/x"),
    (["--name", "rig-7"], "name", "rig-7"),
    (["--report-to", "http://10.0.0.2:8765", "--report-key", "twk_k"], "report_to", "http://10.0.0.2:8765"),
    (["--report-to", "http://10.0.0.2:8765", "--report-key", "twk_k"], "report_key", "twk_k"),
    (["--report-every", "30"], "report_interval_seconds", 30.0),
    (["--hub"], "hub", True),
    (["--shell-log", "/l/main.log"], "shell_log_path", Path("/l/main.log")),
    (["--hardware", "nvidia-smi"], "hardware", "nvidia-smi"),
]


@pytest.mark.parametrize(("argv", "field", "value"), OPTIONS, ids=lambda v: str(v))
def test_each_option_sets_its_field_and_nothing_else(argv: list[str], field: str, value: Any) -> None:
    config = parse(argv).config
    assert getattr(config, field) == value
    assert getattr(Config(), field) != value
    for other in ("port", "history", "name", "data_dir"):
        if other != field and not (field == "report_key" and other == "report_to"):
            assert getattr(config, other) == getattr(Config(), other)
    if argv[0] != "--hub":
        assert getattr(parse(["serve", *argv]).config, field) == value  # the command form too


def test_every_option_of_the_parser_is_in_the_table() -> None:
    flags = {o for a in build_parser()._actions for o in a.option_strings if o.startswith("--")}
    commands = {"--once", "--json", "--report", "--at", "--notify-test", "--enroll", "--revoke", "--new-token",
                "--help", "--version", "--verbose", "--token-file", "--report-key-file", "--no-open",
                "--notify-file", "--heartbeat-url-file"}
    assert flags - commands == {a for argv, _, _ in OPTIONS for a in argv if a.startswith("--")}


def test_options_not_given_leave_configs_defaults() -> None:
    assert parse([]).config == Config()
    assert parse(["once"]).config == Config()


def test_secrets_come_from_files_or_the_environment(tmp_path: Path) -> None:
    key_file = tmp_path / "report-key"
    key_file.write_text("twk_from_file\n")
    token_file = tmp_path / "token"
    token_file.write_text("abcdefgh12\n")
    for secret in (key_file, token_file):  # a file only you can read (others': tests/config/test_secret_files.py)
        secret.chmod(0o600)
    argv = ["--report-to", "http://10.0.0.2:8765", "--report-key-file", str(key_file), "--token-file", str(token_file)]
    config = parse(argv, environ={}).config
    assert (config.report_key, config.token) == ("twk_from_file", "abcdefgh12")
    env = {"TOKWATCH_REPORT_KEY": "twk_env", "TOKWATCH_TOKEN": "tokenfromenv"}
    config = parse(["--report-to", "http://10.0.0.2:8765"], environ=env).config
    assert (config.report_key, config.token) == ("twk_env", "tokenfromenv")
    with pytest.raises(UsageError, match="one way only, not both --report-key and --report-key-file"):
        parse([*argv, "--report-key", "twk_x"], environ={})
    with pytest.raises(UsageError, match="--report-key-file goes with --report-to"):
        parse(["--report-key-file", str(key_file)], environ={})


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["once", "--json", "--report"], "--json and --report do not go together"),
        (["--once", "--json", "--report"], "--json and --report do not go together"),
        (["--json"], "--json, --report and --at only go with --once"),
        (["once", "--at", "yesterday"], '--at wants end or "YYYY-MM-DD HH:MM:SS"'),
        (["once", "--no-history", "--data-dir", "/d"], "--no-history and --data-dir contradict each other"),
        (["--notify-test", "--once"], "--notify-test and --once do not go together"),
        (["--new-token", "--once"], "--new-token replaces the kept token"),
        (["hub", "enroll", "rig a"], "hub enroll: machine name 'rig a'"),
        (["--enroll", "rig a"], "--enroll: machine name 'rig a'"),
        (["once", "--port", "1"], "unrecognized arguments: --port"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["token"], "required: ACTION"),
        (["--format", "nope"], "unknown --format 'nope'"),
        (["--port", "70000"], "port must be between 0 and 65535, not 70000"),
    ],
)
def test_bad_command_lines_are_usage_errors(argv: list[str], message: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse(argv)
    assert message in str(caught.value)


def test_every_config_field_is_either_an_option_or_deliberately_not() -> None:
    from_options = {field for _, field, _ in OPTIONS} | {"config_dir"}
    not_options = {"max_ws_clients", "max_connections_per_address", "push_interval_seconds", "keepalive_seconds",
                   "handshake_timeout_seconds", "config_dir", "token_file", "dashboard_url", "alert_settings"}
    assert {f.name for f in fields(Config)} == from_options | not_options


def test_the_help_for_log_states_the_folder_rule() -> None:
    from app.ingest.folder import MINER_FOLDER_NAME, MINER_LOG_SUFFIX

    text = " ".join(build_parser().format_help().split())
    assert f"In the {MINER_FOLDER_NAME} folder that is the app's *{MINER_LOG_SUFFIX}" in text
    assert "newest *.log" not in text


@pytest.mark.parametrize("url", ["http://127.0.0.1:abc", "http://[::1", "http://127.0.0.1:70000"])
def test_a_report_to_url_that_cannot_work_fails_start_up(url: str) -> None:
    with pytest.raises(UsageError, match=r"--report-to wants http://HUB:PORT, not") as caught:
        parse(["--report-to", url], environ={"TOKWATCH_REPORT_KEY": "twk_" + "k" * 43})
    assert "\n" not in str(caught.value)
