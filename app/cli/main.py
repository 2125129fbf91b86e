"""tokwatch's command line: flags → one frozen Config → the pipeline and the servers.

The only file that turns errors into messages and exit statuses.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import stat
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, NoReturn

from .. import allocator, text
from ..config import DEFAULT_HOST, DEFAULT_PORT, Config, ConfigError, host_name
from ..config.alerts import FileAlerts as FileAlertsTable
from ..config.alerts import SettingsError, alerts_from_table
from ..config.file import ConfigFileError, default_config_file, load_config_file, read_secret_file
from ..ingest.formats import PARSERS
from ..snapshot import Snapshot

if TYPE_CHECKING:
    from ..ingest.folder import Following
    from ..record.recorder import Recorder

EXIT_USAGE = 2
TOKEN_ENV = "TOKWATCH_TOKEN"


class UsageError(Exception):
    """A bad option or an unusable path: one line on stderr, exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="tokwatch",
        description="tokwatch: a live dashboard for a training log (IOTA Train at Home miner, nanochat, …).",
    )
    parser.add_argument("--log", type=Path, help="log file, or a directory: follow its newest *.log")
    parser.add_argument(
        "--format",
        default="auto",
        help=f"log format: auto (default) or one of {', '.join(sorted(PARSERS))}",
    )
    parser.add_argument("--host", default=DEFAULT_HOST, help=f"address to bind (default {DEFAULT_HOST})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"HTTP port (default {DEFAULT_PORT})")
    parser.add_argument("--ws-port", type=int, help="websocket port (default: HTTP port + 1)")
    parser.add_argument("--demo", action="store_true", help="replay the bundled composed log, live")
    parser.add_argument(
        "--token",
        help="access token for a non-loopback host (default: generated, kept); every local user sees it "
        "in ps: prefer --token-file or TOKWATCH_TOKEN",
    )
    parser.add_argument("--token-file", type=Path, metavar="PATH", help="read the access token from this file")
    parser.add_argument(
        "--new-token",
        action="store_true",
        help="replace the kept token with a new one: every link and bookmark with the old one stops working",
    )
    parser.add_argument(
        "--open",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="open the dashboard in this machine's browser once it is up (never without a display)",
    )
    parser.add_argument(
        "--allow-host", action="append", default=[], metavar="NAME", help="accept this Host name too"
    )
    parser.add_argument(
        "--data-dir", type=Path, metavar="DIR",
        help="where the history (and a hub's machines, an agent's spool) is kept (default: the user's data dir)"
    )
    parser.add_argument("--no-history", action="store_true", help="keep no history on disk")
    parser.add_argument("--once", action="store_true", help="print one snapshot and exit")
    parser.add_argument("--json", action="store_true", help="with --once: print the snapshot as JSON")
    parser.add_argument(
        "--report", action="store_true", help="with --once: print the queue report (resets, trend) instead"
    )
    parser.add_argument(
        "--at",
        default=None,
        metavar='end|"YYYY-MM-DD HH:MM:SS"',
        help="with --once: evaluate at the log's last timestamp (end) or at a local time (default: now)",
    )
    alerts = parser.add_argument_group("alerts (also in the config file, ~/.config/tokwatch/config.toml)")
    alerts.add_argument(
        "--notify", action="append", default=[], metavar="URL",
        help="send alerts to this Apprise URL (ntfys://topic, tgram://token/chat, …); repeatable",
    )
    alerts.add_argument(
        "--notify-file", action="append", default=[], metavar="FILE", type=Path,
        help="read Apprise URLs from this file, one a line (mode 600): kept out of `ps`, unlike --notify",
    )
    alerts.add_argument(
        "--notify-test", action="store_true", help="send one test message to each URL, say which failed, exit"
    )
    alerts.add_argument(
        "--heartbeat-url", metavar="URL", help="fetch this URL every 60 s while the run is healthy (dead-man check)"
    )
    alerts.add_argument(
        "--heartbeat-url-file", metavar="FILE", type=Path,
        help="read the heartbeat URL from this file (mode 600): kept out of `ps`, unlike --heartbeat-url",
    )
    alerts.add_argument("--name", help="this machine's name in alert titles (default: the host name)")
    fleet = parser.add_argument_group("fleet")
    fleet.add_argument("--hub", action="store_true", help="take reports from enrolled machines; the fleet at /fleet")
    fleet.add_argument("--enroll", metavar="NAME", help="enrol a machine on this hub; print its report key and exit")
    fleet.add_argument("--revoke", metavar="NAME", help="revoke a machine's report key on this hub and exit")
    fleet.add_argument("--report-to", metavar="URL", help="report this machine's snapshot to a hub (http://HUB:PORT)")
    fleet.add_argument("--report-key", metavar="KEY",
                       help="this machine's key from --enroll (or set TOKWATCH_REPORT_KEY, kept out of `ps`)")
    fleet.add_argument("--report-every", type=float, default=15.0, metavar="SECONDS",
                       help="seconds between reports to the hub (default 15; a state change goes at once)")
    return parser


def _given_token(args: argparse.Namespace, environ: Mapping[str, str]) -> str | None:
    """The token from --token, --token-file or TOKWATCH_TOKEN (one way at most), or None.

    A command line is readable by every local user (``ps``); a file of mode 0600 or the
    environment is not.
    """
    token_file: Path | None = args.token_file
    given = [name for name, value in (("--token", args.token), ("--token-file", token_file)) if value is not None]
    from_env = environ.get(TOKEN_ENV) or None  # set but empty: not given
    if len(given) > 1:
        raise UsageError("give the token one way only, not both --token and --token-file")
    if token_file is not None:
        try:
            lines = token_file.read_text(encoding="utf-8").strip().splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise UsageError(f"{token_file}: cannot read the token ({getattr(e, 'strerror', None) or e})") from e
        if len(lines) != 1:
            raise UsageError(f"{token_file}: the token file must hold one line, the token")
        return lines[0].strip()
    if args.token is not None:
        return str(args.token)
    return from_env.strip() if from_env is not None else None


def parse_config(argv: Sequence[str] | None = None) -> tuple[Config, argparse.Namespace]:
    """Turn command-line flags into a Config (raises UsageError on a bad option)."""
    args = _build_parser().parse_args(argv)
    if args.format != "auto" and args.format not in PARSERS:
        raise UsageError(f"unknown --format {args.format!r}; use auto or one of {', '.join(sorted(PARSERS))}")
    if (args.json or args.at or args.report) and not args.once:
        raise UsageError("--json, --report and --at only go with --once")
    if args.json and args.report:
        raise UsageError("--json and --report do not go together")
    if args.new_token and (args.token or args.once):
        raise UsageError("--new-token replaces the kept token; it goes neither with --token nor with --once")
    if args.at is not None and args.at != "end":
        _parse_local_time(args.at)
    fleet_data = args.hub or args.report_to is not None or args.enroll is not None or args.revoke is not None
    if args.no_history and args.data_dir is not None and not fleet_data:
        raise UsageError("--no-history and --data-dir contradict each other")
    if args.notify_test and args.once:
        raise UsageError("--notify-test and --once do not go together")
    if any(not url.strip() for url in args.notify):
        raise UsageError("--notify wants a URL, like ntfys://my-topic")
    try:  # secrets from files: the command line is visible to every user in `ps`
        notify_from_files = [url for path in args.notify_file for url in read_secret_file(path, "--notify-file")]
        if args.heartbeat_url_file is not None:
            urls = read_secret_file(args.heartbeat_url_file, "--heartbeat-url-file")
            if len(urls) != 1 or args.heartbeat_url is not None:
                raise UsageError("--heartbeat-url-file holds one URL (and goes without --heartbeat-url)")
            args.heartbeat_url = urls[0]
    except ConfigFileError as e:
        raise UsageError(str(e)) from e
    if args.heartbeat_url is not None and not args.heartbeat_url.lower().startswith(("http://", "https://")):
        raise UsageError("--heartbeat-url must be an http:// or https:// URL")
    # The config file holds alert settings; --once reads the log only and never needs it.
    from_file = FileAlerts() if args.once else _alerts_from_file()
    report_key = args.report_key or os.environ.get("TOKWATCH_REPORT_KEY") or None
    if args.report_to is not None and report_key is None:
        raise UsageError("--report-to needs --report-key KEY (or TOKWATCH_REPORT_KEY), printed by --enroll on the hub")
    if args.report_key is not None and args.report_to is None:
        raise UsageError("--report-key goes with --report-to http://HUB:PORT")
    if args.report_to is not None:
        from ..hub.agent import AgentConfigError, report_url

        try:
            report_url(args.report_to)
        except AgentConfigError as e:
            raise UsageError(str(e)) from e
    if args.name is not None and args.report_to is not None:
        _check_name(args.name, "--name")  # the hub shows it, keys it and labels metrics by it
    try:
        config = Config(
            log_path=args.log,
            format_name=args.format,
            host=args.host,
            port=args.port,
            ws_port=args.ws_port,
            demo=args.demo,
            token=_given_token(args, os.environ),
            allow_hosts=tuple(args.allow_host),
            data_dir=args.data_dir,
            history=not args.no_history,
            name=args.name if args.name is not None else from_file.name or host_name(),
            notify_urls=tuple(dict.fromkeys([*from_file.alerts.notify, *(u.strip() for u in args.notify),
                                             *notify_from_files])),
            heartbeat_url=args.heartbeat_url or from_file.alerts.heartbeat_url,
            dashboard_url=from_file.alerts.dashboard_url,
            alert_settings=from_file.alerts.settings,
            hub=args.hub,
            report_to=args.report_to,
            report_key=report_key,
            report_interval_seconds=args.report_every,
            open_browser=args.open,
        )
    except ConfigError as e:
        raise UsageError(str(e)) from e
    return config, args


class FileAlerts(NamedTuple):
    """What the config file says: the machine's name and the ``[alerts]`` table."""

    name: str | None = None
    alerts: FileAlertsTable = FileAlertsTable()


# Top-level keys of the config file.
_FILE_KEYS = ("name", "alerts")


def _alerts_from_file() -> FileAlerts:
    path = default_config_file()
    try:
        table = load_config_file(path)
        unknown = sorted(set(table) - set(_FILE_KEYS))
        if unknown:
            raise UsageError(f"{path}: unknown setting {unknown[0]!r} (known: {', '.join(_FILE_KEYS)})")
        name = table.get("name")
        if name is not None and not isinstance(name, str):
            raise UsageError(f"{path}: name must be a string")
        return FileAlerts(name, alerts_from_table(table.get("alerts", {})))
    except (ConfigFileError, SettingsError) as e:
        raise UsageError(f"{e}" if isinstance(e, ConfigFileError) else f"{path}: {e}") from e


def _check_name(name: str, flag: str) -> str:
    from ..hub.keys import MachineNameError, check_name

    try:
        return check_name(name)
    except MachineNameError as e:
        raise UsageError(f"{flag}: {e}") from e


def run_enrolment(config: Config, args: argparse.Namespace) -> int:
    """--enroll NAME: create the machine, print how to start its agent, the key on the last line.

    --revoke NAME: make its key useless at once.
    """
    from ..hub.store import FILE_NAME, HubStore, HubStoreError

    path = config.resolved_data_dir / FILE_NAME
    try:
        store = HubStore(path)
        try:
            if args.revoke is not None:
                store.revoke(args.revoke, time.time())
                print(f"tokwatch: {args.revoke}'s report key is revoked; its reports are refused from now on")
                return 0
            name = _check_name(args.enroll, "--enroll")
            key = store.enroll(name, time.time())
        finally:
            store.close()
    except HubStoreError as e:
        print(f"tokwatch: {e}", file=sys.stderr)
        return 1
    port = f":{config.port}"
    print(f"tokwatch: enrolled {name} on the hub whose data is in {path.parent}")
    print(f"  on {name}, start tokwatch with (HUB: this hub's address; the key is shown once):")
    print(f"  python run.py --log PATH --report-to http://HUB{port} --report-key KEY --name {name}")
    print(f"  --revoke {name} stops this key. {name}'s report key:")
    print(key)
    return 0


def _parse_local_time(value: str) -> float:
    try:
        return time.mktime(time.strptime(value, "%Y-%m-%d %H:%M:%S"))
    except ValueError as e:
        raise UsageError(f'--at wants end or "YYYY-MM-DD HH:MM:SS", not {value!r}') from e


def check_log_path(path: Path, *, missing_ok: bool) -> bool:
    """Refuse (UsageError) a path that is no log to follow; return True when it is a folder.

    A FIFO, a device or a socket is refused before anything opens it: opening a FIFO waits
    for a writer, and /dev/zero never ends.
    """
    from ..ingest.files import describe_mode, open_for_reading

    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError) as e:
        if missing_ok:
            return False
        raise UsageError(f"{path}: no such file or directory") from e
    except OSError as e:  # a folder on the way that tokwatch may not search, a loop of links
        raise UsageError(f"{path}: cannot read ({e.strerror or e})") from e
    if stat.S_ISDIR(st.st_mode):
        try:
            with os.scandir(path):
                pass
        except OSError as e:
            raise UsageError(f"{path}: cannot list this folder ({e.strerror or e})") from e
        return True
    if not stat.S_ISREG(st.st_mode):
        raise UsageError(f"{path} is {describe_mode(st.st_mode)}, not a regular file: tokwatch reads log files")
    try:
        open_for_reading(path).close()
    except OSError as e:
        raise UsageError(f"{path}: cannot read ({e.strerror or e})") from e
    return False


