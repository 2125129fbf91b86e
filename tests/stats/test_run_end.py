"""The end of a run read from a tail that holds only the end, and logs of validation lines alone."""

from __future__ import annotations

from app.ingest.formats import detect
from app.live.monitor import Monitor
from app.snapshot import training_dict
from tests.reallogs import body

NOW = 1_800_000_000.0

# nanochat base_train's end, in its templates (scripts/base_train.py: ``Step {step:05d} | …``,
# ``Peak memory usage: {:.2f}MiB``, ``Total training time: {:.2f}m``, ``Minimum validation bpb: {:.6f}``).
END_SUMMARY = [
    "Step 16704 | Validation bpb: 0.725103",
    "Step 16704 | CORE metric: 0.2219",
    "Peak memory usage: 52311.47MiB",
    "Total training time: 97.21m",
    "Minimum validation bpb: 0.725103",
]


def read(lines: list[str]) -> Monitor:
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines(lines)
    return monitor


def test_a_tail_of_the_end_summary_alone_reads_done_with_its_figures() -> None:
    snapshot = read(END_SUMMARY).snapshot(NOW + 3600)
    assert (snapshot.state, snapshot.status_line) == ("done", "done · step 16704")
    assert snapshot.training is not None
    assert training_dict(snapshot.training)["eval"] == {"val_bpb": {"value": 0.725103, "step": 16704},
                                         "core": {"value": 0.2219, "step": 16704},
                                         "min_val_bpb": {"value": 0.725103, "step": 16704}}
    assert "Finished: Total training time: 97.21m" in snapshot.details


def test_validation_lines_alone_say_so() -> None:
    snapshot = read(["Step 05250 | Validation bpb: 0.731544", "Step 05500 | Validation bpb: 0.726118"]).snapshot(NOW)
    assert snapshot.status_line == "validation only · step 5500"
    assert snapshot.details[0] == "Only validation lines so far, no training step: val_bpb 0.7261"
    assert snapshot.training is not None
    assert training_dict(snapshot.training)["eval"] == {"val_bpb": {"value": 0.726118, "step": 5500}}


def test_indentation_is_no_reason_to_read_a_log_differently() -> None:
    """A README or a Markdown quote indents every line: the same format, the same steps."""
    for name in ("torchtitan-pr1287-rank0-every-10.log", "sn38-readme-could-not-find-a-group.log",
                 "llmc-issue796-mfu-unknown-gpu.log", "hivemind-albert-readme-monitor.log", "nanochat-pr147-a100.log"):
        lines = body(name)
        indented = ["      " + line for line in lines]
        assert detect(indented) == detect(lines), name
        plain, quoted = read(lines).snapshot(NOW), read(indented).snapshot(NOW)
        assert quoted.step == plain.step and quoted.step is not None, name


# --- what counts as the end, per trainer (composed logs; each answer worked out from its lines) ---


def test_an_evaluation_job_that_printed_its_csv_is_done() -> None:
    """base_eval before 2026 prints its results csv, whose last row is CORE: the job is over."""
    lines = [
        "Evaluating: hellaswag_zeroshot (0-shot, type: multiple_choice)... accuracy: 0.3100 | centered: 0.0800 | time: 10.00s",
        "Evaluating: copa (0-shot, type: multiple_choice)... accuracy: 0.6000 | centered: 0.2000 | time: 1.50s",
        "=" * 80,
        "Model: base_model (step 21400)",
        "=" * 80,
        "Task                               , Accuracy  , Centered  ",
        "hellaswag_zeroshot                 , 0.310000  , 0.080000  ",
        "copa                               , 0.600000  , 0.200000  ",
        "CORE                               ,           , 0.140000  ",
    ]
    monitor = read(lines)
    snapshot = monitor.snapshot(NOW)
    assert (snapshot.state, snapshot.status_line) == ("done", "done · evaluation only")
    assert snapshot.training is not None and training_dict(snapshot.training)["finished"] is True
    assert training_dict(snapshot.training)["eval"]["core"] == {"value": 0.14, "step": None}
    assert snapshot.details[0] == "Finished: CORE metric: 0.140000"
    assert snapshot.source.bad_lines == 0


def test_an_evaluation_job_cut_before_its_results_is_not_done() -> None:
    lines = ["val bpb: 0.903612",
             ("Evaluating: copa (0-shot, type: multiple_choice)... accuracy: 0.6000 | centered: 0.2000 | evaluated: 100"
              " | skipped: 0 | time: 1.50s")]
    snapshot = read(lines).snapshot(NOW)
    assert (snapshot.state, snapshot.status_line) == ("working", "validation only")
    assert snapshot.training is not None and training_dict(snapshot.training)["eval"]["copa"] == {"value": 0.6, "step": None}


