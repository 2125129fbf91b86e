"""Figures no rule names, sorted by what their printed names say: the name classes.

A trainer prints figures tokwatch has no alias for beside a step it did recognise: on the step line
itself or on the lines tied to it (a ``Time elasped: 196.28`` after each step line, an ``Epoch Time(s):
7.25`` after each epoch, an ``Eval Acc 0.9248`` every five epochs, a ``---- mAP 0.9235`` after an AP
table). Rather than one rule per trainer, such a figure is read under its printed name when the name
falls in a class:

- time: the run's clock (``Time elapsed``, its misspelling ``elasped``), an epoch's time (``Epoch
  Time(s)``, ``epoch_time``);
- evaluation: a name with an evaluation's word (``Eval Acc``, ``Test Acc``, ``val_acc``, ``valid
  bleu``) or a detector's mean average precision (``mAP``, ``mAP@0.5``);
- totals: the run's planned epochs said with their unit (mmdet's ``max: 15 epochs``);
- rates: frames or samples a second (``fps``, rl_games' ``fps total``, ``samples/sec``), the optimizer's steps a second
  (TF Estimator's ``global_step/sec``);
- counts: an RL run's environment steps so far (stable-baselines' ``total_timesteps``, rsl_rl's ``Total steps``, never a
  plan), its episodes so far (stable-baselines v2's ``episodes``: a plural count, never one episode's number); an RL
  run's mean reward (rsl_rl's ``Mean reward``).

A line is tied only when every number on it is so named (``name: value``, ``name value``, ``name=value``,
behind a rule of dashes): prose, a table row or a config dump with one such name among others is not.
Nothing is guessed: a time whose unit is not printed is read in seconds only where the name is a clock
of the wall clock's differences (seconds since the start) (``elapsed``); any other needs its unit.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from .fields import NUM, clock_seconds, number
from .grammar import EVAL_WORDS, lookup, normalise, printed_pairs, said_name


class Kin(enum.Enum):
    """The class a printed name falls in."""

    ELAPSED = "elapsed"  # the run's clock so far, in seconds
    EPOCH_TIME = "epoch time"  # one epoch's duration, in seconds
    EVAL = "eval"  # an evaluation's figure
    EPOCHS = "epochs"  # the run's planned epochs
    RATE = "rate"  # frames, samples or steps a second
    TIMESTEPS = "timesteps"  # an RL run's environment steps so far (stable-baselines' ``total_timesteps``)
    EPISODES = "episodes"  # an RL run's episodes so far (stable-baselines v2's ``episodes``, RLlib's ``episodes_total``)
    REWARD = "reward"  # an RL run's mean reward over its recent episodes (rsl_rl's ``Mean reward``)
    MEMORY = "memory"  # memory as printed, its unit if printed (``max_mem: 2372M``, mmdet's ``memory: 4090``)
    TIME = "time"  # a time whose unit is not printed (vietocr's ``gpu time: 38.92`` a report): kept as printed


# Words that make a step record's one figure no figure of the run's progress at all: a count, a size, a setting, a
# rate, a time, memory, a running extreme (the line is read as no record).
NOT_LONE = frozenset({"size", "bs", "count", "num", "n", "total", "lr", "time", "speed", "fps", "memory", "mem", "gpu",
                      "samples", "tokens", "images", "len", "length", "id", "seed", "rank", "dim", "grad", "norm",
                      "best", "min", "max", "epochs", "steps", "iters", "batches", "workers", "eta", "remaining",
                      "elapsed", "progress", "done", "left", "lambda", "alpha", "beta", "gamma", "temperature", "eps",
                      "epsilon", "scale", "weight", "decay", "momentum", "warmup"})


@dataclass(frozen=True, slots=True)
class Named:
    """One classed figure: its class, its name as printed (normalised) and its value."""

    kin: Kin
    name: str
    value: float
    printed: str = ""  # the name as printed (``global_step/sec``)


# A tied line: decoration, then pairs ``name[(unit)][:=]? value[unit]`` joined by commas, bars or runs of spaces.
_LEAD = re.compile(r"^[\s\-=*>#.]*")
_PAIR = re.compile(
    rf"(?P<name>[A-Za-z][A-Za-z0-9_ ./@-]{{0,40}}?)\s?(?:\((?P<paren>[a-z]{{1,7}})\))?(?:\s?[:=]\s?|\s)"
    rf"(?P<value>\d{{1,4}}(?::\d\d){{1,2}}(?:\.\d+)?|{NUM})\s?(?P<unit>ms|s|sec|secs|seconds|it/s|s/it|%)?(?![\w.])"
)
_SEPARATOR = re.compile(r"\s*(?:[,|;]\s*|\s{2,}|$)|\s(?=[A-Za-z])")
_MAX_TIED_CHARS = 200
# Words of a clock's name (its misspelling too: StyleTTS2 prints ``Time elasped``).
_ELAPSED_NAMES = frozenset({"elapsed", "elasped", "time elapsed", "time elasped", "elapsed time", "elasped time",
                            "total time elapsed"})
_EPOCH_TIME_NAMES = frozenset({"epoch time", "time epoch", "epoch duration", "epoch seconds"})
# A detector's mean average precision, any IoU threshold (``mAP``, ``mAP50``, ``map 50 95``, ``mAP@0.5``).
_MAP = re.compile(r"^(?:eval |val |test )?m?ap(?:@?[\d.]+(?:[: ]\d+)?)?(?: [\d.]+)*$")
_RATE_NAMES = frozenset({"fps", "samples sec", "samples s", "samples per second", "global step sec", "img s",
                         "images sec", "images s", "speed samples sec", "examples sec",
                         # the same rates under a library's or a script's name (``samples_per_sec=412.5``,
                         # ``imgs/s 812.3``, ``examples/s: 1201``, ``images_per_sec``)
                         "samples per sec", "examples per sec", "examples per second", "examples s", "images per sec",
                         "images per second", "imgs s", "imgs sec", "img sec",
                         "env steps per second"})  # (rsl_rl's ``Steps per second``: the environment's, in an RL block)
# Frames a second named first and qualified after (rl_games' ``fps step: 524282.0 fps step and policy inference: 349520.9
# fps total: 209712.3 epoch: 14/1000``): the environment's frames, never the optimizer's steps nor tokens.
_FRAMES_FIRST = "fps "
# An RL block's environment steps so far (rsl_rl's ``Total steps: 1608``, ``Total timesteps``: the reader names the
# steps of a record logged once an iteration the environment's).
_ENV_TOTALS = frozenset({"env total steps", "env total timesteps",
                         "total env interactions"})  # (rl_replicas' ``Total env interactions: 152000``)
# An RL run's episodes so far: the plural names a count of them (``episode: 570`` names one episode, a position).
_EPISODE_COUNTS = frozenset({"episodes", "total episodes", "num episodes", "episodes total", "n episodes",
                             "episode count", "episodes so far"})
# An RL run's mean reward over its recent episodes, as rsl_rl and other loops name it.
_REWARD_NAMES = frozenset({"mean reward", "mean episode reward", "average reward", "avg reward", "episode reward mean",
                           "mean episode return", "reward mean", "average episode return", "average episode reward",
                           # cleanrl's ``global_step=4096, episodic_return=[12.]``: the episode just ended, at that step
                           "episodic return", "episode return", "episodic reward", "episode reward",
                           # Dreamer's ``metrics.jsonl``: ``{"step": 5000, "train/return": 35.2, "episodes": 5}``
                           "train return",
                           # a loop's own words for it (``Average return is 12.5``)
                           "average return", "mean return", "avg return"})
# A score's words: on an evaluation's own line, a figure so named is that evaluation's (vietocr's ``acc full seq``).
_SCORE_WORDS = frozenset({"acc", "accuracy", "f1", "bleu", "rouge", "auc", "precision", "recall", "wer", "cer", "ppl",
                          "perplexity", "iou", "miou", "map", "em"})
# Times that are no figure of the run's pace: an epoch's and an evaluation's (their own classes), the loader's share
# of the iteration time beside it (``data_time``).
_NOT_TIMES = frozenset({"epoch", "eval", "data", "last"})  # (detectron2's ``last_time``: the last iteration's again)
# Words that make a figure the run's running minimum or maximum so far, when they lead its name (``Min_val_loss``,
# ``max_val_acc``): no evaluation's figure of its own.
_EXTREMES = frozenset({"min", "max", "minimum", "maximum", "lowest", "highest"})
# Words that make an evaluation's loss another figure than the loss it smooths (``Smoothed Validation Loss``, an EMA of
# the evaluations' losses so far): shown under its own name beside it, never a repeat of it.
_SMOOTHED = frozenset({"smoothed", "smooth", "ema", "running", "moving"})
# Words that keep a figure a training one, whatever else its name says (``Train Acc``).
_TRAINING_WORDS = frozenset({"train", "training"})
# Words that make the number after a name the evaluation's ordinal, not its score: a count's mark (DL4J's
# EvaluativeListener ``Starting evaluation nr. 4``, ``Evaluation no. 3``, ``eval number 2``) or a verb of its start
# leading the name (``Starting evaluation 3``, ``Running validation 2``). Its results follow on their own lines.
_ORDINAL_WORDS = frozenset({"nr", "nr.", "no.", "number", "#"})
_START_WORDS = frozenset({"start", "starting", "started", "begin", "beginning", "running", "launching"})
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "sec": 1.0, "secs": 1.0, "seconds": 1.0}
# The run's planned epochs said with their unit: mmcv's runner ``workflow: [('train', 1)], max: 15 epochs``; a
# terminal copy may put a space inside the word where the screen line wrapped (``max: 200 epoc hs``, mmdetection#3495).
_PLANNED_EPOCHS = re.compile(
    r"(?i)\b(?:max|total|max_epochs|num_epochs)\s?[:=]\s?(\d{1,6}) (e ?p ?o ?c ?h ?s)(?![\w-])")


# A perplexity beside a step, the training set's unless an evaluation's word leads it (``Validation perplexity: 7.87``,
# sockeye's ``Validation-perplexity=19.24``): OpenNMT's ``Perplexity 8.28`` and ``PPL 37.82``, OpenNMT-py's ``ppl: 12.3``,
# sockeye's ``perplexity=38.275190``, a fenced record's ``| ppl   123.45``.
_PERPLEXITY = re.compile(r"(?i)(?<![a-z0-9])(?:perplexity|ppl)\s{0,8}[:=]?\s{0,8}(" + NUM + r")(?![\w.])")
# The word before it (``Validation-``, ``valid_``, ``train ``).
_WORD_BEFORE = re.compile(r"([A-Za-z]+)[ _-]?$")


def training_perplexity(text: str) -> float | None:
    """The training perplexity a step's record prints (see ``_PERPLEXITY``), or None: none printed, or only an
    evaluation's."""
    low = text.lower()
    if "ppl" not in low and "perplexity" not in low:
        return None
    for m in _PERPLEXITY.finditer(text):
        before = _WORD_BEFORE.search(text, max(0, m.start() - 24), m.start())
        word = before.group(1).lower() if before is not None else ""
        if word in EVAL_WORDS or word.startswith(("val", "eval", "test")):
            continue
        return number(m.group(1))
    return None


