"""``/api/history``'s body as JSON text: orjson when it is installed, else the standard library's encoder.

A step trainer's whole run is some 12,000 numbers; the standard library's encoder spends about
12 ms on them here, orjson under 1 ms (docs/performance.md, figure 15). Both write JSON that reads
back the same (`tests/record/test_encode.py`): the same keys in the same order, tuples as arrays, each
float as the shortest text that reads back to it, though orjson spells a small one out (``1e-05``
as ``0.00001``) and writes non-ASCII text as UTF-8 where the standard library escapes it. What
orjson refuses (text that is not UTF-8, as a path's undecodable bytes kept as lone surrogates) goes
through the standard library, as every body did before. A number that is not finite, which the
history never keeps, orjson would write as null where the standard library refuses it.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any


def stdlib_json(chart: dict[str, Any]) -> str:
    """The chart as the standard library writes it (no spaces; NaN and infinity refused)."""
    return json.dumps(chart, separators=(",", ":"), allow_nan=False)


def _orjson_dumps() -> Callable[[Any], bytes] | None:
    try:
        dumps: Callable[[Any], bytes] = importlib.import_module("orjson").dumps
    except ImportError:  # a checkout run without installing tokwatch's dependencies
        return None
    return dumps


_DUMPS = _orjson_dumps()
ENCODER = "orjson" if _DUMPS is not None else "json"  # the one in use, for the bench's note


def chart_json(chart: dict[str, Any]) -> str:
    """The chart's JSON text, as ``/api/history`` serves it."""
    if _DUMPS is not None:
        try:
            return _DUMPS(chart).decode()
        except TypeError:  # orjson's JSONEncodeError: text that is not valid UTF-8, an int past 64 bits
            pass
    return stdlib_json(chart)
