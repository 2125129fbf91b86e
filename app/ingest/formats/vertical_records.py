"""Records printed one figure a line, as the generic step reader reads them.

Stable-Baselines' logger table (``|    ep_len_mean          | 200         |`` between dashed rules, a group's own
row ``| rollout/                |             |``), rsl_rl's ``Learning iteration 1/10`` over its right-aligned
``   Mean value loss: 19.7410``, and a name, a tab, a figure a line (``Iteration: \t 3``). Their lines are held
until the block closes, then handed on as one ``name: value | …`` record, which the generic reader reads as any
other (a Stable-Baselines log of its own is the ``stable-baselines`` row's: see stable_baselines.py).
"""

from __future__ import annotations

import math
import re

from .fields import (
    FPS_SECONDS_NOTE,
    LOSS_PART,
    MEAN_SECONDS_NOTE,
    RATE_PART,
    TOTAL_PART,
    logger_table_read,
    number,
    tag_name,
)
from .grammar import EVAL_WORDS, seconds

# One figure a line: stable-baselines3's logger table (``|    ep_len_mean          | 200         |``, a group's own
# row ``| rollout/                |             |``), rsl_rl's right-aligned ``   Mean value loss: 19.7410`` under
# its centred ``Learning iteration 1/10``; dashed or hashed rules around them.
_SB3_PAIR = re.compile(r"^ ?\|\s+([A-Za-z][\w./ -]{0,60}?)\s*\|\s*(-?[\w.+-]{0,30})\s*\|\s*$")
_RSL_PAIR = re.compile(r"^\s{2,}([A-Za-z][\w .()/-]{0,50}?):\s+(-?\d[\d.:]*(?:[eE][-+]?\d+)?\s?(?:s|ms|%)?)\s*$")
# A name, a tab, a figure (its ``+- spread`` dropped, a unit word kept as its unit).
_TAB_PAIR = re.compile(r"^([A-Za-z][\w .()/-]{0,50}?):?[ ]*\t[ ]*(-?\d[\d.]*(?:[eE][-+]?\d+)?)(?: \+- \S+)?(?: (s|ms|seconds))?\s*$")
_RSL_COMPUTATION = re.compile(r"^\s{2,}Computation:\s+(\d{1,12}) steps/s \(collection: (\d+(?:\.\d+)?s), learning (\d+(?:\.\d+)?s)\)\s*$")
_ITERATION_PARTS = frozenset({"collection time", "learning time"})
_VERTICAL_TITLE = re.compile(r"^\s{4,}([A-Za-z][A-Za-z ]{2,40}?)\s+(\d{1,9}/\d{1,9})\s*$")

# Caffe's solver tests its net at an iteration (``Iteration 1000, Testing net (#0)``), then prints each output of the
# test net a line (``    Test net output #0: accuracy = 0.9``, ``    Test net output #1: loss = 0.3 (* 1 = 0.3 loss)``):
# one evaluation, at that iteration (the training line ``Iteration 1000, loss = …`` comes after it).
# Before its outputs were named (2014), the solver printed ``Iteration 500, Testing net`` (later with its ``(#0)``) and each
# output by its index alone: ``Test score #0: 0.5504``.
_TESTING_NET = re.compile(r"^Iteration (\d{1,12}), Testing net(?: \(#\d{1,3}\))?\s*$")
_TEST_OUTPUT = re.compile(r"^\s*Test net output #\d{1,4}: ([A-Za-z][^=]{0,60}?) = (-?(?:\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf))"
                          r"(?: \(\* [\d.eE+-]+ = \S+ loss\))?\s*$"
                          r"|^\s*Test (score) #\s?(\d{1,3}): (-?(?:\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf))\s*$")
