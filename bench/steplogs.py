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


def nanochat_log(steps: int, *, seed: int = 0, step_ms: float = 1050.0) -> str:
    """A nanochat base_train run of ``steps`` steps as ``base_train.py`` prints each one since 2026-01
    (``step 20001/200000 (10.00%) | loss: … | lrm: … | dt: …ms | tok/sec: … | mfu: … | epoch: 2 | total
    time: …m | eta: …m``, the shape of tests/data/real/nanochat-rtx4070-core-then-steps-with-epoch-eta.log)."""
    rng = random.Random(seed)
    total = 2 * steps
    out = ["Autodetected device type: cuda", "GPU: NVIDIA H100 80GB HBM3 | Peak FLOPS (BF16): 9.89e+14",
           f"Calculated number of iterations from target data:param ratio: {total:,}"]
    loss, elapsed = 10.4, 0.0
    for step in range(steps):
        loss = max(2.5, loss * 0.9999 + rng.uniform(-0.01, 0.01))
        dt = step_ms * rng.uniform(0.98, 1.02)
        elapsed += dt / 60000
        tok = int(524288 / dt * 1000)
        out.append(f"step {step:05d}/{total:05d} ({100 * step / total:.2f}%) | loss: {loss:.6f} | lrm: 1.00 | "
                   f"dt: {dt:.2f}ms | tok/sec: {tok:,} | mfu: {tok / 7100:.2f} | epoch: 1 | total time: {elapsed:.2f}m | "
                   f"eta: {(total - step) * dt / 60000:.1f}m")
    return "\n".join(out) + "\n"


def llmc_log(steps: int, *, seed: int = 0, step_ms: float = 360.0) -> str:
    """An llm.c ``train_gpt2cu`` run of ``steps`` steps, each printed as its CUDA loop prints it
    (``step  149/190 | loss 3.41 (+0.00z)| norm 0.39 (+0.00z)| lr 3.00e-04 | 360.64 ms | 14.9% bf16 MFU | 1449806 tok/s``)."""
    rng = random.Random(seed)
    total = 2 * steps
    out = ["| device                | NVIDIA H100 80GB HBM3                              |", "allocated 237 MiB for model parameters"]
    loss = 10.9
    width = len(str(total))
    for step in range(1, steps + 1):
        loss = max(2.8, loss * 0.9999 + rng.uniform(-0.01, 0.01))
        ms = step_ms * rng.uniform(0.98, 1.02)
        out.append(f"step {step:{width}d}/{total} | loss {loss:.6f} ({rng.uniform(-1, 1):+.2f}z)| norm "
                   f"{rng.uniform(0.2, 1.5):6.4f} ({rng.uniform(-1, 1):+.2f}z)| lr 6.00e-04 | {ms:.2f} ms | "
                   f"{rng.uniform(40, 42):.1f}% bf16 MFU | {int(524288 / ms * 1000)} tok/s")
    return "\n".join(out) + "\n"


def modded_log(steps: int, *, seed: int = 0, step_ms: float = 43.5, val_every: int = 125) -> str:
    """A modded-nanogpt record run of ``steps`` steps: ``step:N/M train_loss:… train_time:…ms step_avg:…ms``
    each step and ``step:N/M val_loss:… train_time:…ms step_avg:…ms`` every ``val_every`` (its record
    scripts' print0, as in tests/data/real/)."""
    rng = random.Random(seed)
    total = 2 * steps
    out = ["Running Python 3.12.7", "===================================================================="]
    loss, train_ms = 10.8, 0.0
    for step in range(steps + 1):
        loss = max(3.2, loss * 0.9995 + rng.uniform(-0.01, 0.01))
        if step % val_every == 0:
            avg = f"{train_ms / max(step, 1):.2f}ms" if step else "nanms"
            out.append(f"step:{step}/{total} val_loss:{loss + 0.02:.4f} train_time:{int(train_ms)}ms step_avg:{avg}")
        if step < steps:
            train_ms += step_ms * rng.uniform(0.98, 1.02)
            out.append(f"step:{step + 1}/{total} train_loss:{loss:.4f} train_time:{int(train_ms)}ms "
                       f"step_avg:{train_ms / (step + 1):.2f}ms")
    return "\n".join(out) + "\n"
