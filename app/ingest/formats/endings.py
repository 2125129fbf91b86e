"""A run's own words that it has stopped, whoever wrote the trainer: the ending class.

A trainer that stops itself says so, in its own words and language, and what comes after is quiet
(or its final evaluation): a wall-clock cap or an early stop (``stopping_early: wallclock_cap …``,
``Early stopping triggered``, AllenNLP's ``Ran out of patience.  Stopping training.``, ``提前停止``,
Ultralytics' ``EarlyStopping: Training stopped early …``), training complete (``Training complete.``, ``训练完成``, YOLOX's ``Training of experiment is done …``,
Lightning's ``Trainer.fit stopped: max_steps=1000 reached``, PyTorch-Ignite's launcher's ``End of run``), its final weights saved, wandb's
closing block, or the Lightning-Hydra template's closing of its loggers once training and its test are over
(``Closing loggers...``), (``wandb: Run summary:``, ``wandb: Synced 5 W&B file(s)``, ``View run NAME at: …``,
``Find logs at: …``; its opening ``View run at`` has no name; ``wandb: uploading history steps 54-54, summary``, which
names the last step it logged), a shell prompt come back
(``user@host:~/dir$``), an IDE's ``Process finished with exit code 0``, the shell's ``time`` reporting on the
script once it exited (``real\t12m3.200s``), the script turning to generate its
sample (``Generating...`` alone on its line), detectron2's timer summing the loop up (``Overall training speed: 298 iterations
in 0:06:13 (1.2533 s / it)``). Each is read as a
:class:`~app.stats.events.StageEnd` with ``said``: the run's end unless a training step follows
(then it was not the end). ``early``: it stopped short of its plan (a cap, a time limit, an early
stop). A message that only says the model was saved (``模型已保存到model.pth``, ``Model saved to
out/model.pt``) is ``saved``: mid-run saves look the same, so it is the end only once the next step
is overdue (app/stats/steps/verdict.py); a save of a checkpoint, a best model, or at a step or an
epoch is a mid-run save and never read here.

The words are matched at the start of the message (after the launcher's and logger's prefix): a
line that merely mentions them (``Validation loss decreased … Saving model …``, ``EarlyStopping
counter: 3 out of 10``) is not a stop message.
"""

from __future__ import annotations

import re

from ...stats.events import StageEnd
from .fields import NUM

MAX_MESSAGE_CHARS = 240

# Cheap test, on the lowered line: can it be a stop message at all?
MAYBE = re.compile(r"stop|patience|final|complet|finish|done|end|closing|sav|epoch time|training speed|wandb|@|exit code|generat|sampling|^\s*real\s|total$|停|训练|保存|模型|完成|结束")