_NOT_NAME = re.compile(r"[^\w.-]+")
# A logger's counter line, its position alone (``Epoch: 3``, ``Iteration 500``, ``----- epoch 3 -----``), then one figure
# a line (``Policy Loss: 0.12``, ``Mean reward: 13.2``) until a line of another kind or the next counter: one record.
# The counter may name the batch of its epoch after it, each closed by a colon: PaddlePaddle's CycleGAN trainer prints
# ``epoch0: batch20: `` over its losses and times (PaddleCV/gan/trainer/CycleGAN.py).
_COUNTER = re.compile(r"(?i)^[-=#* ]*(epoch|iteration|iter|step|update|episode) ?[:#]? *(\d{1,9}(?: ?/ ?\d{1,9})?)"
                      r"(?:: ?(batch|step|iter) ?(\d{1,9}):)?"
                      r"[-=#* ]*$")  # (a tab after the name is the tab pairs' block: ``Iteration: \t 3``)
# An epoch's evaluation printed as a heading over its metrics, one a line: PyTorch-Ignite's templates' and tutorials'
# ``log_metrics`` (``Epoch 5 - Evaluation time (seconds): 1.38 - val metrics:`` then ``\tAccuracy: 0.6588``,
# ``\tLoss: 0.9517``). The heading names the data split the epoch's model was evaluated on: ``train`` is the training set
# evaluated again at the epoch's end (its loss the epoch's training loss, as printed), any other an evaluation's; a tag
# that is no split's word (BehindTheScenes' ``Vis metrics:``, its visualising evaluator) names an evaluation too.
_EVAL_COUNTER = re.compile(r"(?i)^\s*(epoch)\s?\[?(\d{1,9})\]? - (?:evaluation time \(seconds\): \d[\d.]* - )?"
                           r"([A-Za-z][\w-]{0,20}) metrics:\s*$")
# A counter in brackets, its position and the epoch as ``key=value`` pairs, over its figures one a line, each ``name=value``
# (a count's thousands parted by commas as Python's ``{:,}`` prints them): OLMo's trainer logs each step so
# (olmo/train.py's ``log_metrics_to_console``: ``[step=1010/15000,epoch=0]`` then ``    train/CrossEntropyLoss=2.956``,
# ``    throughput/device/tokens_per_second=67,742``), OLMo-core's console logger with the time left after them
# (``[step=100/2000,epoch=0,eta=5h11m]``).
_KEYED_COUNTER = re.compile(r"^\[(step|iter|iteration|batch)=(\d{1,12}(?:/\d{1,12})?)((?:,[a-z_]{1,20}=[\w.:-]{1,20}){0,4})\]:?\s*$")
_KEYED_EPOCH = re.compile(r",epoch=(\d{1,9})\b")
_KEYED_FIGURE = re.compile(r"^\s{2,}([A-Za-z][\w ()./-]{0,80}?)=(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?(?:\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf))\s*$")
_TRAIN_SPLITS = frozenset({"train", "training"})
_ONE_FIGURE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9 ()./_-]{0,60}?)\s?:\s+(-?(?:\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf)(?: ?(?:s|ms|%))?)"
                         r"\s*$")
# Under a counter, a line of several such figures, each closed by a semicolon or parted by a comma (the CycleGAN
# trainer's ``d_A_loss: 1.0063; g_A_loss: 1.0801; `` and ``reader_cost: 3.4e-05, Batch_time_cost: 0.0843``): every
# piece of the line is a figure, or the line is no part of the record.
_FIGURES_SPLIT = re.compile(r"\s*[;,]\s*")
# (each such figure's name one word, no position's: a sentence with commas, ``epoch is incremented. current_epoch: 5,
# epoch: 6``, is none)
_FIGURE_NAME = re.compile(r"[A-Za-z][\w.-]{0,40}")
_POSITION_WORD = re.compile(r"(?i)(?:epoch|iter|iteration|step|batch|episode|update)s?")

