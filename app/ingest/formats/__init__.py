"""Log-format parsers, one module per format, and the one registry that names them.

``FORMATS`` is the registry (registry.py): one :class:`FormatSpec` per format, in sniff order,
carrying everything about it (signatures, ties, renewal, usual lines). Everything else is derived
from it: ``PARSERS`` (name → parser factory), ``FORMAT_NOUNS`` (how a log of the format is
called), ``STEP_FORMATS`` (the step trainers), and the sniffer's families and order (detect.py). A
new format is one row and a parser module with a ``classify`` over the line pipeline
(pipeline.py); a format of kind ``steps`` has its lines read for crashes and skipped steps as
well (crash.py), for free.
"""

from __future__ import annotations

from . import detect as _sniffing
from .registry import (
    BY_NAME,
    FORMAT_NOUNS,
    FORMATS,
    PARSERS,
    STEP_FORMATS,
    FormatSpec,
    UnknownFormatError,
    create_parser,
    kind_of,
    renewed,
)

__all__ = [
    "BY_NAME",
    "FORMATS",
    "FORMAT_NOUNS",
    "PARSERS",
    "STEP_FORMATS",
    "FormatSpec",
    "UnknownFormatError",
    "create_parser",
    "detect",
    "kind_of",
    "renewed",
]


def detect(lines: list[str]) -> str | None:
    """Name the format of these lines, or None when no parser recognises them."""
    return _sniffing.detect(lines)
