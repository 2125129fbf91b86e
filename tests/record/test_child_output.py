"""The import child writes each batch a piece at a time: the same text as one ``json.dumps``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.record.child import _write_json, batch_data
from app.record.replay import decode, encode
from app.store.records import LossColumns, LossPoint, Observation, SourceKey

BATCHES: list[Any] = [
    {},
    {"kind": "steps", "samples": [[1_789_000_000, 4.2e8, "training", None, 1.0, None, 12]], "passes": []},
    {"losses": {"stage": [["train", 3]], "step": "AAAA", "at": "", "value": "+/8=", "lr": []},
     "events": [[1.5, "error", "CUDA error: état ünknown — 3× \"quoted\"\n"]], "imported": [["/über/log", 10, "ab"]]},
    {"deep": {"a": {"b": {"c": [1, 2.5, -0.0, 1e-7]}}}, "empty": {}},
]


@pytest.mark.parametrize("batch", BATCHES)
@pytest.mark.parametrize("depth", [0, 1, 2, 5])
def test_a_batch_written_in_pieces_is_the_text_json_dumps_writes(batch: Any, depth: int) -> None:
    pieces: list[str] = []
    _write_json(batch, pieces.append, depth)
    assert "".join(pieces) == json.dumps(batch, separators=(",", ":"))
    if depth >= 1 and len(batch) > 1:
        assert len(pieces) > 1  # written apart, never one string of the whole batch


def _losses(count: int, lr: float | None) -> LossColumns:
    columns = LossColumns.packed()
    for i in range(count):
        columns.append(LossPoint("train", i * 7, 1_789_000_000 + i * 0.37, 3.0 - i / 7919, lr))
    return columns


@pytest.mark.parametrize("count", [0, 1, 2, 3, 6143, 6144, 6145, 20_000])  # around a piece's 48 KiB (6,144 doubles)
def test_a_batchs_loss_columns_written_in_pieces_are_the_text_of_the_whole(count: int) -> None:
    obs = Observation(SourceKey("", "", "steps"), losses=_losses(count, 3e-4 if count % 2 else None))
    pieces: list[str] = []
    _write_json(batch_data(obs), pieces.append, 2)
    assert "".join(pieces) == json.dumps(encode(obs), separators=(",", ":"))
    assert decode(json.loads("".join(pieces))).losses == obs.losses
    if count > 6144:
        assert max(map(len, pieces)) <= 65536  # never one string of a whole column
