"""Every row that declares a usual line has it read in bulk: a bulk-read line is the step the line
reads as alone, and the import stores what reading and applying each line as an event stores.

Composed logs of nanochat, llm.c and modded-nanogpt (nanoGPT's are tests/record/test_replay_runs.py's)
mix stretches of each trainer's usual line, printed as its code prints it (nanochat ``scripts/base_train.py``,
llm.c ``train_gpt2.cu``, modded-nanogpt ``train_gpt.py``; the lines of tests/data/real/), with what
breaks a stretch or has a rule of its own: evaluations, a restart, a new epoch, the planned total
reached, an MFU it could not measure, a loss of zero or not a number, a grad norm, the trainer's clock
going back or standing still, a row group, a crash, junk. Each log is imported both ways, in batches of
a few hundred bytes and whole.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ingest.formats import create_parser
from app.record import replay as replay_module
from app.record.replay import replay_steps
from app.stats.events import Event, StepRun, TrainStep
from app.store import Observation

MTIME = 1_795_000_000.0
NOW = MTIME + 600
CRASH = ["Traceback (most recent call last):", '  File "train.py", line 332, in <module>',
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"]
JUNK = ["", "number of parameters: 123.59M", "compiling the model...", "\x1b[0m", "step 7: loss", "step:"]


class Composer:
    """One trainer's lines, with a state that goes on from block to block."""

    def __init__(self, rng: random.Random, total: int) -> None:
        self.rng, self.step, self.total, self.epoch, self.clock_ms = rng, 1, total, 1, 0

    def ms(self) -> float:
        return self.rng.uniform(80.0, 140.0)


def _nanochat(c: Composer, kind: str) -> list[str]:
    rng = c.rng

    def line(loss: str | None = None, mfu: str | None = None, tail: str = "") -> str:
        ms = c.ms()
        s = c.step
        c.step += 1
        loss = loss if loss is not None else f"{rng.uniform(2.5, 4.0):.6f}"
        mfu = mfu if mfu is not None else f"{rng.uniform(30.0, 50.0):.2f}"
        return (f"step {s:05d}/{c.total} ({100 * s / c.total:.2f}%) | loss: {loss} | lrm: {rng.uniform(0.1, 1):.2f} | "
                f"dt: {ms:.2f}ms | tok/sec: {rng.randint(1000, 600000):,} | mfu: {mfu} | epoch: {c.epoch}{tail} | "
                f"total time: {s * ms / 60000:.2f}m | eta: {rng.uniform(0, 9000):.1f}m")

    if kind == "usual":
        return [line() for _ in range(rng.randint(1, 300))]
    if kind == "odd":
        choice = rng.choice(["zero_mfu", "zero_loss", "epoch", "rows", "eval", "restart", "total"])
        if choice == "zero_mfu":
            return [line(mfu="0.00") for _ in range(rng.randint(1, 3))]
        if choice == "zero_loss":
            return [line(loss="0.000000")]
        if choice == "epoch":
            c.epoch += 1
            return [line()]
        if choice == "rows":
            return [line(tail=f" pq: {rng.randint(0, 3)} rg: {k}") for k in range(rng.randint(1, 4))]
        if choice == "eval":
            return [f"Step {c.step:05d} | Validation bpb: {rng.uniform(0.8, 1.2):.4f}"]
        if choice == "restart":
            c.step = max(0, c.step - rng.randint(1, 400))
            return []
        c.step = c.total  # the planned total reached
        return [line(), line()]
    return []


def _llmc(c: Composer, kind: str) -> list[str]:
    rng = c.rng

    def line(loss: str | None = None, z: str | None = None, mfu: str | None = None, norm: str | None = None) -> str:
        s = c.step
        c.step += 1
        loss = loss if loss is not None else f"{rng.uniform(2.5, 4.0):.6f}"
        z = z if z is not None else f"{rng.uniform(-2, 2):+.2f}"
        mfu = mfu if mfu is not None else f"{rng.uniform(30.0, 50.0):.1f}"
        norm = norm if norm is not None else f"{rng.uniform(0.1, 2):.4f}"
        return (f"step {s:4d}/{c.total} | loss {loss} ({z}z)| norm {norm} ({z}z)| lr {rng.uniform(1e-5, 6e-4):.2e} | "
                f"{c.ms():.2f} ms | {mfu}% bf16 MFU | {rng.randint(100000, 1500000)} tok/s")

    if kind == "usual":
        return [line() for _ in range(rng.randint(1, 300))]
    if kind == "odd":
        choice = rng.choice(["nanz", "no_mfu", "zero_loss", "zero_norm", "eval", "restart", "total", "same_lr"])
        if choice == "nanz":
            return [line(z="+nan") for _ in range(rng.randint(1, 3))]
        if choice == "no_mfu":
            return [line(mfu="-100.0") for _ in range(rng.randint(1, 3))]
        if choice == "zero_loss":
            return [line(loss="0.000000")]
        if choice == "zero_norm":
            return [line(loss="0.000000", norm="0.0000")]
        if choice == "eval":
            return [f"val loss {rng.uniform(2.5, 4.0):.6f}", "generating:", "---"]
        if choice == "restart":
            c.step = max(1, c.step - rng.randint(1, 400))
            return []
        if choice == "same_lr":
            return [line().replace(" | lr ", " | lr ").split(" | lr ")[0] + " | lr 3.00e-04 | 100.00 ms | 40.0% bf16 MFU"
                    " | 1000000 tok/s" for _ in range(2)]
        c.step = c.total
        return [line(), line()]
    return []