_VERTICAL_RULE = re.compile(r"^\s*(?:-{5,}|#{5,}|={5,})\s*$")
_ITERATIONS = re.compile(r"(?i)\biterations$|^learning iteration$|^n_?updates$")  # (stable-baselines v2: ``nupdates``)
# A Stable-Baselines table's counts of updates (never rsl_rl's ``Learning iteration`` title).
_UPDATES = re.compile(r"(?i)(?:^|/)(?:iterations|n_?updates)$")
_ENV_STEPS = re.compile(r"(?i)\b(?:time)?steps\b|\bfps\b")
_VERTICAL_POSITION = re.compile(r"(?i)\b(?:iterations?|steps?|epoch|timesteps|n_?updates|updates)\b")

# Spinning Up's EpochLogger (``log_tabular`` keys, one table an epoch): its abbreviations in the words the name classes
# read (classes.py). ``Time`` is the run's clock (seconds since its start), ``TotalEnvInteracts`` the environment's
# steps so far, ``LossPi`` the policy's loss; ``AverageTestEpRet`` the mean return of this epoch's test episodes.
_EPOCH_LOGGER = {"AverageEpRet": "mean episode return", "TotalEnvInteracts": "env total steps",
                 "LossPi": "policy loss", "AverageTestEpRet": "test episode return", "Time": "time elapsed"}
_EPOCH_LOGGER_SIGN = frozenset({"AverageEpRet", "TotalEnvInteracts", "EpRet"})
# An RL table's mean episode reward, by the names stable-baselines prints it under (v3, then v2's two).
_EPISODE_REWARD = ("ep_rew_mean", "ep_rewmean", "eprewmean")


_COUNTER_HEADS = frozenset("-=#* EeIiSsUu[")


def vertical_start(text: str) -> bool:
    """A line that may open a one-figure-a-line block (the cheap tests first)."""
    return (text[:1] in "| " or _VERTICAL_TITLE.match(text) is not None or "\t" in text[:60]
            or (text[:10] == "Iteration " and _TESTING_NET.match(text) is not None)
            or (text[:1] in _COUNTER_HEADS and _counter_line(text)))


