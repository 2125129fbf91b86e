"""Format detection (``--format auto``), switching on a new stage, and parsers that never raise."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.formats import PARSERS, STEP_FORMATS, create_parser, detect
from app.ingest.formats.detect import FormatWatch, log_kind, scores
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
        # genrl's hydra records alone (no launcher line): the newer rl-swarm, read by the hivemind reader
        (["[2025-07-28 22:09:26,975][genrl.logging_utils.global_defs][INFO] - Loaded composite dataset with 1000 samples",
          "[2025-07-28 22:10:26,975][genrl.logging_utils.global_defs][INFO] - Starting round: 1234/1000000."], "hivemind"),
        # hydra's format from any other program claims nothing
        (["[2025-07-28 22:09:26,975][__main__][INFO] - Loaded composite dataset with 1000 samples"], None),
        # an HF Trainer dict pasted without its opening brace, whole or wrapped after a comma (composed)
        (["'loss': 1.25, 'grad_norm': 0.5, 'learning_rate': 2e-05, 'epoch': 0.1}"], "hf-trainer"),
        (["'loss': 1.25, 'grad_norm': 0.5,", " 'learning_rate': 2e-05, 'epoch': 0.1}"], "hf-trainer"),
        # a script's own print of its steps' outputs, torch tensors in a dict (Lightning 1.x's ``training_epoch_end``): no
        # Trainer's log, which holds floats; the Lightning bars around it are the generic reader's (composed)
        (["Epoch 0:  23%|██▎       | 3/13 [01:38<05:27, 32.75s/it, loss=4.73, v_num=7]",
          "outputs = [{'loss': tensor(6.4593)}, {'loss': tensor(5.7653)}]",
          "Epoch 0:  31%|███       | 4/13 [02:10<04:53, 32.60s/it, loss=4.70, v_num=7]"], "generic"),
        (["{'loss': tensor(6.4593)}"], None),
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
    "broken-hf-chinese-llama-alpaca-3-issue64-loss0-gradnan.log": "hf-trainer",
    "generic-custom-modded-llama2-pr9-lr-decay-evals-midrun.log": "generic",
    "generic-lightning-issue5750-epoch54-validating-then-silent.log": "generic",
    "generic-megatron-deepspeed-bigscience-file-tr8-104B-chronicles-spike-time-ms-lines.log": "generic",
    "hf-seq2seq-jaong-cpt-done-5490-evals.trainer_state.json": "hf-trainer",
    "llamafactory-issue774-trainerlog-final-record-loss-null.jsonl": "generic",
    "llmc-pr156-train-gpt2c-early-format-tinyshakespeare-char.log": "llmc",
    "torchtitan-pr1437-flex-debug-steps3-10.log": "torchtitan",
    "trl-dpo-issue1236-reward-dicts-no-step.log": "hf-trainer",
    "nanochat-rtx4070-hourly-monitor-hung-at-19999-gpu-idle.log": "generic",
    "generic-composed-mfu-zero-placeholder-with-throughput.log": "generic",
    "hivemind-issue628-cifar-bar-glued-progress.log": "hivemind",
    "hivemind-composed-bar-total-postfix-loss-glued-progress.log": "hivemind",
    "broken-hf-composed-apex-amp-overflow-scale-below-1.log": "hf-trainer",
    "broken-hf-deepspeed-issue14531-loss-scale-1-every-step-glued-bars.log": "hf-trainer",
    "broken-hf-deepspeed-issue9996-benign-overflow-warmup-glued-bars.log": "hf-trainer",
    "crash-axolotl-issue1495-ray-prefix-bar-glued-nccl-watchdog.log": "hf-trainer",  # behind "(task, pid=N) "
    "crash-composed-raytrain-prefix-bar-then-rank-watchdog.log": "hf-trainer",
    "crash-llamafactory-issue4263-oom-first-backward-bare-bar.log": "generic",  # a traceback, a bare "0%|"
    "crash-llamafactory-issue7396-line-numbered-nccl-watchdog-no-steps.log": "generic",  # crash lines alone
    "hf-trainer-composed-notebook-progress-hours-eval-line.log": "hf-trainer",
    "hf-trainer-llava-issue1264-multinode-host-prefixed-dicts.log": "hf-trainer",
    "trl-unsloth-issue1140-banner-notebook-progress-line.log": "hf-trainer",  # notebook progress line as text
    "hf-trainer-msft-pr7-runtime-dicts-no-loss-bars.log": "hf-trainer",
    "llamafactory-predict-gi7014-sunxiaochuan-250-done-no-loss.jsonl": "generic",
    "llamafactory-trainerlog-yvonne530-healthai-done-9-of-9.jsonl": "generic",
    "nanochat-rtx4070-r32-resume-615173-oom-before-first-step.log": "nanochat",
    "nanochat-sft-pr834-loss-nan-step4.log": "nanochat",
    "torchtitan-composed-lumpy-intervals-every-40-steps.log": "torchtitan",
    "torchtitan-pr3932-hard-wrapped-records-mfu-na.log": "torchtitan",
    "torchtitan-pr996-llama3-8b-every10-elided.log": "torchtitan",
    "trl-grpo-raycheng-taubench-done-12-loss0.trainer_state.json": "hf-trainer",
    "hf-composed-cut-bars.log": "hf-trainer",
    "hf-h2ogpt-pr86-caret-m.log": "hf-trainer",
    "hf-llamafactory-issue3529-dicts-only.log": "hf-trainer",
    "hf-llm2vec-issue174-eval-nan-explicit-format.log": "hf-trainer",
    "hf-modal-pr82-dicts-only.log": "hf-trainer",
    "hf-transformers-pr6998-tf-step-key.log": "hf-trainer",
    "hf-trl-issue733-dicts-only.log": "hf-trainer",
    "generic-fairseq-modernmt-issue509-valid-lines-only.log": "generic",
    "generic-keras-issue8680-keras1-epoch-times.log": "generic",
    "generic-keras-issue7375-keras1-iteration-prefixed-bars-1-15.log": "generic",
    "hf-alpaca-lora-issue268-dicts-then-cut-bar-4-of-388.log": "hf-trainer",
    "hf-time-moe-issue71-data-bar-then-dicts.log": "hf-trainer",
    "hf-trl-issue3857-grpo-dict-num-tokens.log": "hf-trainer",
    "stopped-safelife-issue23-keyboard-interrupt-in-words.log": "generic",
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
    "modded-nanogpt-2025-09-15-cut-at-step-0-validation-placeholder-step-avg.txt": "modded-nanogpt",
    "modded-nanogpt-track3-train-time-seconds.txt": "modded-nanogpt",
    "modded-nanogpt-track3-val-only.txt": "modded-nanogpt",
    "modded-nanogpt-track3-word-values.txt": "modded-nanogpt",
    "nanochat-pr147-a100.log": "nanochat",
    "nanogpt-issue110-every-iteration.log": "nanogpt",
    "nanogpt-issue178-shakespeare.log": "nanogpt",
    "nanogpt-chenzihua-fork-evals-at-300-and-400-then-nan-from-425.log": "nanogpt",
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
    "torchtitan-pr1814-tps-only-columns.log": "torchtitan",
    "torchtitan-pr1884-four-ranks-unordered-every-10.log": "torchtitan",
    "llmc-issue114-early-format-rtx3060.log": "llmc",
    "broken-custom-tinyllm-issue31-loss-nan.log": "generic",
    "broken-generic-mmdetection-issue1742-loss-explodes.log": "generic",
    "crash-generic-stable-pix2seq-issue14-traceback-after-metriclogger.log": "generic",
    "generic-tabnet-issue198-epoch-pipes-loss-elapsed-clock.log": "generic",  # ``epoch: N | loss : X | H:MM:SSs``
    "generic-pixellib-issue59-keras-maskrcnn-epochs-batch-size-keys.log": "generic",  # Keras bars
    "stopself-advancedeast-issue70-keras-early-stopping-then-new-run.log": "generic",
    "generic-keras-pr8169-epoch-of-12-samples-bar-mid-epoch-eta.log": "generic",
    "generic-keras-abhi8893-issue8-ten-epochs-32-of-32-us-per-step.log": "generic",
    "generic-tfnet-issue1121-keras-epoch-colon-zero-padded-bars.log": "generic",
    "generic-flair-pr2983-epoch-iter-of-1227-dash-fields-time-sec.log": "generic",
    "generic-ludwig-pr1803-eval-bars-then-box-tables-loss-roc-auc.log": "generic",
    "generic-bot-mmorpg-ai-issue76-double-clock-epoch-batch-of-126-epoch-summary-eta.log": "generic",
    "generic-p2t-issue13-deit-style-json-log-epoch-98-to-108-test-at-100.log": "generic",
    "generic-demucs-issue315-solver-train-epoch-35-of-332-it-sec-valid-summary.log": "generic",
    "generic-ultralytics-issue21765-yolo-epoch-22-of-55-negative-box-loss-9min-epochs.log": "generic",
    "generic-ultralytics-issue19571-yolo11-tune-epoch-16-of-30-zero-metrics-box-loss-up.log": "generic",
    "generic-isaaclab-issue5084-rsl-rl-learning-iteration-1-of-10-blocks.log": "generic",
    "stable-baselines-rl-baselines3-zoo-pr521-sb3-ppo-table-iterations-18-timesteps-73728.log": "stable-baselines",
    "generic-dscnet-issue1-epoch-198-bracket-iter-of-927-time-avg-many-losses-accu.log": "generic",
    "generic-tf-estimator-issue43014-loss-step-0-100-global-step-per-sec-glog.log": "generic",
    "generic-flax-issue3364-clu-logging-writer-step-400-500-four-hosts-steps-per-second.log": "generic",
    "generic-xgboost-issue3366-train-valid-logloss-every-10-stopping-best-iteration.log": "generic",
    "generic-xgboost-issue1288-sklearn-validation-0-rmse-spaces-stopping-best-31.log": "generic",
    "generic-xgboost-issue807-xgb-cv-mean-plus-std-every-5.log": "generic",
    "generic-lightgbm-ashrae-pr63-train-loss-eval-rmse-every-25-running.log": "generic",
    "generic-lightgbm-issue3145-r-package-round-colon-l2-every-round.log": "generic",
    "generic-cltr-issue15-training-epoch-844-855-of-1500-epoch-time-dated.log": "generic",
    "generic-rsl-rl-mjlab-pr1021-learning-iteration-66-of-30000-one-block.log": "generic",
    "generic-rsl-rl-hover-issue45-learning-iteration-156025-computation-steps-s.log": "generic",
    "generic-yolo11-ultralytics-issue22209-new-bars-epochs-12-14-of-300-it-s.log": "generic",
    "crash-nscl-issue23-validation-bar-glued-jac-crun-line-6-pid-killed.log": "generic",
    "generic-deeprm-issue10-iteration-blocks-elapsed-time-seconds-tabs.log": "generic",
    "stable-baselines-sb2-stable-baselines-issue121-ppo2-table-nupdates-782-ep-rewmean-nan.log": "stable-baselines",
    "stable-baselines-sb2-stable-baselines-issue339-ppo2-table-nupdates-77746.log": "stable-baselines",
    "stable-baselines-sb3-ppo-minigrid-tables-iterations-19529-to-19532.log": "stable-baselines",
    "hf-trl-ppo-hongbomiao-pr37684-dicts-episode-epoch-no-step.log": "hf-trainer",
    "generic-spacy-issue7083-ner-table-tok2vec-ner-losses-every-200.log": "generic",
    "generic-spacy-issue12299-spancat-init-then-table-epochs-0-13.log": "generic",
    "crash-llm-trainer-issue2-wrapped-traceback-header-glued-to-download-bar.log": "generic",
    "crash-dreamerv3-issue203-metrics-line-writing-metrics-then-zh-killed.log": "generic",
    "verl-issue2060-step-0-validation-line-only-before-training.log": "verl",
    "crash-detectron2-issue1563-oom-exception-during-training-then-hooks-summary.log": "generic",
    "generic-torch-xla-pr6026-four-devices-unordered.log": "generic",
    "generic-mmengine-xtuner-issue187-gradnorm-nan-loss-finite.log": "generic",
    "generic-storch-issue51-scala-pico-gpt-elapsed.log": "generic",
    "torchtitan-pr3393-grad-norm.log": "torchtitan",
    "torchtitan-pr533-total-steps-wps.log": "torchtitan",
    "torchtitan-pr1625-init-only-warmup-adjusted.log": "torchtitan",
    "broken-chinese-llama-alpaca-issue534-deepspeed-overflow-repeating.log": "hf-trainer",
    "broken-llamafactory-issue5660-fp16-nan-grad-lr-frozen.log": "hf-trainer",
    "crash-firefly-issue183-nccl-watchdog-glued-bar.log": "hf-trainer",  # bars alone
    "crash-hivemind-issue443-warning-nonfinite-norm-continues.log": "hivemind",  # the 2021 examples' records
    "crash-nanochat-rtx4070-step0-oom-optimizer.log": "nanochat",
    # no trainer's line at all: the launcher's failure, the fp16 scaler's records
    "crash-cppo-issue6-childfailed-sigkill.log": "generic",
    "crash-hf-deepspeed-issue25027-killed-loading-best-model-after-training.log": "generic",
    "crash-composed-torchrun-closing-signals-accelerate-exit-status.log": "generic",
    "broken-cogvideo-issue233-deepspeed-overflow-warmup-transient.log": "generic",
    "crash-llamafactory-issue9695-sighup-death-signal-glued-bar.log": "hf-trainer",
    "generic-megatron-deepspeed-issue396-no-loss-grad-norm-nan.log": "generic",
    "hf-chinese-llama-alpaca-issue534-bars-only-deepspeed.log": "hf-trainer",
    "hf-trl-issue3452-grpo-dicts-loss-zero-normal.log": "hf-trainer",
    "hf-unsloth-issue1145-unsloth-train-bar-suffix.log": "hf-trainer",
    "hivemind-issue504-load-state-index-error-retrying.log": "hivemind",  # the message alone
    "hivemind-issue653-load-state-timeout-retrying.log": "hivemind",  # python logging, no time
    "modded-nanogpt-track2-medium-2025-09-11-done-no-eol.txt": "modded-nanogpt",
    "nanochat-rtx4070-core-then-steps-with-epoch-eta.log": "nanochat",
    "nanochat-rtx4070-log-ends-mid-run.log": "nanochat",
    # trainers without a parser of their own (nanoGPT's own line, though a "custom loop", is nanoGPT's)
    "generic-custom-llama2c-issue461-tinystories-mps.log": "generic",
    "generic-custom-nanogpt-issue110-iter-loss-time.log": "nanogpt",
    "generic-custom-slm-training-metrics-jsonl-relaunch.log": "generic",
    "generic-cleanrl-issue11-global-step-episode-reward-lines.log": "generic",
    "generic-chatglm-lora-issue32-bare-tensor-loss-prints-then-nan.log": "generic",
    "crash-mobile-deeplab-issue17-tf-estimator-model-diverged-with-loss-nan-traceback-cut.log": "generic",
    "generic-dirac-pytorch-issue4-loss-tensor-prints-beside-parameter-and-gradient-tensors.log": "generic",
    "generic-lightning-issue11471-pre-html-escaped-bar-epoch-80-10-of-15.log": "generic",
    "generic-verse-medical-issue31-time-of-day-prefix-train-iter-loss-net-nan.log": "generic",
    "generic-diffusion-pipe-issue410-deepspeed-log-dist-step-1-to-4-iter-time-530s.log": "generic",
    "generic-gpt-neox-issue947-llama-bf16.log": "generic",
    "generic-lightning-novae-issue27-epoch-end-bar.log": "generic",
    "generic-lightning-rvt-issue40-max-steps-reached.log": "generic",
    "generic-litgpt-issue1110-lora-finished.log": "generic",
    "generic-litgpt-issue1607-gpt2-pretrain-remaining-time.log": "generic",
    "generic-litgpt-issue689-loss-not-decreasing.log": "generic",
    "generic-llama-recipes-hpcaub-userguide-file-octopus-llm-rst-done.log": "generic",
    "generic-llama-recipes-llama-cookbook-issue320-epoch1-bars.log": "generic",
    "generic-llamafactory-trainer-log-jsonl-mistral-translator-tail-done.log": "generic",
    "generic-llamafactory-trainer-log-jsonl-qwen2.5-7b-medical-finetune-head.log": "generic",
    "generic-llamafactory-trainer-log-jsonl-sft-training-llm-interleaved-resume.log": "generic",
    "generic-megatron-deepspeed-argonne-megatron-deepspeed-file-alcf-readme-ckpt-crash.log": "generic",
    "generic-megatron-deepspeed-bigscience-file-tr1-13B-chronicles-ecc-crash.log": "generic",
    "generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-wrapped-throughput-drop.log": "generic",
    "generic-megatron-lm-chinese-transformer-xl-issue7-lm-loss-nan.log": "generic",
    "generic-megatron-lm-issue5-bert-lm-nsp-loss.log": "generic",
    "generic-megatron-lm-issue756-mixtral-h100.log": "generic",
    "generic-megatron-lm-playground-nemo-2.0-gh-file-byoc-mbridge-done.log": "generic",
    "generic-mlx-lm-issue18-val-every-5.log": "generic",
    "generic-mlx-lm-issue236-metal-oom-crash.log": "generic",
    "generic-mlx-lm-mlx-examples-issue210-lora-slow.log": "generic",
    "generic-mlx-lm-pr421-apertus-report20.log": "generic",
    "generic-nemo-nemo-framework-launcher-issue55-reduced-train-loss.log": "generic",
    "generic-nemo-speech-issue5468-ambernet-bars.log": "generic",
    "generic-torchtune-pr1358-step-loss-tokens-per-second.log": "generic",
    "generic-torchtune-pr2620-multinode-lora-bars.log": "generic",
    # the held-out set, read since
    "broken-llamafactory-issue2810-nan-grad-callbacks-echo.log": "hf-trainer",
    "broken-hf-pink-issue6-loss0-gradnan-padded-dicts.log": "hf-trainer",
    "hf-llamafactory-running-log-stopped-early-epoch123.log": "hf-trainer",
    # a custom loop's bare tqdm bars: read by the HF Trainer's bar reader, and named for it (docs/formats.md)
    "crash-generic-polymergnn-slurm-timelimit-glued-bar.log": "hf-trainer",
    "crash-generic-prime-rl-issue1360-sigterm-at-step0.log": "generic",
    "crash-hf-llamafactory-issue8868-bar-glued-rank-traceback.log": "hf-trainer",
    "nanochat-rtx4070-resume-crash-wandb-no-tty.log": "nanochat",
    "nanochat-rtx4070-speedprobe-cpu-fallback-no-steps.log": "nanochat",
    "hf-trainerstate-llm-training-done-45-of-45.trainer_state.json": "hf-trainer",
    "hf-trl-trainerstate-tinyllama-checkpoint-2800-of-2808.trainer_state.json": "hf-trainer",
    "crash-nanochat-rtx4070-core-eval-oom-glued-traceback.log": "nanochat",
    # nanoGPT's lines behind a time and a Markdown quote's "> ": the quote peeled, they are nanoGPT's
    "generic-custom-nanogpt-issue215-loss-nan.log": "nanogpt",
    "generic-custom-parameter-golf-issue839-modded-nanogpt-style.log": "modded-nanogpt",
    "generic-lightning-pytorch-lightning-issue4225-progress-bar.log": "generic",
    "generic-litgpt-issue1224-lora-val-na.log": "generic",
    "generic-llama-recipes-llama-cookbook-issue408-fsdp-4-ranks.log": "generic",
    "generic-llamafactory-trainer-log-jsonl-luojiu-7b-base-tail-days.log": "generic",
    "generic-llamafactory-trainer-log-jsonl-nsllm-head-days-eta.log": "generic",
    "generic-megatron-deepspeed-bigscience-file-tr11-176B-chronicles-loss-spike.log": "generic",
    "generic-megatron-lm-epfllm-megatron-llm-issue11-slow.log": "generic",
    "generic-megatron-lm-issue60-fp16-skipped-no-loss.log": "generic",
    "generic-mlx-lm-mlx-examples-issue557-mixtral.log": "generic",
    "generic-mlx-lm-pr330-cuda-backend.log": "generic",
    "generic-nemo-bionemo-recipes-pr740-nemo2-text-lines.log": "generic",
    "generic-torchtune-pr640-step-loss-gpu-resources.log": "generic",
    "hf-open-r1-issue483-header-only-total-steps.log": "hf-trainer",
    "hf-unsloth-studio-pr4547-string-values-bar-glued-warning.log": "hf-trainer",
    "hivemind-issue455-progress-then-out-of-sync.log": "hivemind",
    "modded-nanogpt-2025-07-18-tritonmuon-done-no-eol.txt": "modded-nanogpt",
    "nanochat-rtx4070-base-eval-only-core.log": "nanochat",
    "torchtitan-issue1232-pp-loss-minus1-total-steps.log": "torchtitan",
    "broken-generic-apex-issue318-overflow-repeating.log": "generic",  # the fp16 scaler's records alone
    "broken-hf-modernbert-issue233-gradnan-then-loss0.log": "hf-trainer",
    "crash-generic-nemo-lightning-bar-glued-nccl-watchdog-pytorch-118369.log": "generic",
    "crash-hf-ms-swift-issue64-sighup-death-signal-glued-bar.log": "hf-trainer",
    "hf-ms-swift-rldecisionagent-file-error-md-grpo-dicts-global-step-1-to-6-of-9-train-speed-grad-norm-0.log": "hf-trainer",
    "maxtext-pr4847-glog-completed-step-profiler.log": "maxtext",
    "hf-trainer-ezpz-aurora-bars-and-dicts-step11.log": "hf-trainer",
    "hivemind-issue447-albert-monitor-loss-flat-elided.log": "hivemind",
    # a traceback alone, no monitor line: the generic reader's crash (its header accepts either)
    "hivemind-issue453-monitor-load-state-indexerror-exit.log": "generic",
    "modded-nanogpt-2026-01-04-no-train-loss-cut-midrun.txt": "modded-nanogpt",
    "modded-nanogpt-scaleup1b-1.5b-done.txt": "modded-nanogpt",
    # nanochat's lines quoted behind a monitor's labels (its header accepts generic with the same figures)
    "nanochat-rtx4070-hourly-monitor-quoted-step-lines.log": "generic",
    "nanogpt-issue461-iter-351k-two-lines.log": "nanogpt",
    "torchtitan-pr950-relooped-warning-no-total.log": "torchtitan",
    "generic-fairseq-issue301-legacy-epoch-progress-valid.log": "generic",
    "generic-fairseq-composed-simple-progress-epoch-rollover.log": "generic",
    "modded-nanogpt-rtx4070-laptop-training-log-step150-of-3250.txt": "modded-nanogpt",
    "modded-nanogpt-composed-fork-pipes-train-loss-mib.txt": "modded-nanogpt",
    "modded-nanogpt-record-2024-10-09-soap-early-cut-step130.txt": "modded-nanogpt",
    "generic-megatron-deepspeed-bigscience-file-tr8b-104B-chronicles-resume-overflow-spike.log": "generic",
    "generic-gpt-neox-composed-resume-overflows-deepspeed-records.log": "generic",
    "generic-lightning-delve-s18-file-readme-keyboardinterrupt-epoch19.log": "generic",
    "generic-lightning-composed-keyboardinterrupt-info-2x.log": "generic",
    "generic-lightning-autom3l-file-readme-result-loss-nan-max-epochs-done.log": "generic",
    "generic-lightning-composed-cut-v-num-not-in-top-k.log": "generic",
    "generic-textsim-issue2-tpu-estimator-global-step-sec-doubled-absl-glog-lines.log": "generic",
    "generic-nemo-speech-issue13140-async-checkpoints-not-in-top-1-then-max-steps-10-reached.log": "generic",
    "generic-custom-modded-llama2-issue10-llama2c-every-10.log": "generic",
    "generic-megatron-deepspeed-bigscience-file-tr11-reshaping-log-rank-prefix-seconds-restart.log": "generic",
    "generic-megatron-lm-issue449-v100-skipped-17-every-100.log": "generic",
    "generic-mlx-lm-azure-devsummit-file-readme-phi35-done-500.log": "generic",
    "hivemind-issue451-albert-step109-zero-contribution.log": "hivemind",
    "hivemind-ppo-readme-first-peer-epoch0-wrapped.log": "hivemind",
    "modded-nanogpt-record-2025-01-16-sub3min-done-peak-memory.txt": "modded-nanogpt",
    "stopself-parameter-golf-ternary-custom-keys-wallclock-cap-final-sliding.log": "modded-nanogpt",
    "hf-ipex-llm-cpu-qlora-runtime-xxxx-dict-then-bar-then-trainoutput.log": "hf-trainer",
    "hf-ipex-llm-qlora-trl-example-runtime-dict-then-bar-then-trainoutput.log": "hf-trainer",
    "generic-rlinf-issue777-metric-table-box-step51-of-1000.log": "generic",
    "generic-rlinf-pr942-metric-table-box-step6-of-1000.log": "generic",
    "verl-VERL-Maze-crash-before-step1-notimplemented.log": "verl",
    "verl-dstack-configs-ppo-gsm8k-done-435-final-validation.log": "verl",
    "verl-gui-cursor-moving-grpo-step10-of-133000-midrun.log": "verl",
    "verl-walar-grpo-bars-only-step33-of-15625.log": "verl",
    # a run's endings: a wall-clock cap read late, a model saved then wandb's closing block, a Ctrl-C glued to a bar
    "stopself-parameter-golf-leakyrelu-ttt-wallclock-cap-long-final-eval.log": "modded-nanogpt",
    "stopself-buildyourownllm-babygpt-v12-speed-time-lines-model-saved.log": "generic",
    "stopself-slowrun-pr15-copied-final-summary-total-training-time-final-train-loss-min-val-loss.log": "generic",
    "stopself-wandb-issue2450-run-summary-yolov5-losses-metrics-no-steps.log": "generic",
    "crash-trl-dapo-grpo-keyboardinterrupt-glued-to-bar-6-of-29790.log": "hf-trainer",
    # verl's bar alone behind Ray's ANSI prefixes, stuck at 0/58: verl's (a known format's step 0 is not the fallback's)
    "verl-chrisytz-tpu-xla-stuck-step0-of-58.log": "verl",
    # hivemind's 2021 format; gensyn rl-swarm over hivemind (its DHT failing to start, its rounds and stages); petals
    "hivemind-issue351-cancelled-then-task-exception-never-retrieved.log": "hivemind",
    "hivemind-issue351-collab-accumulated-then-allreduce-error.log": "hivemind",
    "hivemind-issue351-debug-allreduce-group-not-found.log": "hivemind",
    "hivemind-issue401-download-state-6min-then-step0-loss.log": "hivemind",
    "hivemind-petals-issue255-client-warn-path-logger-retry-forward.log": "hivemind",
    "hivemind-rlswarm-issue16-joining-round-14-stage-1-bar-0-of-2.log": "hivemind",
    "hivemind-rlswarm-issue421-genrl-bracketed-startup-no-steps.log": "hivemind",
    "hivemind-rlswarm-issue189-identity-check-then-dht-traceback.log": "hivemind",
    "hivemind-rlswarm-issue213-dht-daemon-failed-tail-terminated.log": "hivemind",
    "hivemind-rlswarm-issue219-hello-joining-round-107-stage-2-bar-glued-warning.log": "hivemind",
    "hivemind-rlswarm-issue22-already-finished-round-24-skipping-loop.log": "hivemind",
    "hivemind-rlswarm-issue246-dht-daemon-failed-bootstrap-shutdown.log": "hivemind",
    "hivemind-rlswarm-issue330-identity-check-blank-then-py313-traceback.log": "hivemind",
    "hivemind-rlswarm-issue332-chain-peers-identity-then-traceback.log": "hivemind",
    "hivemind-rlswarm-issue335-debug-logfile-joining-round-646-stage-2.log": "hivemind",
    # rl-swarm's launcher lines ("An error was detected while running rl-swarm", "Shutting down trainer...")
    "hivemind-rlswarm-issue341-mps-oom-error-detected-shutting-down-stack.log": "hivemind",
    # its bar (the Trainer's) and its launcher's line tie: the earlier row takes it
    "hivemind-rlswarm-issue303-bar-glued-killed-9-shutting-down.log": "hf-trainer",
    "generic-rppg-mae-issue8-metriclogger-epoch12-then-test-pipes.log": "generic",
    "generic-metriclogger-pyra-issue3-epochs-41-to-43-total-time-s-per-it.log": "generic",
    "hivemind-rlswarm-issue94-cuda-platform-joining-hello-registering-then-traceback-header.log": "hivemind",
    "stable-baselines-sb3-stable-baselines-issue1204-ppo-table-iterations-7-time-elapsed-136.log": "stable-baselines",
    "generic-modula-pr1-step-train-test-loss-tokens-per-gpu-sec-mfu.log": "generic",
    "generic-t81-558-issue86-keras-verbose2-epoch-of-1000-tf-glog-lines.log": "generic",
    # a Lightning bar then a traceback; diffusers' ``Steps: 1/2 … loss=, lr=`` bar read as the Trainer's
    "crash-dreambooth-joepenna-issue45-lightning-bar-training-complete-then-traceback.log": "generic",
    "crash-sd-dreambooth-ext-issue219-steps-bar-1-of-2-exception-cuda-oom.log": "hf-trainer",
    "generic-deep-object-pose-issue220-train-epoch-bracket-percent-tab-loss.log": "generic",
    "hf-paddlenlp-pr1761-dicts-global-step-bar-200-of-600-glued-running-evaluation.log": "hf-trainer",
    "hf-sentence-transformers-pr2449-v3-loss-dicts-epoch-0.38-then-eval-dict.log": "hf-trainer",
    # RLlib's result blocks (bare, or under Tune's ``Result for``) and Tune's boxed table of trials; ESPnet2's trainer
    "rllib-ray-issue3908-ppo-bare-results-iteration-5-tail-then-6-then-7-begun.log": "rllib",
    "rllib-ray-pr27093-result-for-ppo-cartpole-indented-block-iteration-1-cut.log": "rllib",
    "rllib-tune-ray-issue5996-boxed-trial-table-sac-iter-66.log": "rllib",
    "rllib-tune-rllib-energyplus-issue1-boxed-trial-table-ppo-iter-118.log": "rllib",
    "rllib-tune-ray-issue36790-air-output-trial-completed-20-iterations-result-box.log": "rllib",
    "espnet-issue2674-lm-1epoch-train-6376-to-7500-results-valid-loss-then-2-of-20-started.log": "espnet",
    "espnet-issue2183-backticked-train-time-1-8s-dates-448ms-a-batch.log": "espnet",
    "tinygrad-pr13803-mlperf-llama-steps-1-to-10-s-run-loss-lr-gb-used.log": "tinygrad",
    # totals in other words and counts that start again each pass (read by the generic reader); RLlib's env steps
    "generic-keras3-tracknetv4-issue3-closing-lines-of-many-fits-no-epoch-headers.log": "generic",
    "generic-kohya-sd-scripts-issue2137-epoch-headers-6-of-80-over-a-bar-of-all-steps-avr-loss-nan.log": "generic",
    "generic-mmdet-issue3495-terminal-copy-max-200-epoc-hs-epoch-1-iter-100-of-175.log": "generic",
    "generic-wav2lip-issue33-unsized-tqdm-11it-per-pass-repeated.log": "generic",
    "rllib-ray-pr3498-ddpg-status-line-then-result-iter-8-cut-before-timesteps-total.log": "rllib",
    "rllib-tune-ray-issue33150-trial-table-two-appo-trials-running.log": "rllib",
    "stable-baselines-zeshiwu-capstone-sb3-ppo-breakout-iterations-1-to-4.log": "stable-baselines",
    "chainer-espnet-pr1138-asr-train-printreport-iterations-100-to-300-progressbar-escapes.log": "chainer",
    "chainer-chainer-issue7591-printreport-wrapped-header-epoch-1-iteration-356-val-losses.log": "chainer",
    # what a paste added around the line (a backtick, caret-notation escapes) is read past by every row and the sniffer
    "generic-maxtext-pr761-prose-example-line-backticked-completed-step-9-tokens-per-s-per-device-loss-0.log": "maxtext",
    "verl-issue316-backticked-main-task-step-5-line-first-physical-part-cuda-error-not-in-lines.log": "verl",
    "hivemind-petals-issue389-server-loading-blocks-72-to-76-adapters-terminal-escape-junk-glued.log": "hivemind",
    # a start banner's planned length and nothing after it; a cache check's bar signs the Trainer's, which reads nothing
    "stall-kohya-ss-issue1626-backticked-cache-bars-then-running-training-banner-1520-steps-no-step-yet.log": "generic",
    "stall-kohya-ss-issue2305-running-training-banner-3900-steps-10-epochs-no-bar-yet.log": "generic",
    "stall-hf-open-r1-issue483-explicit-format-running-training-banner-196-steps-no-step-yet.log": "hf-trainer",
    # a logger's record that training failed, and its traceback; test reports alone
    "crash-detectron2-issue838-error-exception-during-training-traceback-floatingpointerror-iteration-2137-no-step-lines.log":
        "generic",
    "eval-deepspeech-issue1425-indented-code-command-then-w-and-i-lines-test-of-epoch-77263-wer-loss-samples.log": "generic",
    "eval-deepspeech-issue1643-backticked-i-test-of-epoch-7593-wer-loss-mean-edit-distance-samples.log": "generic",
    # a Keras run whose loss turns NaN at its first epoch; the lecture GPT's evaluation lines alone, every 500 steps
    "generic-keras-faultnet-issue1-epochs-1-to-8-of-1000-loss-nan-from-epoch-1.log": "generic",
    "nanogpt-lecture-taxophoney-readme-eval-lines-only-step-0-to-4999.log": "nanogpt",
    # figures read from a log's own shape: a time over the interval between records, ``tag value step`` scalars, a batch
    # count and the epoch said around it, a hand-drawn bar, a bar flushed after the traceback, a bar's description
    "generic-jax-flax-rl-blox-pr53-sac-global-step-episodic-return-lines-losses-every-1000-to-195599.log": "generic",
    "generic-pccai-issue1-batch-count-220-to-300-of-308-epoch-3-of-3-summary-checkpoint-saved-then-training-at-epoch-4-total-4.log":
        "generic",
    "generic-glpdepth-issue13-custom-bars-st-6057-of-6057-rem-depth-loss-overwrite-junk-metric-tables-epoch-11-of-025-nan-warning.log":
        "generic",
    "crash-yolov3-issue1503-traceback-compute-loss-cuda-oom-then-glued-bar-epoch-0-of-299-batch-34-of-54-1-26s-it.log": "generic",
    "generic-trace-issue5-deepspeed-style-tqdm-epoch-step-loss-in-description-beginning-of-epoch-glued-epoch-2-of-18-same-losses.log":
        "hf-trainer",
    # records read by their repetition (series.py)
    "generic-st-gcn-data-len-issue1-dated-training-epoch-80-tab-batch-0-to-500-of-589-done-loss-lr-then-mean-loss-eval.log":
        "generic",
    "generic-keras-rl-issue51-numbered-steps-18080-to-18092-of-100000-episode-3691-to-3694-episode-steps-4.log": "generic",
    "generic-paddle-book-cifar-readme-pass-0-batch-0-to-300-cost-classification-error-dots-then-test-with-pass-0.log": "generic",
    "generic-turicreate-issue2218-ascii-table-iteration-loss-elapsed-time-rows-1-7-elided-then-47509-to-47522.log": "generic",
    "generic-ppdet-static-pr1512-iter-0-to-10-every-2-quoted-loss-batch-cost-ips.log": "generic",
    "generic-asr-end2end-issue39-dated-epoch-20-21-train-loss-valid-shuffle-train-4h22m-per-epoch.log": "generic",
    "mlx-lm-mlx-lm-pr6-orpo-iter-50-of-500-val-at-1-and-50-rewards-no-trained-tokens.log": "generic",
    "nanogpt-style-vincentracine-file-readme-step-0-to-4500-every-500-train-val-loss-then-generating.log": "nanogpt",
    "generic-rl-tianshou-issue449-ppo-epoch-1-to-5-bars-50001it-env-step-250000-test-reward-200-best-in-1.log": "generic",
    "crash-jupyter-lipnet-issue23-keras-fit-cell-stopiteration-ipython-traceback-name-first.log": "generic",
    "generic-parallel-gan-issue3-pix2pix-visualizer-epoch-0-iters-13600-then-epoch-1-iters-300-to-500-five-losses.log": "generic",
    "generic-ddpg-liampetti-issue2-cartpole-pipe-reward-episode-669-to-680-qmax-no-loss.log": "generic",
    # a loop's own records whose losses carry no loss word (pix2pix); WeNet's ``TRAIN Batch E/B`` lines
    "generic-pix2pix-nvs-open4d-log-epochs-1-to-4-iters-reset-each-epoch-gan-losses-no-loss-word.log": "generic",
    "generic-wekws-issue214-train-batch-78-slash-0-to-150-epoch-then-batch-not-a-fraction-acc-zero.log": "generic",
    # mmcv's .log.json records; an epoch printed with its fraction (torch-rnn, char-rnn); trlx's bar described by its losses
    "generic-mmdet-dfft-issue4-log-json-records-iter-50-100-time-beside-data-time.log": "generic",
    "generic-mmseg-issue2899-log-json-train-records-iter-15950-16050-time-beside-data-time.log": "generic",
    "generic-torch-rnn-issue229-fractional-epoch-43-28-of-50-beside-iteration-823000-of-973300.log": "generic",
    "generic-char-rnn-issue215-step-of-9500-fractional-epoch-in-parentheses-time-per-batch.log": "generic",
    "generic-open-assistant-issue2140-trlx-bar-described-by-bracketed-losses-128-of-128-then-wandb-shutdown.log": "generic",
    # one dated record an epoch: no sentence
    "generic-staeformer-issue2-dated-epoch-line-train-val-loss-first-epoch-only.log": "generic",
    "generic-mst-issue7-dated-epoch-complete-avg-loss-then-testing-psnr-first-epoch-only.log": "generic",
    # tf.keras's fit counting samples (``44us/sample``)
    "generic-keras-hayatochigi-kaggle-readme-tf21-fit-samples-us-per-sample-epochs-1-3-then-48-50.log": "generic",
    "generic-keras-twitter-ukraine-readme-verbose2-epochs-86-100-of-100-then-own-print-done.log": "generic",
    "generic-metriclogger-llama2-accessory-issue48-epoch2-1500-of-1504-saves-then-bracketed-clock-training-time-done.log":
        "generic",
    "generic-metriclogger-audiomae-readme-epoch99-780-of-781-test-map-then-bracketed-clock-training-time-done.log": "generic",
    "generic-keras-handson-ml2-issue277-old-log-train-on-55000-samples-44us-per-sample.log": "generic",
    "generic-tf-object-detection-armaanpriyadarshan-issue6-model-lib-v2-per-step-time-steps-100-to-800.log": "generic",
    "generic-dcgan-torch-issue9-lua-epoch-2-batches-45-to-58-of-237-time-datatime-err-g-err-d.log": "generic",
    "generic-spinningup-issue37-epochlogger-table-epoch-48-cut-before-closing-rule.log": "generic",
    "generic-dreamer-goal-conditioned-metrics-jsonl-walker-steps-1000-to-5000-train-return.jsonl": "generic",
    "generic-dreamerv3-torch-world-model-assemble-metrics-jsonl-step-0-returns-then-step-5000-alone.jsonl": "generic",
    "generic-caffe-deepbinarycode-readme-iteration-50000-testing-net-accuracy-then-optimization-done.log": "generic",
    "generic-caffe-ocr-issue55-iteration-2500-testing-net-two-acc-outputs.log": "generic",
    "generic-card-games-wal8800-blog-em-dash-logger-epoch-6-7-policy-loss-return-lines.log": "generic",
    "detectron2-tx2dl-r50-fpn-log-done-299-overall-training-speed.log": "generic",
    "generic-lightweightcnn-squeezenet-log-md-epoch-46-to-49-of-0-49-then-complete-in-done.log": "generic",
    "generic-lightweightcnn-squeezenet-log-md-epoch-45-to-48-of-0-49-test-after-each-running.log": "generic",
    # Torch7's dcgan.torch lines: the epoch, the batch of its batches, the GAN's ``Err_G``/``Err_D`` losses
    "generic-art-dcgan-issue4-torch7-epoch-95-batches-0-12-of-13-err-g-err-d.log": "generic",
    # the HF notebook's table alone, copied as Markdown (``Step | Training Loss | …``)
    "hf-trainer-unsloth-issue2291-grpo-notebook-table-markdown-pipes-steps-1-11-loss-zero.log": "hf-trainer",
    "hf-trainer-soxan-issue9-notebook-table-markdown-pipes-steps-10-140-validation-accuracy.log": "hf-trainer",
    # a run's epochs said only in its arguments (a command line's ``--max_epochs 200``, argparse's ``Namespace(…)``)
    "generic-lightning-nnue-pytorch-issue83-argv-max-epochs-200-bar-epoch-1.log": "generic",
    "generic-metriclogger-rocm-blogs-vision-mamba-namespace-epochs-1-lookalike-epochs.log": "generic",
    # fastai's fit table (``epoch  train_loss  valid_loss  accuracy  time``), spaces or tabs
    "generic-fastai-multifit-qrnn-ja-1152-lm-table-rows-0-to-9-mm-ss-times-then-total-time.log": "generic",
    "generic-fastai-tsai-issue639-notebook-master-bar-4-of-25-tab-table-rows-0-to-3-nan.log": "generic",
    # a per-iteration time under its own name (NLUT's ``time/iter``, UCTransNet's ``(AvgTime 1.4)``)
    "generic-nlut-issue11-iter-3500-to-4500-time-per-iter-losses-nan.log": "generic",
    "generic-uctransnet-issue2-train-epoch-1-batch-208-to-219-of-4899-avgtime.log": "generic",
    # a count named by its own word: rl_games' epochs of their total, an RL loop's episodes
    "generic-rl-games-issue170-brax-fps-lines-epoch-3-to-14-of-1000.log": "generic",
    "generic-mlds2018spring-issue3-ppo-pong-episode-59-to-73-avg-reward.log": "generic",
    # DCGAN-tensorflow's ``Epoch: [ 5/200] [   0/   4] time: …, d_loss: …, g_loss: …``
    "generic-dcgan-tensorflow-issue276-epoch-2-to-5-of-200-batch-of-4-g-loss-zero.log": "generic",
    "generic-rocm-tensorflow-issue48-dcgan-mnist-epoch-4-of-25-batch-15-to-19-of-1093.log": "generic",
    # bare tqdm bars (the HF Trainer's signature) with a loop's own step record glued after each (wordplay's ezpz)
    "hf-bar-glued-record-wordplay-kharelb-homework6-ddp-step-100-of-100-loss-done.log": "hf-trainer",
    "hf-bar-glued-record-wordplay-argonne-readme-ddp-step-5-to-100-of-100-loss-done.log": "hf-trainer",
    "generic-elmo-embedding-study-file-readme-train-ep-0-batches-0-1-of-529-bracketed-after-epoch.log": "generic",
    "generic-cerebras-ai-science-training-series-file-homework7-bert-large-rate-globalrate-steps-100-1000-completed.log":
        "generic",
    # PaddleOCR's ``ppocr INFO: epoch: [e/E]`` lines with no global step
    "generic-paddleocr-fine-tuning-an-ocr-file-readme-epochs-1-10-of-10-no-global-step-done.log": "generic",
    "generic-paddleocr-fine-tuning-an-ocr-file-readme-opens-mid-epoch-3-cut-in-epoch-5.log": "generic",
    "paddle-paddlex-noctilucent-lamp-file-seal-det-epoch-100-of-100-eta-zero-final-eval-save.log": "generic",
    "paddle-customdevice-mlu-readme-lenet-epochs-2-of-2-eta-zero-from-iter-10-of-14.log": "generic",
    "nanogpt-lecture-nanogpt-follow-along-file-example-output-step-4999-then-generated-sample.log": "nanogpt",
    "verl-sft-rldecisionagent-file-char-count-readme-105-final-validation-then-leftover-bar-redraw.log": "generic",
    "keras-deep-learning-illustrated-lstm-sentiment-train-on-25000-samples-epochs-1-4-of-4-ms-per-step.log": "generic",
    "keras-deep-learning-with-python-3-5-imdb-train-on-15000-samples-epochs-1-20-of-20-epoch-time-only.log": "generic",
    "generic-siastegnet-issue1-literal-percent-f-dates-epoch-52-test-set-then-epoch-53-400-of-1000.log": "generic",
    "generic-automap-issue4-epochs-81-98-loss-camelcase-valloss.log": "generic",
    "generic-jittor-issue231-epoch-49-iterations-170-178-then-test-iterations-0-2.log": "generic",
    "generic-dcgan-tensorflow-issue175-older-print-epoch-14-batches-398-401-of-1093-time-since-start.log": "generic",
    "maxtext-pr3053-startup-tflops-split-wandb-no-step-yet.log": "maxtext",
    "nanogpt-issue579-config-file-echo-max-iters-5000-before-first-step.log": "nanogpt",
    "hf-intel-extension-pr152-eval-before-training-bar-0-of-6000-redrawn-under-eval-dicts.log": "hf-trainer",
    "generic-music-avqa-r-issue1-epoch1-percent-complete-0-to-80-bracketed-logger-prefix.log": "generic",
    "hf-cse5525-file-conll-shuffle-md-train-best-eval-predict-metric-blocks-alone.log": "hf-trainer",
    "hf-transformers-pr11980-train-metrics-block-alone.log": "hf-trainer",
    "hf-esm2-hyperpod-file-eks-pytorch-readme-fsdp-train-metrics-block-then-evaluation-and-eval-metrics-block.log":
        "hf-trainer",
    "bert-google-research-bert-issue699-pretraining-eval-results-block-alone.log": "generic",
    "bert-google-research-issue1717-run-classifier-eval-results-block-glog-and-tf-logger.log": "generic",
    "generic-cryonefen-issue2-quoted-epoch-3-end-cropped-then-epoch-17-of-20-images-900-of-6034.log": "generic",
    "generic-cryodrgn-issue18-train-vae-epoch-18-of-50-particles-436000-to-464000-of-2830676.log": "generic",
    "mmengine-crosskd-issue15-epoch-val-2-3100-to-3550-of-21046-validation-only.log": "generic",
    "generic-mxnet-issue4900-module-fit-speedometer-epochs-0-2-time-cost-validation.log": "generic",
    "generic-mxnet-cornernet-issue1-speedometer-batch-ranges-0-to-400-loss.log": "generic",
    "generic-optim-hopenet-issue3-epochs-86-87-batch-speed-loss-tuples-mae.log": "generic",
    "generic-rl-replications-pr7-vpg-epoch-summary-then-update-losses-em-dash.log": "generic",
    "generic-rlcard-file-getting-started-dqn-steps-then-evaluation-average-reward-is.log": "generic",
    "generic-gluon-mobilenet-yolov3-issue11-gluoncv-epoch-3-batches-10799-11499-speed-camelcase-losses.log": "generic",
    "generic-gluoncv-issue506-train-ssd-epoch-0-batches-0-3-speed-crossentropy-smoothl1.log": "generic",
    "generic-ludwig-rpi-course-notebook-epoch-headers-1-3-full-training-bars-box-tables-saves.log": "generic",
    "crash-nanochat-rtx4070-warning-record-then-traceback-header-cut-at-log-end.log": "nanochat",
    "yolo-seliah-thesis-outputs-epochs-26-32-of-100-stopping-training-early-patience-5.log": "generic",
    "yolo-sign-language-detection-readme-epochs-452-455-of-500-earlystopping-training-stopped-early.log": "generic",
    "hf-trainer-unsloth-transformers-issue30607-startup-banner-llava-model-download-bar-no-step-yet.log": "hf-trainer",
    "lightning-sagemaker-workshop-issue6-mpirank-prefixed-epoch0-1-of-2-then-validation-dataloader-0-of-1.log": "generic",
    "generic-word-language-model-nlpia2-rnn-relu-5-of-5-epochs-loss-nan-end-of-training.log": "generic",
    "generic-mos-issue12-word-language-model-fork-epochs-9-10-end-of-epoch-valid-saving.log": "generic",
    "generic-transformer-xl-issue15-fenced-steps-26800-28600-eval-7-at-step-28000.log": "generic",
    "generic-imagenet-resnet50-dhairyag-file-log-output-epochs-1-7-test-set-then-epoch-8-lr.log": "generic",
    "generic-eva4-s4-file-readme-epoch-loss-bar-938-of-938-test-set-epochs-17-19.log": "generic",
    "generic-pytorch-common-voice-file-readme-mnist-example-epochs-19-20-test-set.log": "generic",
    "generic-kubeflow-labs-file-5-tfjob-readme-tf1-retrain-steps-480-499-cross-entropy-validation-accuracy-final-test.log":
        "generic",
    "generic-dcos-tensorflow-demos-file-poets-readme-tf1-retrain-step-499-two-handlers-each-line-twice.log": "generic",
    "generic-mmdet-fenghuo-file-mm-md-epoch-1-900-of-930-glued-progressbar-coco-then-epoch-val-map-then-epoch-2-100.log":
        "generic",
    "generic-mmaction-issue199-epoch-14-1700-1720-of-1730-progressbar-then-epoch-val-top1-top5-acc.log":
        "generic",
    "generic-mmcls-mmpretrain-issue742-epoch-4-2200-2500-of-2503-best-checkpoint-then-epoch-val-topk-then-epoch-5.log":
        "generic",
    "generic-gotorch-pr358-resnet-epoch-1-iterations-10-60-throughput-samples-per-sec-loss-nan.log": "generic",
    "generic-psenet-pytorch-issue41-epochs-8-11-of-100-steps-samples-per-sec-batch-loss.log": "generic",
    "generic-tensorflow-psenet-issue16-steps-0-20-seconds-per-step-examples-per-second.log": "generic",
    "generic-opennmt-tf-issue206-estimator-loss-for-final-step-three-workers-done.log": "generic",
    "crash-bert-issue1387-tpu-estimator-training-loop-marked-as-finished-then-reraised-error.log": "generic",
    "crash-lvc-issue20-detectron2-floatingpointerror-iteration-1029-frame-tail-no-step-lines.log": "generic",
    "generic-metriclogger-gfnet-patternanalysis-readme-epoch-251-then-test-0-100-of-141-cut.log":
        "generic",
    "generic-metriclogger-gfnet-patternanalysis-readme-epoch-251-test-pass-then-starred-acc1-result.log":
        "generic",
    "generic-metriclogger-pyra-issue3-test-40-95-of-96-starred-acc1-acc5-loss-then-epoch-51-0-10-of-31.log":
        "generic",
    "metriclogger-pyra-issue3-test-40-60-of-96-running-loss-acc1-validation-only-cut.log":
        "generic",
    "generic-yolox-bytetrack-issue438-epoch-5-iter-7300-of-7311-save-then-eval-bar-evaluate-in-main-process.log":
        "generic",
    "generic-damo-yolo-issue22-epoch-10-iter-328-of-358-save-then-start-evaluation-on-coco-val.log":
        "generic",
    "generic-metriclogger-audiomae-readme-epoch99-780-of-781-then-bracketed-clock-test-0-of-79-cut.log":
        "generic",
    "generic-shakespeare-text-generator-readme-glued-step0-1300-loss-lr-model-saved-cut.log": "generic",
    "generic-nlp-study-week03-gru-chinese-batch-loss-epochs-1-2-of-4-test-accuracy-then-epoch-3-batches-cut.log":
        "generic",
    "generic-qlearning-hardikbansal-issue2-total-rewards-in-episode-73-to-88-constant-reward-total-steps.log": "generic",
    "generic-keras-io-issue89-dqn-breakout-running-reward-at-episode-frame-count-elided.log": "generic",
    "generic-keras-rl-pr80-sarsa-numbered-steps-39160-to-40336-of-50000-episode-steps-13-337-446-393.log": "generic",
    "generic-rainbow-dqn-aryanchegini-file-training-output-episode-50-to-300-steps-score-total-steps.log": "generic",
    "generic-mxnet-k8s-pr1-module-fit-epochs-4-6-time-cost-then-next-epoch-batches.log": "generic",
    "generic-mxnet-r-pr3932-speedometer-batches-without-epoch-round-1-then-round-2-batch-300.log": "generic",
    "generic-mxnet-r-custom-iterator-tutorial-speedometer-rounds-9-10-k80-each-round-ended.log": "generic",
    "generic-paddle-models-pr4944-cyclegan-counter-line-then-loss-and-time-lines-epoch0-batches-0-20.log": "generic",
    "generic-ultralytics-issue17862-yolo-epoch-1-of-10-row-cut-before-size-val-header-cut-after-r.log": "generic",
    "generic-yolov9-s15-project-readme-epochs-0-3-of-49-val-header-cut-after-map50.log": "generic",
    "yolo-coralreef-conservation-logbook-yolov8-seg-val-headers-cut-after-box-r-and-at-mask-p.log": "generic",
    "generic-ludwig-issue138-epochs-4-5-colab-bars-box-tables-rating-loss-accuracy-hits-at-k.log": "generic",
    "hf-trainer-cse5525-baseline1-out-epoch-30-train-runtime-summary-then-metrics-blocks.log": "hf-trainer",
    "generic-turicreate-issue1640-activity-classifier-ascii-table-iterations-1-10-closed-by-bottom-rule.log": "generic",
    "startup-yolov5-peshmerge-ml2-file-terminal-output-300-epochs-header-no-row-yet.log": "generic",
    "startup-yolov5-issue3656-scan-bars-full-brackets-200-epochs-planned-no-row-yet.log": "generic",
    "generic-dl4j-houbb-lenet-mnist-score-iterations-880-930-starting-evaluation-nr-1-then-metrics.log": "generic",
    "startup-spacy-issue3166-v2-cli-defaults-then-itn-table-header-no-row-yet.log": "generic",
    "generic-rax-flax-example-json-dumps-indent-2-epochs-1-3-loss-ranking-metrics.log": "generic",
    "generic-sockeye-issue706-speedometer-batches-2700-3050-tokens-updates-perplexity-accuracy.log": "generic",
    "generic-sockeye-issue664-dated-colon-prefix-speedometer-batches-3150-3500-tab-separated.log": "generic",
    "stopself-lightgbm-boosting-benchmarks-higgs-cli-2016-finish-train-after-iteration-500.log": "generic",
    "stopself-lightgbm-boosting-benchmarks-higgs-cli-2020-finished-training-after-iteration-500.log": "generic",
    "stopself-wandb-dstack-verl-run-summary-alone-training-global-step-435.log": "generic",
    "stopself-wandb-berkeley-drl-hw4-grpo-closing-uploading-history-steps-48-51.log": "generic",
    "generic-tflearn-issue1065-termlogger-step-256-epoch-4-val-loss-val-acc-iter-4045-of-4045.log": "generic",
    "generic-tflearn-pannous-speech-number-classifier-comment-step-544-epoch-34-iter-0-of-1000.log": "generic",
    "generic-caffe-pr2114-multi-gpu-iteration-938-testing-net-begun-prefetch-queue-empty.log": "generic",
    "generic-caffe-spatialtransformer-issue13-iteration-48000-test-outputs-after-data-layer-restart.log": "generic",
    "generic-opennmt-lua-issue85-epoch-1-iterations-10-40-of-183-source-tokens-per-s.log": "generic",
    "generic-data2text-issue9-opennmt-lua-epochs-1-3-iter-of-213-target-tokens-validation-perplexity.log": "generic",
    "generic-opennmt-py-issue709-epoch-1-batches-12900-13400-of-37527-xent-src-tok-s.log": "generic",
    "generic-tf-object-detection-issue4683-every-line-twice-global-step-500001-500002.log": "generic",
    "generic-caffe-issue59-2014-testing-net-test-score-0-1-iterations-78000-78040.log": "generic",
    "generic-caffe-cifar10-readme-2014-iteration-500-testing-net-test-scores.log": "generic",
    "generic-automl-issue59-tpu-estimator-global-step-sec-examples-sec-only-no-step-doubled.log": "generic",
    "generic-tapas-issue91-tpu-estimator-global-step-sec-examples-sec-only-printed-total-loss-tensor.log": "generic",
    "generic-voxnet-readme-estimator-one-logging-hook-line-step-208-interval-then-final-step.log": "generic",
    "generic-opennmt-py-issue528-epoch-13-batches-64500-64650-ppl-no-loss-train-validation-perplexity.log": "generic",
    "generic-paddle-docs-lenet-tutorial-epoch-batch-id-bracketed-loss-acc-epochs-0-1.log": "generic",
    "generic-paddle-course-cv-notebook-epoch-batch-id-bracketed-loss-validation-epochs-0-4.log": "generic",
    "generic-opennmt-py-library-doc-steps-250-400-of-400-bracketed-level-validation-perplexity.log": "generic",
    "generic-yoruba-adr-file-run-results-steps-9900-10050-of-100000-bracketed-level-validation-perplexity.log": "generic",
    "generic-keras-issue13517-fit-generator-epochs-1-2-of-2-then-evaluate-bar-8000-no-loss.log": "generic",
    "generic-keras-ai-q2-pr16-notebook-epochs-96-100-of-100-then-evaluate-bar-2671-loss-accuracy.log": "generic",
    "generic-lightgbm-issue886-cli-parallel-iterations-17-20-binary-logloss-seconds-elapsed-finished-iteration.log": "generic",
    "generic-caffe-pr2350-glog-tests-every-40-iterations-0-to-80-loss-after-each-test.log": "generic",
    "generic-recbole-issue1533-metarec-epochs-0-3-training-evaluating-valid-result-day-month-minute-dates.log": "generic",
    "generic-rgcf-issue2-recbole-epochs-34-36-weekday-year-dated-training-evaluating-valid-result.log": "generic",
    "generic-mbht-kdd22-issue9-recbole-train-bars-named-by-epoch-1-3-evaluate-bars-valid-result.log": "generic",
    "crash-recbole-issue2057-srgnn-train-bar-epoch-0-then-evaluate-bar-at-0-traceback.log": "generic",
    "generic-skorch-docs-history-printlog-table-epochs-1-to-4-dur.log": "generic",
    "generic-skorch-cnn-sentence-blog-printlog-cp-column-epochs-1-to-12-early-stopping.log": "generic",
    "crash-verl-intuitor-ray-taskrunner-prefixed-frames-paste-cut-mid-frame-no-header-no-error-line.log": "generic",
    "crash-videoscore2-issue6-rank2-prefixed-frames-no-header-cut-before-error-line.log": "generic",
    "startup-lincir-issue14-accelerate-state-multi-gpu-warning-then-model-config-no-step-yet.log": "generic",
    "startup-diffusers-issue9778-accelerate-state-distributedtype-no-behind-terminal-title-no-step-yet.log": "generic",
    "stopself-bcnet-issue46-detectron2-starting-from-iteration-0-total-training-time-zero-then-eval-dataset.log": "generic",
    "generic-maskrcnn-benchmark-fcos-issue6-iter-500-560-running-average-loss-nan-cut.log": "generic",
    "generic-maskrcnn-benchmark-centermask-issue17-iter-20-exploded-median-nan-average.log": "generic",
    "generic-error-overflow-name-gen-gpt-epoch-bars-1-to-7-of-10-then-epoch-loss-lines.log": "generic",
    "generic-ai-applications-in-industry-lstm-epoch-bars-1-to-4-train-val-loss-lines-early-stopping.log": "generic",
    "generic-pgl-issue128-ogb-products-run-00-epochs-49-to-99-loss-train-valid-test-percent.log": "generic",
    "generic-sagn-issue1-papers100m-epochs-26-to-34-best-val-loss-accs-train-val-test.log": "generic",
    # a trainer's start-up through loguru, no miner message: never the miner's
    "loguru-startup-bytetrack-issue134-launch-banner-rank-init-no-iteration.log": "generic",
    "loguru-startup-diffusiontrack-issue4-args-and-exp-table-no-iteration.log": "generic",
    "generic-ctgan-issue298-epoch-lines-loss-g-loss-d-per-network-epochs-1-3.log": "generic",
    "keras-eip4-assign2-readme-train-on-60000-samples-epochs-1-4-of-20-whole-seconds-per-sample-bar.log": "generic",
    "keras-mnrmja007-readme-keras1-checkpoint-glued-bars-epochs-1-4-of-20-two-seconds.log": "generic",
    "generic-catboost-issue541-verbose-100-learn-test-best-total-remaining-to-600.log": "generic",
    "generic-catboost-optuna-issue4295-learn-only-iterations-1487-1492-remaining-0us.log": "generic",
    "generic-xgboost-spark-issue2945-akka-level-date-rounds-962-968-train-test-rmse.log": "generic",
    "generic-steppy-googleai-object-detection-issue87-epoch-1-batch-12-sum.log": "generic",
    "generic-ignite-ai-cifar10-distributed-tutorial-jupyter-epochs-3-5-train-val-metrics-blocks-end-of-run.log": "generic",
    "generic-master-thesis-results-md-ignite-training-validation-results-epochs-1-5-bars-test-results.log": "generic",
    "generic-ignite-ai-blog-2020-quick-start-validation-before-training-results-epochs-1-5.log": "generic",
    "crash-verl-issue1196-ray-task-error-oserror-task-runner-remote-traceback-cut.log": "generic",
    "crash-ray-issue25836-ray-task-error-then-cause-unboundlocalerror.log": "generic",
    "crash-kohya-colab-issue215-rich-traceback-accelerate-launch-cut-in-box.log": "generic",
    "crash-dolly-issue100-rich-traceback-training-main-cut-in-box.log": "generic",
    "crash-kohya-sd-scripts-issue1081-rich-traceback-square-box-after-bar-0-of-3200.log": "generic",
    "startup-efficientdet-issue228-keras-config-dict-epochs-10-then-tf-profiler-no-epoch-yet.log": "generic",
    "startup-keras-issue8595-comment-script-prints-then-epoch-1-of-15-header-no-bar-yet.log": "generic",
    "startup-knowledge-distillation-pytorch-file-base-cnn-train-log-three-starts-30-epochs-epoch-1-header-no-step.log": "generic",
    "startup-faster-rcnn-pytorch-issue84-called-with-args-namespace-max-epochs-1-then-config-no-step-yet.log": "generic",
    "lightning-deeplearningprojects-file-project11-model-py-epoch0-bar-246-254-of-308-validating-0-6-of-62.log": "generic",
    "lightning-temporal-file-slurm-out-validating-bars-glued-to-epoch0-bar-97-107-of-108.log": "generic",
    "lightning-tempo-file-mlflow-e2e-readme-epoch1-bar-860-920-of-939-validating-0-of-79.log": "generic",
    "generic-ignite-ai-getting-started-bracketed-epoch-iter-loss-training-validation-results-epochs-1-5.log": "generic",
    "generic-ignite-examples-time-profiling-bracketed-training-validation-results-epochs-1-2.log": "generic",
    "generic-monailabel-pr1333-ignite-trainer-evaluator-epoch-complete-time-taken-epochs-45-46.log": "generic",
    "generic-ignite-ai-nmt-tutorial-one-epoch-validation-metrics-engine-run-complete-end-of-run.log": "generic",
    "generic-jointbert-code-switching-readme-nested-epoch-iteration-evaluating-bars-epochs-0-2-of-50.log": "generic",
    "generic-bert-qna-trnsfrmr-readme-nested-epoch-iteration-bars-epoch-1-of-1-done.log": "generic",
    "generic-dgl-graphbolt-disk-based-feature-readme-unsized-training-bars-epochs-0-2.log": "generic",
    "keras-deep-learning-and-the-game-of-go-issue66-generator-bar-1-17-of-88-eta-only.log": "generic",
    "keras-keras-yolo3-issue299-train-bar-1-10-of-110-eta-falling-from-first-step.log": "generic",
    "keras-keras-issue2539-keras1-fit-generator-samples-per-epoch-bars-by-128-to-1408-of-8448-generator-prints.log": "generic",
    "keras-keras-issue5224-keras1-imdb-train-on-25000-samples-bars-32-to-160-epoch-1-of-15.log": "generic",
    "keras-aws-samples-ml-using-k8s-doc-mnist-cnn-train-on-60000-samples-epoch-12-of-12-bar-256.log": "generic",
    "generic-tensorlayer-srgan-issue224-epoch-47-48-steps-g-loss-parts-in-parentheses-d-loss.log": "generic",
    "generic-pytorch-srgan-issue13-epoch-end-lines-4-6-of-100-generator-loss-content-advers-total-slashed.log": "generic",
    "generic-transmogrifai-issue370-akka-dated-rounds-beside-xgboost-time-only-stamps.log": "generic",
    "crash-verl-issue4921-raylet-worker-died-system-error-no-step-lines.log": "generic",
    "crash-ray-issue47461-raylet-worker-died-then-torchtrainer-worker-0-failed.log": "generic",
    "crash-logic-rl-issue18-actor-dead-worker-process-died-system-error.log": "generic",
    "crash-mmdetection-issue11265-cuda-error-unspecified-launch-failure-no-frames.log": "generic",
    "crash-comfyui-mvadapter-issue52-cuda-error-misaligned-address-no-frames.log": "generic",
    "crash-xla-issue2875-hf-trainer-setup-then-exception-in-device-tpu1-check-failed.log": "hf-trainer",
    "crash-xla-issue7138-bar-1-of-7800-glued-absl-fatal-record-stack-trace.log": "hf-trainer",
    "crash-xla-issue2875-exception-in-device-tpu7-stack-trace-then-mp-start-fn-traceback-cut.log": "generic",
    "crash-mobilenet-ssd-issue180-caffe-glog-fatal-check-failed-then-other-thread-setup-lines.log": "generic",
    "crash-clustered-det-issue15-caffe2-terminate-what-enforce-fail-glog-sigabrt-core-dumped.log": "generic",
    "crash-adelaidet-issue285-terminate-c10-error-what-cuda-error-frames.log": "generic",
    "chainer-notmnist-readme-printreport-by-epoch-accuracy-epochs-1-to-20.log": "chainer",
    "chainer-jpegcomp-readme-printreport-by-epoch-no-iteration-lr-epochs-1-to-10.log": "chainer",
    "marian-marian-issue424-valid-stalled-update-5300-displays-5350-5400-gnorm-lr.log": "marian",
    "marian-marian-dev-issue480-displays-576000-to-580000-lr-valid-translation-ce-stalled.log": "marian",
    "startup-optuna-issue2909-lightgbm-tuner-cv-folds-data-set-built-no-round-yet.log": "generic",
    "startup-lightgbm-pr2851-two-workers-data-sets-start-from-score-no-iteration-yet.log": "generic",
    "generic-paddlenlp-fork-fewclue-csl-file-running-evaluation-block-total-prediction-steps-5-optimization-1000-steps-10-120.log":
        "generic",
    "generic-bionemo-recipes-pr740-nemo-iteration-lines-val-loss-carried-unchanged-global-step-120-125-of-149.log": "generic",
    "generic-keys-values-issue97-litgpt-style-val-loss-valid-carried-between-val-lines-iter-170-180.log": "generic",
    "generic-xlnet-finetuning-post-epochs-bar-alone-train-loss-prints-epochs-4-of-4-done.log": "generic",
    "stopself-graph-bert-readme-pretrain-optimization-finished-total-time-elapsed-best-testing-performance.log": "generic",
    "stopself-gcn-run-readme-tf-gcn-epochs-196-200-unitless-time-optimization-finished-test-set-results.log": "generic",
    "generic-grace-results-epochs-bar-alone-at-its-end-epochs-200-of-200-done.log": "generic",
    "generic-transfer-learning-tutorial-costalferz-leaf-disease-readme-epochs-73-74-of-74-training-complete-in-2m-43s.log":
        "generic",
    "generic-yolov7-issue849-old-columns-all-row-above-epoch-row-32-33-of-4999.log": "generic",
    "generic-ultralytics-issue7653-yolov8-epochs-44-46-of-1000-16-batches.log": "generic",
    "generic-d2go-issue524-detectron2-events-iter-19-to-99-eta-2-min.log": "generic",
    "generic-querydet-issue17-detectron2-events-level-after-name-iter-119-to-219.log": "generic",
    "generic-mmengine-pr155-epoch-train-1-of-80-of-90-negative-test-loss.log": "generic",
    "generic-fairseq-issue940-updates-445-to-645-mid-epoch-valid-at-600.log": "generic",
    "generic-keras-magpie-issue183-epochs-1-7-of-10-6072-steps-ms-per-step.log": "generic",
    "eval-detectron2-issue4469-inference-done-2309-to-2427-of-6028-alone.log": "generic",
    "eval-catseg-issue24-detectron2-inference-done-205-to-253-of-1276-alone.log": "generic",
    "bert-pytorch-pretrained-run-classifier-sentiment-readme-eval-results-block-global-step-159.log": "generic",
    "generic-deepspeed-issue697-timer-samplespersec-steps-130-240-rank-losses-at-200.log": "generic",
    "hf-llasa-training-issue47-dicts-epoch-029-036-eval-runtime-only-dict.log": "hf-trainer",
    "modded-nanogpt-pr65-val-loss-lines-only-steps-0-750-of-1480.log": "modded-nanogpt",
    "verl-issue1208-taskrunner-step-2-timing-s-step-96s.log": "verl",
    "generic-megatron-lm-transformerengine-fl-pr61-iterations-2-4-of-4-memory-line.log": "generic",
    "hf-unsloth-issue1194-banner-total-steps-220-no-step-yet.log": "hf-trainer",
    "nanochat-issue157-rtx4090-one-step-line-4245-of-21400.log": "nanochat",
    "nanogpt-issue210-finetune-config-echo-max-iters-20-step-0.log": "nanogpt",
    "torchtitan-dudeperf3ct-blog-train-llm-part2-stamp-only-lines-steps-100-200.log": "torchtitan",
    "generic-nnunet-issue1084-epochs-9-to-11-this-epoch-took-train-validation-loss-dice.log": "generic",
    "generic-nnformer-issue102-epoch-0-this-epoch-took-then-epoch-1-train-validation-loss.log": "generic",
    "generic-lightning-matgl-tutorial-m3gnet-epoch-0-full-bar-fit-stopped-max-epochs-1.log": "generic",
    "generic-lightning-tsai-erav1-readme-epoch-23-bar-split-fit-stopped-max-epochs-24.log": "generic",
    "generic-ezpz-diffusion-docs-unitless-dt-steps-0-to-12-dated.log": "generic",
    "generic-wordplay-homework-unitless-dt-steps-10-to-130-sample-and-save-between.log": "generic",
    "generic-mst-issue7-dated-epoch-lines-1-to-5-bare-time-per-epoch-checkpoints.log": "generic",
    "generic-retinexformer-issue6-basicsr-iters-55500-58000-validation-psnr-every-1000.log": "generic",
    "generic-retinexformer-issue6-basicsr-start-padded-epoch-iters-500-3000-validation-psnr.log": "generic",
    "generic-mmagic-issue82-esrgan-mmsr-padded-bracketed-iters-600-800-gan-losses.log": "generic",
    "startup-edvr-issue72-three-train-images-epochs-for-600000-iters-network-print-no-iteration.log": "generic",
    "startup-spsr-issue38-lmdb-datasets-epochs-for-500000-iters-init-no-iteration.log": "generic",
    "generic-centernet-issue335-dashed-minute-stamps-epochs-4-to-12-loss-hm-wh-off-time.log": "generic",
    "generic-fairmot-issue38-dashed-minute-stamps-epochs-1-to-9-loss-id-loss-time.log": "generic",
    "generic-wordplay-legend-drapi222-homework-steps-10-to-310-tps-sps-named.log": "generic",
    "generic-wordplay-legend-curry-hw6-steps-10-to-100-tps-sps-named-wrapped-records.log": "generic",
    "generic-deepspeed-userlabday-bert-squad-rank0-steps-20-40-timer-current-samplespersec.log": "generic",
    "generic-deepspeed-pr849-zero3-rank0-step-25-timer-samplespersec.log": "generic",
    "generic-prime-diloco-pr25-steps-1-6-tokens-per-second-mfu-above-1-percent.log": "generic",
    "generic-trainner-issue72-end-of-epoch-time-taken-lines-only-epochs-52-68-of-500000.log": "generic",
    "generic-cuda-mlp-readme-epoch-took-ms-lines-only-epochs-1-3.log": "generic",
    "generic-nnunet-v2-issue2140-epoch-time-printed-beside-dates-epochs-0-1-then-epoch-2-losses.log": "generic",
    "generic-irn-issue9-mmsr-validation-log-only-iters-5000-to-80000-psnr.log": "generic",
    "generic-sr3-issue147-mmsr-val-log-only-iters-10000-to-170000-psnr.log": "generic",
    "generic-basicsr-issue204-esrgan-validation-line-first-then-iters-107200-107600.log": "generic",
    "paddle-paddleocr-file-kie-doc-ser-steps-10-19-of-epoch-1-cur-metric-best-metric-save.log": "generic",
    "generic-adv2025-readme-dcgan-epochs-1-and-50-of-50-d-g-own-names.log": "generic",
    "generic-pymc-pr991-advi-iterations-0-to-18000-percent-elbo-own-name.log": "generic",
    "generic-sklearn-issue20223-kmeans-verbose-two-inits-inertia-its-cost.log": "generic",
    "generic-voiceprint-paddle-readme-glog-lines-before-dated-train-records-epoch-0-batch-7500-to-epoch-1-batch-200.log": "generic",
    "generic-aae-paddle-readme-glog-lines-between-dated-logger-records-epochs-0-1-batch-589-of-590.log": "generic",
    "hf-gpt-classification-example-readme-bert-style-running-training-num-steps-804-no-step.log": "hf-trainer",
    "hf-srlgrn-readme-squad-reader-running-training-num-steps-33894-no-step.log": "hf-trainer",
    "generic-build-nanogpt-fork-practice-steps-498-501-validation-hellaswag-count-of-total-fraction.log": "generic",
    "generic-minillm-readme-build-nanogpt-steps-19067-19071-validation-hellaswag-count-of-total-fraction.log": "generic",
    "generic-cleanai-ts4-finetune-epochs-1-9-of-10-bars-then-train-loss-train-acc-test-acc-percent.log": "generic",
    "generic-olmo-issue692-tab-fields-pasted-as-spaces-step-records-1-3-of-739328-metrics-one-a-line.log": "generic",
    "generic-olmo-ai-on-aks-readme-bracketed-time-steps-1-10-of-739328-batches-per-second.log": "generic",
    "generic-bearing-defect-readme-ga-generations-0-to-19-best-fitness-own-unit.log": "generic",
    "generic-dominating-set-ga-readme-generations-1-to-23-best-fitness-best-size.log": "generic",
    "generic-pymc-issue2162-advi-bar-then-finished-average-loss-closing.log": "generic",
    "generic-bayesian-analysis-ch8-advi-iterations-elbo-finished-closing-figure.log": "generic",
    "nanogpt-issue215-iters-2920-to-3000-evaluation-save-then-its-slow-iteration.log": "nanogpt",
    "generic-llama2c-issue461-iters-490-to-600-evaluation-save-then-its-slow-iteration.log": "generic",
    "nanogpt-chenzihua-fork-iters-305-to-400-evaluation-save-then-its-slow-iteration.log": "nanogpt",
    "keras-mlbotsample-readme-keras1-callbacks-from-zero-early-stopping-at-epoch-6-of-10.log": "generic",
    "keras-locator-issue23-tf-keras-callback-lines-after-partial-bars-epochs-86-91-of-5000.log": "generic",
    "generic-tf-nima-readme-step-8850-to-8950-of-9000-losses-said-is-comma-joined-then-train-batch-scores.log": "generic",
    "generic-mindspore-deeplabv3-readme-cn-epochs-1-6-step-41-loss-is-then-epoch-time.log": "generic",
    "generic-optuna-pr2094-trials-42-to-53-finished-and-pruned-value-best.log": "generic",
    "generic-visdom-pr1746-optuna-trials-59-to-65-finished-value-best.log": "generic",
    "generic-keras-tuner-adabyt-bayesian-trials-1-2-then-trial-3-epoch-3-of-10.log": "generic",
    "generic-dureader-issue43-brc-average-train-loss-for-epoch-10-then-dev-eval-loss.log": "generic",
    "generic-keras-tuner-keras-io-getting-started-trial-3-complete-then-oracle-triggered-exit.log": "generic",
    "generic-automap-issue4-epochs-81-to-99-loss-valloss-one-line-an-epoch.log": "generic",
    "generic-keras-tuner-adabyt-bayesian-trial-7-epoch-10-of-10-complete-then-trial-8-begun.log": "generic",
    "generic-flair-issue517-epoch-1-iter-240-of-249-every-24-then-epoch-done.log": "generic",
    "generic-lerobot-unitree-issue10-step-31k-abbreviated-counters.log": "generic",
    "generic-lerobot-pr411-old-log-step-200-ep-3-episodes-epch-0-06.log": "generic",
    "crash-dynamic-hires-mmlm-readme-training-failed-with-error-record-alone.log": "generic",
    "startup-tuplan-garage-issue64-lightning-model-summary-totals-no-step-yet.log": "generic",
    "startup-chatglm-finetuning-issue112-lightning-parameter-totals-only.log": "generic",
}


def test_every_real_log_is_in_the_table() -> None:
    assert sorted(REAL_FORMATS) == sorted(p.name for p in REAL.iterdir())


@pytest.mark.parametrize(("name", "fmt"), sorted(REAL_FORMATS.items()))
def test_real_logs_are_recognised(name: str, fmt: str) -> None:
    assert detect(body(name)) == fmt


# Not training logs: the generic reader must not claim them.
NOT_TRAINING = {
    "prose": [
        "# Training notes",
        "We trained the model for 3 epochs. At step 100 the loss was 2.3, and by the end of the",
        "run it had fallen to 1.9; the learning rate followed a cosine schedule with 2000 warmup steps.",
        "Each step took about 250 ms on one GPU, i.e. roughly 4 it/s.",
    ],
    "web server access log": [
        '127.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "GET /runs?step=3&loss=0.5 HTTP/1.1" 200 2326 "-" "curl/8.0"',
        '127.0.0.1 - - [10/Oct/2024:13:55:37 +0000] "GET /api/v1/steps/120?lr=3e-4 HTTP/1.1" 404 153 "-" "curl/8.0"',
        '10.0.0.7 - - [10/Oct/2024:13:55:38 +0000] "POST /train?iter=7&time=250ms HTTP/1.1" 200 12 "-" "python"',
    ],
    "crypto miner": [
        "[2024-01-15 10:00:00.123]  net      new job from pool.supportxmr.com:3333 diff 120001 algo rx/0 height 3012345",
        "[2024-01-15 10:00:05.456]  cpu      accepted (12/0) diff 120001 (45 ms)",
        "[2024-01-15 10:01:00.000]  miner    speed 10s/60s/15m 1520.3 1518.7 n/a H/s max 1530.2 H/s",
    ]
    * 3,
    # (through loguru, any dated record is the IOTA miner's: that rule is the miner's, not this reader's)
    "subnet miner's status lines, no training": [
        "Step:120 | Block:2410417 | Stake:0.0 | Rank:0.0 | Trust:0.0 | Consensus:0.0 | Incentive:0.0 | Emission:0.0",
        "Step:121 | Block:2410418 | Stake:0.0 | Rank:0.0 | Trust:0.0 | Consensus:0.0 | Incentive:0.0 | Emission:0.0",
        "Step:122 | Block:2410419 | Stake:0.0 | Rank:0.0 | Trust:0.0 | Consensus:0.0 | Incentive:0.0 | Emission:0.0",
    ],
    "a traceback the program caught, logged": [
        "2024-05-01 12:00:00,123 - ERROR - upload failed, retrying in 30 s",
        "Traceback (most recent call last):",
        '  File "sync.py", line 12, in <module>',
        "ConnectionResetError: [Errno 104] Connection reset by peer",
    ],
    "loading and evaluation bars": [
        "Loading checkpoint shards: 100%|██████████| 2/2 [00:03<00:00,  1.52s/it]",
        "Map: 100%|██████████| 1000/1000 [00:01<00:00, 900.12 examples/s]",
        "Evaluating iter 1/32",
        "Evaluating iter 2/32",
        "evaluating Epoch: 100%|██████████| 84/84 [04:29<00:00,  3.21s/it]",
    ],
}


@pytest.mark.parametrize("name", sorted(NOT_TRAINING))
def test_text_that_is_not_a_training_log_is_not_recognised(name: str) -> None:
    assert detect(NOT_TRAINING[name]) is None


# Lines any trainer's run prints when it dies or skips steps, with no trainer's own line among
# them: the generic reader takes them, so the run reads crashed (or its overflows are counted).
RUN_HEALTH_ONLY = {
    "a traceback alone": [
        "Traceback (most recent call last):",
        '  File "train.py", line 12, in <module>',
        "    loss = step(batch)",
        "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB",
    ],
    "slurm's time limit": [
        "slurmstepd: error: *** JOB 4242 ON gpu-17 CANCELLED AT 2024-03-02T11:00:12 DUE TO TIME LIMIT ***",
    ],
    "torchrun's agent, a death signal": [
        ("W0302 10:59:58.120000 881 torch/distributed/elastic/agent/server/api.py:704] Received 15 death signal,"
         " shutting down workers"),
    ],
    "apex's overflow lines": ["Gradient overflow.  Skipping step, loss scaler 0 reducing loss scale to 32768.0"] * 2,
    "a kill": ["Killed"],
}

# A run's own words that its training stopped, with no step line left in the paste: a training log the
# generic reader takes (the stop is the run's news). The shell's prompt, wandb's closing block or a model
# saved are any program's words and claim nothing alone.
STOPPED_ONLY = {
    # spider-schema-gnn issue 5 (NatCusack, 2019-07-02): AllenNLP's end, the paste opening an inline code span
    "allennlp, out of patience, then its metrics": [
        " `2019-07-02 13:16:56,613 - INFO - allennlp.training.trainer - Ran out of patience.  Stopping training.",
        "2019-07-02 13:16:56,614 - INFO - allennlp.training.checkpointer - loading best weights",
        ("2019-07-02 13:16:56,635 - INFO - allennlp.models.archival - archiving weights and vocabulary to "
        "experiments/name_of_experiement/model.tar.gz"),
        "2019-07-02 13:16:57,984 - INFO - allennlp.common.util - Metrics: {",
        '  "best_epoch": 12,',
        '  "best_validation_loss": 7.97007417678833,',
        '  "peak_cpu_memory_MB": 5171.892',
        "}",
    ],
    # allenai/comb_dist_direct_relex issue 4 (tyj1997, 2019-09-24): the one line, in backticks
    "allennlp's stop line alone": ["` Ran out of patience.  Stopping training.`"],
    # Keras' EarlyStopping callback with verbose=1 (AdvancedEAST issue 70's words), its epoch lines cut off
    "keras' early stop": ["Epoch 00014: val_loss did not improve from 0.80084", "Epoch 00014: early stopping"],
    "training complete": ["Training complete."],
}
NOT_STOPPED = {
    "a shell prompt": ["user@host:~/work$ ls"],
    "wandb's closing block": ["wandb: Run summary:", "wandb: Synced 5 W&B file(s), 0 media file(s)"],
    "a model saved": ["Model saved to out/model.pt"],
}


@pytest.mark.parametrize("name", sorted(STOPPED_ONLY))
def test_a_log_whose_only_news_is_its_training_stopping_is_read_by_the_generic_reader(name: str) -> None:
    assert detect(STOPPED_ONLY[name]) == "generic"


@pytest.mark.parametrize("name", sorted(NOT_STOPPED))
def test_words_any_program_prints_at_its_end_claim_no_log(name: str) -> None:
    assert detect(NOT_STOPPED[name]) is None


def test_allennlps_stop_behind_a_pasted_code_mark_is_its_dated_early_end() -> None:
    """The paste's backtick before the logging prefix is peeled: the stop is read, at its time, as early."""
    from app.ingest.formats import create_parser
    from app.stats.events import StageEnd, Tick

    events = create_parser("generic").feed(STOPPED_ONLY["allennlp, out of patience, then its metrics"])
    ends = [e for e in events if isinstance(e, StageEnd)]
    assert [(e.said, e.early, e.summary) for e in ends] == [(True, True, "Ran out of patience.  Stopping training.")]
    ticks = [e.at for e in events if isinstance(e, Tick)]
    assert ticks and min(t for t in ticks if t is not None) == pytest.approx(
        time.mktime((2019, 7, 2, 13, 16, 56, 0, 0, -1)) + 0.613)


