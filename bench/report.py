"""One figure, its reference measured in the same run, the ratio, and the goal it is held to."""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Figure:
    """A measured figure next to its reference; ``met`` None when it could not be measured."""

    key: str
    title: str
    value: float | None
    unit: str
    reference: str
    reference_value: float | None
    ratio: float | None
    ratio_label: str
    goal: str
    met: bool | None
    note: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def skipped(key: str, title: str, goal: str, reason: str) -> Figure:
    """A figure that could not be taken, with the reason in its note."""
    return Figure(key, title, None, "", "", None, None, "", goal, None, note=f"not measured: {reason}")


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between closest ranks."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    position = (len(ordered) - 1) * q / 100.0
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def machine() -> dict[str, Any]:
    """What the figures ran on: cores, CPU model, RAM, OS, Python."""
    model = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram_bytes: int | None = None
    try:
        ram_bytes = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        pass
    try:
        load = os.getloadavg()
    except OSError:
        load = (0.0, 0.0, 0.0)
    return {
        "nproc": os.cpu_count(),
        "cpu_model": model,
        "ram_gib": round(ram_bytes / 2**30, 1) if ram_bytes else None,
        "os": platform.platform(),
        "python": platform.python_version(),
        "loadavg_at_start": [round(x, 2) for x in load],
    }


def git_revision(root: Path) -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], check=False, cwd=root, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def write_report(out_dir: Path, figures: list[Figure], meta: dict[str, Any]) -> Path:
    """Write the JSON report (timestamped, plus ``latest.json``) and return its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    data = {**meta, "figures": [f.as_dict() for f in figures]}
    text = json.dumps(data, indent=2, ensure_ascii=False, default=str)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = out_dir / f"bench-{stamp}.json"
    path.write_text(text + "\n", encoding="utf-8")
    (out_dir / "latest.json").write_text(text + "\n", encoding="utf-8")
    (out_dir / "latest.md").write_text(markdown(figures) + "\n", encoding="utf-8")
    return path


def markdown(figures: list[Figure]) -> str:
    """The run as docs/performance.md's table, to paste: the note is the measured cell's words."""
    lines = ["| figure | measured | reference (same run) | ratio | goal | |",
             "|--------|----------|----------------------|-------|------|---|"]
    for f in figures:
        verdict = {True: "ok", False: "**missed**", None: "not measured"}[f.met]
        ratio = f"{f.ratio:.2f}{f.ratio_label}" if f.ratio is not None else "-"
        reference = f"{_fmt(f.reference_value, f.unit)} ({f.reference})" if f.reference else "-"
        measured = _fmt(f.value, f.unit) + (f"; {f.note}" if f.note else "")
        cells = (f.title, measured, reference, ratio, f.goal, verdict)
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    return "\n".join(lines)


def _fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "-"
    if abs(value) >= 100:
        text = f"{value:,.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.3g}"
    return f"{text} {unit}".strip()


def table(figures: list[Figure]) -> str:
    """A short plain-text table: figure, value, reference, ratio, goal, verdict."""
    rows = [("figure", "measured", "reference", "ratio", "goal", "")]
    for f in figures:
        verdict = {True: "ok", False: "MISSED", None: "n/a"}[f.met]
        ratio = f"{f.ratio:.2f}{f.ratio_label}" if f.ratio is not None else "-"
        reference = f"{_fmt(f.reference_value, f.unit)} ({f.reference})" if f.reference else "-"
        rows.append((f.title, _fmt(f.value, f.unit), reference, ratio, f.goal, verdict))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    notes = [f"  {f.title}: {f.note}" for f in figures if f.note]
    return "\n".join(lines + ([""] + notes if notes else []))