# Stops short of the plan: a wall-clock cap, a time limit, an early stop.
_EARLY = re.compile(
    r"(?i)^\W{0,4}(?:stopping[_ ]early\b|early[_ ]stopping\b(?!.{0,80}\b(?:counter|patience)\b)"
    r"|stopping\b.{0,80}\b(?:wall-?clock|time limit|time budget|max[_ ]time)\b"
    r"|(?:reached|hit) (?:the )?(?:wall-?clock|time) (?:cap|limit|budget)\b"
    r"|(?:wall-?clock (?:cap|limit)|time limit|max[_ ]time) reached\b"
    r"|.{0,120}\bSignaling Trainer to stop\b|Epoch \d+: early stopping\b|ran out of patience\b"
    r"|stopping\. best iteration:"  # XGBoost's early stop (LightGBM's ``Early stopping, best iteration is:``)
    # the other word order, behind the label of the part that stopped it (Ultralytics' ``EarlyStopping: Training stopped
    # early as no improvement observed in last 300 epochs.``), and YOLOv5's ``Stopping training early as …``
    r"|(?:[A-Za-z][\w ]{0,30}: )?training (?:was |has been )?stopped early\b|stopping training early\b"
    r"|(?:提前|早)停(?!.{0,20}(?:计数|耐心)))"
)
# The run says it ended (its plan done, or no reason given).
_ENDED = re.compile(
    r"(?i)^\W{0,4}(?:stopping\b.{0,80}\b(?:max[_ ]steps|max[_ ]iters?|max[_ ]epochs)\b"
    r"|(?:saved|saving) (?:the )?final (?:model|weights|adapter|adapters|lora|checkpoint)\b"
    r"|final (?:model|weights|adapter weights|adapters?|checkpoint) (?:saved|written)\b"
    # (YOLOX's trainer names what it trained: ``Training of experiment is done and the best AP is 90.00``)
    r"|training (?:of (?:the )?(?!(?:epoch|step|iter|batch|round|stage|phase)\w*\b)[\w-]{1,40} )?(?:is |has )?(?:complete|completed|finish|finished|done|ended|over)\b"
    # the loop's other nouns for it (pygcn and the GCN scripts after it: ``Optimization Finished!``, ``Optimization
    # finish!``; ``Fitting finished.``). (Caffe's solver's ``Optimization Done.`` is the generic reader's, with its date.)
    r"|(?:optimi[sz]ation|fitting|learning) (?:is |has )?(?:complete|completed|finish|finished|ended|over)\b"
    r"|(?:finished|done|completed) training\b|end of training\b|stopping training\b|all done[.!]*$"
    r"|end of (?:the )?run[.!]*$"  # PyTorch-Ignite's launcher, once its function has returned
    # the task wrapper of the Lightning-Hydra template closing its loggers once training and its test are over
    # (``Closing loggers...``; a crash is logged before it and decides)
    r"|closing (?:the )?loggers?\b"
    r"|`?Trainer\.fit`? stopped\b|\d+ epochs? completed in\b"
    r"|(?:avg|average) (?:epoch|iteration) time\b"  # DGL's examples, once every epoch ran: ``Avg epoch time: 7.16``
    # detectron2's IterationTimer, once the loop is over (also after a failed step: a crash before it comes first)
    r"|overall training speed: \d+ iterations? in\b"
    r"|did not meet early stopping\b"  # LightGBM: every planned round trained, then its best one
    # LightGBM's CLI once its last iteration is done, behind its own name and level (2016's ``[LightGBM] [Info] Finish
    # train``, later ``[LightGBM] [Info] Finished training``)
    r"|\[LightGBM\] \[Info\] finish(?:ed)? train(?:ing)?[.!]*$"
    # TF Estimator's ``train()`` returning (``Loss for final step: 0.79459095.``) and TPUEstimator's loop closing
    # after it (``training_loop marked as finished``; also printed just before a captured error is re-raised, whose
    # traceback then comes after it and wins)
    r"|loss for final step: |training_loop marked as finished\b"
    # the evaluation a trainer runs once its last step is done (verl's ``Final validation metrics: {…}`` on its way out)
    r"|final (?:validation|evaluation|eval) (?:metrics|results)\b"
    r"|(?:模型)?训练(?:已经?)?(?:完成|结束|完毕)|(?:完成|结束)训练|停止训练"
    r"|最终(?:模型|权重)(?:已经?)?保存|保存最终(?:模型|权重))"
)
# A closing line that names the run's end and its last figure, the end said of the whole run: by the plan's full share
# beside the end word (PyMC's ADVI, ``Finished [100%]: Average Loss = 41.662``, ``Finished [100%]: ELBO = -225.56``), or
# by the figure being called the final one (``Training finished. Final loss: 0.6842``). One rule, its figure under its
# printed name (``name``, ``value``): a mid-run ``Done. loss: 0.3`` says neither and is no end.
CLOSING_FIGURE = re.compile(
    r"(?i)^\W{0,4}(?:(?:finished|done|completed?)\s?\[100(?:\.0+)?\s?%\]\s?:\s*(?:final )?"
    r"|(?:(?:training|optimi[sz]ation|fitting|run) (?:is |has )?)?(?:finished|done|completed?|ended)[.!:]+\s*final )"
    rf"(?P<name>[A-Za-z][\w -]{{0,30}}?)\s?[:=]\s?(?P<value>{NUM})\.?$"
)
# The script turns from training to generating a sample (Karpathy's ``gpt.py`` and the nanoGPT-style scripts
# after it print ``Generating...`` once their loop is over, then the text): the word alone, as a heading.
_GENERATING = re.compile(
    r"(?i)^\W{0,4}(?:generating|sampling)(?: (?:text|samples?|outputs?|from (?:the )?model))?\s*(?:\.{2,}|…|:)?\s*$")
