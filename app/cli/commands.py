"""The short commands: ``notify-test``, ``hub enroll`` / ``hub revoke``, ``token renew``.

They print what a person reads; their errors are raised for :mod:`.main` to turn into an exit status.
"""

from __future__ import annotations

import time

from ..config import DEFAULT_PORT, Config
from ..config.file import default_config_file
from .parse import UsageError


def notify_test(config: Config) -> int:
    """Send one test message to each notification URL (and fetch the heartbeat URL once).

    Exit 0 only if every one got through, 1 if any failed, 2 with nothing to test.
    """
    import sys

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


def enroll(config: Config, name: str) -> int:
    """Create the machine, print how to start its agent, and its key on the last line.

    Raises HubStoreError (already enrolled, an unusable file).
    """
    from ..hub.join import (
        agent_command,
        listen_on_lan_command,
        loopback_note,
        revoke_command,
        save_key_command,
    )
    from ..hub.store import FILE_NAME, HubStore

    path = config.resolved_data_dir / FILE_NAME
    store = HubStore(path)
    try:
        key = store.enroll(name, time.time())
    finally:
        store.close()
    url, known = hub_address(config)
    reach = hub_reach(url if known else None, config.port)
    print(f"tokwatch: enrolled {name} on the hub whose data is in {path.parent}")
    print(f"  on {name}, keep the key in a file only you can read: run this, paste the key (the last line")
    print("  below) and press Ctrl-D:")
    print(f"    {save_key_command()}")
    print("  then start tokwatch there (add --log PATH for a log outside the Train at Home folder):")
    print(f"    {agent_command(url, name)}")
    if not known:
        print(f"  (HUB: this hub's address on the network; it reports to port {config.port}.)")
    if reach == "loopback":
        print(f"  note: {loopback_note(config.data_dir)}")
    elif reach == "none":
        port = "" if config.port == DEFAULT_PORT else f" --port {config.port}"
        print(f"  note: no hub answers on port {config.port} here yet; start it so other machines reach it: "
              f"{listen_on_lan_command(config.data_dir)}{port}")
    print(f"  `{revoke_command(name, config.data_dir)}` stops this key. {name}'s report key (shown once):")
    print(key)
    return 0


def hub_address(config: Config) -> tuple[str, bool]:
    """The hub's URL as another machine reaches it, and whether its address is known (else ``HUB``).

    ``hub enroll`` runs beside the hub, not in it: the hub's port is the one given (the default
    unless --port says otherwise); its address is this machine's on the network.
    """
    from ..web.pairing import lan_address, page_url

    address = lan_address("0.0.0.0" if config.loopback_only else config.host)
    return page_url(address or "HUB", config.port, None).rstrip("/"), address is not None


def hub_reach(url: str | None, port: int) -> str:
    """Where a hub answers on this machine: "lan" (at ``url``, as other machines will try), "loopback" (only on
    127.0.0.1: other machines are refused), "none" (not running), or "unknown" (no LAN address to try)."""
    import socket
    from urllib.parse import urlsplit

    def answers(host: str) -> bool:
        try:
            with socket.create_connection((host, port), timeout=1.0):
                return True
        except OSError:
            return False

    host = urlsplit(url).hostname if url else None
    if host is not None and answers(host):
        return "lan"
    if answers("127.0.0.1"):
        return "loopback" if host is not None else "unknown"
    return "none"


def revoke(config: Config, name: str) -> int:
    """Make a machine's key useless at once (raises HubStoreError for a machine not enrolled)."""
    from ..hub.store import FILE_NAME, HubStore

    store = HubStore(config.resolved_data_dir / FILE_NAME)
    try:
        store.revoke(name, time.time())
    finally:
        store.close()
    print(f"tokwatch: {name}'s report key is revoked; its reports are refused from now on")
    return 0


def renew_token(config: Config) -> None:
    """Replace the kept LAN token, and say plainly what that breaks (raises TokenStoreError)."""
    from ..web.security import load_or_create_token, token_path

    directory = config.resolved_config_dir
    load_or_create_token(directory, renew=True)
    print(f"tokwatch: a new token is kept in {token_path(directory)}.", flush=True)
    print("  Every link, bookmark and home-screen icon made with the old one stops working:", flush=True)
    print("  open the new link (or scan the new code) on each phone once.", flush=True)
    if config.loopback_only:
        print("  (The token is asked for only with --host, for phones on the LAN.)", flush=True)
