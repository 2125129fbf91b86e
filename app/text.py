"""Text a person reads: every figure is formatted here, never in the page's JavaScript.

Shared by every package that writes words about figures: the trackers, the alerts.
"""

from __future__ import annotations

import math
import os
import time


def _floor_to(value: float, decimals: int) -> float:
    scale = float(10**decimals)
    return float(math.floor(value * scale + 1e-9)) / scale


def compact(value: float) -> str:
    """Write a count with k, M or G, rounded down, keeping at least two significant figures.

    358400 → 358k, 3874 → 3.8k (never 3k: −23 %), 1000000 → 1.0M, 1234567 → 1.2M,
    12345678 → 12.3M, 466000000 → 466M, 5.6 → 5.6; exactly 0 → 0.
    """
    if value < 0 or not math.isfinite(value):
        raise ValueError(f"cannot write {value!r} as a rate")
    if value == 0:
        return "0"
    if value < 10:
        return f"{_floor_to(value, 1):.1f}"
    if value < 1_000:
        return str(int(value))
    if value < 10_000:
        return f"{_floor_to(value / 1_000, 1):.1f}k"
    if value < 1_000_000:
        return f"{int(value // 1_000)}k"
    scale, suffix = (1_000_000, "M") if value < 1_000_000_000 else (1_000_000_000, "G")
    written = f"{_floor_to(value / scale, 1):.1f}"
    if written.endswith(".0") and value >= 10 * scale:
        written = written[:-2]  # 466M: three figures already; 1.0M keeps its second
    return written + suffix