def _modded(c: Composer, kind: str) -> list[str]:
    rng = c.rng

    def line(loss: bool = True, clock: int | None = None, avg: str | None = None) -> str:
        s = c.step
        c.step += 1
        c.clock_ms = clock if clock is not None else c.clock_ms + rng.randint(40, 140)
        avg = avg if avg is not None else f"{c.clock_ms / max(s, 1):.2f}"
        train = f" train_loss:{rng.uniform(2.5, 4.0):.4f}" if loss else ""
        return f"step:{s}/{c.total}{train} train_time:{c.clock_ms}ms step_avg:{avg}ms"

    if kind == "usual":
        return [line() for _ in range(rng.randint(1, 300))]
    if kind == "odd":
        choice = rng.choice(["val", "no_loss", "back", "still", "nan_avg", "restart", "total", "no_avg"])
        if choice == "val":
            c.step -= 1
            return [(f"step:{c.step}/{c.total} val_loss:{rng.uniform(2.5, 4.0):.4f} train_time:{c.clock_ms}ms "
                    f"step_avg:{c.clock_ms / max(c.step, 1):.2f}ms")] + [line()]
        if choice == "no_loss":
            return [line(loss=False)]
        if choice == "back":
            return [line(clock=max(0, c.clock_ms - rng.randint(1, 5000)))]
        if choice == "still":
            return [line(clock=c.clock_ms)]
        if choice == "nan_avg":
            return [line(avg="nan")]
        if choice == "no_avg":
            c.clock_ms += 90
            s = c.step
            c.step += 1
            return [f"step:{s}/{c.total} train_loss:3.1000 train_time:{c.clock_ms}ms"]
        if choice == "restart":
            c.step = max(1, c.step - rng.randint(1, 400))
            c.clock_ms = 0
            return []
        c.step = c.total
        return [line(), line()]
    return []


COMPOSERS: dict[str, Callable[[Composer, str], list[str]]] = {"nanochat": _nanochat, "llmc": _llmc,
                                                               "modded-nanogpt": _modded}
HEADS = {"nanochat": ["Autodetected device type: cuda", "GPU: NVIDIA H100 80GB HBM3 | Peak FLOPS (BF16): 9.89e+14"],
         "llmc": ["allocated 237 MiB for model parameters"], "modded-nanogpt": ["Running Python 3.12.7", "=" * 40]}


def _log(name: str, seed: int, kinds: list[str]) -> list[str]:
    rng = random.Random(seed)
    composer = Composer(rng, rng.choice([20_000, 200_000]))
    lines = list(HEADS[name])
    for kind in kinds:
        if kind == "crash":
            lines.extend(CRASH)
        elif kind == "junk":
            lines.extend(rng.choice(JUNK) for _ in range(rng.randint(1, 3)))
        else:
            lines.extend(COMPOSERS[name](composer, kind))
    return lines


KINDS = ["usual", "usual", "usual", "odd", "odd", "crash", "junk"]


def _imported(path: Path, name: str, *, runs: bool) -> tuple[list[Observation], str]:
    """What the import stores, and what its tracker shows at the end (the page's snapshot)."""
    kept: list[Observation] = []
    replays: list[replay_module.StepReplay] = []

    class Kept(replay_module.StepReplay):
        def __init__(self, format_name: str, now: float) -> None:
            super().__init__(format_name, now)
            replays.append(self)

    original = replay_module.StepReplay
    replay_module.StepReplay = Kept  # type: ignore[misc]
    try:
        assert replay_steps(path, name, NOW, MTIME, {}, threading.Event(), kept.append, runs=runs)
    finally:
        replay_module.StepReplay = original  # type: ignore[misc]
    (replay,) = replays
    shown = replay.tracker.snapshot(NOW, replay.view)
    return kept, repr(shown)


