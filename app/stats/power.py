"""Power beside throughput: watts, temperature, throttling, and watt-hours per million tokens.

Pure: the hardware samples (app/ingest/hardware.py) and the snapshot's rate in, the view out.
Wh per million tokens is the mean power over the same window as the rate (its observed span,
up to 20 minutes, ending at the snapshot's time) divided by the tokens per hour, × 10⁶; for a
step trainer that prints no token counts, Wh per step over its steps per hour.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..snapshot import HardwareView, Snapshot
from .events import HardwareSample

STRIP_SECONDS = 3600.0  # the strip under the chart: the chart's last hour
# A sample older than this is not "now": the tool stopped answering.
FRESH_SECONDS = 30.0


def hardware_view(samples: Sequence[HardwareSample], tool: str | None, problem: str | None,
                  snapshot: Snapshot) -> HardwareView:
    """The power figures at the snapshot's time."""
    now = snapshot.as_of
    latest = samples[-1] if samples and now - samples[-1].at <= FRESH_SECONDS else None
    window = snapshot.rate.observed_seconds if snapshot.rate.observed_seconds > 0 else snapshot.rate.window_seconds
    watts = [s.watts for s in samples if now - window < s.at <= now and s.watts is not None]
    mean = sum(watts) / len(watts) if watts else None
    per_mtok = per_step = None
    tph = snapshot.rate.tokens_per_hour
    if mean is not None and tph:
        per_mtok = mean / tph * 1e6
    steps_per_hour = snapshot.training.steps_per_hour if snapshot.training is not None else None
    if mean is not None and steps_per_hour is not None and steps_per_hour > 0:
        per_step = mean / steps_per_hour
    strip = tuple((s.at, s.watts, s.throttled is True) for s in samples if now - STRIP_SECONDS < s.at <= now)
    parts: list[str] = []
    if latest is not None:
        if latest.watts is not None:
            parts.append(f"{latest.watts:.0f} W")
        if latest.temperature_c is not None:
            parts.append(f"{latest.temperature_c:.0f} °C")
        if latest.throttled:
            parts.append("throttled (" + ", ".join(latest.reasons) + ")")
    if per_mtok is not None and math.isfinite(per_mtok):
        parts.append(f"{_figure(per_mtok)} Wh per million tokens")
    elif per_step is not None and math.isfinite(per_step):
        parts.append(f"{_figure(per_step)} Wh per step")
    text = "Power " + " · ".join(parts) if parts else (problem or None)
    return HardwareView(
        tool=tool,
        watts=latest.watts if latest else None,
        temperature_c=latest.temperature_c if latest else None,
        throttled=latest.throttled if latest else None,
        throttle_reasons=latest.reasons if latest else (),
        at=latest.at if latest else None,
        mean_watts=mean,
        wh_per_million_tokens=per_mtok,
        wh_per_step=per_step,
        strip=strip,
        text=text,
        problem=problem,
    )


def _figure(value: float) -> str:
    """Two significant figures at least: 0.27, 3.4, 12."""
    if value >= 10:
        return f"{value:.0f}"
    if value >= 1:
        return f"{value:.1f}"
    return f"{value:.2g}"
