"""The warm-up's words count the step lines of the stretch they time: "N steps · T s" are one stretch's.

Where the rate starts again after the first lines (a one-off first step, a timer's first reading, steps the log leaves
out), its time counts from there: the lines before it are no steps of that time, and saying them with it claimed steps
faster than the log's own clock shows (icefall's 5 lines over 15 s when its dates give 21.5 s for them).
"""

from __future__ import annotations

from pathlib import Path

from tests.coldread import read_cold
from tests.reallogs import body

# k2-fsa/icefall PR #399 (pruned transducer stateless5 recipe for AISHELL4), its training log's batches 5-9:
# batch 6 took 5.8 s, 7 took 0.8 s (so batch 6 was one-off), 8 took 14.1 s, 9 took 0.8 s.
ICEFALL = [
    ("2022-06-08 08:01:22,072 INFO [train.py:815] Epoch 1, batch 5, loss[loss=0.6028, simple_loss=1.206, "
     "pruned_loss=9.481, over 5392.00 frames.], tot_loss[loss=0.7444, simple_loss=1.489, pruned_loss=9.21, over "
     "31213.18 frames.], batch size: 18, lr: 3.00e-03"),
    ("2022-06-08 08:01:27,888 INFO [train.py:815] Epoch 1, batch 6, loss[loss=0.5526, simple_loss=1.105, "
     "pruned_loss=9.342, over 5306.00 frames.], tot_loss[loss=0.7163, simple_loss=1.433, pruned_loss=9.23, over "
     "36207.05 frames.], batch size: 22, lr: 3.00e-03"),
    ("2022-06-08 08:01:28,707 INFO [train.py:815] Epoch 1, batch 7, loss[loss=0.5148, simple_loss=1.03, "
     "pruned_loss=9.262, over 5371.00 frames.], tot_loss[loss=0.69, simple_loss=1.38, pruned_loss=9.234, over "
     "41215.97 frames.], batch size: 29, lr: 3.00e-03"),
    ("2022-06-08 08:01:42,786 INFO [train.py:815] Epoch 1, batch 8, loss[loss=0.4969, simple_loss=0.9939, "
     "pruned_loss=9.257, over 5310.00 frames.], tot_loss[loss=0.6678, simple_loss=1.336, pruned_loss=9.236, over "
     "46113.82 frames.], batch size: 18, lr: 3.00e-03"),
    ("2022-06-08 08:01:43,608 INFO [train.py:815] Epoch 1, batch 9, loss[loss=0.5297, simple_loss=1.059, "
     "pruned_loss=9.424, over 5346.00 frames.], tot_loss[loss=0.6533, simple_loss=1.307, pruned_loss=9.256, over "
     "50998.68 frames.], batch size: 25, lr: 3.00e-03"),
]


def test_icefall_s_warm_up_counts_the_batches_of_the_time_it_says(tmp_path: Path) -> None:
    # measured from batch 6's line (08:01:27.888) to batch 9's (08:01:43.608): 15.72 s, batches 7, 8, 9
    warmup = read_cold(tmp_path, ICEFALL, dated=True)["warmup"]
    assert (warmup["passes"], int(warmup["observed_seconds"])) == (3, 15)
    assert warmup["text"].startswith("measuring: 3 of 3 steps · 15 s of 3 min")


def test_tinygrad_s_warm_up_leaves_out_its_compiling_steps(tmp_path: Path) -> None:
    # tinygrad/tinygrad PR #13803: steps 1 and 2 compile (93.44 s, 101.78 s); steps 3-10 take
    # 7.34 + 4.32 + 4.36 + 4.32 + 4.34 + 4.35 + 4.36 + 4.40 = 37.79 s: 8 steps in 37 s, not 10
    text = read_cold(tmp_path, body("tinygrad-pr13803-mlperf-llama-steps-1-to-10-s-run-loss-lr-gb-used.log"))["warmup"]
    assert text["text"].startswith("measuring: 8 steps · 37 s of 3 min")


def test_a_composed_compiling_first_step_is_no_step_of_the_warm_up(tmp_path: Path) -> None:
    # composed, nanoGPT's words: iteration 0 compiles for 9 s, iterations 1-4 take 0.1 s each: the rate starts after
    # iteration 0, and its words count iterations 1-4 (no time said: 0.4 s is under the second they count in)
    lines = ["iter 0: loss 5.0000, time 9000.00ms, mfu -100.00%"]
    lines += [f"iter {n}: loss {5 - n / 10:.4f}, time 100.00ms, mfu 10.00%" for n in range(1, 5)]
    warmup = read_cold(tmp_path, lines)["warmup"]
    assert (warmup["passes"], warmup["text"]) == (4, "measuring: 4 steps — rate in about 3 min")
