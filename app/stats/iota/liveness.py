"""Is the miner still passing, and is its log still talking? Idle and silent, to the second.

Pure: log times in, verdicts out. The rules (what miners ask of a monitor: the community
watchdog counts a machine as training only if a step finished in the last 5 minutes, and calls a
log older than 180 s stale):

* **silent**: no log line at all for ``SILENT_SECONDS`` while the miner holds a layer;
* **idle**: the log is alive but no pass for longer than max(5 min, 4 × the stretch's median
  pass interval), counted from the last pass (or the stretch's start, before its first pass).
  While the layer is in a phase where no passes are due (weights upload, partition merge) the
  limit is ``PHASE_LIMIT_SECONDS``, counted from the later of the last pass and the phase's start.
"""

from __future__ import annotations

import math
from bisect import bisect_left, insort
from collections import deque

SILENT_SECONDS = 3 * 60
IDLE_MIN_SECONDS = 5 * 60
IDLE_INTERVALS = 4
# Weights upload and merge take minutes with no pass on purpose; past this they are stuck too.
PHASE_LIMIT_SECONDS = 30 * 60
# The median of this many recent intervals: a long stretch's early pace does not decide.
INTERVALS_KEPT = 64
PASSING_PHASES = frozenset({"training"})


class Liveness:
    """The pass clock of the current stretch, and the phase the layer is in."""

    def __init__(self) -> None:
        self.last_pass_at: float | None = None  # ever (a dated fact, kept across stretches)
        self.stretch_start: float | None = None
        self._stretch_last_pass: float | None = None
        self._intervals: deque[float] = deque(maxlen=INTERVALS_KEPT)
        self._intervals_sorted: list[float] = []  # the same intervals in order: the median at each pass
        self.limit_seconds = float(IDLE_MIN_SECONDS)
        self.phase: str | None = None
        self.phase_since: float | None = None
        # The current gap was already reported as idle (the timeline says so once).
        self.idle_reported = False
        # Past this log time with no pass the miner is idle (inf: nothing can be idle). Kept up
        # to date on every pass, phase and stretch, so the per-line check is one comparison.
        self.idle_after = math.inf

    def start_stretch(self, at: float | None) -> None:
        """A new stretch (registration, layer change): its pass clock starts at ``at``."""
        self.stretch_start = at
        self._stretch_last_pass = None
        self._intervals.clear()
        self._intervals_sorted.clear()
        self.limit_seconds = float(IDLE_MIN_SECONDS)
        self.idle_reported = False
        self._update_idle_after()

    def end_stretch(self) -> None:
        """No layer any more: nothing can be idle."""
        self.start_stretch(None)

    def set_phase(self, phase: str, at: float | None) -> bool:
        """The layer's phase as last reported; return whether it changed."""
        if phase == self.phase:
            return False
        self.phase = phase
        self.phase_since = at
        self._update_idle_after()
        return True

    def pass_ref(self) -> float | None:
        """When the stretch last passed (or began, before its first pass)."""
        return self._stretch_last_pass if self._stretch_last_pass is not None else self.stretch_start

    def _update_idle_after(self) -> None:
        ref = self.pass_ref()
        if ref is None:
            self.idle_after = math.inf
            return
        limit = self.limit_seconds
        counted_from = ref
        if self.phase is not None and self.phase not in PASSING_PHASES:
            limit = max(limit, float(PHASE_LIMIT_SECONDS))
        if self.phase_since is not None and self.phase_since > counted_from:
            counted_from = self.phase_since  # no pass is due before the phase began
        self.idle_after = counted_from + limit

    def idle_since(self, now: float) -> float | None:
        """The last pass (or stretch start) when the miner is idle at ``now``, else None."""
        return self.pass_ref() if now > self.idle_after else None

    def _median_with(self, interval: float) -> float:
        """Keep ``interval`` (the oldest of a full set falls out); the median of those kept, as
        ``statistics.median`` gives it, from a list kept in order rather than sorted at every pass."""
        intervals, ordered = self._intervals, self._intervals_sorted
        if len(intervals) == intervals.maxlen:
            del ordered[bisect_left(ordered, intervals[0])]
        intervals.append(interval)
        insort(ordered, interval)
        n = len(ordered)
        if n % 2 == 1:
            return ordered[n // 2]
        return (ordered[n // 2 - 1] + ordered[n // 2]) / 2

    def on_pass(self, at: float) -> float | None:
        """Count a pass at ``at``; return the gap it ends when the miner was idle, else None."""
        ref = self.pass_ref()
        was_idle = self.idle_reported or self.idle_since(at) is not None
        previous = self._stretch_last_pass
        if previous is not None and at >= previous:
            self.limit_seconds = max(float(IDLE_MIN_SECONDS), IDLE_INTERVALS * self._median_with(at - previous))
        self._stretch_last_pass = at
        if self.last_pass_at is None or at > self.last_pass_at:
            self.last_pass_at = at
        self.idle_reported = False
        self._update_idle_after()
        return at - ref if was_idle and ref is not None else None
