"""argv → one :class:`Invocation`: which command, with which frozen Config.

``tokwatch [serve]`` is the default command, so ``tokwatch --log X`` keeps working, and so does
every flag form of the commands (``--once``, ``--notify-test``, ``--enroll``, ``--revoke``,
``--new-token``, ``--hub``): people have them in scripts and unit files. Options default to
None and only the ones given replace a field of ``Config()``: the defaults live there, once.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal, NoReturn

from .. import __version__
from ..config import DEFAULT_HOST, DEFAULT_PORT, Config, ConfigError
from ..config.file import (
    ConfigFileError,
    FileSettings,
    default_config_file,
    is_http_url,
    read_config_file,
    read_secret_file,
)
from ..config.names import MachineNameError, check_name
from ..ingest.files import LOG_SUFFIX
from ..ingest.folder import MINER_FOLDER_NAME, MINER_LOG_SUFFIX
from ..ingest.formats import PARSERS

TOKEN_ENV = "TOKWATCH_TOKEN"
# Said in --help; the default itself is Config's.
REPORT_EVERY_SECONDS = next(f.default for f in fields(Config) if f.name == "report_interval_seconds")
REPORT_KEY_ENV = "TOKWATCH_REPORT_KEY"

CommandName = Literal["serve", "once", "notify-test", "enroll", "revoke", "token-renew", "service"]
Output = Literal["text", "json", "report"]


class UsageError(Exception):
    """A bad option or an unusable path: one line on stderr, exit status 2."""


@dataclass(frozen=True)
class Invocation:
    """What the command line asks for: a command, its Config, and the command's own arguments."""

    command: CommandName
    config: Config
    verbose: bool = False
    output: Output = "text"  # once: the status text, the JSON snapshot or the queue report
    at: str | None = None  # once: None (now), "end" or a local "YYYY-MM-DD HH:MM:SS"
    machine: str | None = None  # enroll / revoke: the machine's name
    renew_token: bool = False  # serve: replace the kept LAN token first (--new-token)
    service_action: str | None = None  # service: install, uninstall or status
    service_args: tuple[str, ...] = ()  # service install: the options the service runs with


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


LOG_HELP = (
    f"a log file, or a folder: follow its newest {LOG_SUFFIX} file (or trainer_state.json, trainer_log.jsonl) of "
    "the right kind. In the "
    f"{MINER_FOLDER_NAME} folder that is the app's *{MINER_LOG_SUFFIX}; elsewhere a file whose lines "
    "--format reads (auto: any format, then only files of the kind first followed)"
)


def _log_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--log", type=Path, help=LOG_HELP)
    parser.add_argument(
        "--format",
        help=f"log format: auto (default) or one of {', '.join(sorted(PARSERS))}",
    )
    parser.add_argument("--demo", action="store_true", help="replay the bundled composed log, live")
    parser.add_argument(
        "--compare", action="append", type=Path, metavar="PATH",
        help="another trainer's log to compare with (again for more): the page overlays its runs, "
        "once prints both headlines",
    )
    parser.add_argument(
        "--shell-log", type=Path, metavar="FILE",
        help="the Train at Home app's shell log (main.log), read beside the miner's for why it stopped "
        "(default: the main.log or newest *-main*.log beside the miner's log)",
    )


def _history_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", type=Path, metavar="DIR",
        help="where the history (and a hub's machines, an agent's spool) is kept (default: the user's data dir)"
    )
    parser.add_argument("--no-history", action="store_true", help="keep no history on disk")


def _address_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help=f"address to bind (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, help=f"HTTP port (default {DEFAULT_PORT})")


def _server_options(parser: argparse.ArgumentParser) -> None:
    _address_options(parser)
    parser.add_argument("--ws-port", type=int, help="websocket port (default: HTTP port + 1)")
    parser.add_argument(
        "--hardware", choices=("auto", "nvidia-smi", "macmon", "off"),
        help="read power, temperature and throttling every few seconds with nvidia-smi or macmon (auto: "
        "whichever is installed); off (default) runs nothing",
    )
    parser.add_argument(
        "--token",
        help="access token for a non-loopback host (default: generated, kept); every local user sees it "
        "in ps: prefer --token-file or TOKWATCH_TOKEN",
    )
    parser.add_argument("--token-file", type=Path, metavar="PATH", help="read the access token from this file")
    parser.add_argument(
        "--open",
        action=argparse.BooleanOptionalAction,
        help="open the dashboard in this machine's browser once it is up (never without a display)",
    )
    parser.add_argument("--allow-host", action="append", metavar="NAME", help="accept this Host name too")