class VerticalRecord:
    """One block of one figure a line at a time, and what its last record said besides its figures."""

    def __init__(self) -> None:
        self.pairs: list[tuple[str, str]] | None = None  # the record's pairs so far
        self.group = ""  # its group's name (stable-baselines3's ``rollout/``)
        self.figures: tuple[tuple[str, float], ...] = ()  # the last record's environment's counts and rate
        self.mean_seconds: str | None = None  # how the last record's time an iteration was worked out, if it was
        self.testing = False  # the block is Caffe's test of its net (its outputs follow, one a line)
        self.tested = False  # the record just handed on is such a test's: its figures are the iteration's it names
        # The record just handed on is an evaluation's whose heading names it by a tag no data split's word is (``Vis``):
        # its figures as (the tag and the metric's name as printed, the value).
        self.tagged: tuple[tuple[str, str], ...] = ()
        self.test_begun: int | None = None  # the line just held began such a test, at this iteration
        self.counter: str | None = None  # the block is a counter line's, as printed (its figures follow, one a line)
        self.plain = False  # the record just handed on is that counter line alone, to be read as printed
        self.counted = False  # … is a counter's (its time is its counter line's)
        self.opened = 0  # counter blocks opened so far
        # The block's figures already handed on at a batch's end (:meth:`close`) while the block went on: its record,
        # when it closes, completes that one (``completes``) and is none when no figure came after them.
        self.released = 0
        self.completes = False

    def line(self, text: str) -> tuple[bool, str | None]:
        """A record printed one figure a line (stable-baselines3's ``|    loss    | 0.482 |`` table between
        dashed rules; rsl_rl's ``Learning iteration 1/10`` and its right-aligned ``Mean value loss: 19.67``;
        Caffe's ``Testing net`` and its outputs): (True, None) while its lines are held, (True, record) when it
        closes (a rule, a figure named again, a line of another kind), (False, record) when the line that closes
        it is no part of it and is read as well (Caffe's training line after its test), (False, None) for a line
        that is no part of one."""
        pairs = self.pairs
        self.plain = self.counted = self.tested = False
        self.tagged = ()
        self.test_begun = None
        if self.counter is not None:
            figures = _line_figures(text) if pairs is not None and not _counter_line(text) else None
            if figures is not None and pairs is not None:
                names = [name for name, _ in figures]
                if len(set(names)) == len(names) and not any(known in names for known, _ in pairs):
                    pairs.extend(figures)
                    return True, None
            record = self._counted()
            if _counter_line(text):
                self.pairs, self.counter = [("counter", text)], text
                self.opened += 1
                return True, record
            return False, record
        if pairs is None and text[:1] in _COUNTER_HEADS and _counter_line(text):
            self.pairs, self.counter = [("counter", text)], text
            self.opened += 1
            return True, None
        if self.testing:
            output = _TEST_OUTPUT.match(text)
            if output is not None and pairs is not None:
                # (a blob's name as a name: ``loss: 50%-fire-rate`` is ``loss_50_-fire-rate``; an output by its index alone,
                # ``Test score #0``, is ``test score_0``)
                name, value = ((_NOT_NAME.sub("_", output.group(1)).strip("_"), output.group(2)) if output.group(1)
                               else (f"score_{output.group(4)}", output.group(5)))
                pairs.append(("test " + name, value))
                return True, None
            if pairs is not None and len(pairs) == 1 and text[:10] != "Iteration ":
                # Another thread's line while the test runs, before its outputs (Caffe's data layer's ``Restarting
                # data prefetching from start.`` as the test set wraps round): read on its own, the test still held
                return False, None
            record = self._record()
            return (False, record) if record is not None else (False, None)
        testing = _TESTING_NET.match(text) if text[:10] == "Iteration " else None
        if testing is not None:
            record = self._record() if pairs else None
            self.pairs, self.testing = [("Iteration", testing.group(1))], True
            self.test_begun = int(testing.group(1))
            return True, record
        title = _VERTICAL_TITLE.match(text)
        if title is not None:
            record = self._record() if pairs else None
            self.pairs = [(title.group(1), title.group(2))]
            return (True, record) if record is not None else (True, None)
        computation = _RSL_COMPUTATION.match(text) if pairs is not None else None
        if computation is not None and pairs is not None:
            # older rsl_rl: ``Computation: 46045 steps/s (collection: 0.975s, learning 0.092s)``
            pairs.extend([("Steps per second", computation.group(1)), ("Collection time", computation.group(2)),
                          ("Learning time", computation.group(3))])
            return True, None
        tabbed = _TAB_PAIR.match(text) if "\t" in text else None
        if tabbed is not None and (pairs is not None or _VERTICAL_POSITION.fullmatch(tabbed.group(1).strip())):
            # ``Iteration: \t 3`` then ``Loss: \t 0.13``, ``Elapsed time\t 100.7 seconds`` (deeprm): a name, a tab, a
            # figure, one a line; a block starts at its position, a figure named again or a rule closes it
            unit = {"seconds": "s"}.get(tabbed.group(3) or "", tabbed.group(3) or "")
            name, value = tabbed.group(1).strip(), tabbed.group(2) + (f" {unit}" if unit else "")
            return True, self._pair(pairs, name, value)
        sb3 = _SB3_PAIR.match(text)
        pair = sb3 if sb3 is not None else (_RSL_PAIR.match(text) if pairs is not None else None)
        if pair is not None:
            name, value = pair.group(1).strip(), pair.group(2).strip()
            if sb3 is not None and not value:
                self.group = name if name.endswith("/") else ""  # ``| rollout/ |  |``: its rows' group
                if pairs is None:
                    self.pairs = []
                return True, None
            name = (self.group if sb3 is not None else "") + name
            return True, self._pair(pairs, name, value)
        if pairs is None:
            return False, None
        if not text.strip():
            return True, None  # (a blank line inside the block)
        if _VERTICAL_RULE.match(text):
            if not pairs:
                return True, None
            if not _VERTICAL_POSITION.search(" ".join(n for n, _ in pairs)):
                self.pairs, self.group = None, ""  # a table's tail without its position
                return True, None
            return True, self._record()
        record = self._record()
        return (True, record) if record is not None else (False, None)

    def _counted(self) -> str | None:
        """A counter's block as one record: ``Epoch: 3 | Policy Loss: 0.12 | …``; the counter line as printed when no
        figure followed it (``plain``: read as any line)."""
        pairs, counter = self.pairs or [], self.counter
        self.pairs, self.counter = None, None
        if counter is None or not self._completed(pairs):
            return None
        self.counted = True
        if len(pairs) < 2:
            self.plain = True
            return counter
        evaluated = _EVAL_COUNTER.match(counter)
        if evaluated is not None:
            # (an epoch's evaluation: each figure under its split's name, the training set's as the training's own)
            split = evaluated.group(3)
            named = "train" if split.lower() in _TRAIN_SPLITS else split
            if split.lower() not in _TRAIN_SPLITS and split.lower() not in EVAL_WORDS:
                # (a tag of the script's own, BehindTheScenes' ``Vis`` evaluator: its figures read under that tag, an
                # evaluation's by the heading, never a split's it does not name nor the training loss)
                self.tagged = tuple((f"{split} {n}", v) for n, v in pairs[1:])
            return " | ".join([f"Epoch: {evaluated.group(2)}", *(f"{named} {n}: {v}" for n, v in pairs[1:])])
        keyed = _KEYED_COUNTER.match(counter)
        if keyed is not None:
            epoch = _KEYED_EPOCH.search(keyed.group(3))
            counters = [f"{keyed.group(1).capitalize()}: {keyed.group(2)}"] + ([f"Epoch: {epoch.group(1)}"] if epoch else [])
            return " | ".join([*counters, *(f"{n}: {v}" for n, v in pairs[1:])])
        m = _COUNTER.match(counter)
        assert m is not None  # (a counter is one by its pattern)
        counters = [f"{m.group(1).capitalize()}: {m.group(2).replace(' ', '')}"]
        if m.group(3) is not None:
            counters.append(f"{m.group(3).capitalize()}: {m.group(4)}")
        return " | ".join([*counters, *(f"{n}: {v}" for n, v in pairs[1:])])

    def close(self) -> str | None:
        """The block held so far as one record when it names its position (the batch ends there: a log cut before
        the table's closing rule, or a live read that fell inside the table); None otherwise (a tail alone is no
        record). The block stays held: the rows a later read brings complete it (``released``, ``completes``)."""
        pairs = self.pairs
        if self.testing and pairs is not None and len(pairs) == 1:
            # Caffe's test of its net under way: its outputs come when the test ends, seconds later (22 s in
            # senlinuc/caffe_ocr#55), so a batch read in between holds the block for them (closed here, it was lost)
            return None
        if self.counter is None and (not pairs or not _VERTICAL_POSITION.search(" ".join(n for n, _ in pairs))):
            return None
        if pairs is None or len(pairs) <= self.released:
            return None  # (nothing read since the last batch's end)
        if any(_UPDATES.search(name) for name, _ in pairs) and not logger_table_read(
                {name.rpartition("/")[2].lower() for name, _ in pairs}):
            return None  # (a Stable-Baselines table whose position or loss's other part is still to come)
        # (a copy of the block's state, read as its record, then put back: the block goes on)
        group, testing, counter = self.group, self.testing, self.counter
        record = self._counted() if counter is not None else self._record()
        self.pairs, self.group, self.testing, self.counter = list(pairs), group, testing, counter
        self.released = len(pairs)
        return record

    def _completed(self, pairs: list[tuple[str, str]]) -> bool:
        """Whether the block closing now has figures not yet handed on (``completes``: some were, at a batch's end)."""
        released, self.released = self.released, 0
        self.completes = released > 0
        return len(pairs) > released

    def _pair(self, pairs: list[tuple[str, str]] | None, name: str, value: str) -> str | None:
        """Hold one figure of a one-a-line block; a name held already closes the block: its record, the figure
        starting the next (None while the block goes on)."""
        if pairs is None:
            self.pairs = pairs = []
        if any(known == name for known, _ in pairs):
            record = self._record()
            self.pairs = [(name, value)]
            return record
        pairs.append((name, value))
        return None

    def _record(self) -> str | None:
        """The held one-a-line figures as one ``name: value | …`` record (None when none is held)."""
        pairs, self.pairs, self.group = self.pairs, None, ""
        testing, self.testing = self.testing, False
        if not pairs or (testing and len(pairs) == 1) or not self._completed(pairs):
            return None  # (a test of the net with no output read: no record)
        self.tested = testing
        self.mean_seconds = None
        names = [name for name, _ in pairs]
        if not _EPOCH_LOGGER_SIGN.isdisjoint(names):
            names = [_EPOCH_LOGGER.get(name, name) for name in names]
        env = {name.rpartition("/")[2].lower(): number(value) for name, value in pairs}
        reward = next((env[name] for name in _EPISODE_REWARD if name in env), None)
        timesteps = env.get("total_timesteps")
        if timesteps is not None and any(_ITERATIONS.search(name) for name in names):
            # Stable-Baselines' table: ``learn(total_timesteps=…)`` measures the run in the environment's timesteps,
            # so ``total_timesteps`` is its position and ``fps`` (timesteps a second) its rate; its count of updates
            # (``n_updates``, ``iterations``) is no step, and its ``time_elapsed`` over that count no step's time.
            both = "loss" not in env and "policy_loss" in env and "value_loss" in env
            loss_parts = tuple((LOSS_PART + leaf.removesuffix("_loss"), env[leaf])
                               for leaf in ("policy_loss", "value_loss") if both)
            names = [_sb_name(name, both) for name in names]
            self.figures = tuple((label, value) for label, value in (
                *loss_parts, (RATE_PART + "fps", env.get("fps")), ("reward", reward))
                if value is not None and math.isfinite(value))
            record = " | ".join(f"{name}: {value}" for name, (_, value) in zip(names, pairs, strict=True) if name)
            fps = env.get("fps")
            self.mean_seconds = FPS_SECONDS_NOTE if fps is not None and fps > 0 else None
            return record + (f" | step time: {1 / fps:.12g}s" if fps is not None and fps > 0 else "")
        if any(_ITERATIONS.search(name) for name in names):
            # A record logged once an iteration (an RL trainer's): its running count of iterations is its position,
            # and its ``steps`` are the environment's (``Total steps: 512``, ``Steps per second: 1581``), not the run's.
            names = [_ITERATIONS.sub("iteration", name) if _ITERATIONS.search(name)
                     else ("env " + name if _ENV_STEPS.search(name) else name) for name in names]
        record = " | ".join(f"{name}: {value}" for name, (_, value) in zip(names, pairs, strict=True))
        # (an RL table's environment timesteps so far, frames a second and mean episode reward, as printed:
        # stable-baselines' ``total_timesteps``, ``fps``, ``ep_rew_mean`` (v2: ``ep_rewmean``; nan before an episode ends))
        self.figures = tuple((label, value) for label, value in (
            (TOTAL_PART + "timesteps", timesteps), (RATE_PART + "fps", env.get("fps")),
            ("reward", reward)) if value is not None and math.isfinite(value))
        parts = {name.lower(): seconds(value.removesuffix("s"), "s") if value.endswith("s") else None
                 for name, value in pairs if name.lower() in _ITERATION_PARTS}
        if len(parts) == len(_ITERATION_PARTS) and None not in parts.values():
            # rsl_rl's iteration: its collection and learning times, printed in the block; their sum is the
            # iteration's (its own ``Iteration time: 0.24s`` comes after the block's rule, rounded)
            record += f" | iteration time: {sum(v for v in parts.values() if v is not None):.6g}s"
        elif (mean := _mean_iteration_seconds(pairs)) is not None:
            record += f" | iteration time: {mean:.6g}s"
            self.mean_seconds = MEAN_SECONDS_NOTE
        return record