def kin_of(name: str, unit: str | None) -> Kin | None:
    """The class of a normalised name (None: no class, the figure is not read)."""
    words = set(name.split(" "))
    if name in _ELAPSED_NAMES:
        return Kin.ELAPSED
    if name in _EPOCH_TIME_NAMES:
        return Kin.EPOCH_TIME
    if name in _RATE_NAMES or name.endswith((" fps", "samplespersec")):  # (DeepSpeed's ``SamplesPerSec``, run together)
        return Kin.RATE  # (``env fps``: the reader's name for stable-baselines' ``fps`` beside its iterations)
    if name.startswith(_FRAMES_FIRST):
        return Kin.RATE  # (rl_games' ``fps total``)
    if (name.endswith(" timesteps") and name.split(" ")[-2] in ("total", "num", "env")) or name in _ENV_TOTALS:
        return Kin.TIMESTEPS
    if name in _REWARD_NAMES:
        return Kin.REWARD
    if name in _EPISODE_COUNTS:
        return Kin.EPISODES
    if words & _TRAINING_WORDS:
        return None
    if name.split(" ")[0] in _EXTREMES:
        return None  # a running extreme, not this evaluation's figure (DMRGCN's ``Min_val_loss: 10000000000.0`` sentinel)
    if words & _ORDINAL_WORDS or name.split(" ")[0] in _START_WORDS:
        return None  # the evaluation's ordinal (``Starting evaluation nr. 4``), no score of it
    if words & EVAL_WORDS or _MAP.match(name):
        return Kin.EVAL
    return None