def _resolve_log(config: Config) -> tuple[Path, Following | None]:
    from ..ingest.files import default_log_path
    from ..ingest.folder import resolve_log
    from ..ingest.formats.detect import family, log_kind

    given = config.log_path
    path = given if given is not None else default_log_path()
    if path is None:
        raise UsageError("no log found (looked for ~/Library/Logs/IOTA Train at Home/); pass --log PATH or --demo")
    if not check_log_path(path, missing_ok=False):
        return path, None
    kind = None if config.format_name == "auto" else family(config.format_name)
    try:
        resolved, following = resolve_log(path, functools.partial(log_kind, format_name=config.format_name), kind)
    except OSError as e:
        raise UsageError(f"{path}: cannot list this folder ({e.strerror or e})") from e
    if resolved is None:
        if following is not None and following.ignored_total:
            raise UsageError(f"{path}: {following.reason} (ignored {following.ignored_total} other *.log)")
        raise UsageError(f"{path}: no *.log file in this directory")
    check_log_path(resolved, missing_ok=False)
    return resolved, following


def run_once(config: Config, args: argparse.Namespace) -> int:
    """Read the log's tail once, print a snapshot, exit 0."""
    if config.demo and config.log_path is None:
        import tempfile

        from ..demo import write_demo_log

        # The composed log lives as long as this command: nothing is left behind in /tmp.
        with tempfile.TemporaryDirectory(prefix="tokwatch-demo-") as folder:
            return _print_once(config, args, write_demo_log(Path(folder) / "demo.log"), None)
    log_path, following = _resolve_log(config)
    return _print_once(config, args, log_path, following)


