"""Machine names and report keys: one key per machine, kept only as a hash, revocable."""

from __future__ import annotations

import hashlib
import re
import secrets

# A machine's name is shown on the page and used in URLs and metric labels: keep it plain.
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,62}")
KEY_PREFIX = "twk_"
# 32 random bytes: a key cannot be guessed, so one SHA-256 is enough to keep it (a slow
# password hash protects guessable secrets; this one has 256 bits of entropy).
KEY_BYTES = 32
_KEY_PATTERN = re.compile(r"twk_[A-Za-z0-9_-]{43}")


def bearer_token(authorization: str | None) -> str | None:
    """The token in an ``Authorization: Bearer …`` header (a report key, the dashboard token), or None."""
    if not authorization:
        return None
    scheme, _, value = authorization.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


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


def new_key() -> str:
    """A fresh report key (shown once, never stored)."""
    return KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)


def looks_like_key(value: str) -> bool:
    """True when a value has a report key's shape (a cheap check before any lookup)."""
    return bool(_KEY_PATTERN.fullmatch(value))


def hash_key(key: str) -> str:
    """The stored form of a key."""
    return hashlib.sha256(key.encode("ascii", "replace")).hexdigest()
