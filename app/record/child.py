"""The first-start import's child process: replay the files it is named, one JSON batch per line.

Run by the server as ``python -m app.record.child`` (app/record/backfill.py starts it). It imports
only the reader and the replay (app/record/replay.py), never the web stack or the history's
writer: its memory sits beside the server's for the whole import.
"""

from __future__ import annotations

import argparse
import base64
import gc
import json
import os
import sys
import threading
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from .. import allocator
from ..store.records import LossColumns, Observation, SourceKey
from ..text import path_text
from .replay import Anchors, encode, loss_arrays, replay_file

# The child runs this module under the name it was imported by (``app`` in a checkout,
# ``tokwatch`` when installed), from the folder that holds the package.
CHILD_MODULE = __spec__.name if __spec__ is not None else __name__
PARENT_CHECK_SECONDS = 0.5
IMPORT_NICENESS = 10
LOSSES_PER_PIECE = 8192  # a batch's losses handed over this many at a time (pieces())
PACKED_PIECE_BYTES = 3 << 14  # 48 KiB of a loss column at a time: 64 KiB of its text
# The cycle collector's first generation runs after this many more container objects made than freed
# (Python's default: 700). The replay makes an event per reading and lets it go at once, and keeps its
# state in a few long-lived objects: the collector found nothing, and cost about 3 % of the child's CPU.
GC_THRESHOLD = 20_000


def replay_one(path: Path, size: int, head: str, format_name: str, now: float, anchors: Anchors,
               stop: threading.Event, emit: Callable[[Observation], None]) -> None:
    """Replay one file, then mark it imported (not when stopped: it is read again next time)."""
    kinds: list[str] = []

    def note(obs: Observation) -> None:
        kinds.append(obs.source.kind)
        emit(obs)

    replay_file(path, format_name, now, stop, note, anchors)
    if not stop.is_set():
        done = Observation(SourceKey("", "", kinds[-1] if kinds else "miner"), imported=((path_text(path), size, head),))
        emit(done)


def _hand_back(obs: Observation) -> None:
    for piece in pieces(obs):
        _write_json(batch_data(piece), sys.stdout.write, depth=2)
        print(flush=True)
        del piece
    allocator.trim()  # the batch, its JSON and what the replay let go since the last: give their pages back


def pieces(obs: Observation) -> Iterator[Observation]:
    """A batch as the batches the server is handed: its losses LOSSES_PER_PIECE at a time, each
    apart but the last, which goes with the rest of it.

    An hour of an every-step log is tens of thousands of losses; the server holds a batch's text,
    its data and its columns at once while the one before is written: a piece of them at a time
    keeps that small, in both processes. Each loss is written once, as in one batch, and a
    bucket's figures are made from the rows written (app/store/losses.py): the history is the same.
    """
    count = len(obs.losses)
    if count <= LOSSES_PER_PIECE:
        yield obs
        return
    columns = LossColumns.of(obs.losses)
    last = (count - 1) // LOSSES_PER_PIECE * LOSSES_PER_PIECE
    for start in range(0, last, LOSSES_PER_PIECE):
        yield Observation(obs.source, losses=_loss_slice(columns, start, start + LOSSES_PER_PIECE))
    yield replace(obs, losses=_loss_slice(columns, last, count))


def _loss_slice(columns: LossColumns, start: int, stop: int) -> LossColumns:
    """The points ``start`` to ``stop`` of ``columns``, in columns."""
    part = LossColumns()
    part.steps = columns.steps[start:stop]
    part.at = columns.at[start:stop]
    part.values = columns.values[start:stop]
    part.lrs = columns.lrs[start:stop]
    first = 0
    for stage, count in columns.stages:
        within = min(first + count, stop) - max(first, start)
        if within > 0:
            part.stages.append([stage, within])
        first += count
    return part


def batch_data(obs: Observation) -> dict[str, Any]:
    """:func:`~app.record.replay.encode`'s batch with its loss columns still arrays, for
    :func:`_write_json` to write as their text a piece at a time."""
    data = encode(replace(obs, losses=LossColumns()))
    data["losses"] = loss_arrays(obs.losses)
    return data


def _write_json(value: Any, write: Callable[[str], Any], depth: int) -> None:
    """Write ``json.dumps(value, separators=(",", ":"))`` a piece at a time, each dict's values
    apart down to ``depth`` levels, an array as the string :func:`~app.record.replay.packed_text`
    makes of it, in pieces: an hour of an every-step log's losses is a megabyte of text, never held
    whole beside its columns."""
    if isinstance(value, array):
        _write_packed(value, write)
        return
    if depth <= 0 or not isinstance(value, dict):
        write(json.dumps(value, separators=(",", ":")))
        return
    write("{")
    for i, (key, item) in enumerate(value.items()):
        write(("," if i else "") + json.dumps(str(key)) + ":")
        _write_json(item, write, depth - 1)
    write("}")


def _write_packed(values: array[Any], write: Callable[[str], Any]) -> None:
    """``json.dumps(packed_text(values))``, PACKED_PIECE_BYTES of the array at a time (a multiple of
    three bytes: base64's pieces then join into the text of the whole)."""
    whole = memoryview(values).cast("B")
    write('"')
    for start in range(0, len(whole), PACKED_PIECE_BYTES):
        write(base64.b64encode(whole[start : start + PACKED_PIECE_BYTES]).decode("ascii"))
    write('"')


def _end_with_parent() -> None:
    """End this child as soon as the server that started it is gone (killed, say, with -9).

    Its batches would have nowhere to go, and a week of log is seconds of a core spent for nothing.
    """
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _yield_to_server() -> None:
    """Run behind the server: on a busy machine its pushes come before the import of the older lines."""
    try:
        os.nice(IMPORT_NICENESS)
    except (AttributeError, OSError):
        pass  # no nice on this system, or not allowed: the import runs at the server's priority


def main(argv: list[str]) -> int:
    """Replay the files named on the command line, one JSON batch per line on stdout.

    Standard input holds the anchors: ``[[stage, step, at], …]`` (may be empty).
    """
    parser = argparse.ArgumentParser(prog="python -m app.record.child")
    parser.add_argument("--now", type=float, required=True)
    parser.add_argument("--format", default="auto")
    parser.add_argument("files", nargs="*", help="path size head-digest, repeated (absolute paths)")
    args = parser.parse_args(argv)
    allocator.tune()  # as the server does, before the parent watch's thread: a batch's JSON is megabytes
    gc.freeze()  # the modules' objects, never garbage: no collection walks them again
    gc.set_threshold(GC_THRESHOLD)
    _end_with_parent()
    _yield_to_server()
    text = sys.stdin.read() if not sys.stdin.isatty() else ""
    anchors = {(str(stage), int(step)): float(at) for stage, step, at in json.loads(text or "[]")}
    stop = threading.Event()
    triples = args.files
    for i in range(0, len(triples) - 2, 3):
        path, size, head = Path(triples[i]), int(triples[i + 1]), triples[i + 2]
        try:
            replay_one(path, size, head, args.format, args.now, anchors, stop, _hand_back)
        except BrokenPipeError:
            os._exit(0)  # the server has gone: nobody is left to write what is read
        except OSError as e:
            print(f"history import: cannot read {path}: {e.strerror or e}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