def _once_options(parser: argparse.ArgumentParser, *, flag_form: bool) -> None:
    with_once = "with --once: " if flag_form else ""
    parser.add_argument("--json", action="store_true", help=f"{with_once}print the snapshot as JSON")
    parser.add_argument(
        "--report", action="store_true", help=f"{with_once}print the queue report (resets, trend) instead"
    )
    parser.add_argument(
        "--at",
        metavar='end|"YYYY-MM-DD HH:MM:SS"',
        help=f"{with_once}evaluate at the log's last timestamp (end) or at a local time (default: now)",
    )


def _alert_options(parser: argparse.ArgumentParser, *, flag_form: bool) -> argparse._ArgumentGroup:
    alerts = parser.add_argument_group("alerts (also in the config file, ~/.config/tokwatch/config.toml)")
    alerts.add_argument(
        "--notify", action="append", metavar="URL",
        help="send alerts to this Apprise URL (ntfys://topic, …); repeatable; seen in ps: a URL holding a token "
        "goes in --notify-file",
    )
    alerts.add_argument(
        "--notify-file", action="append", metavar="FILE", type=Path,
        help="read Apprise URLs from this file, one a line (mode 600): kept out of `ps`, unlike --notify",
    )
    if flag_form:
        alerts.add_argument(
            "--notify-test", action="store_true",
            help="send one test message to each URL, say which failed, exit (= tokwatch notify-test)",
        )
    alerts.add_argument(
        "--heartbeat-url", metavar="URL", help="fetch this URL every 60 s while the run is healthy (dead-man check)"
    )
    alerts.add_argument(
        "--heartbeat-url-file", metavar="FILE", type=Path,
        help="read the heartbeat URL from this file (mode 600): kept out of `ps`, unlike --heartbeat-url",
    )
    alerts.add_argument("--name", help="this machine's name in alert titles (default: the host name)")
    return alerts


def _agent_options(group: argparse._ArgumentGroup) -> None:
    group.add_argument("--report-to", metavar="URL", help="report this machine's snapshot to a hub (http://HUB:PORT)")
    group.add_argument("--report-key", metavar="KEY",
                       help=f"this machine's key from `tokwatch hub enroll` (visible in `ps`: prefer "
                            f"--report-key-file or {REPORT_KEY_ENV})")
    group.add_argument("--report-key-file", type=Path, metavar="PATH",
                       help="read this machine's report key from this file (one line)")
    group.add_argument("--report-every", type=float, metavar="SECONDS",
                       help=f"seconds between reports to the hub (default {REPORT_EVERY_SECONDS:g}; a state change "
                            "goes at once)")


def _verbose_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="log what tokwatch does (INFO records); by default only warnings and errors")


def _serve_options(parser: argparse.ArgumentParser, *, flag_form: bool) -> None:
    """Every option of the dashboard; ``flag_form`` adds the commands' flag forms (``--once`` …)."""
    _log_options(parser)
    _server_options(parser)
    if flag_form:
        parser.add_argument(
            "--new-token",
            action="store_true",
            help="replace the kept token with a new one: every link and bookmark with the old one stops working",
        )
    _history_options(parser)
    if flag_form:
        parser.add_argument("--once", action="store_true", help="print one snapshot and exit (= tokwatch once)")
        _once_options(parser, flag_form=True)
    _alert_options(parser, flag_form=flag_form)
    fleet = parser.add_argument_group("fleet")
    if flag_form:
        fleet.add_argument("--hub", action="store_true",
                           help="take reports from enrolled machines; the fleet at /fleet (= tokwatch hub)")
        fleet.add_argument("--enroll", metavar="NAME",
                           help="enrol a machine on this hub; print its report key and exit (= tokwatch hub enroll)")
        fleet.add_argument("--revoke", metavar="NAME",
                           help="revoke a machine's report key on this hub and exit (= tokwatch hub revoke)")
    _agent_options(fleet)
    _verbose_option(parser)


