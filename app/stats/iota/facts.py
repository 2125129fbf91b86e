"""The miner's slower facts (run, epoch, phase, GPU memory, step), each with the time it was said.

Pure. A fact said before the latest boundary (a registration, a layer change, a queue, a reset,
a new run, a truncated or replaced log) is never presented as current: the snapshot's field is
null and the details line carries its age (``GPU mem 3.00 / 3.86 GB · 2 h ago``) until the log
says it again. The step counter restarts at those boundaries, so it is dropped instead.
"""

from __future__ import annotations

from ... import text
from ...snapshot import GpuMemoryView, RunView
from .timeline import Kind


class Facts:
    """Run, epoch, phase, GPU memory and optimizer step, dated."""

    def __init__(self) -> None:
        self.run_id: str | None = None
        self.epoch: int | None = None
        self.run_at: float | None = None  # the latest heartbeat that said run or epoch
        self.phase: str | None = None
        self.phase_at: float | None = None
        # The last reading (used, total) and its view, made only when read: a miner prints one
        # twice a pass, and an import reads none of them.
        self._gpu_reading: tuple[float, float | None] | None = None
        self._gpu_view: GpuMemoryView | None = None
        self.gpu_at: float | None = None
        self._gpu_total_gb: float | None = None
        self.step: int | None = None
        # Bumped at each boundary; a fact said under an older generation is from before.
        self._generation = 0
        self._run_generation = self._phase_generation = self._gpu_generation = 0

    def forget(self) -> None:
        """Drop every fact (another file, another session of the miner)."""
        self.__init__()  # type: ignore[misc]

    def mark_boundary(self) -> None:
        """What was said until now is from before: shown with its age, the step dropped."""
        self._generation += 1
        self.step = None

    def heartbeat(self, at: float | None, run_id: str | None, epoch: int | None) -> list[tuple[Kind, str]]:
        """Take a heartbeat; return the timeline changes it shows as ``(kind, text)``."""
        changes: list[tuple[Kind, str]] = []
        if run_id is not None and run_id != self.run_id:
            if self.run_id is not None:
                changes.append(("run_changed", f"run {self.run_id} → {run_id}"))
                self.mark_boundary()
                self.epoch = None
                self.phase = None
            self.run_id = run_id
        if epoch is not None and epoch != self.epoch:
            if self.epoch is not None and not changes:
                changes.append(("epoch_changed", f"epoch {self.epoch} → {epoch}"))
            self.epoch = epoch
        if run_id is not None or epoch is not None:
            self.run_at, self._run_generation = at, self._generation
        return changes

    def set_phase(self, at: float | None, phase: str) -> str | None:
        """Take the layer's phase; return the timeline's words when it changed."""
        previous = self.phase
        self.phase, self.phase_at, self._phase_generation = phase, at, self._generation
        if previous is not None and previous != phase:
            return f"phase {previous} → {phase}"
        return None

    def gpu_memory(self, at: float | None, used_gb: float, total_gb: float | None) -> None:
        """Take a GPU memory reading (the short forms give used only)."""
        if total_gb is not None:
            self._gpu_total_gb = total_gb
        total = total_gb if total_gb is not None else self._gpu_total_gb
        if total is not None and used_gb > total:
            total = None  # a stale total below the new reading would be a made-up figure
        self._gpu_reading = (used_gb, total)
        self.gpu_at, self._gpu_generation = at, self._generation

    @property
    def gpu(self) -> GpuMemoryView | None:
        """The last GPU memory reading, or None."""
        reading = self._gpu_reading
        if reading is None:
            return None
        view = self._gpu_view
        if view is None or (view.used_gb, view.total_gb) != reading:
            view = self._gpu_view = GpuMemoryView(used_gb=reading[0], total_gb=reading[1])
        return view

    def run_view(self) -> RunView | None:
        """The run, epoch and phase when said since the boundary, else None."""
        if self.run_id is None and self.epoch is None and self.phase is None:
            return None
        run_current = self._run_generation == self._generation
        phase_current = self._phase_generation == self._generation
        if not (run_current if self.run_id is not None or self.epoch is not None else phase_current):
            return None
        phase = self.phase if phase_current else None
        return RunView(id=self.run_id, epoch=self.epoch, phase=phase)

    def gpu_view(self) -> GpuMemoryView | None:
        """GPU memory when said since the boundary, else None."""
        return self.gpu if self.gpu is not None and self._gpu_generation == self._generation else None

    def details(self, now: float) -> list[str]:
        """Step, run, epoch · phase and GPU lines; facts from before carry their age."""
        lines: list[str] = []
        if self.step is not None:
            lines.append(f"Step {self.step}")
        run_age = self._age(self.run_at, self._run_generation, now)
        if self.run_id is not None:
            lines.append(f"Run {self.run_id}{run_age}")
        phase = self.phase
        if self.epoch is not None:
            if phase is not None and self._phase_generation == self._run_generation:
                lines.append(f"Epoch {self.epoch} · {phase}{run_age}")
            else:
                lines.append(f"Epoch {self.epoch}{run_age}")
                if phase is not None:
                    lines.append(f"Phase {phase}{self._age(self.phase_at, self._phase_generation, now)}")
        elif phase is not None:
            lines.append(f"Phase {phase}{self._age(self.phase_at, self._phase_generation, now)}")
        if self.gpu is not None:
            used = text.gigabytes(self.gpu.used_gb)
            total = f" / {text.gigabytes(self.gpu.total_gb)}" if self.gpu.total_gb is not None else ""
            lines.append(f"GPU mem {used}{total} GB{self._age(self.gpu_at, self._gpu_generation, now)}")
        return lines

    def _age(self, at: float | None, generation: int, now: float) -> str:
        if generation == self._generation:
            return ""
        return f" · {text.ago(now - at)} ago" if at is not None else " · from before"