@pytest.mark.parametrize("name", sorted(RUN_HEALTH_ONLY))
def test_a_log_of_crash_or_overflow_lines_alone_is_read_by_the_generic_reader(name: str) -> None:
    assert detect(RUN_HEALTH_ONLY[name]) == "generic"


def test_a_log_of_crash_lines_alone_is_no_kind_a_folder_follows() -> None:
    """In a folder, a file with a traceback and nothing else (an app's own error log) is not a run's log."""
    assert log_kind(RUN_HEALTH_ONLY["a traceback alone"]) is None


def test_one_pasted_step_line_is_a_training_log_but_one_sentence_is_not() -> None:
    assert detect(["Epoch 0:   1%|          | 795/77225 [9:07:58<878:01:48, 41.36s/it, loss=3.1]"]) == "generic"
    assert detect(["at step 3, loss 2.5"]) is None


def test_the_generic_reader_keeps_a_log_whose_steps_only_it_reads() -> None:
    """llama2.c prints nanoGPT's evaluation line among its own step lines: the steps decide."""
    watch = FormatWatch("generic")
    assert watch.see(body("generic-custom-llama2c-issue461-tinystories-mps.log") * 3) is None
    assert watch.current == "generic"


def test_a_known_trainer_still_takes_over_from_the_generic_reader() -> None:
    watch = FormatWatch("generic")
    assert watch.see(sample("sample-nanogpt.log")) is not None and watch.current == "nanogpt"


