"""The snapshot: everything a viewer needs, frozen, and the one function that serialises it.

The JSON shape is a documented contract (README, "Snapshot contract"); `/api/snapshot`,
`/ws` and `run.py --once --json` all go through :func:`to_dict`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

State = Literal["waiting", "queued", "working", "measuring", "training", "stalled", "unrecognised"]


@dataclass(frozen=True, slots=True)
class QueueView:
    position: int | None
    status: str


@dataclass(frozen=True, slots=True)
class RateView:
    measured: bool
    tokens_per_hour: float | None
    passes_per_hour: float | None
    tokens_per_pass: int | None
    passes_in_window: int
    observed_seconds: float
    window_seconds: float


@dataclass(frozen=True, slots=True)
class WarmupView:
    passes: int
    passes_needed: int
    observed_seconds: float
    seconds_needed: float
    done: bool


@dataclass(frozen=True, slots=True)
class RunView:
    id: str | None
    epoch: int | None
    phase: str | None


@dataclass(frozen=True, slots=True)
class GpuMemoryView:
    used_gb: float
    total_gb: float | None


@dataclass(frozen=True, slots=True)
class BackendErrorsView:
    queue_state_503: int
    not_found_404: int
    window_seconds: float


@dataclass(frozen=True, slots=True)
class HistoryRange:
    """The sparkline's bounds, with the labels a person reads (``576k``)."""

    low: float
    high: float
    low_text: str
    high_text: str


@dataclass(frozen=True, slots=True)
class SourceView:
    path: str | None
    size_bytes: int | None
    lines_read: int
    bad_lines: int
    last_event_at: float | None
    problem: str | None = None
    demo: bool = False
    skipped: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Snapshot:
    status_line: str
    state: State
    format: str | None
    layer: int | None
    queue: QueueView | None
    rate: RateView
    warmup: WarmupView
    step: int | None
    run: RunView | None
    gpu_memory: GpuMemoryView | None
    backend_errors: BackendErrorsView
    details: tuple[str, ...]
    history: tuple[tuple[float, float | None], ...]
    source: SourceView
    as_of: float
    # Step-based trainers (nanochat, nanoGPT, …) fill this; null for the IOTA miner.
    training: dict[str, Any] | None = None
    # Min/max of the measured history, null while nothing is measured.
    history_range: HistoryRange | None = None


def _view(value: Any) -> Any:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, dict):
        return {k: _view(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_view(v) for v in value]
    slots = getattr(type(value), "__slots__", None)
    if slots is not None:
        return {name: _view(getattr(value, name)) for name in slots}
    raise TypeError(f"cannot serialise {type(value).__name__}")


def to_dict(snapshot: Snapshot) -> dict[str, Any]:
    """Turn a snapshot into plain JSON-ready data (the documented contract)."""
    data: dict[str, Any] = _view(snapshot)
    return data


def to_json(snapshot: Snapshot) -> str:
    """Serialise a snapshot to compact JSON (NaN/inf never appear: they become null upstream)."""
    return json.dumps(to_dict(snapshot), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