def tied(text: str, known: bool = False) -> list[Named] | None:
    """The classed figures of a line made only of them (``Eval Acc 0.9248``, ``Time elasped: 196.28``), or None.
    ``known``: the line's figures are the grammar's (``Step time: 0.52s``, ``elapsed: 0:12:30``); only its shape is
    checked (every value named, nothing else on it), and no figure is returned but the empty list."""
    if len(text) > _MAX_TIED_CHARS:
        return None
    i = _LEAD.match(text).end()  # type: ignore[union-attr]  # (matches the empty string at least)
    found: list[Named] = []
    while i < len(text):
        m = _PAIR.match(text, i)
        if m is None:
            return None
        name = normalise(m.group("name"))
        unit = m.group("unit") or m.group("paren")
        if known:
            sep = _SEPARATOR.match(text, m.end())
            if sep is None or sep.end() == m.end() and m.end() < len(text):
                return None
            i = sep.end()
            continue
        kin = kin_of(name, unit)
        printed = m.group("value").rstrip(",")
        clock = ":" in printed
        value = clock_seconds(printed.split(".")[0]) if clock else number(printed)
        if kin is None or value is None or (clock and kin not in (Kin.ELAPSED, Kin.EPOCH_TIME)):
            return None
        if clock:
            unit = "s"  # (a clock is its own unit: ``Time elapsed: 0:12:30``)
        if unit == "%" and kin is not Kin.EVAL:
            return None  # (a share is an evaluation's score, as printed, or nothing here)
        if kin in (Kin.ELAPSED, Kin.EPOCH_TIME):
            if unit is not None and unit not in _UNIT_SECONDS:
                return None
            if unit is None and kin is Kin.EPOCH_TIME:
                return None  # an epoch's time needs its unit
            value *= _UNIT_SECONDS[unit or "s"]
        found.append(Named(kin, name, value, m.group("name").strip()))
        sep = _SEPARATOR.match(text, m.end())
        if sep is None or sep.end() == m.end() and m.end() < len(text):
            return None
        i = sep.end()
    return [] if known else found or None