def build_parser() -> argparse.ArgumentParser:
    """The whole command line: the dashboard's options, and one subparser per command."""
    parser = _Parser(
        prog="tokwatch",
        usage="tokwatch [serve|once|notify-test|hub|token|service] [options]",
        description="tokwatch: a live dashboard for a training log (IOTA Train at Home miner, nanochat, …).",
        epilog="Without a command tokwatch serves the dashboard. `tokwatch COMMAND --help` for a command.",
    )
    parser.add_argument("--version", action="version", version=f"tokwatch {__version__}")
    _serve_options(parser, flag_form=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands", parser_class=_Parser,
                                     prog="tokwatch")

    def command(name: str, help: str, description: str | None = None) -> argparse.ArgumentParser:
        sub: argparse.ArgumentParser = commands.add_parser(
            name, help=help, description=description or help, argument_default=argparse.SUPPRESS
        )
        return sub

    _serve_options(command("serve", "serve the dashboard (the default)"), flag_form=False)

    once = command("once", "print one snapshot of the log and exit")
    _log_options(once)
    _history_options(once)
    _once_options(once, flag_form=False)
    once.add_argument("--name", help="this machine's name, as its history is kept (default: the host name)")
    _verbose_option(once)

    notify = command("notify-test", "send one test message to each notification URL, say which failed, exit")
    _address_options(notify)
    _alert_options(notify, flag_form=False)
    _verbose_option(notify)

    hub = command("hub", "serve as a hub: take reports from enrolled machines, the fleet at /fleet",
                  "Serve as a hub (the dashboard's options apply), or enrol or revoke a machine.")
    _serve_options(hub, flag_form=False)
    hub_actions = hub.add_subparsers(dest="hub_action", metavar="ACTION", title="actions", parser_class=_Parser,
                                     prog="tokwatch hub")
    for action, what in (("enroll", "enrol a machine on this hub; print how to start it, and its report key"),
                         ("revoke", "revoke a machine's report key: its reports are refused from now on")):
        sub = hub_actions.add_parser(action, help=what, description=what, argument_default=argparse.SUPPRESS)
        sub.add_argument("machine", metavar="NAME", help="the machine's name (A-Z a-z 0-9 . _ -)")
        _address_options(sub)
        _history_options(sub)
        _verbose_option(sub)

    token = command("token", "the LAN access token kept in the config folder")
    token_actions = token.add_subparsers(dest="token_action", metavar="ACTION", title="actions",
                                         parser_class=_Parser, required=True, prog="tokwatch token")
    renew = token_actions.add_parser(
        "renew", help="replace the kept token: every link and bookmark with the old one stops working",
        description="Replace the kept token: every link and bookmark with the old one stops working.",
        argument_default=argparse.SUPPRESS,
    )
    _verbose_option(renew)

    service = command("service", "run tokwatch at login and keep it running (systemd user unit, launchd agent)")
    service.add_argument("service_action", metavar="ACTION", choices=("install", "uninstall", "status"),
                         help="install [OPTIONS…] (the dashboard's options it runs with), uninstall or status")
    service.add_argument("service_args", nargs=argparse.REMAINDER, metavar="OPTIONS",
                         help="with install: the options tokwatch runs with, as you would give them to tokwatch")
    return parser


def long_options() -> frozenset[str]:
    """Every ``--option`` of the command line and its commands (what an abbreviation may stand for)."""
    found: set[str] = set()
    parsers = [build_parser()]
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            found.update(o for o in action.option_strings if o.startswith("--"))
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
    return frozenset(found)


def parse(argv: Sequence[str] | None = None, environ: Mapping[str, str] = os.environ) -> Invocation:
    """Turn the command line into an Invocation (raises UsageError on a bad option)."""
    args = build_parser().parse_args(argv)
    # An option not given is None (or False, for a switch): Config() has its default.
    given: dict[str, Any] = {k: v for k, v in vars(args).items() if v is not None and v is not False}
    command = given.pop("command", None)
    verbose = bool(given.pop("verbose", False))
    if command is None:
        return _flag_form(given, environ, verbose)
    if command == "service":
        return Invocation("service", Config(), verbose, service_action=given["service_action"],
                          service_args=tuple(given.get("service_args", ())))
    if command == "token":
        return Invocation("token-renew", Config(), verbose)
    if command == "once":
        return _once(given, environ, verbose)
    if command == "notify-test":
        return Invocation("notify-test", _config(given, environ, read_config_file(default_config_file())), verbose)
    if command == "hub":
        action = given.pop("hub_action", None)
        if action is not None:
            machine = given.pop("machine")
            if action == "enroll":
                _check_name(machine, "hub enroll")
            return Invocation(action, _config(given, environ, None), verbose, machine=machine)
        given["hub"] = True
    return _serve(given, environ, verbose, renew_token=False)


def _once(given: dict[str, Any], environ: Mapping[str, str], verbose: bool) -> Invocation:
    output: Output = "text"
    if given.pop("json", False):
        output = "json"
    if given.pop("report", False):
        if output == "json":
            raise UsageError("--json and --report do not go together")
        output = "report"
    at = given.pop("at", None)
    if at is not None and at != "end":
        parse_local_time(at)
    if given.get("no_history") and given.get("data_dir") is not None:
        raise UsageError("--no-history and --data-dir contradict each other")
    # --once reads the log only and never needs the config file (it holds alert settings).
    return Invocation("once", _config(given, environ, None), verbose, output=output, at=at)