# wandb's closing block (its opening one prints ``View run at https://…``, with no name and no colon).
_WANDB_END = re.compile(
    r"^(?:wandb: )?\W{0,4}(?:Run summary:|Run history:|Synced \d+ W&B file|View run \S.{0,200} at: "
    r"|Find logs at: |Waiting for W&B process to finish|You can sync this run to the cloud)"
)
# wandb uploading the run's history as the run finishes (``wandb: uploading history steps 54-54, summary``): the
# run's end, the last of the steps it logged named.
_WANDB_HISTORY = re.compile(r"^(?:wandb: )?uploading history steps \d{1,12}-(\d{1,12})\b")
# The shell is back: its prompt (``(venv) user@host:~/dir$``, a command after it or not), or an IDE's exit.
_PROMPT = re.compile(r"^(?:\([\w.-]+\) ?)?[\w.-]+@[\w.-]+:[^\s$#]*[$#](?: .*)?$|^Process finished with exit code 0$")
# The shell's ``time`` reporting on the command it ran, which prints once the script has exited (bash's ``real\t12m3.200s``,
# its user and sys lines after; zsh's ``python train.py  11.50s user 0.30s system 99% cpu 12:03.20 total``): the process
# is over. (A crash printed before it comes first and decides: the report follows a failed command just the same.)
_TIME_REPORT = re.compile(
    r"^(?:real\s+(?:\d+h)?\d+m\d+(?:[.,]\d+)?s|.{0,200}\s\d+(?:\.\d+)?s user \d+(?:\.\d+)?s system \d+% cpu \S+ total)$")
# Only a save of the model: the end once the next step is overdue; a checkpoint's, a best model's, or one
# at a step or epoch is a mid-run save.
_SAVED = re.compile(
    r"(?i)^\W{0,4}(?:(?:the )?(?:trained |fine-?tuned )?(?:model|weights|adapters?|lora)(?: weights)?"
    r" (?:has been |have been |was |were |is )?saved\b|(?:saved|saving) (?:the )?(?:trained |fine-?tuned )?"
    r"(?:model|weights|adapters?|lora|pipeline)\b|(?:模型|权重)(?:已经?|已)?保存|(?:已经?)?保存(?:了)?(?:模型|权重))"
)
_MIDRUN_SAVE = re.compile(r"(?i)checkpoint|ckpt|\bbest\b|\bstep\b|\bepoch\b|\biter|最佳|最好|轮|步")


def ending(message: str) -> StageEnd | None:
    """``message`` (a line's text, its prefixes peeled) as the run's said end, or None."""
    if _EARLY.match(message):
        return StageEnd(None, summary=_clip(message), said=True, early=True)
    history = _WANDB_HISTORY.match(message) if message[:1] in "wu" else None
    if history is not None:
        return StageEnd(None, summary=_clip(message), said=True, step=int(history.group(1)))
    if (_ENDED.match(message) or CLOSING_FIGURE.match(message) or _WANDB_END.match(message) or _PROMPT.match(message) or _GENERATING.match(message)
            or _TIME_REPORT.match(message)):
        return StageEnd(None, summary=_clip(message), said=True)
    if _SAVED.match(message) and not _MIDRUN_SAVE.search(message):
        return StageEnd(None, summary=_clip(message), said=True, saved=True)
    return None


def last_planned_epoch_from_zero(first_epoch: int | None, epoch: int, planned_epochs: int | None) -> bool:
    """The record of ``epoch`` is the last of the run's planned epochs, where its records count epochs from zero
    (the first one read was epoch 0) and the plan was said apart from them (``Namespace(epochs=50, …)``, ``epochs: 50``):
    ``epoch 49`` of ``range(50)``. What follows it is the run's closing acts (its test, its final save), no epoch to
    come. (A line that prints its own total says where it ends itself: the transfer-learning tutorial's ``Epoch 24/24``
    after ``Epoch 0/24``.)"""
    return first_epoch == 0 and planned_epochs is not None and planned_epochs > 0 and epoch == planned_epochs - 1


def stops_training(message: str) -> bool:
    """True when ``message`` says the training itself stopped or ended (not only that the shell came back,
    wandb closed or the model was saved): a log whose only run news it is is still a training log."""
    return (_EARLY.match(message) is not None or _ENDED.match(message) is not None
            or CLOSING_FIGURE.match(message) is not None)


def _clip(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE_CHARS else text[: MAX_MESSAGE_CHARS - 1] + "…"