def scores(found: list[Named] | None) -> list[Named] | None:
    """Those figures when every one is an evaluation's score by its name (``Eval Acc``, ``Best Eval Acc``, ``Test Acc``),
    else None: before any step a line of settings (``eval_steps: 500``, ``val_check_interval: 1.0``) is no evaluation."""
    if not found or not all(n.kin is Kin.EVAL and set(n.name.split(" ")) & _SCORE_WORDS for n in found):
        return None
    return found


def position_scores(unknown: list[tuple[str, str | None, str, str | None]]) -> list[Named] | None:
    """The evaluation's scores a step record prints with nothing else but its position (TensorFlow 1's retrain script:
    ``Step 90: Validation accuracy = 100.0% (N=100)``), a share as printed; None when it prints none, or any other
    figure. ``unknown``: the record's pairs the grammar did not read; the evaluated count in parentheses is no figure."""
    found: list[Named] = []
    for raw, paren, value_text, unit in unknown:
        name = normalise(raw + (f" {paren}" if paren else ""))
        if name == "n" and unit is None:
            continue  # (``(N=100)``: how many examples the score is over)
        value = number(value_text)
        if value is None or unit not in (None, "%") or kin_of(name, None) is not Kin.EVAL:
            return None
        found.append(Named(Kin.EVAL, name, value, raw.strip()))
    return scores(found)


def planned_epochs(text: str) -> int | None:
    """The run's planned epochs, when a line says them with their unit (``max: 15 epochs``)."""
    low = text.lower()
    if "epo" not in low and "och" not in low:  # (the word whole, or cut once: one of its halves keeps these)
        return None
    m = _PLANNED_EPOCHS.search(text)
    if m is None or m.group(2).count(" ") > 1:
        return None
    return int(m.group(1)) if int(m.group(1)) > 0 else None


# A rate tracker's pair (torch_xla's ``RateTracker``, which its training scripts print on every device, ``Rate=522.22
# GlobalRate=123.35``; Cerebras' ``Rate=974.00 samples/sec, GlobalRate=974.00 samples/sec``): the recent and the since-start
# rate of what the loop adds to it, kept as printed. ``Rate`` alone names no rate elsewhere.
_RATE_TRACKER = re.compile(r"\bRate=\s?\d[\d.]*(?: samples/sec)?,?\s+GlobalRate=\s?\d")
_TRACKED_RATES = frozenset({"rate", "globalrate"})
# Names already sorted: (as printed, its ``(unit)``) → (class or None, normalised name); cleared when full.
_NAMED: dict[tuple[str, str | None], tuple[Kin | None, str]] = {}
_NAMED_SIZE = 4096
_BESIDE_KINS = frozenset({Kin.RATE, Kin.EVAL, Kin.TIMESTEPS, Kin.EPISODES, Kin.TIME, Kin.REWARD})


