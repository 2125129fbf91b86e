"""What ``tokwatch`` says in the terminal when it starts, and opening the page in a browser."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from ..alerts import describe_alerts
from ..config import Config
from ..hub.join import enroll_command, loopback_note
from ..web.pairing import local_url, phone_url, terminal_qr
from ..web.security import is_ip_literal
from .process import hub_url


def has_display(environ: Mapping[str, str], platform: str) -> bool:
    """True where a browser can show a window: macOS and Windows always, elsewhere X11 or Wayland."""
    if platform == "darwin" or platform.startswith("win"):
        return True
    return bool(environ.get("DISPLAY") or environ.get("WAYLAND_DISPLAY"))


def open_in_browser(url: str, *, out: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """Open the dashboard in the user's browser, unless there is no display to show it on."""
    if not has_display(environ, sys.platform):
        print("  (no display here: open the link above in a browser yourself)", file=out, flush=True)
        return False
    import webbrowser

    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        print("  (could not start a browser: open the link above yourself)", file=out, flush=True)
    return opened


def print_hub_banner(config: Config, *, out: TextIO) -> None:
    """Say where the fleet is and how machines join it."""
    print(f"  fleet: /fleet on the URL above; machines report to {hub_url(config)}", file=out)
    print(f"  add a machine: {enroll_command('NAME', config.data_dir)} (here), then on the machine run what it prints",
          file=out)
    if config.loopback_only:
        print(f"  note: {loopback_note(config.data_dir)}", file=out)


def print_banner(config: Config, log_path: Path | None, *, demo: bool, given_demo: bool, out: TextIO) -> None:
    """Say what is watched and which URL(s) to open (with a QR code for a phone on the LAN)."""
    if log_path is None:
        print("tokwatch: hub — every enrolled machine on one page", file=out)
    elif demo:
        why = "" if given_demo else " (no Train at Home log found; pass --log PATH for yours)"
        print(f"tokwatch: DEMO — replaying a composed Train-at-Home log{why}", file=out)
    else:
        print(f"tokwatch: following {log_path}", file=out)
    if config.loopback_only:
        print(f"  open {local_url(config)}", file=out)
    else:
        print(f"  on this machine: {local_url(config)}", file=out)
        phone = phone_url(config)
        if phone is None:
            print("  on your phone:   http://<this machine's LAN address>:"
                  f"{config.port}/#token={config.token}", file=out)
        else:
            print(f"  on your phone:   {phone}", file=out)
            if out.isatty():
                # Black on white with its quiet zone, whatever the terminal's theme. Colour codes
                # only for a terminal: in a file or a pipe they are noise, and no one scans a file.
                out.write(terminal_qr(phone))
            print("  (or scan the code the dashboard shows on this machine, under \"Open on your phone\")", file=out)
        if not is_ip_literal(config.host) and config.host not in ("0.0.0.0", "::", "localhost") \
                and config.host.lower() not in (h.lower() for h in config.allow_hosts):
            print(f"  note: browsers asking for {config.host} by name need --allow-host {config.host}", file=out)
        print("  the token is kept in the config folder; anyone who has it can read these figures,", file=out)
        print("  and plain HTTP carries it in clear: a home LAN is fine, public Wi-Fi is not.", file=out)
    if config.hub:
        print_hub_banner(config, out=out)
    print(f"  websocket on port {config.effective_ws_port} (the page finds it; polls /api/snapshot if blocked)",
          file=out, flush=True)
    if config.notify_urls or config.heartbeat_url:
        print(f"  {describe_alerts(config)}", file=out, flush=True)
