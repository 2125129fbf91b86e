"""The long-log import figure's two inputs: one file, and the same bytes in dated files."""

from __future__ import annotations

import re
from pathlib import Path

from bench.longlog import _write

STAMP = re.compile(rb"\] \[info\]  (\d{4}-\d{2}-\d{2}) ")


def test_the_dated_files_hold_the_long_files_bytes_one_local_day_each(tmp_path: Path) -> None:
    single, dated = _write(tmp_path, 16 << 20)  # a little over a day of the miner without fetcher noise
    assert single.stat().st_size >= 16 << 20
    assert len(dated) >= 2
    assert b"".join(path.read_bytes() for path in dated) == single.read_bytes()
    for path in dated:
        days = {m.group(1).decode() for m in STAMP.finditer(path.read_bytes())}
        assert days == {path.name.removesuffix("-cli.log")}