def _serve(given: dict[str, Any], environ: Mapping[str, str], verbose: bool, *, renew_token: bool) -> Invocation:
    fleet_data = given.get("hub") or given.get("report_to") is not None
    if given.get("no_history") and given.get("data_dir") is not None and not fleet_data:
        raise UsageError("--no-history and --data-dir contradict each other")
    return Invocation("serve", _config(given, environ, read_config_file(default_config_file())), verbose,
                      renew_token=renew_token)


def _flag_form(given: dict[str, Any], environ: Mapping[str, str], verbose: bool) -> Invocation:
    """``tokwatch --once …``, ``--notify-test``, ``--enroll``/``--revoke``, ``--new-token``: the commands as
    flags, which may be combined with any option (an option a command does not use is ignored)."""
    once = given.pop("once", False)
    notify_test = given.pop("notify_test", False)
    enroll, revoke = given.pop("enroll", None), given.pop("revoke", None)
    new_token = given.pop("new_token", False)
    if (given.get("json") or given.get("at") or given.get("report")) and not once:
        raise UsageError("--json, --report and --at only go with --once")
    if given.get("json") and given.get("report"):
        raise UsageError("--json and --report do not go together")
    if new_token and (given.get("token") or once):
        raise UsageError("--new-token replaces the kept token; it goes neither with --token nor with --once")
    if given.get("at") not in (None, "end"):
        parse_local_time(given["at"])
    fleet_data = given.get("hub") or given.get("report_to") is not None or enroll is not None or revoke is not None
    if given.get("no_history") and given.get("data_dir") is not None and not fleet_data:
        raise UsageError("--no-history and --data-dir contradict each other")
    if notify_test and once:
        raise UsageError("--notify-test and --once do not go together")
    if once:
        config = _config(given, environ, None)
        output: Output = "json" if given.get("json") else "report" if given.get("report") else "text"
        return Invocation("once", config, verbose, output=output, at=given.get("at"))
    file = read_config_file(default_config_file())
    if enroll is not None or revoke is not None:
        config = _config(given, environ, file)
        if revoke is not None:
            return Invocation("revoke", config, verbose, machine=revoke)
        return Invocation("enroll", config, verbose, machine=_check_name(enroll, "--enroll"))
    config = _config(given, environ, file)
    return Invocation("notify-test" if notify_test else "serve", config, verbose, renew_token=new_token)


