"""The commands that join a machine to a hub, as a person pastes them: the same words in the
terminal (``tokwatch hub enroll``, the hub's banner) and on the fleet page.

The report key never goes on a command line (every local user sees it in ``ps``, and the
shell keeps it in its history): it is kept in a file only its owner may read.
"""

from __future__ import annotations

import shlex
from pathlib import Path

# Where the agent's key is kept, as the agent's owner types it (the shell expands ~, and so does tokwatch).
KEY_FILE = "~/.config/tokwatch/report-key"


def _data_dir_flag(data_dir: Path | None) -> str:
    return "" if data_dir is None else f" --data-dir {shlex.quote(str(data_dir))}"


def enroll_command(name: str, data_dir: Path | None) -> str:
    """Enrol ``name`` on this hub (run where the hub's data lives)."""
    return f"tokwatch hub enroll {shlex.quote(name)}{_data_dir_flag(data_dir)}"


def revoke_command(name: str, data_dir: Path | None) -> str:
    """Make ``name``'s key useless at once."""
    return f"tokwatch hub revoke {shlex.quote(name)}{_data_dir_flag(data_dir)}"


def save_key_command() -> str:
    """Keep the key pasted on the standard input (ended by Ctrl-D) in a file only its owner may read."""
    return f"(umask 077; mkdir -p {_parent(KEY_FILE)} && cat > {KEY_FILE})"


def agent_command(hub_url: str, name: str) -> str:
    """Start tokwatch on the machine, reporting to the hub at ``hub_url`` with the kept key."""
    return f"tokwatch --report-to {shlex.quote(hub_url)} --report-key-file {KEY_FILE} --name {shlex.quote(name)}"


def _parent(path: str) -> str:
    return path.rpartition("/")[0]


def listen_on_lan_command(data_dir: Path | None) -> str:
    """Start the hub where other machines can reach it (all addresses; the page then asks for the token)."""
    return f"tokwatch hub --host 0.0.0.0{_data_dir_flag(data_dir)}"


def loopback_note(data_dir: Path | None) -> str:
    """What a hub that listens on this machine only says beside the command that joins a machine to it."""
    return ("this hub listens on this machine only (127.0.0.1): other machines cannot reach it until it is "
            f"started with: {listen_on_lan_command(data_dir)}")
