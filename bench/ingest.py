"""Figure 15: end-to-end ingest of appended bytes, as a fraction of Python's own line iteration.

A log is followed by the real pipeline (``Monitor`` with ``--format auto``: the tailer's thread,
its reads, the line splitter, decoding, the format watch, the parser and the tracker), bytes are
appended to it in one write, and the clock stops when the monitor's snapshot has read every
appended line (``lines_read`` is counted under the same lock as the parse, so the figures are
caught up too). The reference is Python iterating over the same file's lines
(``for line in open(path, encoding="utf-8", newline="\\n")``), in the same run: the figure is
that time over tokwatch's, so 1.0 would be "as fast as reading the lines and doing nothing".
Four logs: the bench's usual miner log, the same miner with no two DEBUG lines alike, an
every-step nanoGPT log and a Hugging Face Trainer log whose progress bars redraw with ``\\r``.
Each is measured ``repeats`` times, interleaved with its reference, best of each.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

from bench.report import Figure
from bench.synth import IotaSynth, nanogpt_log

GOAL_USUAL = 0.25
GOAL_UNIQUE = 0.15
HEAD_LINES = 400  # written before the monitor starts: the format is known when the append lands


def _miner(target_bytes: int, *, unique_noise: bool) -> str:
    synth = IotaSynth(seed=13, start=time.time() - 30 * 86400, unique_noise=unique_noise)
    parts: list[str] = []
    size = 0
    while size < target_bytes:
        text = synth.text(3600.0)
        parts.append(text)
        size += len(text)
    return "".join(parts)


def _nanogpt(target_bytes: int) -> str:
    return nanogpt_log(max(1000, target_bytes // 52), seed=3)


def hf_bars_log(target_bytes: int, *, seed: int = 5) -> str:
    """A Trainer run as its stderr and stdout land in one file: a tqdm bar redrawn with ``\\r`` at
    every step, and a ``{'loss': …}`` dict on its own line every 10 steps (the Trainer's
    ``logging_steps``), as transformers prints them."""
    rng = random.Random(seed)
    total = max(100, target_bytes // 90)
    out = ["***** Running training *****", "  Num examples = 1,000,000", f"  Total optimization steps = {total:,}"]
    bar: list[str] = []
    loss = 3.2
    for step in range(1, total + 1):
        pct = step * 100 // total
        filled = pct // 10
        elapsed = step // 4
        left = (total - step) // 4
        bar.append(
            f"\r{pct:3d}%|{'█' * filled}{' ' * (10 - filled)}| {step}/{total} "
            f"[{elapsed // 60:02d}:{elapsed % 60:02d}<{left // 3600:02d}:{left // 60 % 60:02d}:{left % 60:02d},  "
            f"{rng.uniform(3.9, 4.1):.2f}it/s]"
        )
        if step % 10 == 0:
            loss = max(0.5, loss * 0.9995 + rng.uniform(-0.02, 0.02))
            out.append("".join(bar))
            bar = []
            out.append(
                f"{{'loss': {loss:.4f}, 'grad_norm': {rng.uniform(0.5, 2.0):.6f}, "
                f"'learning_rate': {5e-5 * (1 - step / total):.4e}, 'epoch': {step / total:.2f}}}"
            )
    if bar:
        out.append("".join(bar))
    return "\n".join(out) + "\n"


def _python_lines_seconds(path: Path) -> tuple[float, int]:
    start = time.perf_counter()
    n = 0
    with path.open(encoding="utf-8", errors="replace", newline="\n") as f:
        for _ in f:
            n += 1
    return time.perf_counter() - start, n


def _ingest_seconds(workdir: Path, head: str, body: str, total_lines: int) -> float | None:
    """Follow a log holding ``head``, append ``body`` in one write, time until every line is read."""
    from app.live.monitor import Monitor

    folder = workdir / "ingest-e2e"
    folder.mkdir(exist_ok=True)
    live = folder / "train.log"
    live.write_text(head, encoding="utf-8", newline="\n")
    monitor = Monitor(live)
    monitor.start()
    try:
        head_lines = head.count("\n")
        deadline = time.monotonic() + 10
        while monitor.snapshot().source.lines_read < head_lines and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)  # the tailer is asleep on the folder's events again
        data = body.encode("utf-8")
        start = time.perf_counter()
        with live.open("ab") as f:
            f.write(data)
        seen = monitor.changes.version
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            if monitor.snapshot().source.lines_read >= total_lines:
                return time.perf_counter() - start
            seen = monitor.changes.wait_for_change(seen, 0.05)
        return None
    finally:
        monitor.stop()
        live.unlink(missing_ok=True)


def measure(workdir: Path, *, quick: bool) -> Figure:
    size = (4 if quick else 16) << 20
    repeats = 2 if quick else 3
    logs: dict[str, Callable[[], str]] = {
        "usual": lambda: _miner(size, unique_noise=False),
        "unique noise": lambda: _miner(size, unique_noise=True),
        "nanoGPT every step": lambda: _nanogpt(size // 2),
        "HF with \\r bars": lambda: hf_bars_log(size // 2),
    }
    ratios: dict[str, float | None] = {}
    details: dict[str, object] = {"repeats": repeats, "statistic": "best of repeats"}
    path = workdir / "ingest-reference.log"
    try:
        for name, make in logs.items():
            text = make()
            cut = 0
            for _ in range(HEAD_LINES):
                cut = text.index("\n", cut) + 1
            head, body = text[:cut], text[cut:]
            path.write_text(body, encoding="utf-8", newline="\n")
            total = text.count("\n")
            ours: list[float] = []
            ref: list[float] = []
            ref_lines = 0
            for _ in range(repeats):
                seconds, ref_lines = _python_lines_seconds(path)
                ref.append(seconds)
                took = _ingest_seconds(workdir, head, body, total)
                if took is not None:
                    ours.append(took)
            mb = len(body.encode("utf-8")) / 1e6
            ratios[name] = min(ref) / min(ours) if ours else None
            details[name] = {
                "bytes": int(mb * 1e6),
                "lines": ref_lines,
                "tokwatch_seconds": ours,
                "python_seconds": ref,
                "tokwatch_mb_per_s": mb / min(ours) if ours else None,
                "python_mb_per_s": mb / min(ref),
                "ratio": ratios[name],
            }
    finally:
        path.unlink(missing_ok=True)
    usual, unique = ratios["usual"], ratios["unique noise"]
    usual_details: dict[str, float | None] = details["usual"]  # type: ignore[assignment]
    return Figure(
        key="ingest",
        title="20 end-to-end ingest",
        value=usual_details["tokwatch_mb_per_s"],
        unit="MB/s",
        reference="Python's own line loop over the same bytes",
        reference_value=usual_details["python_mb_per_s"],
        ratio=usual,
        ratio_label="x Python",
        goal=f">= {GOAL_USUAL} of Python's line loop on the usual log, >= {GOAL_UNIQUE} on unique noise",
        met=None if usual is None or unique is None else usual >= GOAL_USUAL and unique >= GOAL_UNIQUE,
        note="; ".join(
            f"{name} {r:.3f} ({details[name]['tokwatch_mb_per_s']:.1f} MB/s vs {details[name]['python_mb_per_s']:.0f})"  # type: ignore[index]
            if r is not None else f"{name}: not caught up"
            for name, r in ratios.items()
        ),
        details=details,
    )
