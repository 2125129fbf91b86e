"""The ending class: a run's own words that it stopped, as the crash watch reads them for every step format.

Real lines are quoted from the logs in tests/data/real (their sources in their headers); the rest are
composed in the words the trainers named print.
"""

from __future__ import annotations

import pytest

from app.ingest.formats.crash import CrashWatch
from app.ingest.formats.endings import ending
from app.stats.events import StageEnd
from tests.reallogs import line


def said(message: str) -> tuple[bool, bool] | None:
    """(early, saved) of the stop message the watch reads in ``message``, or None."""
    found = [e for e in CrashWatch().see(message) if isinstance(e, StageEnd)]
    assert len(found) <= 1
    return (found[0].early, found[0].saved) if found and found[0].said else None


BABYGPT = "stopself-buildyourownllm-babygpt-v12-speed-time-lines-model-saved.log"


@pytest.mark.parametrize(
    ("message", "early"),
    [
        # short of its plan: a wall-clock cap, a time limit, an early stop
        (line("stopself-parameter-golf-leakyrelu-ttt-wallclock-cap-long-final-eval.log", "stopping_early:"), True),
        ("Early stopping triggered at epoch 12", True),
        ("Epoch 00014: early stopping", True),  # Keras' EarlyStopping callback
        # AllenNLP's trainer, behind Python logging's prefix (spider-schema-gnn issue 5)
        ("2019-07-02 13:16:56,613 - INFO - allennlp.training.trainer - Ran out of patience.  Stopping training.", True),
        ("max_time reached, stopping training", True),
        ("Monitored metric val_loss did not improve in the last 3 records. Best score: 0.512. Signaling Trainer to stop.",
         True),
        ("提前停止：验证集损失连续 5 轮未下降", True),
        # Ultralytics' EarlyStopping, its label first (fasafa/Sign-Language-Detection's README, tests/data/real), and
        # YOLOv5's in the other word order (Seliah/thesis's outputs.md, tests/data/real)
        (("EarlyStopping: Training stopped early as no improvement observed in last 100 epochs. Best results observed at "
          "epoch 355, best model saved as best.pt."), True),
        (("Stopping training early as no improvement observed in last 5 epochs. Best results observed at epoch 27, best "
          "model saved as best.pt."), True),
        # over: in its own words, in English and Chinese
        ("Training complete.", False),
        ("Training completed. Do not forget to share your model on huggingface.co/models =)", False),
        ("Finished training after 3 epochs", False),
        ("End of training", False),
        ("`Trainer.fit` stopped: `max_steps=1000` reached.", False),
        ("Finished Training", False),  # the PyTorch CIFAR-10 tutorial's last line
        ("| done training in 1234.5 seconds", False),  # fairseq
        ("100 epochs completed in 2.345 hours.", False),  # ultralytics YOLO
        ("训练完成！", False),
        ("训练结束，共用时 3 小时", False),
        ("Saved final weights to adapters/adapters.safetensors.", False),
        ("最终模型已保存到 output/final", False),
        # the loop's other nouns for its end: pygcn's ``Optimization Finished!`` (ghgmail/Graph-Bert's README_pretrain.md,
        # tests/data/real), the TF scripts' ``Optimization finish!`` (and ``finish!!!``), and dressed in marks
        (line("stopself-graph-bert-readme-pretrain-optimization-finished-total-time-elapsed-best-testing-performance.log",
              "Optimization"), False),
        ("Optimization finish!", False),
        ("Optimization finish!!!", False),
        ("Optimisation complete.", False),
        ("Fitting finished.", False),
        ("Training finished.", False),
        ("==> Training finished.", False),
        ("✅ Training completed in 3 days, 2:11:45", False),
        ("✓ Training complete", False),
        (">>> Training is done", False),
        # wandb's closing block, the shell come back, an IDE's exit
        (line(BABYGPT, "wandb: 🚀 View run absurd-frog-1 at:"), False),
        (line(BABYGPT, "wandb: Find logs at:"), False),
        ("wandb: Run summary:", False),
        ("wandb: Synced 5 W&B file(s), 0 media file(s), 0 artifact file(s) and 0 other file(s)", False),
        ("simpx@ThePC:~/buildyourownllm$ ", False),
        ("(venv) root@a100-7:/workspace/nanoGPT# python sample.py", False),
        ("Process finished with exit code 0", False),
        # the shell's ``time`` reporting on the script once it exited: bash's (its user and sys lines follow), zsh's
        ("real\t12m3.200s", False),
        ("real\t0m41,518s", False),  # (a locale's decimal comma)
        ("real 1h2m3.2s", False),
        ("python train.py  11.50s user 0.30s system 99% cpu 12:03.20 total", False),
        # gradient boosting: XGBoost's and LightGBM's early stop, LightGBM's every planned round trained
        (line("generic-xgboost-issue3366-train-valid-logloss-every-10-stopping-best-iteration.log", "Stopping."), True),
        ("Early stopping, best iteration is:", True),
        ("Did not meet early stopping. Best iteration is:", False),
        # PyTorch-Ignite's launcher once the run's function returned, behind its logger's prefix:
        # pytorch-ignite/pytorch-ignite.ai src/tutorials/intermediate/01-cifar10-distributed.md (after
        # "CIFAR10-Training INFO: Engine run complete. Time taken: 00:01:03") and
        # 02-Machine_Translation_using_PyTorch_Ignite.md (after "NMT INFO: Engine run complete. Time taken: 00:05:37")
        ("2021-09-14 19:16:23,547 ignite.distributed.launcher.Parallel INFO: End of run", False),
        ("2021-10-21 13:52:03,267 ignite.distributed.launcher.Parallel INFO: End of run", False),
        ("[2026-01-01 00:00:00,000][ignite.distributed.launcher.Parallel][INFO] - End of run.", False),  # hydra's prefix
        ("End of the run", False),
        # the script turns to generate its sample once its loop is over (Karpathy's ``gpt.py`` and the nanoGPT-style
        # scripts after it: ``Generating...``, then the text)
        ("Generating...", False),
        ("Generating text:", False),
        ("Sampling...", False),
        # detectron2's IterationTimer once its loop is over (tests/data/real detectron2-tx2dl-…; its tutorial output
        # in a blog post: ``Overall training speed: 997 iterations in 0:11:18 (0.6804 s / it)``), behind its logger's prefix
        ("[09/02 02:43:17 d2.engine.hooks]: Overall training speed: 298 iterations in 0:06:13 (1.2533 s / it)", False),
        ("Overall training speed: 997 iterations in 0:11:18 (0.6804 s / it)", False),
        # TF Estimator's train() returning (OpenNMT/OpenNMT-tf issue 206, tests/data/real), TPUEstimator's loop closing
        # after it (google-research/bert issue 1387, tests/data/real: there a re-raised error follows, and wins)
        (line("generic-opennmt-tf-issue206-estimator-loss-for-final-step-three-workers-done.log",
              "INFO:tensorflow:Loss for final step:"), False),
        (line("crash-bert-issue1387-tpu-estimator-training-loop-marked-as-finished-then-reraised-error.log",
              "INFO:tensorflow:training_loop marked as finished"), False),
        ("I0626 16:26:39.769962 139724583494016 error_handling.py:96] training_loop marked as finished", False),
        # LightGBM's CLI behind its own name and level, in its 2016 and later words (guolinke/boosting_tree_benchmarks,
        # tests/data/real)
        (line("stopself-lightgbm-boosting-benchmarks-higgs-cli-2016-finish-train-after-iteration-500.log",
              "[LightGBM] [Info] Finish"), False),
        (line("stopself-lightgbm-boosting-benchmarks-higgs-cli-2020-finished-training-after-iteration-500.log",
              "[LightGBM] [Info] Finished"), False),
        # wandb uploading the run's history as it finishes (ly232/berkeley-deep-rl-sp26, tests/data/real)
        (line("stopself-wandb-berkeley-drl-hw4-grpo-closing-uploading-history-steps-48-51.log",
              "wandb: uploading history steps"), False),
        # a closing line naming the run's end and its last figure, the end said of the whole run by the plan's full
        # share (PyMC's ADVI: pymc-devs/pymc issue 2162 and xishansnow/BayesianAnalysiswithPython2nd, tests/data/real)
        # or by the figure called the final one
        (line("generic-pymc-issue2162-advi-bar-then-finished-average-loss-closing.log", "Finished [100%]"), False),
        (line("generic-bayesian-analysis-ch8-advi-iterations-elbo-finished-closing-figure.log", "Finished [100%]"),
         False),
        ("Finished [100%]: Average Loss = 1,107.6", False),
        ("Training finished. Final loss: 0.6842", False),
        ("Done! Final validation accuracy: 0.9123", False),
        # the training word with what it trained named after it: YOLOX's trainer's ``after_train`` (its format,
        # ``"Training of experiment is done and the best AP is {:.2f}"``, composed with another figure)
        ("Training of experiment is done and the best AP is 47.35", False),
        (("2023-05-01 10:00:00.000 | INFO     | yolox.core.trainer:after_train:188 - Training of experiment is done and "
          "the best AP is 47.35"), False),
        ("Training of the model has finished", False),
        # the Lightning-Hydra template's task wrapper closing its loggers once training and its test are over
        # (``close_loggers``: ``log.info("Closing loggers...")``, behind hydra's logging prefix)
        ("Closing loggers...", False),
        ("[2024-03-02 10:00:04,000][src.utils.utils][INFO] - Closing loggers...", False),
    ],
)
def test_a_stop_message_is_read_whatever_the_trainer(message: str, early: bool) -> None:
    assert said(message) == (early, False)