def _sorted_name(raw: str, paren: str | None) -> tuple[Kin | None, str]:
    """The class of a printed name beside a step (no unit printed), and the name normalised."""
    name = normalise(raw + (f" {paren}" if paren else ""))
    kin = kin_of(name, None)
    if kin is None and (name.endswith((" time", " timer")) or name in ("time", "timer")) and not paren \
            and name.split(" ")[0] not in _NOT_TIMES:
        kin = Kin.TIME
    return kin, name



def beside(text: str, evaluation: bool = False,
           unknown: list[tuple[str, str | None, str, str | None]] | None = None, in_shares: bool = False) -> list[Named]:
    """The classed figures of a step record whose names no rule knows (``fps: 49``, ``Speed (samples/sec)
    43672.97``, ``val_acc: 0.91``, ``Test Acc: 0.93``, ``gpu time: 38.92``); a name the grammar reads is left to
    it. On an ``evaluation``'s own line a score's name (``acc full seq``) is that evaluation's too. ``unknown``: the
    record's pairs the grammar did not read, when its own pass collected them (:func:`~.grammar.pairs`). ``in_shares``: a
    score printed in per cent is read too, as printed (``Test Acc: 85.20%``), where no other reader takes the record's
    shares."""
    found: list[Named] = []
    seen: set[str] = set()
    for raw, paren, value_text, unit in printed_pairs(text) if unknown is None else unknown:
        if unit is not None and (unit != "%" or not in_shares):
            continue
        key = (raw, paren)
        known = _NAMED.get(key)
        if known is None:
            # (a trainer prints the same names on every line: each is sorted once)
            if len(_NAMED) >= _NAMED_SIZE:
                _NAMED.clear()
            known = _NAMED[key] = _sorted_name(raw, paren)
        kin, name = known
        if kin is None and evaluation and set(name.split(" ")) & _SCORE_WORDS:
            kin = Kin.EVAL
        if kin is None and name in _TRACKED_RATES and "GlobalRate=" in text and _RATE_TRACKER.search(text):
            kin = Kin.RATE
        if kin not in _BESIDE_KINS or name in seen or (unknown is None and lookup(normalise(said_name(raw)))[0] is not None):
            continue
        if unit == "%" and (kin is not Kin.EVAL or not set(name.split(" ")) & _SCORE_WORDS):
            continue
        value = number(value_text)
        if value is None:
            continue
        if kin is Kin.EVAL and "loss" in name and "loss" in name.split(" ") and name.split(" ")[0] not in _SMOOTHED:
            continue  # (an evaluation's loss is the grammar's; one it does not name, ``val_loss valid``, is a repeat;
            # a head named after its loss is no loss: Caffe's ``loss1/top-1``, GoogLeNet's first head's top-1 accuracy)
        if kin is Kin.EVAL and name in EVAL_WORDS and value.is_integer():
            continue  # (the evaluation's own number, no figure of it: transformer-xl's ``| Eval   7 at step    28000 |``)
        seen.add(name)
        found.append(Named(kin, name, value, raw.strip()))
    return found


# Memory beside a step: its name (a GPU's peak or current memory), its value and the unit printed, if any.
_MEMORY = re.compile(
    r"(?i)(?<![\w/])(max_mem|max mem|peak mem(?:ory)?|max memory|memory|mem|gpu_mem|gpu mem|max_memory_allocated"
    r"|[GM]i?B used)"  # (tinygrad's ``1454.57 GB used``, named after its value: the record is read so)
    r"\s?[:=]?\s?(\d{1,9}(?:\.\d+)?)\s?([KMGT]i?B|[KMGT](?![A-Za-z])|MB|GB)?(?![\w.%/])"
)


def memory_figures(text: str) -> list[Named]:
    """Memory printed on a step line, as printed: ``max_mem: 2372M`` (``max_mem M``), ``Peak mem 2.334 GB``
    (``Peak mem GB``), mmdet's ``memory: 4090`` (no unit printed, none given)."""
    found: list[Named] = []
    for m in _MEMORY.finditer(text):
        value = number(m.group(2))
        if value is not None:
            unit = m.group(3)
            found.append(Named(Kin.MEMORY, normalise(m.group(1)), value, m.group(1) + (f" {unit}" if unit else "")))
    return found[:4]