def _print_once(config: Config, args: argparse.Namespace, log_path: Path, following: Following | None) -> int:
    from ..live.monitor import Monitor
    from ..snapshot import to_dict

    monitor = Monitor(log_path, format_name=config.format_name, demo=config.demo)
    at = _parse_local_time(args.at) if args.at not in (None, "end") else None
    monitor.read_once(log_path, following, until=at)
    if args.at == "end":
        now = monitor.last_event_at() or time.time()
    elif at is not None:
        now = at
    else:
        now = time.time()
    recorder = _history_reader(config, log_path)
    if recorder is not None:
        monitor.decorate = recorder.decorate
    try:
        snapshot = monitor.snapshot(now)
        totals = recorder.totals_line() if recorder is not None else None
    finally:
        if recorder is not None:
            recorder.history.stop()
    if args.report:
        print(monitor.queue_report(now), end="")
    elif args.json:
        print(json.dumps(to_dict(snapshot), ensure_ascii=False, indent=2))
    else:
        print(snapshot.status_line)
        for line in snapshot.details:
            print(f"  {line}")
        if totals:
            print(f"  {totals}")
        print(f"  {state_line(snapshot, now)}")
        if snapshot.source.problem:
            print(f"  ({snapshot.source.problem})")
    return 0


def state_line(snapshot: Snapshot, now: float) -> str:
    """The state, its level and the log's age: what a script or a person checks first."""
    last = snapshot.source.last_event_at
    if last is not None:
        age = f"last log line {text.ago(now - last)} ago"
    elif snapshot.source.lines_read:
        age = f"{snapshot.source.lines_read} lines read, none dated"
    else:
        age = "nothing read yet"
    return f"State: {snapshot.state} ({snapshot.level}) · {age}"