def test_watch_finds_a_new_trainer_whose_lines_end_the_batch_or_run_across_batches() -> None:
    # A batch that ends with the current format's line is looked at by that line alone; a new
    # stage goes on printing its own lines, so it is still caught, in one batch or over several.
    hf = sample("sample-hf-trainer.log")
    nanogpt = sample("sample-nanogpt.log")
    ends_foreign = FormatWatch("nanogpt")
    assert ends_foreign.see([*nanogpt, *hf]) == hf and ends_foreign.current == "hf-trainer"
    across = FormatWatch("nanogpt")
    assert across.see([*nanogpt, hf[0]]) is None
    replay = across.see(hf[1:])
    assert across.current == "hf-trainer" and replay == hf
    resumed = FormatWatch("nanogpt")  # the old trainer printing again: no new stage took over
    assert resumed.see([*hf, nanogpt[-1]]) is None and resumed.current == "nanogpt"


def test_llmc_first_format_is_llmc() -> None:
    lines = ["[GPT-2]", "val loss 5.325531", "step 0: train loss 5.356189 (took 1000.5 ms)"]
    assert detect(lines) == "llmc"


def test_one_llama2c_step_line_after_nanogpts_evaluation_line_is_generic() -> None:
    """llama2.c-style scripts print nanoGPT's evaluation line but their own step line: one of each
    (a pasted tail) already reads as the generic reader's step."""
    lines = ["step 2000: train loss 1.2000, val loss 1.3000", "2000 | loss 1.1875 | lr 5.000000e-04 | 150.25ms | mfu 9.10%"]
    assert detect(lines) == "generic"


