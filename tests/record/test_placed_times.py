"""A step log's placed times, kept on disk for the import's second pass, read back as the array gave them."""

from __future__ import annotations

import math
from array import array

import pytest

from app.record.spool import PlacedTimes

TIMES = array("d", [1_789_000_000.0 + i * 0.1 for i in range(3000)] + [math.nan, -0.0, 5e-324, 1.7976931348623157e308])


@pytest.fixture
def placed(monkeypatch: pytest.MonkeyPatch) -> PlacedTimes:
    monkeypatch.setattr(PlacedTimes, "WINDOW", 64)  # many windows over a short array
    return PlacedTimes(TIMES)


def bits(values: array[float]) -> bytes:
    return values.tobytes()


def test_every_time_comes_back_to_the_bit_in_order_by_index_and_by_stretch(placed: PlacedTimes) -> None:
    assert len(placed) == len(TIMES)
    assert bits(array("d", (placed[i] for i in range(len(placed))))) == bits(TIMES)
    i, stretches = 0, [1, 5, 64, 65, 200, 1, 3000]
    read = array("d")
    for size in stretches * 3:
        read.extend(placed[i : i + size])
        i += size
    assert bits(read) == bits(TIMES[: len(read)])
    assert placed[-1] == TIMES[-1] and placed[len(TIMES) - 4 : len(TIMES) + 10].tobytes() == TIMES[-4:].tobytes()
    placed.close()


def test_back_and_forth_and_past_the_end(placed: PlacedTimes) -> None:
    assert placed[2000] == TIMES[2000] and placed[3] == TIMES[3] and placed[2999] == TIMES[2999]
    assert placed[10:5].tobytes() == b"" and len(placed[len(TIMES):]) == 0
    with pytest.raises(IndexError):
        placed[len(TIMES)]
    placed.close()


def test_doubles_on_disk_behave_as_an_array_appended_read_and_rewritten(monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    from app.record.spool import DiskDoubles

    monkeypatch.setattr(DiskDoubles, "WINDOW", 16)
    rng = random.Random(7)
    model, disk = array("d"), DiskDoubles()
    for _ in range(3000):
        op = rng.random()
        if op < 0.3 or not model:
            value = rng.uniform(-1e9, 1e9)
            model.append(value)
            disk.append(value)
        elif op < 0.45:
            values = [rng.random() for _ in range(rng.randrange(0, 40))]
            model.extend(values)
            disk.extend(iter(values))  # a generator, as the replay gives it
        elif op < 0.65:
            i = rng.randrange(-len(model), len(model))
            assert disk[i] == model[i]
        elif op < 0.8:
            i = rng.randrange(len(model))
            model[i] = disk[i] = rng.random()
        elif op < 0.9:
            lo = rng.randrange(len(model))
            hi = rng.randrange(lo, len(model) + 5)
            assert disk[lo:hi].tobytes() == model[lo:hi].tobytes()
        else:
            lo = rng.randrange(len(model))
            hi = min(len(model), lo + rng.randrange(0, 50))
            values = array("d", [rng.random() for _ in range(hi - lo)])
            model[lo:hi] = values
            disk[lo:hi] = values
        assert len(disk) == len(model)
    assert disk[:].tobytes() == model.tobytes()
    placed = PlacedTimes(disk)  # the second pass reads the same file
    assert placed[:].tobytes() == model.tobytes()
    with pytest.raises(ValueError):
        disk[0:3] = array("d", [1.0])
    placed.close()


def test_a_log_dated_every_other_event_is_placed_without_reading_the_file_again_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from app.record.spool import DiskDoubles
    from app.stats.steps.placing import place_back

    count = 100_000
    times = array("d", [1_789_000_000.0 + i if i % 2 else math.nan for i in range(count)])
    seconds = array("d", [0.5] * count)
    disk = DiskDoubles()
    disk.extend(seconds)
    reads: list[int] = []
    real_read = DiskDoubles._read
    monkeypatch.setattr(DiskDoubles, "_read", lambda self, a, b: reads.append(b - a) or real_read(self, a, b))
    placed = place_back(times, disk, 1_789_100_000.0)
    expected = place_back(times, array("d", seconds), 1_789_100_000.0)
    assert placed[:].tobytes() == expected.tobytes()  # the same bits as in memory
    assert len(reads) < 4 * count // DiskDoubles.WINDOW  # a window at a time, not a read an event
    disk.close()
