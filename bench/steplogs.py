"""Composed step-trainer logs for the step figures: an HF Trainer run with ``\\r`` bars, a torchtitan run.

Deterministic (seeded), in each trainer's own printed shapes (the samples in tests/data/ and the
real logs in tests/data/real/ show them); nanoGPT's is :func:`bench.synth.nanogpt_log`.
"""

from __future__ import annotations

import random
import time

HF_HEADER = (
    "***** Running training *****",
    "  Num examples = 1,200,000",
    "  Num Epochs = 1",
    "  Instantaneous batch size per device = 8",
    "  Total train batch size (w. parallel, distributed & accumulation) = 32",
    "  Gradient Accumulation steps = 4",
    "  Total optimization steps = {steps:,}",
    "  Number of trainable parameters = 124,439,808",
)
BAR_CELLS = 10
BLOCKS = " ▏▎▍▌▋▊▉"


def _clock(seconds: float) -> str:
    s = int(seconds)
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60:02d}:{rest % 60:02d}"


def _bar(done: int, total: int) -> str:
    cells = done * BAR_CELLS / total
    full = int(cells)
    part = BLOCKS[int((cells - full) * 8)] if full < BAR_CELLS else ""
    return ("█" * full + part).ljust(BAR_CELLS)


def hf_bars_log(steps: int, *, seed: int = 0, logging_steps: int = 10, step_seconds: float = 0.5) -> str:
    """An HF Trainer run halfway through ``2 × steps``, redirected to a file: tqdm redraws its bar with
    ``\\r`` at every step (no newline), and every ``logging_steps`` the Trainer's log dict comes on a
    line of its own."""
    rng = random.Random(seed)
    total = 2 * steps
    out = [line.format(steps=total) for line in HF_HEADER]
    parts = [f"  0%|{' ' * BAR_CELLS}| 0/{total} [00:00<?, ?it/s]"]
    loss = 3.5
    for step in range(1, steps + 1):
        elapsed = step * step_seconds
        rate = 1 / step_seconds * rng.uniform(0.98, 1.02)
        parts.append(f"\r{step * 100 // total:3d}%|{_bar(step, total)}| {step}/{total} "
                     f"[{_clock(elapsed)}<{_clock((total - step) * step_seconds)}, {rate:5.2f}it/s]")
        if step % logging_steps == 0:
            loss = max(0.5, loss * 0.9999 + rng.uniform(-0.01, 0.01))
            out.append("".join(parts))
            out.append(f"{{'loss': {loss:.4f}, 'grad_norm': {rng.uniform(0.5, 3.0):.6f}, "
                       f"'learning_rate': {5e-05 * (1 - step / total):.6e}, 'epoch': {step / total:.2f}}}")
            parts = []
    out.append("".join(parts))
    return "\n".join(out) + "\n"


def torchtitan_log(steps: int, *, seed: int = 0, log_freq: int = 1, step_seconds: float = 1.1,
                   end: float | None = None) -> str:
    """A torchtitan run (rank 0's lines, with its colours) that logs every ``log_freq`` steps and
    ends at ``end`` (default: now)."""
    rng = random.Random(seed)
    end = time.time() if end is None else end
    start = end - steps * step_seconds - 10

    def stamp(t: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + f",{int(t * 1000) % 1000:03d}"

    head = "[rank0]:[titan] {} - root - INFO - "
    out = [head.format(stamp(start)) + "Starting job: Llama 3 8B training",
           head.format(stamp(start + 1)) + "Building 1-D device mesh with ['dp_shard'], [8]",
           head.format(stamp(start + 9)) + "Training starts at step 1"]
    loss = 11.4
    for step in range(1, steps + 1):
        if step % log_freq and step != 1:
            continue
        loss = max(2.0, loss * 0.9995 + rng.uniform(-0.01, 0.01))
        t = start + 10 + step * step_seconds
        tps = 7800 + rng.randrange(60)
        out.append(head.format(stamp(t)) + f"\x1b[31mstep: {step:2d}  \x1b[32mloss: {loss:8.5f}  "
                   f"\x1b[38;2;180;60;0mgrad_norm: {rng.uniform(0.7, 1.0):7.4f}  "
                   f"\x1b[38;2;54;234;195mmemory: 66.91GiB(37.51%)  \x1b[34mtps: {tps:,}  "
                   f"\x1b[36mtflops: {tps * 0.058:.2f}  \x1b[35mmfu: {tps * 0.00586:.2f}%\x1b[39m")
    return "\n".join(out) + "\n"


def sized(make: object, target_bytes: int, **options: object) -> str:
    """The log ``make(steps, …)`` writes, with as many steps as come closest to ``target_bytes``."""
    assert callable(make)
    probe = 2000
    per_step = len(make(probe, **options).encode()) / probe
    return str(make(max(probe, int(target_bytes / per_step)), **options))
