"""tokwatch's command line: argv → one Invocation → the command that runs it.

The only place errors become messages and exit statuses: 2 for a usage error (a bad option, an
unusable path or config file), 1 when the command could not do its work (a port in use, a hub
file it cannot use), 130 on Ctrl-C.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence

from .. import allocator
from ..config import ConfigError
from ..config.file import ConfigFileError
from ..errors import CommandError
from ..ingest.files import LogPathError
from .parse import Invocation, UsageError, parse

EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    try:
        invocation = parse(argv)
        configure_logging(verbose=invocation.verbose)
        status = run(invocation)
        sys.stdout.flush()  # here, where a reader gone away is caught, not at exit
        return status
    except (UsageError, ConfigError, ConfigFileError, LogPathError) as e:
        # ConfigError: a --token the server cannot use.
        print(f"tokwatch: {e}", file=sys.stderr)
        return EXIT_USAGE
    except CommandError as e:
        # A port in use, an unwritable token file, a machine enrolled twice, a unit file not written.
        print(f"tokwatch: {e}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        # `tokwatch once | head`: the reader took what it wanted and went; end quietly, and
        # successfully (a script under `set -o pipefail` must not fail on it). Python's flush at
        # exit then writes nowhere rather than printing a second traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def run(invocation: Invocation) -> int:
    """Run the command the Invocation names; return its exit status."""
    config = invocation.config
    if invocation.command == "once":
        from .once import run_once

        return run_once(invocation)
    if invocation.command in ("notify-test", "enroll", "revoke", "token-renew"):
        from . import commands

        if invocation.command == "notify-test":
            return commands.notify_test(config)
        if invocation.command == "token-renew":
            commands.renew_token(config)
            return 0
        assert invocation.machine is not None
        if invocation.command == "enroll":
            return commands.enroll(config, invocation.machine)
        return commands.revoke(config, invocation.machine)
    if invocation.command == "service":
        from .service import run_service

        assert invocation.service_action is not None
        return run_service(invocation.service_action, invocation.service_args)
    from ..serve.deferred import websocket_without_asyncio

    websocket_without_asyncio()  # first: the server's imports below load simple-websocket
    from ..ingest.files import check_log_path
    from ..serve.command import serve

    allocator.tune()  # before any thread starts: they would each get an arena
    if config.log_path is not None:
        # A live dashboard may wait for a log that does not exist yet, but not for a bad path.
        check_log_path(config.log_path, missing_ok=True)
    if invocation.renew_token:
        from .commands import renew_token

        renew_token(config)
    return serve(config)


def configure_logging(*, verbose: bool) -> None:
    """Warnings and errors on stderr, tokwatch's own INFO records too with --verbose.

    The terminal's first line is the banner; watchfiles says "N changes detected" on every append.
    """
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("watchfiles").setLevel(logging.WARNING)