def minutes(seconds: float) -> int:
    """Whole minutes, rounded down."""
    return int(max(seconds, 0.0) // 60)


def duration(seconds: float) -> str:
    """A short human duration: 45 s, 12 min, 3 h 05 min, 2 d 4 h."""
    seconds = max(0.0, seconds)
    if seconds < 60:
        return f"{int(seconds)} s"
    if seconds < 3600:
        return f"{int(seconds // 60)} min"
    if seconds < 86400:
        hours, rest = divmod(int(seconds), 3600)
        return f"{hours} h {rest // 60:02d} min"
    days, rest = divmod(int(seconds), 86400)
    return f"{days} d {rest // 3600} h"


def exact_duration(seconds: float) -> str:
    """:func:`duration`, with the seconds under 10 min (``1 min 30 s``): where a limit is compared."""
    seconds = max(0.0, seconds)
    if 60 <= seconds < 600 and int(seconds) % 60:
        return f"{int(seconds // 60)} min {int(seconds) % 60} s"
    return duration(seconds)


def close_duration(seconds: float) -> str:
    """A duration that stands for a measured figure (a step's time, an ETA), a few % at most off it.

    Rounded, never floored: 77.9 s → ``1 min 18 s``, 146 s → ``2 min 26 s``, 118 s → ``1 min 58 s``;
    the seconds are said under 10 min, whole minutes to 1 h (``12 min``), then ``3 h 05 min`` and
    ``2 d 4 h`` as :func:`duration` writes them.
    """
    whole = int(max(seconds, 0.0) + 0.5)
    if whole < 600:
        return minutes_and_seconds(whole)
    if whole < 3600 - 30:
        return f"{int(whole / 60 + 0.5)} min"
    if whole < 86400 - 1800:
        return duration(float((whole + 30) // 60 * 60))
    return duration(float((whole + 1800) // 3600 * 3600))


def loss_figure(value: float) -> str:
    """A loss as printed: four decimals at most, three significant figures where those would say 0.0000.

    0.8868 → ``0.8868``, 0.000001647578983 → ``1.65e-06``; never more digits than the value has: a log's
    ``0.358`` stays ``0.358``, ``86`` and ``0.0`` stay ``86`` and ``0`` (not ``86.0000``, ``0.0000``).
    """
    if value != 0 and math.isfinite(value) and abs(value) < 0.001:
        return f"{value:.3g}"
    return decimals(value, 4)


def decimals(value: float, places: int) -> str:
    """``value`` to at most ``places`` decimals, without the zeros a fixed width would add: 12.0 → ``12``, 3.99 → ``3.99``."""
    fixed = f"{value:.{places}f}"
    if "." in fixed:
        fixed = fixed.rstrip("0").rstrip(".")
    return "0" if fixed == "-0" else fixed


def gigabytes(value: float) -> str:
    """GPU memory with two decimals, as the miner prints it."""
    return f"{value:.2f}"


def ago(seconds: float) -> str:
    """How long ago, in its largest unit only (an age, not a duration): 45 s, 12 min, 2 h, 78 d."""
    seconds = max(0.0, seconds)
    for below, size, unit in ((60, 1, "s"), (3600, 60, "min"), (86400, 3600, "h")):
        if seconds < below:
            return f"{int(seconds // size)} {unit}"
    return f"{int(seconds // 86400)} d"


def bytes_per_second(value: float) -> str:
    """A transfer rate in decimal units, rounded down: 800 B/s, 5.4 kB/s, 206 kB/s, 1.2 MB/s."""
    if value < 0 or not math.isfinite(value):
        raise ValueError(f"cannot write {value!r} as a transfer rate")
    if value < 1_000:
        return f"{int(value)} B/s"
    for unit, scale in (("kB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        scaled = value / scale
        if scaled < 1_000 or unit == "GB":
            if scaled < 10:
                return f"{_floor_to(scaled, 1):.1f} {unit}/s"
            return f"{int(scaled)} {unit}/s"
    raise AssertionError("unreachable")


def clock(at: float) -> str:
    """A local time of day as a person reads it: ``14:06``."""
    return time.strftime("%H:%M", time.localtime(at))


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """A count with its noun: 1 pass, 2 passes, 0 steps."""
    noun = singular if count == 1 else (plural_form if plural_form is not None else singular + "s")
    return f"{count} {noun}"


def minutes_and_seconds(seconds: float) -> str:
    """An elapsed time to the second, for a wait measured in minutes: 40 s, 1 min 40 s, 3 min."""
    whole = int(max(seconds, 0.0))
    if whole < 60:
        return f"{whole} s"
    minutes_part, seconds_part = divmod(whole, 60)
    return f"{minutes_part} min" if seconds_part == 0 else f"{minutes_part} min {seconds_part} s"


def warmup(
    done_count: int,
    needed_count: int,
    observed_seconds: float,
    needed_seconds: float,
    noun: str,
    plural_noun: str,
    *,
    show_observed: bool = True,
    pace_seconds: float | None = None,
) -> str:
    """The warm-up in one sentence: `measuring: 2 of 3 passes · 1 min 40 s of 3 min — rate in about 1 min`
    (`measuring: 10 passes · …` once more than the passes needed were seen).

    The wait is the longer of the time still to observe and the passes still to come at the pace
    seen so far; with no pass yet there is no pace, so no wait is guessed. ``show_observed=False``
    leaves out the time observed (a step log whose lines hold under a second of its own time).
    ``pace_seconds``: the time between the passes where the time observed cannot tell it (capped at a rate's window:
    two epoch lines 4 h 23 min apart are no pace of 10 min a line).
    """
    counted = f"{done_count} of {needed_count} {noun if needed_count == 1 else plural_noun}"
    if done_count > needed_count:  # (the count is met, the time is not: the words count what was seen)
        counted = f"{done_count} {plural_noun}"
    observed = min(max(observed_seconds, 0.0), needed_seconds)
    sentence = f"measuring: {counted}"
    if show_observed:
        sentence += f" · {minutes_and_seconds(observed)} of {minutes_and_seconds(needed_seconds)}"
    missing = max(needed_count - done_count, 0)
    if missing and (done_count == 0 or observed_seconds <= 0):
        return sentence
    if pace_seconds is None:
        pace_seconds = observed_seconds / done_count if missing else 0.0
    wait = max(needed_seconds - observed, missing * pace_seconds)
    if wait < 60:
        return f"{sentence} — rate in under a minute"
    if wait < 3600:
        return f"{sentence} — rate in about {int(wait / 60 + 0.5)} min"
    return f"{sentence} — rate in about {duration(wait)}"


def clock_time(at: float, now: float) -> str:
    """A local time a person reads: ``14:02``, with the date when it is not today (``Nov 28 14:02``)."""
    moment, today = time.localtime(at), time.localtime(now)
    if (moment.tm_year, moment.tm_yday) == (today.tm_year, today.tm_yday):
        return time.strftime("%H:%M", moment)
    return time.strftime("%b %d %H:%M", moment)


def visible(value: str) -> str:
    """Text anything can carry (JSON, SQLite, a log line): bytes that are not UTF-8 shown as ``\\xff``.

    A path read from a vfat or SMB mount, or an old archive, may name itself in bytes that are
    not UTF-8; Python keeps them as surrogate escapes, which no encoder takes. Every path that
    leaves for a snapshot, the history or the wire goes through here (see :func:`path_text`).
    """
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
        return value
    except UnicodeEncodeError:
        pass
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that is no escaped byte
        return value.encode("utf-8", "backslashreplace").decode("utf-8")


def path_text(path: str | os.PathLike[str]) -> str:
    """A path as text: its name as the file system spells it, undecodable bytes as visible escapes."""
    return visible(os.fspath(path))
