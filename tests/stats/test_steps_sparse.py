"""Sparse step lines, live: a trainer that prints every N steps of T seconds each, lines hours apart.

The rate is the trainer's own time per step until the window can measure it, and it is held (not
decayed to 0) between lines; the stall limit is 6 × the log's own interval (N × T), not a fixed
window. Composed logs in three wordings; every figure below is worked out by hand.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.ingest.formats import create_parser
from app.stats.steps.report import StepReport
from app.stats.steps.report import report as step_report
from app.stats.steps.tracker import StepTracker

T0 = 1_800_000_000.0


def megatron(step: int) -> str:
    # 72 s an iteration (72000 ms), printed every 100 iterations: a line every 7200 s, 50 steps/h.
    return (f" iteration {step:8d}/  100000 | consumed samples: {step * 8:10d} | elapsed time per iteration (ms):"
            f" 72000.0 | learning rate: 1.000E-04 | global batch size:     8 | lm loss: 2.310000E+00 |")


def custom_s_per_it(step: int) -> str:
    # 90 s a step, printed every 40 steps: a line every 3600 s, 40 steps/h.
    return f"step {step} | loss 2.1000 | lr 3.0e-04 | 90.0 s/it"


def custom_ms_per_step(step: int) -> str:
    # 1.5 s a step (1500 ms), printed every 2000 steps: a line every 3000 s, 2400 steps/h.
    return f"[train] step: {step}, loss: 1.9000, 1500.0ms/step"


# wording, line, steps between lines, seconds between lines, steps/h
WORDINGS: list[tuple[str, Callable[[int], str], int, float, float]] = [
    ("Megatron, elapsed time per iteration (ms)", megatron, 100, 7200.0, 50.0),
    ("a custom loop's s/it", custom_s_per_it, 40, 3600.0, 40.0),
    ("a custom loop's ms/step", custom_ms_per_step, 2000, 3000.0, 2400.0),
]
# Lines before the rate shows: one when a step takes a minute or more (three fill the 3-minute
# warm-up); two when steps are quick but a line comes every 50 minutes (the second line spans it).
FIRST_RATE = {megatron: 1, custom_s_per_it: 1, custom_ms_per_step: 2}


class Live:
    """A tracker fed one line at a time, each read the moment it was printed."""

    def __init__(self, line: Callable[[int], str], every: int, interval: float) -> None:
        self.parser = create_parser("generic")
        self.tracker = StepTracker("generic")
        self.line, self.every, self.interval = line, every, interval
        self.printed = 0
        self.last_at = T0

    def print_line(self) -> None:
        self.printed += 1
        self.last_at = T0 + self.printed * self.interval
        events = self.parser.feed([self.line(self.printed * self.every)])
        self.tracker.apply_all(events, now=self.last_at, arrival=self.last_at)

    def report(self, after_last: float) -> StepReport:
        return step_report(self.tracker.progress, self.last_at + after_last)


@pytest.mark.parametrize(("line", "every", "interval", "per_hour"), [w[1:] for w in WORDINGS], ids=[w[0] for w in WORDINGS])
def test_the_trainer_s_own_time_per_step_is_the_rate_before_a_third_line(
    line: Callable[[int], str], every: int, interval: float, per_hour: float
) -> None:
    live = Live(line, every, interval)
    for _ in range(FIRST_RATE[line] - 1):
        live.print_line()
        assert live.report(1.0).state == "measuring"
    live.print_line()
    report = live.report(1.0)
    assert report.state == "training"
    assert report.rate.passes_per_hour == pytest.approx(per_hour)
    assert report.details[0].endswith("steps/h (from the trainer's own time per step) · tokens per step not printed")


@pytest.mark.parametrize(("line", "every", "interval", "per_hour"), [w[1:] for w in WORDINGS], ids=[w[0] for w in WORDINGS])
def test_the_rate_holds_between_lines_hours_apart_and_the_stall_scales_with_them(
    line: Callable[[int], str], every: int, interval: float, per_hour: float
) -> None:
    live = Live(line, every, interval)
    for _ in range(4):
        live.print_line()
    # Three intervals without a line: long for a 20-minute window, not for this log (limit 6 × interval).
    quiet = live.report(3 * interval)
    assert quiet.state == "training"
    assert quiet.rate.passes_per_hour == pytest.approx(per_hour)
    assert not any(d.startswith("Stalled:") for d in quiet.details)
    stalled = live.report(6 * interval + 60)
    assert stalled.state == "stalled"
    assert any(d.startswith("Stalled:") for d in stalled.details)


def test_a_sparse_run_killed_between_lines_says_its_rate_was_before_the_kill() -> None:
    live = Live(megatron, 100, 7200.0)
    live.print_line()
    live.print_line()
    events = live.parser.feed(["Killed"])
    live.tracker.apply_all(events, now=live.last_at + 600, arrival=live.last_at + 600)
    report = live.report(3 * 7200)
    assert (report.state, report.status_line) == ("crashed", "step 200/100000 · crashed")
    assert report.details[:2] == (
        "Crashed (killed): Killed",
        "Before the crash: 50 steps/h (from the trainer's own time per step) · tokens per step not printed",
    )


def fast_every_1000(step: int) -> str:
    # 25 ms an iteration, printed every 1000 iterations: a line every 25 s.
    return f"iteration {step} | loss 2.3100 | 25.0 ms/it"


@pytest.mark.parametrize(("step", "limit", "why"), [
    # step 1000: a line every 1000 steps of 25 ms (25 s), limit 6 × 25 s = 150 s
    (1000, 150.0, "Stall limit 2 min until a second step line: step 1000 suggests a line every 1000 steps of 25 ms"),
    # step 0 names no stride: the first line's floor, 10 min
    (0, 600.0, ("Stall limit 10 min until a second step line: step 0 does not say how many steps of 25 ms the log "
                "prints between lines")),
])  # fmt: skip
def test_before_a_second_line_the_stall_limit_counts_the_steps_a_line_may_cover(step: int, limit: float, why: str) -> None:
    """A fast step printed every N steps: 6 × 25 ms would stall it at the 90 s floor before its next line."""
    parser, tracker = create_parser("generic"), StepTracker("generic")
    tracker.apply_all(parser.feed([fast_every_1000(step)]), now=T0, arrival=T0)
    waiting = step_report(tracker.progress, T0 + 120)
    assert waiting.state == "measuring"
    assert why in waiting.details
    assert step_report(tracker.progress, T0 + limit - 1).state != "stalled"
    assert step_report(tracker.progress, T0 + limit + 1).state == "stalled"


def megatron_tokens(step: int) -> str:
    # 420 s an iteration, printed every iteration, 1,000,000 tokens each (consumed tokens rise by that).
    return (f" iteration {step:8d}/  159576 | consumed samples: {step * 2048:10d} | consumed tokens: {step * 1_000_000:12d} |"
            f" elapsed time per iteration (ms): 420000.0 | learning rate: 5.948E-05 | global batch size:  2048 |"
            f" lm loss: 2.665295E+00 |")


def test_the_token_rate_follows_the_trainer_s_own_pace_when_the_window_holds_no_step() -> None:
    # Four lines 420 s apart, then 30 minutes without one: the 20-minute window (held one
    # interval) holds no step, so the step rate is the trainer's own 3600 / 420 = 8.571 steps/h,
    # and the token rate is that pace × 1,000,000 tokens a step = 8,571,428.6 tok/h, not 0.
    live = Live(megatron_tokens, 1, 420.0)
    for _ in range(4):
        live.print_line()
    report = live.report(1800.0)
    assert report.state == "training"
    assert report.rate.passes_per_hour == pytest.approx(3600 / 420)
    assert report.rate.tokens_per_hour == pytest.approx(3600 / 420 * 1_000_000)
    assert report.rate.tokens_per_pass == 1_000_000