def test_results_written_inside_a_training_run_are_one_more_evaluation() -> None:
    """A fork of base_train writes its CORE results every N steps: the run goes on."""
    step = ("step {:05d}/01000 (1.00%) | loss: 3.000000 | lrm: 1.00 | dt: 1000.00ms | tok/sec: 10,000 | mfu: 40.00"
            " | epoch: 1 | total time: 0.50m | eta: 16.5m")
    lines = [step.format(9), "Results written to: /tmp/base_eval/base_model_000010.csv",
             "Step 00010 | CORE metric: 0.1000", step.format(10)]
    snapshot = read(lines).snapshot(NOW)
    assert snapshot.state != "done" and snapshot.status_line.startswith("step 10/1000")


RECIPES = "Training Epoch: {e}/2, step {s}/4 completed (loss: {loss}): {pct:3d}%|██████████| {n}/4 [00:{t:02d}<00:{r:02d}, 10.00s/it]"


def test_the_last_epoch_s_full_bar_waits_for_the_trainer_s_end_line() -> None:
    """llama-recipes evaluates and sums up after its last epoch's bar: done only at ``Key: avg_…``."""
    lines = [RECIPES.format(e=2, s=2, loss=0.9, pct=75, n=3, t=30, r=10),
             RECIPES.format(e=2, s=3, loss=0.8, pct=100, n=4, t=40, r=0)]
    monitor = read(lines)
    snapshot = monitor.snapshot(NOW)
    assert (snapshot.state, snapshot.status_line) == ("measuring", "epoch 2/2 · 4/4 in the epoch · finishing")
    monitor.lines(["evaluating Epoch: 100%|██████████| 84/84 [00:30<00:00,  2.80it/s]",
                   " eval_ppl=tensor(5.1962, device='cuda:0') eval_epoch_loss=tensor(1.6479, device='cuda:0')",
                   "Epoch 2: train_perplexity=2.2255, train_epoch_loss=0.8000, epoch time 40.5s",
                   "Key: avg_train_prep, Value: 2.5", "Key: avg_train_loss, Value: 0.9"])
    snapshot = monitor.snapshot(NOW + 60)
    assert (snapshot.state, snapshot.status_line) == ("done", "done · epoch 2/2 · 4/4 in the epoch")
    assert snapshot.training is not None and training_dict(snapshot.training)["loss"] == 0.8


def test_ranks_printing_the_same_bar_are_one_step_with_the_last_printed_loss() -> None:
    lines = [RECIPES.format(e=1, s=1, loss=loss, pct=50, n=2, t=20, r=20) for loss in (1.5, 1.4, 1.7)]
    snapshot = read(lines).snapshot(NOW)
    assert snapshot.step == 2 and snapshot.training is not None and training_dict(snapshot.training)["loss"] == 1.7
    assert snapshot.counts.passes == 1  # the first line counts its step once; the other ranks add none


def test_a_json_record_that_reaches_its_total_ends_the_run_and_keeps_the_last_loss() -> None:
    """A trainer's own JSON lines: the last record names the total step with a null loss."""
    lines = ['{"step": 480, "max_steps": 500, "loss": 1.25, "elapsed": "1 day, 2:00:00"}',
             '{"step": 490, "max_steps": 500, "loss": 1.2, "elapsed": "1 day, 2:05:00"}',
             '{"step": 500, "max_steps": 500, "loss": null, "elapsed": "1 day, 2:10:00"}']
    snapshot = read(lines).snapshot(NOW)
    assert (snapshot.state, snapshot.status_line) == ("done", "done · step 500/500")
    assert snapshot.training is not None
    # 10 steps in 300 s of the trainer's clock (1 day 2:05:00 → 2:10:00): 30 s a step.
    assert (training_dict(snapshot.training)["loss"], training_dict(snapshot.training)["step_seconds"]) == (1.2, 30.0)


HF_EVAL_ONLY = [
    "[INFO|trainer.py:3158] 2024-05-01 12:00:00,000 >> ***** Running Evaluation *****",
    "[INFO|trainer.py:3160] 2024-05-01 12:00:00,000 >>   Num examples = 1000",
    "[INFO|trainer.py:3163] 2024-05-01 12:00:00,000 >>   Batch size = 8",
    " 40%|████      | 50/125 [00:12<00:18,  4.10it/s]",
    " 80%|████████  | 100/125 [00:24<00:06,  4.10it/s]",
    "100%|██████████| 125/125 [00:30<00:00,  4.10it/s]",
    "***** eval metrics *****",
    "  eval_loss               =     2.3456",
    "  eval_runtime            = 0:00:30.12",
    "  eval_samples            =       1000",
    "  eval_samples_per_second =     33.201",
    "  eval_steps_per_second   =      4.150",
    "  perplexity              =    10.4425",
]