def _sb_name(name: str, parts: bool) -> str:
    """A Stable-Baselines table's figure under the name the generic grammar reads it by: ``total_timesteps`` the step;
    ``fps`` (one over it the step's time, said apart), its count of updates and its other counts of steps none (""); none
    for the policy's and the value function's losses where they are the loss's ``parts`` (v2's ``policy_loss`` and
    ``value_loss``, no ``loss`` of the whole beside them: PPO minimises their weighted sum, neither is the loss)."""
    leaf = name.rpartition("/")[2].lower()
    if leaf == "total_timesteps":
        return "step"
    if _ITERATIONS.search(name) or "timesteps" in leaf or leaf == "fps" or (parts and leaf in ("policy_loss", "value_loss")):
        return ""
    return name


def _counter_line(text: str) -> bool:
    """Whether a line is a counter's, its figures to follow one a line (``Epoch: 3``; an epoch's evaluation heading)."""
    if text[:1] == "[":
        return _KEYED_COUNTER.match(text) is not None
    return _COUNTER.match(text) is not None or _EVAL_COUNTER.match(text) is not None


def _line_figures(text: str) -> list[tuple[str, str]] | None:
    """The figures of a line under a counter: one (``Policy Loss: 0.12``), or several parted by semicolons or commas
    (``d_A_loss: 1.0063; g_A_loss: 1.0801; ``); None when any piece of it is not a figure."""
    keyed = _KEYED_FIGURE.match(text) if "=" in text else None
    if keyed is not None:
        return [(_keyed_name(keyed.group(1).strip()), keyed.group(2).replace(",", ""))]
    pieces = [piece for piece in _FIGURES_SPLIT.split(text.strip()) if piece]
    if len(pieces) < 2:
        figure = _ONE_FIGURE.match(text)
        return [(figure.group(1).strip(), figure.group(2).replace(" ", ""))] if figure is not None else None
    figures: list[tuple[str, str]] = []
    for piece in pieces:
        figure = _ONE_FIGURE.match(piece)
        if figure is None:
            return None
        name = figure.group(1).strip()
        if not _FIGURE_NAME.fullmatch(name) or _POSITION_WORD.fullmatch(name):
            return None
        figures.append((name, figure.group(2).replace(" ", "")))
    return figures


