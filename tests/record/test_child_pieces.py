"""The import child hands an hour of an every-step log to the server in pieces of its losses, and
the history the server writes from them is the one a whole batch writes."""

from __future__ import annotations

import json
import math
import sqlite3
import time
from dataclasses import replace
from pathlib import Path

from app.record.child import LOSSES_PER_PIECE, _write_json, batch_data, pieces
from app.record.replay import decode
from app.store import History, Observation, SourceKey
from app.store.records import LossColumns, LossPoint, Sample, StepPoint

START = float(int(time.time()) // 30 * 30 - 7_200)  # two hours ago: raw samples the history keeps
SOURCE = SourceKey("/runs/train.log", "", "steps")


def _hour(count: int) -> Observation:
    """An hour of an every-step log: two stages, a learning rate on some steps, a loss that was not a number."""
    losses = LossColumns.packed()
    for i in range(count):
        stage = "train" if i < count * 2 // 3 else "finetune"
        value = math.inf if i == 5_000 else 3.0 - i / 9_973 + (i % 7) / 50
        losses.append(LossPoint(stage, 1_000 + i, START + i * 0.13, value, 1e-3 * (1 + i % 3) if i % 5 else None))
    return Observation(
        SOURCE,
        samples=tuple(Sample(int(START) + 30 * k, 1.2e9, "training", step=1_000 + 230 * k) for k in range(120)),
        steps=(StepPoint("train", 1_000 + count // 2, START + 1_800, 2.1, 1.2e9, 27_000.0),),
        losses=losses,
        imported=(("/runs/train.log", 123_456, "ab" * 32),),
    )


def _handed(obs: Observation) -> list[Observation]:
    """What the server decodes from the lines the child writes for ``obs``."""
    lines = []
    for piece in pieces(obs):
        text: list[str] = []
        _write_json(batch_data(piece), text.append, depth=2)
        lines.append("".join(text))
    return [decode(json.loads(line)) for line in lines]


def test_an_hours_losses_go_in_pieces_and_the_rest_of_the_batch_with_the_last() -> None:
    count = 2 * LOSSES_PER_PIECE + 1_234
    obs = _hour(count)
    handed = _handed(obs)
    assert [len(p.losses) for p in handed] == [LOSSES_PER_PIECE, LOSSES_PER_PIECE, 1_234]
    assert [p.losses[k] for p in handed for k in range(len(p.losses))] == list(obs.losses)
    assert all(not (p.samples or p.steps or p.imported) for p in handed[:-1])
    last = handed[-1]
    assert (last.samples, last.steps, last.imported) == (obs.samples, obs.steps, obs.imported)


def test_a_batch_of_few_losses_goes_whole() -> None:
    obs = _hour(LOSSES_PER_PIECE)
    handed = _handed(obs)
    assert len(handed) == 1
    assert list(handed[0].losses) == list(obs.losses)


def _tables(folder: Path, batches: list[Observation]) -> dict[str, list[tuple[object, ...]]]:
    history = History(folder)
    history.start()
    history.hold_pruning()  # as the import does
    try:
        for obs in batches:
            assert history.submit(replace(obs, source=SOURCE), wait_seconds=30)
            assert history.flush(60)
    finally:
        history.release_pruning()
        history.stop()
    path = history.path
    assert path is not None
    conn = sqlite3.connect(path)
    try:
        return {table: sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
                for table in ("loss", "loss_bucket", "loss_level", "step", "sample", "imported")}
    finally:
        conn.close()


def test_the_history_written_from_the_pieces_is_the_one_written_from_the_whole_batch(tmp_path: Path) -> None:
    obs = _hour(3 * LOSSES_PER_PIECE + 77)
    whole = _tables(tmp_path / "whole", [obs])
    in_pieces = _tables(tmp_path / "pieces", _handed(obs))
    assert len(whole["loss"]) == 3 * LOSSES_PER_PIECE + 77
    assert whole["loss_level"] and whole["loss_bucket"]
    assert in_pieces == whole