def test_an_hf_evaluation_run_alone_is_done_at_its_metrics() -> None:
    """``run_clm.py --do_eval`` without ``--do_train``: its bars are the evaluation's, its metrics the end."""
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines(HF_EVAL_ONLY)
    snapshot = monitor.snapshot(NOW)
    assert (snapshot.format, snapshot.state, snapshot.status_line) == ("hf-trainer", "done", "done · evaluation only")
    assert snapshot.training is not None
    assert training_dict(snapshot.training)["eval"] == {"eval_loss": {"value": 2.3456, "step": None},
                                         "perplexity": {"value": 10.4425, "step": None}}
    assert snapshot.details[:2] == ("Finished: ***** eval metrics *****",
                                    "Evaluation only, no training step: eval_loss 2.3456, perplexity 10.4425")


def test_an_hf_training_run_s_final_metrics_are_its_evaluation() -> None:
    monitor = Monitor(None, clock=lambda: NOW)
    monitor.lines(["  Total optimization steps = 3",
                   " 67%|██████▋   | 2/3 [00:02<00:01,  1.00s/it]",
                   "{'loss': 2.5, 'learning_rate': 1e-05, 'epoch': 1.0}",
                   "100%|██████████| 3/3 [00:03<00:00,  1.00s/it]",
                   ("{'train_runtime': 3.0, 'train_samples_per_second': 8.0, 'train_steps_per_second': 1.0,"
                    " 'train_loss': 2.4, 'epoch': 1.0}"),
                   *HF_EVAL_ONLY[6:]])
    snapshot = monitor.snapshot(NOW)
    assert (snapshot.state, snapshot.status_line) == ("done", "done · step 3/3")
    assert snapshot.training is not None and training_dict(snapshot.training)["eval"]["eval_loss"]["value"] == 2.3456


def test_a_chat_evaluation_alone_is_done_at_its_chatcore() -> None:
    """chat_eval prints each task's accuracy, then ChatCORE once every task is done: its last line."""
    lines = ["ARC-Easy accuracy: 64.31%", "ARC-Challenge accuracy: 45.10%", "MMLU accuracy: 40.02%",
             "GSM8K accuracy: 7.13%", "HumanEval accuracy: 8.54%"]
    assert read(lines).snapshot(NOW).state != "done"
    snapshot = read([*lines, "ChatCORE metric: 0.2412"]).snapshot(NOW)
    assert (snapshot.format, snapshot.state, snapshot.status_line) == ("nanochat", "done", "done · evaluation only")
    assert snapshot.details[1].startswith("Evaluation only, no training step: chatcore 0.2412, ARC-Easy 64.31")


def test_a_test_report_alone_is_said_to_be_a_test_report() -> None:
    """DeepSpeech's report (``evaluate.py``: ``Test of Epoch %d - WER: %f, loss: %f, mean edit distance: %f``) is a test."""
    lines = ["I Test of Epoch 12 - WER: 0.250000, loss: 42.5, mean edit distance: 0.125000"]
    snapshot = read(lines).snapshot(NOW)
    assert (snapshot.state, snapshot.status_line) == ("working", "test report only")
    assert snapshot.details[0].startswith("Only test report lines so far, no training step: test_loss 42.5")


def test_a_validation_beside_a_test_is_still_said_to_be_validation() -> None:
    lines = ["val_loss: 1.25", "test_loss: 1.5"]
    snapshot = read(lines).snapshot(NOW)
    assert snapshot.status_line == "validation only"
    assert snapshot.details[0].startswith("Only validation lines so far, no training step:")


def test_a_validation_pass_under_way_alone_says_where_it_is() -> None:
    # AILab-CVC/YOLO-World issue #396: mmengine's validation records after epoch 10 (its first lines, as printed): no
    # training step and no figure of the evaluation yet, only its batches counted, 4100 of 4809 at the last.
    lines = [
        "2024/06/16 20:02:03 - mmengine - INFO - Epoch(val) [10][4000/4809]    eta: 0:06:54  time: 0.5256  data_time: 0.0006  memory: 979  ",
        "2024/06/16 20:02:28 - mmengine - INFO - Epoch(val) [10][4050/4809]    eta: 0:06:29  time: 0.5140  data_time: 0.0006  memory: 979  ",
        "2024/06/16 20:02:55 - mmengine - INFO - Epoch(val) [10][4100/4809]    eta: 0:06:03  time: 0.5386  data_time: 0.0006  memory: 979  ",
    ]
    snapshot = read(lines).snapshot(NOW)
    assert (snapshot.state, snapshot.status_line) == ("evaluating", "validation only")
    assert snapshot.details[0] == "Only validation lines so far, no training step: validating after epoch 10, 4,100/4,809 batches"
    assert snapshot.training is not None
    assert training_dict(snapshot.training)["step_seconds"] is None  # (0.5386 s is the evaluation's, no step's)
