"""A composed nanoGPT run and its resume from step 4,000, in nanoGPT's own line shapes (train.py:
``step N: train loss X, val loss Y`` at each evaluation, ``iter N: loss X, time T ms, mfu M%`` every
100 iterations). Every figure is chosen here so the answers can be worked out by hand.

The first run logs iterations 0 to 5,000 with loss 4 - step/10,000 (4.0000 … 3.5000) and
evaluates at 0, 2,000 and 4,000 (val 4.1000, 3.8500, 3.6500). It stops after 5,000; the resume
loads the step-4,000 checkpoint, evaluates there again (val 3.7000), then logs 4,000 to 6,000
with loss 3.65 - (step - 4,000)/20,000 (3.6500 … 3.5500) and evaluates at 6,000 (val 3.6000).

By hand, stitched: steps 0–3,900 of the first run (40 losses) then 4,000–6,000 of the resume
(21): 61 losses; steps 4,000–5,000 logged twice (11 losses replaced); final loss 3.5500 at
6,000; best loss 3.5500 at 6,000 (drawn twice, the first run's 3.5000 at 5,000 would be the
best: it was replaced); val final 3.6000 at 6,000, best 3.6000 at 6,000; val at 4,000 is the
resume's 3.7000.
"""

from __future__ import annotations

HEAD = [
    "tokens per iteration will be: 491,520",
    "Initializing a new model from scratch",
    "number of parameters: 123.59M",
]
RESUME_HEAD = [
    "tokens per iteration will be: 491,520",
    "Resuming training from out",
    "number of parameters: 123.59M",
]


def first_run() -> list[str]:
    lines = list(HEAD)
    vals = {0: "4.1000", 2000: "3.8500", 4000: "3.6500"}
    for step in range(0, 5001, 100):
        if step in vals:
            lines.append(f"step {step}: train loss {4 - step / 10000 + 0.01:.4f}, val loss {vals[step]}")
        lines.append(f"iter {step}: loss {4 - step / 10000:.4f}, time 290.00ms, mfu 39.00%")
    return lines


def resumed_run() -> list[str]:
    lines = list(RESUME_HEAD)
    vals = {4000: "3.7000", 6000: "3.6000"}
    for step in range(4000, 6001, 100):
        if step in vals:
            lines.append(f"step {step}: train loss {3.66 - (step - 4000) / 20000:.4f}, val loss {vals[step]}")
        lines.append(f"iter {step}: loss {3.65 - (step - 4000) / 20000:.4f}, time 290.00ms, mfu 39.00%")
    return lines


def text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"
