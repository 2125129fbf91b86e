"""A machine's name as the fleet writes it: shown on the page, used in URLs and metric labels."""

from __future__ import annotations

import re

# Keep it plain: letters, digits, '.', '_', '-', starting with a letter or digit.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")


class MachineNameError(ValueError):
    """A machine name tokwatch will not use."""


def check_name(name: str) -> str:
    """Return the name when it is a usable machine name, else raise MachineNameError saying what is allowed."""
    if not NAME_PATTERN.fullmatch(name):
        raise MachineNameError(
            f"machine name {name!r}: use 1 to 63 of A-Z a-z 0-9 . _ - (starting with a letter or digit)"
        )
    return name


def default_name(hostname: str) -> str:
    """A usable machine name from a host name: its first label, other characters replaced by '-'."""
    first = hostname.split(".")[0] or hostname
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", first).strip("-._")[:63]
    return cleaned if cleaned and NAME_PATTERN.fullmatch(cleaned) else "machine"
