"""A run's closing summary (summaries.py): the block of final figures printed once training ended, read as its end.

Real logs (tests/data/real/, each citing its source) of a finished run pasted as its summary alone; composed logs
whose readings are worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.ingest.formats.summaries import SummaryBlock
from app.stats.events import StageEnd, StepRun, Tick, TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body

SLOWRUN = "stopself-slowrun-pr15-copied-final-summary-total-training-time-final-train-loss-min-val-loss.log"
WANDB = "stopself-wandb-issue2450-run-summary-yolov5-losses-metrics-no-steps.log"


def finished_line(snapshot: dict[str, object]) -> str:
    details = snapshot["details"]
    assert isinstance(details, list)
    return next(line for line in details if line.startswith("Finished: "))


def test_a_summary_copied_alone_reads_finished_with_its_final_figures(tmp_path: Path) -> None:
    lines = body(SLOWRUN)
    assert detect(lines) == "generic"
    snapshot = read_cold(tmp_path, lines, name=SLOWRUN)
    assert snapshot["state"] == "done"
    assert snapshot["status_line"] == "done · no step line"
    # each printed line (a timestamp line above each, as W&B's logs page copies it), named as the log names it
    assert finished_line(snapshot) == ("Finished: Total training time: 14.35m · Final train loss: 3.076997"
                                       " · Min val BPB: 1.108378 · Min val Loss: 3.410783")
    training = snapshot["training"]
    assert training["step"] is None and training["step_seconds"] is None
    assert snapshot["rate"]["passes_per_hour"] is None


def test_wandb_s_run_summary_alone_reads_finished_with_its_losses_first(tmp_path: Path) -> None:
    lines = body(WANDB)
    assert detect(lines) == "generic"
    snapshot = read_cold(tmp_path, lines, name=WANDB, at=T0)
    assert snapshot["state"] == "done"
    assert snapshot["status_line"] == "done · no step line"
    # the losses first (train, then val, as printed), then the other figures; wandb's own ``_step`` is no figure
    assert finished_line(snapshot).startswith(
        "Finished: wandb run summary: train/box_loss 0.03868 · train/obj_loss 0.05482 · train/cls_loss 0.05741"
        " · val/box_loss 0.03014")
    assert "_step" not in finished_line(snapshot)
    assert snapshot["training"]["step"] is None


def test_a_block_s_end_goes_before_its_first_row() -> None:
    block = SummaryBlock()
    lines = ["step 9 loss 3.1", "```2026-03-03 09:55:34", "Total training time: 14.35m", "2026-03-03 09:55:34",
             "Final train loss: 3.076997", ""]
    assert [block.see(i, line) for i, line in enumerate(lines)] == [None] * len(lines)
    ended = block.end()
    assert ended is not None
    # the row is line 2: its end goes after line 1 (the timestamp line above it)
    assert ended[0] == 1
    assert ended[1] == StageEnd(None, summary="Total training time: 14.35m · Final train loss: 3.076997", said=True,
                                 figures=True)


def test_best_figures_alone_are_no_end() -> None:
    # composed: an evaluation's best-so-far printed after each epoch is what many runs print as they go
    block = SummaryBlock()
    for i, line in enumerate(["Best val loss: 0.42", "Min val loss: 0.40 (epoch 3)"]):
        assert block.see(i, line) is None
    assert block.end() is None


def test_steps_then_the_summary_read_done_at_the_last_step(tmp_path: Path) -> None:
    # composed: three steps, then the run's closing lines; the last step's figures stay the run's
    lines = ["step 1 loss 3.5", "step 2 loss 3.4", "step 3 loss 3.3", "Final train loss: 3.31", "Best val loss: 3.6"]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["state"] == "done"
    assert (snapshot["training"]["step"], snapshot["training"]["loss"]) == (3, 3.3)
    assert finished_line(snapshot) == "Finished: Final train loss: 3.31 · Best val loss: 3.6"


def test_a_summary_followed_by_a_step_was_no_end(tmp_path: Path) -> None:
    # composed: a fine-tuning stage's summary, then the next stage's steps: the run goes on
    lines = ["step 1 loss 3.5", "Final train loss: 3.5", "step 2 loss 3.4", "step 3 loss 3.3"]
    events = create_parser("generic").feed(lines)
    ends = [e for e in events if isinstance(e, StageEnd)]
    assert [e.summary for e in ends] == ["Final train loss: 3.5"]
    # (placed before its row: after step 1, before step 2)
    order = [type(e).__name__ for e in events if isinstance(e, (StageEnd, TrainStep))]
    assert order == ["TrainStep", "StageEnd", "TrainStep", "TrainStep"]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["state"] != "done"
    assert snapshot["training"]["step"] == 3


def test_wandb_s_summary_after_a_known_trainer_s_steps_ends_its_run(tmp_path: Path) -> None:
    # composed: nanoGPT's lines, then wandb's closing block; the position stays nanoGPT's
    lines = ["iter 10: loss 2.5000, time 100.00ms, mfu 10.00%", "iter 20: loss 2.4000, time 100.00ms, mfu 10.00%",
             "iter 30: loss 2.3000, time 100.00ms, mfu 10.00%", "wandb: ", "wandb: Run summary:",
             "wandb:        iter 30", "wandb: train/loss 2.3", "wandb: "]
    assert detect(lines) == "nanogpt"
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["state"] == "done"
    assert (snapshot["training"]["step"], snapshot["training"]["loss"]) == (30, 2.3)
    assert finished_line(snapshot) == "Finished: wandb run summary: train/loss 2.3 · iter 30"


def test_the_generic_reader_s_own_end_keeps_the_summary_s_words(tmp_path: Path) -> None:
    # composed: the generic reader ends a run at ``Total training time`` itself; the block holding it says more
    lines = ["step 1 loss 3.5", "step 2 loss 3.4", "step 3 loss 3.3", "Total training time: 14.35m",
             "Final train loss: 3.076997", "Min val Loss: 3.410783"]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["state"] == "done"
    assert finished_line(snapshot) == ("Finished: Total training time: 14.35m · Final train loss: 3.076997"
                                       " · Min val Loss: 3.410783")


def test_the_bulk_reading_places_the_summary_where_the_line_by_line_reading_does() -> None:
    # composed: nanoGPT's usual lines (read in runs by the history import), then wandb's closing block
    lines = [f"iter {i}: loss {3 - i / 100:.4f}, time 100.00ms, mfu 10.00%" for i in range(1, 41)]
    lines += ["wandb: Run summary:", "wandb: train/loss 2.6", "wandb: "]
    by_line = create_parser("nanogpt").feed(lines)
    items = create_parser("nanogpt").feed_runs(lines)
    assert any(isinstance(item, StepRun) for item in items)  # (the usual lines read as a run)
    in_runs = [event for item in items
               for event in ([item.step(i) for i in range(len(item))] if isinstance(item, StepRun) else [item])]
    assert [e for e in in_runs if not isinstance(e, Tick)] == [e for e in by_line if not isinstance(e, Tick)]
    ends = [e for e in by_line if isinstance(e, StageEnd)]
    assert [e.summary for e in ends][:1] == ["wandb run summary: train/loss 2.6"]


DSTACK = "stopself-wandb-dstack-verl-run-summary-alone-training-global-step-435.log"
BERKELEY = "stopself-wandb-berkeley-drl-hw4-grpo-closing-uploading-history-steps-48-51.log"


def test_wandb_s_summary_alone_names_the_trainer_s_last_step(tmp_path: Path) -> None:
    # verl's summary holds ``training/global_step 435`` past the 64 rows the block keeps: read for the step all the same
    lines = body(DSTACK)
    assert detect(lines) == "generic"
    snapshot = read_cold(tmp_path, lines, name=DSTACK, at=T0)
    assert snapshot["state"] == "done"
    assert snapshot["status_line"] == "done at step 435 (as the run's closing lines say)"
    training = snapshot["training"]
    assert (training["step"], training["step_said"]) == (435, "the run's closing lines")
    assert training["step_seconds"] is None and training["total_steps"] is None


def test_wandb_s_upload_of_its_history_names_the_last_step_logged(tmp_path: Path) -> None:
    # ``wandb: uploading history steps 48-51, summary, …``: 51, not 48; the summary names no step of its own
    lines = body(BERKELEY)
    assert detect(lines) == "generic"
    snapshot = read_cold(tmp_path, lines, name=BERKELEY, at=T0)
    assert snapshot["state"] == "done"
    assert snapshot["status_line"] == "done at step 51 (as the run's closing lines say)"
    assert snapshot["training"]["step"] == 51


def test_the_summary_s_step_row_is_the_trainer_s_not_wandb_s_own() -> None:
    # composed: ``_step`` is wandb's count of its log calls; ``trainer/global_step`` (Lightning's WandbLogger) the run's
    block = SummaryBlock()
    rows = ["wandb: Run summary:", "wandb:               _step 40", "wandb: trainer/global_step 19",
            "wandb:          val_loss 0.05727", "wandb: "]
    for i, row in enumerate(rows):
        assert block.see(i, row) is None
    closed = block.end()
    assert closed is not None
    assert closed[1].step == 19


def test_the_steps_the_log_printed_stay_the_position_beside_the_summary_s(tmp_path: Path) -> None:
    # composed: a run's own step lines, then a summary naming another step: the lines read are the position
    lines = ["step 1 loss 3.5", "step 2 loss 3.4", "step 3 loss 3.3", "wandb: Run summary:",
             "wandb: train/global_step 7", "wandb: train/loss 3.3", "wandb: "]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["state"] == "done"
    assert snapshot["training"]["step"] == 3
    assert "step_said" not in snapshot["training"]


@pytest.mark.parametrize("mark", ["📊 ", "✅ ", "🚀 ", "✓ ", "==> ", "*** ", ">>> ", "• ", "- "])
def test_a_final_figure_dressed_in_marks_reads_as_the_bare_line(mark: str) -> None:
    # composed: the marks a script prints before its words change nothing of what the line says
    block = SummaryBlock()
    assert block.see(0, f"{mark}Final training loss: 1.1465217211914063") is None
    closed = block.end()
    assert closed is not None
    assert closed[1].summary == "Final training loss: 1.1465217211914063"


def test_a_final_figure_after_the_end_said_is_that_end_s(tmp_path: Path) -> None:
    # composed, in the shape of a QLoRA script's closing lines (no step line in the paste): the end said in words, then
    # the final loss under its printed name; the run is done and the loss is shown with its end, not lost behind it
    lines = ["🚀 Starting training...", "✅ Training completed in 3 days, 2:11:45.123456",
             "📊 Final training loss: 1.1465217211914063"]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["state"] == "done"
    assert snapshot["status_line"] == "done · no step line"
    assert finished_line(snapshot) == ("Finished: ✅ Training completed in 3 days, 2:11:45.123456"
                                       " · Final training loss: 1.1465217211914063")


def test_final_figures_after_the_last_step_s_end_are_the_run_s(tmp_path: Path) -> None:
    # composed: steps 100-300, the end said, then the final figures. The final training loss is the run's last loss
    # (2.01, as the last step printed); the final evaluation and the best are the run's evaluations at its last step,
    # the best under its own name (a best, not the last)
    lines = ["step 100 loss 2.31", "step 200 loss 2.12", "step 300 loss 2.01", "==> Training finished.",
             "Final training loss: 2.01", "*** Final eval accuracy: 0.8312", ">>> Best val loss: 1.98"]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["state"] == "done"
    assert snapshot["status_line"] == "done · step 300"
    training = snapshot["training"]
    assert training["step"] == 300 and training["loss"] == 2.01
    assert finished_line(snapshot).startswith("Finished: ==> Training finished. · Final training loss: 2.01")
    evals = training["eval"]
    assert evals["final_eval_accuracy"] == {"value": 0.8312, "step": 300}
    assert evals["best_val_loss"]["value"] == 1.98
