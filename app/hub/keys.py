"""Machine names and report keys: one key per machine, kept only as a hash, revocable."""

from __future__ import annotations

import hashlib
import re
import secrets

from ..config.names import NAME_PATTERN, MachineNameError, check_name, default_name

__all__ = ["NAME_PATTERN", "MachineNameError", "check_name", "default_name", "hash_key", "looks_like_key", "new_key"]

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


def new_key() -> str:
    """A fresh report key (shown once, never stored)."""
    return KEY_PREFIX + secrets.token_urlsafe(KEY_BYTES)


def looks_like_key(value: str) -> bool:
    """True when a value has a report key's shape (a cheap check before any lookup)."""
    return bool(_KEY_PATTERN.fullmatch(value))


def hash_key(key: str) -> str:
    """The stored form of a key."""
    return hashlib.sha256(key.encode("ascii", "replace")).hexdigest()