def _steps(items: list[Event | StepRun]) -> list[Event]:
    return [step for item in items
            for step in ([item.event(i) for i in range(len(item))] if isinstance(item, StepRun) else [item])]


@pytest.mark.parametrize("name", sorted(COMPOSERS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=30))
def test_a_bulk_read_line_is_the_step_the_line_reads_as_alone(name: str, seed: int, kinds: list[str]) -> None:
    lines = _log(name, seed, kinds)
    in_runs = create_parser(name).feed_runs(lines)  # type: ignore[attr-defined]
    assert _steps(in_runs) == create_parser(name).feed(lines)


@pytest.mark.parametrize("name", sorted(COMPOSERS))
def test_each_row_s_usual_lines_are_read_in_runs(name: str) -> None:
    """The declaration is what puts a row's lines in bulk: a stretch of them is one run, with their other figures."""
    lines = _log(name, 3, ["usual"] * 5)
    items = create_parser(name).feed_runs(lines)  # type: ignore[attr-defined]
    runs = [item for item in items if isinstance(item, StepRun)]
    steps = sum(isinstance(e, TrainStep) for e in create_parser(name).feed(lines))
    # (all but a line after one a wrapped rest may continue, which is read alone)
    assert steps - 1 <= sum(len(run) for run in runs) <= steps and steps > 100 and len(runs) == 1
    assert all(run.columns for run in runs)


@pytest.mark.parametrize("name", sorted(COMPOSERS))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32), kinds=st.lists(st.sampled_from(KINDS), min_size=1, max_size=30),
       batch_bytes=st.sampled_from([301, 4096, 1 << 20]))
def test_a_row_s_log_imported_in_runs_stores_what_one_event_at_a_time_stores(
        tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch, name: str, seed: int,
        kinds: list[str], batch_bytes: int) -> None:
    path = tmp_path_factory.mktemp("rows") / "train.log"
    path.write_text("\n".join(_log(name, seed, kinds)) + "\n")
    monkeypatch.setattr(replay_module, "READ_BYTES", batch_bytes)
    assert repr(_imported(path, name, runs=True)) == repr(_imported(path, name, runs=False))


@pytest.mark.parametrize("name", sorted(COMPOSERS))
def test_a_long_run_of_a_row_s_lines_imported_in_runs_stores_what_one_event_at_a_time_stores(
        tmp_path: Path, name: str) -> None:
    """Hours of every-step lines: the rate windows drop and compact, batches are written by the hour."""
    kinds = ["usual"] * 60 + ["odd", "usual", "odd"] + ["usual"] * 60 + ["crash"] + ["usual"] * 20
    path = tmp_path / "train.log"
    path.write_text("\n".join(_log(name, 7, kinds)) + "\n")
    in_runs = _imported(path, name, runs=True)
    assert repr(in_runs) == repr(_imported(path, name, runs=False))
    assert sum(len(obs.losses) for obs in in_runs[0]) > 5_000


def _nanogpt(c: Composer, kind: str) -> list[str]:
    rng = c.rng
    lines = []
    for _ in range(rng.randint(1, 300) if kind == "usual" else 1):
        lines.append(f"iter {c.step}: loss {rng.uniform(2.5, 4.0):.4f}, time {c.ms():.2f}ms, mfu {rng.uniform(30, 50):.2f}%")
        c.step += 1
    return lines


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), blocks=st.lists(st.tuples(st.sampled_from(["nanogpt", "llmc", "modded-nanogpt"]),
                                                             st.sampled_from(KINDS)), min_size=1, max_size=30),
       batch=st.sampled_from([7, 300, 5000]))
def test_one_parser_s_usual_shapes_mixed_read_in_bulk_as_line_by_line(seed: int, blocks: list[tuple[str, str]],
                                                                       batch: int) -> None:
    """nanoGPT's, llm.c's and modded-nanogpt's shapes are one parser's: a batch of one, then of another, or
    the three mixed, each line read in bulk as alone."""
    rng = random.Random(seed)
    composers = {name: Composer(rng, 200_000) for name in ("nanogpt", "llmc", "modded-nanogpt")}
    lines: list[str] = []
    for name, kind in blocks:
        if kind in ("crash", "junk"):
            lines.extend(CRASH if kind == "crash" else [rng.choice(JUNK)])
        else:
            lines.extend((COMPOSERS | {"nanogpt": _nanogpt})[name](composers[name], kind))
    bulk, alone = create_parser("nanogpt"), create_parser("nanogpt")
    for first in range(0, len(lines), batch):
        part = lines[first:first + batch]
        assert _steps(bulk.feed_runs(part)) == alone.feed(part)  # type: ignore[attr-defined]