@pytest.mark.parametrize(
    "message",
    [line(BABYGPT, "模型已保存"), "Model saved to out/model.pt", "Saving model to ./output", "The trained model was saved",
     "✔ Saved pipeline to output directory"],  # spaCy's ``spacy train``
)
def test_a_save_of_the_model_alone_is_an_end_only_once_quiet_follows(message: str) -> None:
    assert said(message) == (False, True)


@pytest.mark.parametrize(
    "message",
    [
        # the opening of wandb's block names no run and has no colon
        line(BABYGPT, "wandb: 🚀 View run at"),
        line(BABYGPT, "wandb: Syncing run"),
        # mid-run saves: a checkpoint, a best model, a save at a step or epoch
        "Saving model checkpoint to out/checkpoint-500",
        "Saved best model to best.pt",
        "Model saved at step 1000 to out/model.pt",
        "模型已保存到 checkpoint_epoch_3.pth",
        # words that only mention a stop
        "Validation loss decreased (0.5120 --> 0.4987).  Saving model ...",
        "EarlyStopping counter: 3 out of 10",
        # Ultralytics' hint under its early stop, the stop itself said on the line before
        ("To update EarlyStopping(patience=100) pass a new patience value, i.e. `patience=300` or use `patience=0` to "
         "disable EarlyStopping."),
        "Epoch 3 complete",
        "Optimization step 3 finished",  # (a step of it, not its end)
        "learning rate finished warmup",
        "done loading data",
        "step 120 complete",
        "Engine run complete. Time taken: 00:12:03",  # PyTorch-Ignite says it of each evaluation run too
        # a generation mentioned, not the script turning to it
        "Generating train split: 100%|██████████| 1000/1000",
        "generating samples for step 500 with temperature 0.8",
        "Process finished with exit code 1",  # (a crash line, not an end)
        "End of run 3, starting run 4",  # a sweep's runs: only the words alone on their line are the end
        "End of run statistics:",
        "[LightGBM] [Info] Finished loading parameters",  # (LightGBM's start, not its end)
        "[LightGBM] [Info] Finished initializing training",
        "wandb: uploading output.log; uploading wandb-summary.json",  # (uploads name no step)
        # a figure after an end word that says neither the plan's full share nor the final figure: a part's end
        "Done. loss: 0.3",
        "Finished [50%]: Average Loss = 150.3",
        # a real figure, or ``time``'s other lines, are no report of the command's end
        "real loss 0.3",
        "real\t12m3.200s extra",
        "user\t11m50.100s",
        "Epoch 3 total",
        # a training named by a part of it, or a logger closed mid-sentence: no end of the run
        "Training of epoch 3 is done in 12 s",
        "Training of epoch3 is done",
        "Training of stage1 is done",
        "Not closing loggers: wandb disabled",
    ],
)
def test_words_that_are_not_a_stop_message(message: str) -> None:
    assert said(message) is None


def test_a_stop_message_behind_a_logger_s_prefix() -> None:
    # cgcnn's python logging record (composed in its format): the words after the prefix are read
    assert said("2025-07-07 19:14:40.172 INFO: Training complete.") == (False, False)
    assert ending("INFO: Training complete.") is None  # (the prefix is peeled by the watch, not by the class)


def test_wandb_s_history_upload_names_the_last_step_it_logged() -> None:
    # ``uploading history steps 48-51``: the history's last step, 51 (the first is where this upload began)
    end = ending("wandb: uploading history steps 48-51, summary, console lines 4-12")
    assert end is not None and end.said and end.step == 51
    assert ending("uploading history steps 54-54, summary") is not None  # (its ``wandb:`` lost in a paste)
