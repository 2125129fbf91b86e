"""``/api/history``'s encoder: orjson's text reads back to exactly what the standard library's does."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from app.record import encode


def same(a: Any, b: Any) -> bool:
    """Equal as read back, and of the same types, floats to the bit (``1 == 1.0`` and ``0.0 == -0.0`` are not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return math.copysign(1.0, a) == math.copysign(1.0, b) and a == b
    return bool(a == b)


CHART = {
    "range": "30d", "from": 1_787_410_800, "to": 1_789_999_200, "bucket_seconds": 3600,
    # tuples as the store gives its rows, lists as a sample gives them
    "series": {"tokens_per_hour": [(1_787_410_800, None), (1_787_414_400, 4.2e8), (1_787_418_000, 1.0)]},
    "events": [{"at": 1_789_000_000.25, "kind": "error", "text": "CUDA error: état ünknown — 3×"}],
    "steps": {
        "stage": "train", "loss_bucket_steps": 1024, "not_finite": [1234],
        "loss": [(0, 4.0), (511, 2.9999999999999996), (1023, 1e-7), (2047, 12345678.901234567), (4095, -0.0)],
        "lr": [(1023, 5.99997e-05), (2047, 6e-5), (4095, 1e-4), (8191, 3e-10), (16383, 0.1 + 0.2)],
        "tokens_per_hour": [[300, 360_000_300.0], [600, 1.7976931348623157e308], [900, 5e-324]],
        "evals": {"val loss": [(250, 3.003984063745020), (500, None)], "acc": []},
        "loss_sampled": True,
    },
    "totals": {"since": 1_789_880_000.5, "tokens": 1_199_999_999_999, "passes": 119_999},
    "source": {"machine": "box", "key": "/runs/über/train.log", "kind": "steps"},
    "status": {"mode": "writing", "problem": None, "notice": None, "importing": None},
}


def test_orjson_writes_what_the_standard_library_reads_back_the_same() -> None:
    pytest.importorskip("orjson")
    assert encode.ENCODER == "orjson"
    fast, plain = encode.chart_json(CHART), encode.stdlib_json(CHART)
    assert fast != plain  # orjson's own text (1e-7 as 1e-7, é unescaped): the test compares two encoders
    assert same(json.loads(fast), json.loads(plain))
    assert json.loads(fast)["steps"]["lr"][0] == [1023, 5.99997e-05]


def test_text_orjson_refuses_goes_through_the_standard_library() -> None:
    # A path's undecodable bytes kept as a lone surrogate: not UTF-8, so orjson refuses it.
    chart = {**CHART, "source": {**CHART["source"], "key": "/runs/caf\udce9/train.log"}}
    assert encode.chart_json(chart) == encode.stdlib_json(chart)


def test_without_orjson_the_body_is_the_standard_librarys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encode, "_DUMPS", None)
    assert encode.chart_json(CHART) == encode.stdlib_json(CHART)
    with pytest.raises(ValueError):  # as before: a number that is not finite is refused, not written
        encode.chart_json({"loss": [(1, math.nan)]})