def _keyed_name(name: str) -> str:
    """A keyed figure's name as the grammar reads it: a metric's path by its last part, a data split before it kept, as a
    tag's (``train/CrossEntropyLoss`` is ``train_CrossEntropyLoss``, ``optim/total_grad_norm`` is ``total_grad_norm``);
    a figure of one device's said so (``throughput/device/tokens_per_second`` is ``tokens_per_second_per_device``)."""
    if "/" not in name:
        return name
    per_device = "device" in name.lower().split("/")[:-1]
    return tag_name(name) + ("_per_device" if per_device else "")


def _mean_iteration_seconds(pairs: list[tuple[str, str]]) -> float | None:
    """A stable-baselines table's mean time an iteration: its ``time_elapsed`` over its ``iterations`` (v3) or
    ``nupdates`` (v2), both counted from the start of ``learn()``; None when it prints either not.

    v3 prints whole seconds (``time_elapsed | 8``), and ``fps`` as the timesteps of this ``learn()`` over the
    same clock: where ``total_timesteps / fps`` falls inside that second (the run started from timestep 0),
    it is the finer clock. v2's ``fps`` is its last update's alone, never the run's.
    """
    values = {name: number(value) for name, value in pairs}
    elapsed = next((v for name, v in values.items() if name.endswith("time_elapsed")), None)
    iterations = next((v for name, v in values.items() if _ITERATIONS.search(name)), None)
    if elapsed is None or iterations is None or elapsed <= 0 or iterations < 1:
        return None
    fps, timesteps = values.get("time/fps"), values.get("time/total_timesteps")
    if fps is not None and timesteps is not None and fps > elapsed and int(timesteps / fps) == elapsed:
        elapsed = timesteps / fps
    return elapsed / iterations