def _history_reader(config: Config, log_path: Path) -> Recorder | None:
    """The history for ``--once``: read only, and only when it already exists.

    A one-shot look neither creates a history nor writes to one (it may be a log copied from
    another machine, read with --at); it shows the figures a running tokwatch has kept.
    """
    from ..ingest.files import default_log_path
    from ..record.recorder import Recorder
    from ..store import History, default_data_dir
    from ..store.files import FILE_NAME

    if not config.history or config.demo:
        return None
    data_dir = config.data_dir if config.data_dir is not None else default_data_dir()
    if not (data_dir / FILE_NAME).is_file():
        return None
    given = config.log_path if config.log_path is not None else default_log_path()
    history = History(data_dir, write=False)
    history.start()
    return Recorder(history, given if given is not None else log_path, format_name=config.format_name,
                    machine=config.name)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    try:
        config, args = parse_config(argv)
        if args.once:
            return run_once(config, args)
        if args.notify_test:
            return notify_test(config)
        if args.enroll is not None or args.revoke is not None:
            return run_enrolment(config, args)
        from ..serve.command import ServeError, serve
        from ..web.security import TokenStoreError

        _configure_logging()
        allocator.tune()  # before any thread starts: they would each get an arena
        if config.log_path is not None:
            _resolve_log_for_serving(config)
        try:
            if args.new_token:
                _renew_token(config)
            return serve(config)
        except ConfigError as e:  # a --token the server cannot use
            raise UsageError(str(e)) from e
        except (ServeError, TokenStoreError) as e:  # a port in use, an unwritable token file
            print(f"tokwatch: {e}", file=sys.stderr)
            return 1
    except UsageError as e:
        print(f"tokwatch: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


def notify_test(config: Config) -> int:
    """Send one test message to each notification URL (and fetch the heartbeat URL once).

    Exit 0 only if every one got through, 1 if any failed, 2 with nothing to test.
    """
    from ..alerts.delivery import try_each
    from ..alerts.heartbeat import ping
    from ..alerts.message import trial_message
    from ..web.pairing import dashboard_url

    urls = config.notify_urls
    if not urls and config.heartbeat_url is None:
        raise UsageError("nothing to test: pass --notify URL (or put notify = [...] under [alerts] in "
                         f"{default_config_file()})")
    failed = 0
    if urls:
        word = "URL" if len(urls) == 1 else "URLs"
        print(f"tokwatch: sending a test message as {config.name!r} to {len(urls)} notification {word}", flush=True)
        message = trial_message(name=config.name, dashboard_url=config.dashboard_url or dashboard_url(config),
                                now=time.time())
        for label, reason in try_each(urls, message):
            failed += reason is not None
            print(f"  {label}: " + ("delivered" if reason is None else f"FAILED: {reason}"), flush=True)
    if config.heartbeat_url is not None:
        reason = ping(config.heartbeat_url)
        failed += reason is not None
        print("  heartbeat URL: " + ("fetched" if reason is None else f"FAILED: {reason}"), flush=True)
    total = len(urls) + (config.heartbeat_url is not None)
    if failed:
        print(f"tokwatch: {failed} of {total} failed", file=sys.stderr)
        return 1
    print(f"tokwatch: all {total} delivered")
    return 0


def _renew_token(config: Config) -> None:
    """Replace the kept LAN token, and say plainly what that breaks."""
    from ..web.security import default_config_dir, load_or_create_token, token_path

    directory = config.config_dir if config.config_dir is not None else default_config_dir()
    load_or_create_token(directory, renew=True)
    print(f"tokwatch: a new token is kept in {token_path(directory)}.", flush=True)
    print("  Every link, bookmark and home-screen icon made with the old one stops working:", flush=True)
    print("  open the new link (or scan the new code) on each phone once.", flush=True)
    if config.loopback_only:
        print("  (The token is asked for only with --host, for phones on the LAN.)", flush=True)


def _configure_logging() -> None:
    """tokwatch's own messages at INFO; watchfiles says "N changes detected" on every append."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("watchfiles").setLevel(logging.WARNING)


def _resolve_log_for_serving(config: Config) -> None:
    """A live dashboard may wait for a log that does not exist yet, but not for a bad path."""
    assert config.log_path is not None
    check_log_path(config.log_path, missing_ok=True)
