"""Log-format parsers, one module per format, and the registry that names them."""

from __future__ import annotations

from collections.abc import Callable

from app.formats.base import LogParser


def _iota() -> LogParser:
    from app.formats.iota import IotaParser

    return IotaParser()


PARSERS: dict[str, Callable[[], LogParser]] = {"iota": _iota}


class UnknownFormatError(ValueError):
    """A format name no parser answers to."""


def create_parser(name: str) -> LogParser:
    """Build a fresh parser for the named format."""
    try:
        factory = PARSERS[name]
    except KeyError as e:
        raise UnknownFormatError(f"unknown format {name!r}; known: {', '.join(sorted(PARSERS))}") from e
    return factory()


def detect(lines: list[str]) -> str | None:
    """Name the format of these lines, or None when no parser recognises them."""
    parser = create_parser("iota")
    events = parser.feed(lines)
    return "iota" if events else None