def _config(given: Mapping[str, Any], environ: Mapping[str, str], file: FileSettings | None) -> Config:
    """The options given (and the config file's settings, when read) over ``Config()``'s defaults."""
    format_name = given.get("format")
    if format_name is not None and format_name != "auto" and format_name not in PARSERS:
        raise UsageError(f"unknown --format {format_name!r}; use auto or one of {', '.join(sorted(PARSERS))}")
    notify = [str(url) for url in given.get("notify", ())]
    if any(not url.strip() for url in notify):
        raise UsageError("--notify wants a URL, like ntfys://my-topic")
    heartbeat_url = given.get("heartbeat_url")
    try:  # secrets from files: the command line is visible to every user in `ps`
        notify += [url for path in given.get("notify_file", ()) for url in read_secret_file(path, "--notify-file")]
        if given.get("heartbeat_url_file") is not None:
            urls = read_secret_file(given["heartbeat_url_file"], "--heartbeat-url-file")
            if len(urls) != 1 or heartbeat_url is not None:
                raise UsageError("--heartbeat-url-file holds one URL (and goes without --heartbeat-url)")
            heartbeat_url = urls[0]
    except ConfigFileError as e:
        raise UsageError(str(e)) from e
    if heartbeat_url is not None and not is_http_url(heartbeat_url):
        raise UsageError("--heartbeat-url must be an http:// or https:// URL")
    report_to = given.get("report_to")
    report_key = _given_secret(given, "report_key", "--report-key", "--report-key-file", "report key", environ,
                               REPORT_KEY_ENV, only_flags=report_to is None)
    if report_to is not None and report_key is None:
        raise UsageError("--report-to needs the key `tokwatch hub enroll NAME` printed on the hub: "
                         f"--report-key-file PATH (a file only you can read) or {REPORT_KEY_ENV}")
    if report_key is not None and report_to is None:
        flag = "--report-key-file" if "report_key_file" in given else "--report-key"
        raise UsageError(f"{flag} goes with --report-to http://HUB:PORT")
    if report_to is not None:
        from ..hub.agent import AgentConfigError, report_url

        try:
            report_url(report_to)
        except AgentConfigError as e:
            raise UsageError(str(e)) from e
    name = given.get("name")
    if name is not None and report_to is not None:
        _check_name(name, "--name")  # the hub shows it, keys it and labels metrics by it
    file = file if file is not None else FileSettings()
    changes: dict[str, Any] = {
        field: given[option]
        for option, field in (
            ("log", "log_path"), ("shell_log", "shell_log_path"), ("format", "format_name"), ("host", "host"), ("port", "port"),
            ("ws_port", "ws_port"), ("hardware", "hardware"), ("demo", "demo"), ("data_dir", "data_dir"), ("hub", "hub"),
            ("report_to", "report_to"), ("report_every", "report_interval_seconds"), ("open", "open_browser"),
        )
        if option in given
    }
    if "allow_host" in given:
        changes["allow_hosts"] = tuple(given["allow_host"])
    if given.get("compare"):
        compare_paths = tuple(path.expanduser() for path in given["compare"])
        for path in compare_paths:
            if not path.is_file():
                raise UsageError(f"--compare {path}: {'not a file' if path.exists() else 'no such file'}")
        changes["compare_paths"] = compare_paths
    if given.get("no_history"):
        changes["history"] = False
    token = _given_secret(given, "token", "--token", "--token-file", "token", environ, TOKEN_ENV)
    if token is not None:
        changes["token"] = token
    if report_key is not None:
        changes["report_key"] = report_key
    if name is not None or file.name:
        changes["name"] = name if name is not None else file.name
    notify_urls = tuple(dict.fromkeys([*file.notify, *(url.strip() for url in notify)]))
    if notify_urls:
        changes["notify_urls"] = notify_urls
    if heartbeat_url or file.heartbeat_url:
        changes["heartbeat_url"] = heartbeat_url or file.heartbeat_url
    if file.dashboard_url is not None:
        changes["dashboard_url"] = file.dashboard_url
    changes["alert_settings"] = file.alert_settings
    try:
        return replace(Config(), **changes)
    except ConfigError as e:
        raise UsageError(str(e)) from e


def _given_secret(given: Mapping[str, Any], key: str, flag: str, file_flag: str, what: str,
                  environ: Mapping[str, str], env_name: str, *, only_flags: bool = False) -> str | None:
    """A secret from ``flag``, from ``file_flag`` (one line) or from the environment (one way at most), or None.

    A command line is readable by every local user (``ps``); a file of mode 0600 or the
    environment is not. ``only_flags``: ignore the environment (it is read only where it is used).
    """
    path: Path | None = given.get(f"{key}_file")
    value: str | None = given.get(key)
    if path is not None and value is not None:
        raise UsageError(f"give the {what} one way only, not both {flag} and {file_flag}")
    if path is not None:
        path = path.expanduser()  # as a shell would: a unit file or a pasted command may say ~/…
        try:
            lines = read_secret_file(path, file_flag)
        except ConfigFileError as e:
            raise UsageError(str(e)) from e
        if len(lines) != 1:
            raise UsageError(f"{file_flag} {path}: the file must hold one line, the {what}")
        return _plain_secret(lines[0], f"the {what} in {path}")
    if value is not None:
        return _plain_secret(str(value), f"the {what} given to {flag}")
    if only_flags:
        return None
    from_env = environ.get(env_name) or None  # set but empty: not given
    return _plain_secret(from_env, f"the {what} in {env_name}") if from_env is not None else None


def _plain_secret(value: str, where: str) -> str:
    """A secret without the blanks around it; refused (never shown) when a control character is inside.

    A key pasted with a line break in it would go into an HTTP header, be refused there with the
    whole header in the error, and be tried again for ever.
    """
    value = value.strip()
    # A plain space inside is left to the secret's own rule (a token's alphabet), which names it.
    if any(ord(c) < 32 or ord(c) == 127 or (c.isspace() and c != " ") for c in value):
        raise UsageError(f"{where} holds a line break, a tab or another control character; paste it again "
                         "as one line")
    return value


def _check_name(name: str, where: str) -> str:
    try:
        return check_name(name)
    except MachineNameError as e:
        raise UsageError(f"{where}: {e}") from e


def parse_local_time(value: str) -> float:
    """``--at``'s local "YYYY-MM-DD HH:MM:SS" as a Unix time (raises UsageError)."""
    try:
        return time.mktime(time.strptime(value, "%Y-%m-%d %H:%M:%S"))
    except ValueError as e:
        raise UsageError(f'--at wants end or "YYYY-MM-DD HH:MM:SS", not {value!r}') from e
