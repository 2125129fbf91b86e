"""tokwatch's configuration: one frozen dataclass, built once at the edge (the CLI) and passed down.

The ground floor: this package imports nothing else of tokwatch.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass, field
from pathlib import Path

from . import paths
from .alerts import AlertSettings
from .names import NAME_PATTERN, default_name

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765
MAX_WS_CLIENTS = 32
# Connections one client address may hold open on the HTTP port (a browser opens up to 6).
MAX_CONNECTIONS_PER_ADDRESS = 16


class ConfigError(ValueError):
    """A setting that cannot work, named with its bad value."""


@dataclass(frozen=True)
class Config:
    """Every setting tokwatch runs with; units in the names."""

    log_path: Path | None = None
    # The Train at Home app's shell log (main.log); None: looked for beside the miner's log.
    shell_log_path: Path | None = None
    # Power beside throughput: auto, nvidia-smi, macmon or off (the default: nothing runs).
    hardware: str = "off"
    format_name: str = "auto"
    host: str = DEFAULT_HOST
    port: int = DEFAULT_PORT
    ws_port: int | None = None  # None: port + 1 (0 when port is 0, i.e. ephemeral)
    demo: bool = False
    token: str | None = None  # required when host is not loopback
    allow_hosts: tuple[str, ...] = ()
    max_ws_clients: int = MAX_WS_CLIENTS
    max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS
    push_interval_seconds: float = 0.25  # at most 4 snapshots a second per client
    keepalive_seconds: float = 15.0
    # A connection to the websocket port must finish its HTTP request within this (slowloris).
    handshake_timeout_seconds: float = 10.0
    config_dir: Path | None = None  # where the LAN token is kept; None: the user's config dir
    # The history (app/store), a hub's machines, an agent's spool: kept in data_dir (None: the
    # user's data dir); the history unless it is off.
    data_dir: Path | None = None
    history: bool = True
    hub: bool = False  # take reports from enrolled machines and show the fleet
    report_to: str | None = None  # the hub to report to (http://HUB:PORT), or None
    report_key: str | None = field(default=None, repr=False)  # this machine's report key: a secret, never logged
    report_interval_seconds: float = 15.0
    token_file: Path | None = None  # the file the token was read from (said on the token screen)
    open_browser: bool = False  # open the dashboard in this machine's browser once it is up
    # This machine's name: alert titles (and the fleet) use it.
    name: str = field(default_factory=lambda: host_name())
    # Alerts: Apprise URLs and the heartbeat URL carry secrets, so they stay out of any repr.
    notify_urls: tuple[str, ...] = field(default=(), repr=False)
    heartbeat_url: str | None = field(default=None, repr=False)
    dashboard_url: str | None = None  # the link in alert messages; None: this machine's address
    alert_settings: AlertSettings = field(default_factory=AlertSettings)
    # Other logs to compare the followed one with (--compare): a page may open these and the
    # followed folder's logs, nothing else (app/web/compare.py).
    compare_paths: tuple[Path, ...] = ()

    def __post_init__(self) -> None:
        for name in ("port", "ws_port"):
            value = getattr(self, name)
            if value is not None and not 0 <= value <= 65535:
                raise ConfigError(f"{name} must be between 0 and 65535, not {value}")
        if not 1.0 <= self.report_interval_seconds <= 3600.0:
            raise ConfigError(f"the report interval must be 1 to 3600 seconds, not {self.report_interval_seconds}")
        if self.ws_port is None and self.port == 65535:
            raise ConfigError("the websocket port would be 65536 (HTTP port + 1): pass --ws-port too")
        if self.max_ws_clients < 1:
            raise ConfigError(f"max_ws_clients must be at least 1, not {self.max_ws_clients}")
        if not 1 <= len(self.name) <= 64 or not self.name.isprintable() or self.name != self.name.strip():
            raise ConfigError(f"name must be 1 to 64 printable characters, not {self.name!r}")

    @property
    def effective_ws_port(self) -> int:
        """The websocket port: given, else the HTTP port + 1 (ephemeral stays ephemeral)."""
        if self.ws_port is not None:
            return self.ws_port
        return 0 if self.port == 0 else self.port + 1

    @property
    def resolved_data_dir(self) -> Path:
        """The data dir: given, else ``$XDG_DATA_HOME/tokwatch`` (or the platform's own)."""
        return self.data_dir if self.data_dir is not None else paths.data_dir()

    @property
    def resolved_machine_name(self) -> str:
        """This machine's name as the fleet writes it (letters, digits, ``.``, ``_``, ``-``)."""
        return self.name if NAME_PATTERN.fullmatch(self.name) else default_name(self.name)

    @property
    def resolved_config_dir(self) -> Path:
        """The config dir (the LAN token): given, else ``$XDG_CONFIG_HOME/tokwatch`` or ``~/.config/tokwatch``."""
        return self.config_dir if self.config_dir is not None else paths.config_dir()

    @property
    def loopback_only(self) -> bool:
        """True when the host binds to a loopback address only."""
        return is_loopback(self.host)


def is_loopback(host: str) -> bool:
    """True for localhost and loopback IP literals."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name() -> str:
    """This machine's host name up to its first dot (``rig-7`` for ``rig-7.local``)."""
    name = socket.gethostname().split(".")[0].strip()
    return name if name and name.isprintable() else "tokwatch"
