"""Loss columns kept in arrays as they are filled: the same points as lists give."""

from __future__ import annotations

from array import array

from app.store.records import LossColumns, LossPoint

POINTS = [LossPoint("train", 1, 10.5, 4.25, 6e-4), LossPoint("train", 2, 11.0, float("inf")),
          LossPoint("sft", -3, 12.0, 1e-300, None)]


def filled(columns: LossColumns) -> LossColumns:
    columns.append(POINTS[0])
    columns.extend_run("train", (2,), (11.0,), (float("inf"),))
    columns.append(POINTS[2])
    return columns


def test_packed_columns_hold_the_points_lists_hold_without_an_object_each() -> None:
    packed, plain = filled(LossColumns.packed()), filled(LossColumns())
    assert list(packed) == list(plain) == POINTS
    assert list(packed.rows()) == list(plain.rows())
    assert packed.stages == plain.stages == [["train", 2], ["sft", 1]]
    assert isinstance(packed.steps, array) and isinstance(packed.at, array) and isinstance(packed.values, array)


def test_a_step_past_64_bits_turns_the_steps_column_into_a_list_and_keeps_every_step() -> None:
    huge = 1 << 70
    packed = LossColumns.packed()
    packed.append(POINTS[0])
    packed.extend_run("train", (5, huge), (1.0, 2.0), (3.0, 4.0))
    packed.append(LossPoint("train", -huge, 3.0, 5.0))
    assert list(packed.steps) == [1, 5, huge, -huge]
    assert isinstance(packed.steps, list)
