"""Format detection (``--format auto``), switching on a new stage, and parsers that never raise."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.formats import PARSERS, STEP_FORMATS, create_parser, detect
from app.ingest.formats.detect import FormatWatch, scores
from tests.reallogs import REAL, body

DATA = Path(__file__).resolve().parents[1] / "data"


def sample(name: str) -> list[str]:
    return (DATA / name).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("sample-nanochat.log", "nanochat"),
        ("sample-nanogpt.log", "nanogpt"),
        ("sample-hf-trainer.log", "hf-trainer"),
        ("sample-torchtitan.log", "torchtitan"),
        ("sample-sn38.log", "sn38"),
        ("iota-sample.log", "iota"),
    ],
)
def test_each_sample_is_detected(name: str, expected: str) -> None:
    assert detect(sample(name)) == expected


LLMC = "step  200/18865 | loss 6.118203 (-0.42z)| norm 0.8821 (+0.17z)| lr 1.68e-04 | 331.12 ms | 46.2% bf16 MFU | 1583012 tok/s"
MODDED = "step:12/1480 train_loss:7.1934 train_time:2311ms step_avg:231.10ms"
HIVEMIND = "Jun 27 14:06:03.911 [INFO] Averaged gradients with 6 peers"


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        ([LLMC] * 3, "llmc"),
        ([MODDED] * 3, "modded-nanogpt"),
        ([HIVEMIND] * 3, "hivemind"),
        ([HIVEMIND] * 5 + sample("sample-sn38.log")[:5], "sn38"),  # a miner's log with hivemind in it
        (["hello", "this is not a training log"], None),
        ([], None),
    ],
)
def test_other_families(lines: list[str], expected: str | None) -> None:
    assert detect(lines) == expected


def speedrun() -> list[str]:
    """A speedrun-style log: nanochat base → eval → SFT → RL, one after another."""
    return sample("sample-nanochat.log")


def test_a_speedrun_log_is_nanochat_at_every_stage() -> None:
    lines = speedrun()
    sft = next(i for i, line in enumerate(lines) if line.startswith("step 00001 ("))
    rl = next(i for i, line in enumerate(lines) if line.startswith("Step 0/467"))
    for start in (0, sft, rl):
        assert detect(lines[start:]) == "nanochat"


def test_a_log_caught_in_nanochats_base_eval_is_nanochat() -> None:
    lines = speedrun()
    start = next(i for i, line in enumerate(lines) if line.startswith("Peak memory usage"))
    end = next(i for i, line in enumerate(lines) if line.startswith("CORE metric"))
    assert detect(lines[start : end + 1]) == "nanochat"


def test_the_stage_at_the_end_decides_a_mixed_log() -> None:
    """A script ran nanoGPT, then fine-tuned with the HF Trainer: the end of the log says HF."""
    lines = sample("sample-nanogpt.log") + sample("sample-hf-trainer.log") * 3
    assert scores(lines)["hf-trainer"] > scores(lines)["nanogpt"]
    assert detect(lines) == "hf-trainer"


def test_watch_switches_when_another_trainer_takes_over() -> None:
    watch = FormatWatch("nanogpt")
    assert watch.see(sample("sample-nanogpt.log")) is None
    hf = sample("sample-hf-trainer.log")
    replay = watch.see(["Initializing a new model from scratch", *hf])
    assert watch.current == "hf-trainer"
    # from the first line of the new trainer on, the rest of the batch included
    assert replay == hf


def test_watch_ignores_stray_foreign_lines() -> None:
    watch = FormatWatch("nanochat")
    lines = speedrun()
    stray = "{'loss': 1.0, 'learning_rate': 1e-05, 'epoch': 0.1}"
    mixed = [x for i, line in enumerate(lines) for x in ([line, stray] if i % 10 == 9 else [line])]
    assert watch.see(mixed) is None and watch.current == "nanochat"


def test_watch_treats_one_parsers_formats_as_one() -> None:
    watch = FormatWatch("nanogpt")
    assert watch.see([LLMC] * 5) is None


def test_step_formats_are_every_parser_but_iota() -> None:
    assert STEP_FORMATS == set(PARSERS) - {"iota"}
    for name in STEP_FORMATS:
        assert create_parser(name).name == name


NASTY = [
    "",
    "\x00" * 50,
    "step 00001/00002 (50.00%) | loss: \x00 | lrm: 1.00",
    (
        "step 99999999999999999999/1 (1e999%) | loss: 1e999 | lrm: nan | dt: 9e999ms | tok/sec: 1,2,3 | mfu: inf"
        " | total time: 1e999m"
    ),
    "iter 1: loss " + "9" * 5000 + ", time 1ms, mfu 1%",
    "x" * 200_000,
    "{'loss': " * 1000,
    "\r" * 100 + "  1%|| 1/0 [99:99<??:??, ?it/s]",
    "[titan] 9999-99-99 99:99:99,999 - root - INFO - step: 1 loss: 1",
    "2025-13-45 25:61:61.000 |       INFO       | Outer Step: 1 | Inner Step: 1 | Average Loss: nan",
    "Step 1 | " + "a: 1, " * 5000,
    "\ud800 broken surrogate step 00001 (",
    "[rank0]:" * 1000,
]


@pytest.mark.parametrize("name", sorted(STEP_FORMATS))
def test_parsers_never_raise_on_nasty_lines(name: str) -> None:
    parser = create_parser(name)
    parser.feed(NASTY)
    parser.feed(NASTY[::-1])
    detect(NASTY)


_ALPHABET = st.sampled_from(list("step Step iter 0123456789/.,:|%()[]{}'\"-+=_ \r\x1b\x00abcdefmstokhn"))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(_ALPHABET, max_size=120), max_size=12), st.sampled_from(sorted(STEP_FORMATS)))
def test_parsers_never_raise_on_any_text(lines: list[str], name: str) -> None:
    parser = create_parser(name)
    parser.feed(lines)
    assert parser.bad_lines >= 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=80), max_size=8), st.sampled_from(sorted(STEP_FORMATS)))
def test_parsers_never_raise_on_any_unicode(lines: list[str], name: str) -> None:
    create_parser(name).feed(lines)


def test_watch_reads_a_line_as_the_current_format_first() -> None:
    """An IOTA line that happens to print a loss dict is still an IOTA line."""
    iota = [line + " {'loss': 1.0, 'epoch': 0.1}" for line in sample("iota-sample.log") if " - " in line]
    watch = FormatWatch("iota")
    assert watch.see(iota) is None and watch.current == "iota"


REAL_FORMATS = {
    "hf-composed-cut-bars.log": "hf-trainer",
    "hf-h2ogpt-pr86-caret-m.log": "hf-trainer",
    "hf-llamafactory-issue3529-dicts-only.log": "hf-trainer",
    "hf-llm2vec-issue174-eval-nan-explicit-format.log": "hf-trainer",
    "hf-modal-pr82-dicts-only.log": "hf-trainer",
    "hf-transformers-pr6998-tf-step-key.log": "hf-trainer",
    "hf-trl-issue733-dicts-only.log": "hf-trainer",
    "hf-zeehu-t5-bars-at-saves.log": "hf-trainer",
    "hivemind-albert-readme-monitor.log": "hivemind",
    "hivemind-albert-readme-trainer.log": "hivemind",
    "hivemind-issue519-could-not-find-a-group.log": "hivemind",
    "llmc-anthonix-issue2-minus-nan.log": "llmc",
    "llmc-anthonix-issue2-nan.log": "llmc",
    "llmc-issue796-mfu-unknown-gpu.log": "llmc",
    "llmc-main-log-no-timing.log": "llmc",
    "llmc-main-log-old-format.log": "llmc",
    "modded-nanogpt-2024-10-10-muon.txt": "modded-nanogpt",
    "modded-nanogpt-2025-09-15-no-train-loss.txt": "modded-nanogpt",
    "modded-nanogpt-track3-train-time-seconds.txt": "modded-nanogpt",
    "modded-nanogpt-track3-val-only.txt": "modded-nanogpt",
    "modded-nanogpt-track3-word-values.txt": "modded-nanogpt",
    "nanochat-pr147-a100.log": "nanochat",
    "nanogpt-issue110-every-iteration.log": "nanogpt",
    "nanogpt-issue178-shakespeare.log": "nanogpt",
    "nanogpt-issue215-timestamped-nan.log": "nanogpt",
    "nanogpt-issue466-every-10.log": "nanogpt",
    "parameter-golf-8xh100-fullrun.log": "modded-nanogpt",
    "parameter-golf-baseline-seed42.log": "modded-nanogpt",
    "sn38-readme-asyncio-timeout.log": "sn38",
    "sn38-readme-could-not-find-a-group.log": "sn38",
    "sn38-readme-dht-connect.log": "sn38",
    "sn38-readme-load-state-timeout.log": "sn38",
    "torchtitan-pr1287-rank0-every-10.log": "torchtitan",
    "torchtitan-pr2389-ranks-unprefixed.log": "torchtitan",
    "torchtitan-pr3393-grad-norm.log": "torchtitan",
    "torchtitan-pr533-total-steps-wps.log": "torchtitan",
    "torchtitan-pr1625-init-only-warmup-adjusted.log": "torchtitan",
    "broken-chinese-llama-alpaca-issue534-deepspeed-overflow-repeating.log": "hf-trainer",
    "broken-llamafactory-issue5660-fp16-nan-grad-lr-frozen.log": "hf-trainer",
    "crash-firefly-issue183-nccl-watchdog-glued-bar.log": "hf-trainer",  # bars alone
    "crash-hivemind-issue443-warning-nonfinite-norm-continues.log": "hivemind",  # the 2021 examples' records
    "crash-nanochat-rtx4070-step0-oom-optimizer.log": "nanochat",
    "hf-chinese-llama-alpaca-issue534-bars-only-deepspeed.log": "hf-trainer",
    "hf-trl-issue3452-grpo-dicts-loss-zero-normal.log": "hf-trainer",
    "hf-unsloth-issue1145-unsloth-train-bar-suffix.log": "hf-trainer",
    "hivemind-issue504-load-state-index-error-retrying.log": "hivemind",  # the message alone
    "hivemind-issue653-load-state-timeout-retrying.log": "hivemind",  # python logging, no time
    "modded-nanogpt-track2-medium-2025-09-11-done-no-eol.txt": "modded-nanogpt",
    "nanochat-rtx4070-core-then-steps-with-epoch-eta.log": "nanochat",
    "nanochat-rtx4070-log-ends-mid-run.log": "nanochat",
}


def test_every_real_log_is_in_the_table() -> None:
    assert sorted(REAL_FORMATS) == sorted(p.name for p in REAL.iterdir())


@pytest.mark.parametrize(("name", "fmt"), sorted(REAL_FORMATS.items()))
def test_real_logs_are_recognised(name: str, fmt: str) -> None:
    assert detect(body(name)) == fmt