def test_a_known_format_s_bar_at_step_0_is_not_the_fallback_s_step() -> None:
    # Chrisytz/verl, verl_demo.log (https://github.com/Chrisytz/verl/blob/faaf7d4569f78339af9baf4b0e9b3d47f3e3884f/
    # verl_demo.log): thousands of XLA compiler lines, then verl's bar still at 0 of 58. Nothing but verl's own
    # line names a step, and step 0 is the run before its first step: verl's log, not the generic reader's.
    xla = "\x1b[36m(pid=)\x1b[0m I0718 19:14:23.443395  310893 2a886c8_compiler_base.cc:3664] Output size 64.5K; shares 0B with arguments."
    lines = [xla] * 40 + ["Training Progress:   0%|          | 0/58 [07:16<?, ?it/s]"]
    assert detect(lines) == "verl"


def test_evaluations_alone_are_a_run_caught_evaluating() -> None:
    # ModernMT's fairseq log (https://github.com/modernmt/modernmt/issues/509): valid lines alone, each at its update
    valid = ["| epoch 011 | valid on 'valid' subset | loss 3.337 | nll_loss 1.518 | ppl 2.86 | num_updates 90000 | best_loss 3.33733",
             "| epoch 012 | valid on 'valid' subset | loss 3.321 | nll_loss 1.504 | ppl 2.84 | num_updates 100000 | best_loss 3.3213"]
    assert detect(valid) == "generic"
    assert detect(valid[:1]) is None  # one evaluation at one step could be a sentence
    # MLX (https://github.com/ml-explore/mlx-examples/issues/849): the planned total, then the first evaluation
    mlx = ["Starting training..., iters: 1000", "Iter 1: Val loss 199.480, Val took 0.785s"]
    assert detect(mlx) == "generic"
    assert detect(mlx[1:]) is None


def test_a_loguru_log_with_no_miner_message_is_never_the_miner_s() -> None:
    """The miner's signature is any loguru record: without one of its own messages the log is some trainer's start-up."""
    startup = [
        "2022-01-21 00:38:27.978 | INFO     | yolox.core.launch:_distributed_worker:184 - Rank 1 initialization finished.",
        "2022-01-21 00:38:28.020 | INFO     | yolox.core.launch:_distributed_worker:184 - Rank 0 initialization finished.",
    ]
    assert detect(startup) == "generic"
    # the miner's own first message among the same records: the miner's
    miner = "2026-09-13 21:02:10.114 | INFO     | miner.new_miner:run_miner:1723 - 🚀 Starting miner 🚀"
    assert detect([miner, *startup]) == "iota"
