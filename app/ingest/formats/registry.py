"""The one registry of log formats: a :class:`FormatSpec` per format, in sniff order, and what is derived from it.

Everything about a format is on its row: its name, family and kind, how a log of it is called, how
its parser is built, the **signatures** the sniffer counts (detect.py reads them here and knows no
format by name), how it yields in a tie, what a renewed file means to it, and its **usual line**,
which the line pipeline reads without the general reading and the history import in columns
(pipeline.py). A new format is a row here and a parser module with a ``classify``
(docs/architecture.md, "Adding a format").

The package's face (app/ingest/formats/__init__.py) re-exports it beside the sniffer, which reads
it too: both import this module, never each other.
"""


from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, cast

from ...stats.events import TrainStep, WorkerCrashed
from ...stats.kinds import MINER, STEPS, Kind
from .base import LogParser
from .shapes import (
    COLUMNS,
    LLMC_MFU_NOTE,
    MFU_ZERO_NOTE,
    NANOCHAT_LOSS_NOTE,
    NANOGPT_LOSS_NOTE,
    NANOGPT_MFU_NOTE,
    NOTEBOOK_LINE,
    STATE_KEY,
    UNSLOTH_BANNER,
    UsualLine,
)

if TYPE_CHECKING:
    from .pipeline import StepLines

Renew = Literal["fresh", "document"]


@dataclass(frozen=True)
class Signature:
    """A line only this format prints: ``pattern`` searched in the cleaned line (and in its message
    behind a launcher's or logger's prefix), tried only when ``needle`` is in the raw line."""

    needle: str
    pattern: re.Pattern[str]


def sign(needle: str, pattern: str | re.Pattern[str]) -> Signature:
    """A signature row: the cheap substring, then the pattern."""
    return Signature(needle, pattern if isinstance(pattern, re.Pattern) else re.compile(pattern))


class Renewable(Protocol):
    """A parser of a document written whole (``renew="document"``): a rewrite goes on from it."""

    def renewed(self) -> LogParser:
        """A parser for the same file written again from its start."""
        ...


@dataclass(frozen=True)
class FormatSpec:
    """One log format: its name, how to build its parser, how the sniffer knows it and how the rest of
    tokwatch treats it."""

    name: str
    parser: Callable[[FormatSpec], LogParser]
    # Formats one parser reads together (nanoGPT, llm.c and modded-nanogpt): a line of one is
    # no news for another, and ``--format`` of one follows a folder's file of any.
    family: str
    kind: Kind  # which tracker follows it (app/stats/kinds.py)
    noun: str  # "a nanochat log": what a log of this format is called when none of its lines is one
    signatures: tuple[Signature, ...] = ()
    # Ties, as data. A log holding this format's signatures and one of these formats' is theirs.
    yields_to: tuple[str, ...] = ()
    # Set when this format's signature is also other programs' (any loguru record is the miner's):
    # beside another format's signatures the log is this one's only when this says the lines hold
    # its own messages; its signatures are tried last.
    own_messages: Callable[[Sequence[str]], bool] | None = None
    # A log no signature claims is this format's when its parser reads any event from it, other than
    # those of ``unsigned_ignores`` (events any program's lines give, such as a crash's traceback).
    reads_unsigned: bool = False
    unsigned_ignores: tuple[type, ...] = ()
    # The fallback reader (one row): it takes a log no format claims when ``holds_steps`` (or a
    # crash alone), and a log whose claimant reads no step where it reads some (llama2.c prints
    # nanoGPT's evaluation line, not its step line).
    fallback: bool = False
    holds_steps: Callable[[Sequence[str]], bool] | None = None
    # A line of this format that carries no signature (the fallback reader's step line): a live
    # log's switch away from it is undone by one (detect.FormatWatch).
    own_line: Callable[[str], bool] | None = None
    # "fresh": a renewed file (truncated, replaced) is read by a fresh parser; "document": the file
    # is a document written whole again (trainer_state.json), and the parser goes on from the last.
    renew: Renew = "fresh"
    usual_lines: tuple[UsualLine, ...] = ()

    def __post_init__(self) -> None:
        for usual in self.usual_lines:
            unknown = set(usual.columns) - COLUMNS
            if unknown or "step" not in usual.columns:
                raise ValueError(f"{self.name}: a usual line's columns must be among {sorted(COLUMNS)}, with a step")
            if not usual.pattern.fullmatch(usual.example):
                raise ValueError(f"{self.name}: the usual line's example is not of its shape")


# --- the parsers, built lazily (importing the registry imports no parser) ------------------------


def _iota(spec: FormatSpec) -> LogParser:
    from .iota import IotaParser

    return IotaParser()


def _nanochat(spec: FormatSpec) -> LogParser:
    from .nanochat import NanochatParser

    return NanochatParser(family_usual_lines(spec))


def _nanogpt(spec: FormatSpec) -> LogParser:
    from .nanogpt import NanogptParser

    return NanogptParser(spec.name, family_usual_lines(spec))


def _hf_trainer(spec: FormatSpec) -> LogParser:
    from .hf_trainer import HfTrainerParser

    return HfTrainerParser()


def _torchtitan(spec: FormatSpec) -> LogParser:
    from .torchtitan import TorchtitanParser

    return TorchtitanParser()


def _verl(spec: FormatSpec) -> LogParser:
    from .verl import VerlParser

    return VerlParser()


def _rllib(spec: FormatSpec) -> LogParser:
    from .rllib import RllibParser

    return RllibParser()


def _espnet(spec: FormatSpec) -> LogParser:
    from .espnet import EspnetParser

    return EspnetParser()


def _maxtext(spec: FormatSpec) -> LogParser:
    from .maxtext import MaxtextParser

    return MaxtextParser()


def _tinygrad(spec: FormatSpec) -> LogParser:
    from .tinygrad import TinygradParser

    return TinygradParser()


def _stable_baselines(spec: FormatSpec) -> LogParser:
    from .stable_baselines import StableBaselinesParser

    return StableBaselinesParser()


def _chainer(spec: FormatSpec) -> LogParser:
    from .chainer import ChainerParser

    return ChainerParser()


def _marian(spec: FormatSpec) -> LogParser:
    from .marian import MarianParser

    return MarianParser()


def _generic(spec: FormatSpec) -> LogParser:
    from .generic import GenericParser

    return GenericParser()


def _sn38(spec: FormatSpec) -> LogParser:
    from .sn38 import Sn38Parser

    return Sn38Parser(spec.name)


# --- what a row says beyond its signatures ------------------------------------------------------


def _miner_messages(lines: Sequence[str]) -> bool:
    """True when the IOTA parser reads a miner's own message (not just errors, nor a crash: a traceback is any
    program's) in these lines."""
    from ...stats.events import ErrorLogged, Tick

    events = create_parser("iota").feed(list(lines[-SNIFF_LINES:]))
    return any(not isinstance(event, (Tick, ErrorLogged, WorkerCrashed)) for event in events)


def _generic_steps(lines: Sequence[str]) -> bool:
    """True when the generic step reader finds training steps in these lines.

    Two step lines, or one that cannot be a sentence that happens to say "step" and "loss": it
    gives its position as N/M (a bar, ``iteration 10/ 10``) or two training figures; or no step
    and an evaluation's figures for two splits, or at two steps it names (a run caught evaluating).
    """
    from ...stats.events import EvalResult, RunInfo, TrainingPause

    parser = create_parser("generic")
    events = parser.feed(list(lines[-SNIFF_LINES:]))
    steps = [e for e in events if isinstance(e, TrainStep)]
    reader = getattr(parser, "parser", parser)  # (the crash watch's wrapper holds the reader)
    if len(steps) >= 2 or (steps and getattr(reader, "block_steps", False)):
        return True  # (one step read from a logger's table of one figure a line is no sentence either)
    evaluations = [e for e in events if isinstance(e, EvalResult)]
    if not steps and len({e.name for e in evaluations}) >= 2:
        return True  # an evaluation's figures alone, for two splits or more (Ludwig's table: vali, test)
    bare = all(_figures(step) == 0 for step in steps)  # (positions the validations gave, nothing trained)
    if bare and len({e.step for e in evaluations if e.step is not None}) >= 2:
        return True  # evaluations alone, each at the step it names (fairseq's ``valid on 'valid' subset`` lines)
    if not steps and evaluations and any(isinstance(e, RunInfo) and e.total_steps for e in events):
        return True  # a run's planned total, then its first evaluation (MLX's ``iters: 1000``, ``Iter 1: Val loss``)
    if not steps and sum(isinstance(e, TrainingPause) and e.reason == "evaluation" and e.batches is not None
                         for e in events) >= 2:
        return True  # a validation pass under way, its batches counted (mmengine's ``Epoch(val) [2][3550/21046]``)
    if any(step.counter == "trial" and step.step_seconds is not None for step in steps):
        return True  # a search's trial complete with the time it took (Keras Tuner's ``Trial 3 Complete [00h 00m 39s]``)
    if any(name.startswith("rate/") and "step" in name for step in steps for name, _ in step.figures):
        return True  # a step and the steps' own rate on lines of their own (TF Estimator's ``global_step/sec``)
    # (a dated record is no sentence either: ``2023-05-01 12:00:00 Epoch 1 complete [80%]    Loss: 0.431``, a loop's own
    # line an epoch under its clock)
    # (an epoch's full bar gave its N/M too, its total the epoch's batches)
    return any(step.total_steps is not None or step.epoch_steps is not None or _figures(step) >= 2
               or (step.at is not None and _figures(step) >= 1)
               for step in steps)


def _figures(step: TrainStep) -> int:
    """How many training figures a step line gave (a loss in its parts counts once: YOLO's box_loss, …)."""
    return (sum(f is not None for f in (step.loss, step.lr, step.step_seconds, step.tokens_per_second, step.grad_norm))
            + any(name.startswith("loss/") for name, _ in step.figures))


def _generic_step_line(line: str) -> bool:
    from .generic import step_line

    return step_line(line)


# Lines read to sniff a log (from its end: the stage that runs now).
SNIFF_LINES = 4000

# The line every nanoGPT ``train.py`` prints (its log_interval's), read at once; its words' characters
# gone and the colon a comma, the line is its four figures with a comma between each.
NANOGPT_USUAL = UsualLine(
    re.compile(r"iter (?P<step>\d{1,12}): loss (?P<loss>-?\d+\.\d+), time (?P<step_ms>\d+\.\d+)ms, "
               r"mfu (?P<mfu>-?\d+\.\d+)%"),
    example="iter 4200: loss 3.2100, time 120.45ms, mfu 45.12%",
    loss_note=NANOGPT_LOSS_NOTE,
    mfu_note=NANOGPT_MFU_NOTE,
    figures_only=str.maketrans({**dict.fromkeys("iter losstimems mfu%"), ":": ","}),
)
# nanochat's base_train step line as it prints it since 2026-01 (with its ``eta``, so whole: nothing
# continues it); older lines, ending at ``total time``, wait a line for a wrapped rest in the general reading.
NANOCHAT_USUAL = UsualLine(
    re.compile(r"step (?P<step>\d{1,9})/(?P<total_steps>\d{1,9}) \((?P<progress_percent>\d+\.\d+)%\) \| "
               r"loss: (?P<loss>\d+\.\d+) \| lrm: (?P<lr_multiplier>\d+\.\d+) \| dt: (?P<step_ms>\d+\.\d+)ms \| "
               r"tok/sec: (?P<tokens_per_second>\d{1,3}(?:,\d{3})*) \| (?:bf16_)?mfu: (?P<mfu>\d+\.\d+) \| "
               r"epoch: (?P<epoch>\d{1,6})(?: pq: (?P<parquet_index>\d{1,9}) rg: (?P<row_group>\d{1,9}))? \| "
               r"total time: \d+\.\d+m \| eta: (?P<eta_minutes>\d+\.\d+)m"),
    example="step 20001/200000 (10.00%) | loss: 3.224655 | lrm: 0.20 | dt: 1223.60ms | tok/sec: 13,390 | mfu: 0.00 | "
            "epoch: 2 | total time: 753.27m | eta: 6782.5m",
    stage="base",
    loss_note=NANOCHAT_LOSS_NOTE,
    mfu_note=MFU_ZERO_NOTE,
    mfu_unmeasured="zero",
)
# NUM whole and never given back (possessive): each figure of modded-nanogpt's line is followed by a
# space, ``ms`` or the line's end, none of which a figure holds, so giving back can never make the line
# match; not trying to is a fifth of the pattern's time over an every-step log.
_NUM_WHOLE = (r"[-+]?+(?>\d[\d,]*+(?:\.\d*+)?+(?:[eE][-+]?+\d++)?+|\.\d++(?:[eE][-+]?+\d++)?+"
              r"|(?i:nan|inf(?:inity)?+))")
# modded-nanogpt's record scripts: ``step:N/M [train_loss:…] [val_loss:…] train_time:…ms [step_avg:…ms]``.
MODDED_USUAL = UsualLine(
    re.compile(rf"step:(?P<step>\d{{1,12}}+)/(?P<total_steps>\d{{1,12}}+)(?: train_loss:(?P<loss>{_NUM_WHOLE}))?"
               rf"(?: val_loss:(?P<val_loss>{_NUM_WHOLE}))? train_time:(?P<elapsed_ms>\d++)ms"
               rf"(?: step_avg:(?P<avg_ms>{_NUM_WHOLE})ms)?"),
    example="step:5050/20000 train_loss:2.0232 train_time:219627ms step_avg:43.49ms",
    loss_note="this step's",
    evals=("val_loss",),
)
# llm.c's CUDA loop, its figures as printed (``%7.6f``, right-aligned): one that prints nan or a
# negative time reads through the general reading.
LLMC_USUAL = UsualLine(
    re.compile(r"step +(?P<step>\d{1,12})/(?P<total_steps>\d{1,12}) \| loss (?P<loss>\d+\.\d+) \([-+]?(?:\d+\.\d+|nan)z\)"
               r"\| norm (?P<grad_norm>\d+\.\d+) \([-+]?(?:\d+\.\d+|nan)z\)\| lr (?P<lr>\d\.\d+e[-+]\d\d) \| "
               r"(?P<step_ms>\d+\.\d+) ms \| (?P<mfu>-?\d+\.\d+)% bf16 MFU \| (?P<tokens_per_second>\d+) tok/s"),
    example="step  149/190 | loss 3.412346 (+0.12z)| norm 0.3921 (-0.40z)| lr 3.00e-04 | 360.64 ms | "
            "14.9% bf16 MFU | 1449806 tok/s",
    loss_note="this step's mean",
    mfu_note=LLMC_MFU_NOTE,
)


# In sniff order (a tie in signature counts goes to the format registered first).
FORMATS: tuple[FormatSpec, ...] = (
    FormatSpec(
        "iota", _iota, "iota", MINER, "an IOTA miner log",
        signatures=(sign(" - ", r"\| *(?:TRACE|DEBUG|INFO|SUCCESS|WARNING|ERROR|CRITICAL) *\| [\w.]+:[\w<>]+:\d+ - "),),
        own_messages=_miner_messages,
        reads_unsigned=True,
        unsigned_ignores=(WorkerCrashed,),  # a crash's lines alone (a traceback) are any program's, not the miner's
    ),
    FormatSpec(
        "nanochat", _nanochat, "nanochat", STEPS, "a nanochat log",
        usual_lines=(NANOCHAT_USUAL,),
        signatures=(
            sign("step ", r"^step \d+(?:/\d+)? \([\d.]+%\) \| loss: "),
            sign("Step ", r"^Step \d+(?:/\d+)? \| (?:Validation bpb|CORE metric|ChatCORE|Average reward|Example step|"
                          r"Training loss|Pass@1)"),
            sign("Peak FLOPS", r"^GPU: .* \| Peak FLOPS \(BF16\): "),
            # base_eval and base_train's end: a cold start may land in a long evaluation
            sign("-shot, type: ", r"^Evaluating: \S+ \(\d+-shot, type: "),
            sign("bpb", r"^(?:train bpb|val bpb|Minimum validation bpb): [\d.]+$"),
            sign("CORE", r"^(?:Chat)?CORE metric: [\d.]+$"),
            # Its start-up records: a run that died or waits before its first step is nanochat's too
            # (its own logger's name, base_train's plan of the run, its device probe).
            sign("nanochat.", r"\bnanochat(?:\.\w+)+ - (?:DEBUG|INFO|WARNING|ERROR|CRITICAL) - "),
            sign("iterations", r"^(?:Calculated number of iterations from [^:]{1,80}|Using user-provided number of "
                               r"iterations): [\d,]+$"),
            sign("Scaling params ratio", r"^Tokens : Scaling params ratio: [\d.]+$"),
            sign("Autodetected", r"^Autodetected device type: \w+$"),
        ),
    ),
    FormatSpec(
        "nanogpt", _nanogpt, "nanogpt", STEPS, "a nanoGPT log",
        signatures=(
            sign("iter ", r"^iter \d+: loss \S+, time "),
            sign("train loss", r"^step \d+: train loss \S+, val loss "),
            sign("tokens per iteration", r"^tokens per iteration will be: "),
        ),
        usual_lines=(NANOGPT_USUAL,),
    ),
    FormatSpec(
        "llmc", _nanogpt, "nanogpt", STEPS, "an llm.c log",
        signatures=(
            sign("step ", r"^step\s+\d+/\d+ \| (?:train )?loss "),
            sign("s:", r"^s:\d+ trl:"),
            sign("took", r"^step \d+: train loss \S+ \(took [\d.]+ ms\)$"),
        ),
        usual_lines=(LLMC_USUAL,),
    ),
    FormatSpec(
        "modded-nanogpt", _nanogpt, "nanogpt", STEPS, "a modded-nanogpt log",
        signatures=(sign("step:", r"^step:\s*\d+/\d+ (?:\| )?(?:train_loss:|val_loss:|train_time:)"),),
        usual_lines=(MODDED_USUAL,),
    ),
    FormatSpec(
        "hf-trainer", _hf_trainer, "hf-trainer", STEPS, "a Hugging Face Trainer log",
        signatures=(
            # (never a torch tensor's repr: the Trainer logs floats; ``{'loss': tensor(6.4593)}`` is a script's own print of
            # its step outputs, Lightning 1.x's ``training_epoch_end`` among them)
            sign("': ", r"\{'(?:loss|eval_loss|train_runtime)': (?!tensor\()"),
            sign('": ', r"^\{\"(?:loss|eval_loss|train_runtime)\": "),
            # the same dict pasted without its opening brace (``'loss': -0.0, 'grad_norm': 0.0, … }``, or wrapped after a comma)
            sign("': ", r"^\s*'(?:loss|eval_loss|train_runtime)': (?!tensor\()[^{}]*[},]\s*$"),
            # TRL's on-policy trainers (PPO, RLOO) open their dict with the episodes' count and the KL objective
            sign("'eps': ", r"\{'eps': \d+, 'objective/"),
            sign("*****", r"\*\*\*\*\* Running training \*\*\*\*\*"),
            # unsloth's banner before its Trainer's first step (``… Total batch size = 64 | Total steps = 99,486``)
            sign("Total steps = ", r"\| Total steps = \d[\d,]*\s*$"),
            # unsloth's banner (shapes.py), also the one it prints as it loads the model, before any Trainer's line: an
            # unsloth run waiting for its first step
            sign("==((====))==", UNSLOTH_BANNER),
            # trainer_state.json, read from either end: its own keys (hf_state.py)
            sign('": ', STATE_KEY),
            # A bare tqdm bar with its rate (the Trainer's, or any loop's with nothing before the bar):
            # stderr captured without stdout is a log of bars alone. Bars behind a label (``Epoch 3: 45%|``)
            # are other trainers'.
            sign("it", r"^\s*\d{1,3}%\|[^|]{0,400}\| ?\d+/\d+ \[[\d:]+<[\d:?]+,\s*[\d.]+(?:s/it|it/s)\]"),
            # The Trainer's notebook progress line copied as text (``[ 22/290 02:50 < 38:04, 0.12 it/s, Epoch 0.36/5]``).
            sign("Epoch ", NOTEBOOK_LINE),
            # The table the notebook draws under it, copied alone (``Step  Training Loss  …``; ``Step | Training Loss | …``
            # from a page that made it Markdown)
            sign("Training Loss", r"^\s*(?:Step|Epoch)(?:\s+|\s*\|\s*)Training Loss\b"),
            # ``trainer.log_metrics``' block headers (a log of the examples' own prints alone: the job's figures once over)
            sign("*****", r"\*{5} (?:train|eval|test|predict) metrics \*{5}\s*$"),
        ),
        renew="document",
    ),
    FormatSpec(
        "torchtitan", _torchtitan, "torchtitan", STEPS, "a torchtitan log",
        signatures=(
            sign("[titan]", r"\[titan\] \d{4}-\d\d-\d\d "),
            sign("memory:", r"step:\s*\d+\s+loss:\s*\S+\s.*memory:\s*[\d.]+GiB"),
        ),
    ),
    FormatSpec(
        "sn38", _sn38, "sn38", STEPS, "an SN38 miner log",
        signatures=(
            sign("Inner Step", r"Inner Step: \d+ \| (?:Learning Rate|Average Loss)"),
            sign("ucces", r"AllReduce Operation Finished Succesfully|Averaging Round Finished Succesfully"),
            sign("All Reduce", r"Received (?:Main |Local )?All Reduce Call|All Reduce Failed"),
            # The miner's own lines of the hivemind.Optimizer era, and the errors its README lists as known
            # (a log may hold nothing else): the DHT peers it cannot reach, state downloads timing out,
            # rounds without a group, and tracebacks through hivemind.
            sign("Local epoch", r"Local samples:\s+\d+ \| Local epoch:\s+\d+"),
            sign("ERROR", r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.,]\d{3} \| +ERROR +\| .*(?:Attempt \d+ to init DHT using "
                          r"initial_peer|Failed to (?:download|load) state from|Averaging step failed|Task exception was "
                          r"never retrieved)"),
        ),
    ),
    FormatSpec(
        "hivemind", _sn38, "sn38", STEPS, "a hivemind log",
        signatures=(
            sign("could not find a group", r"\] (?:\[\S+\] )?Averaging step failed: could not find a group"),
            # (behind a container's own stamp, glued: ``2023-09-16 10:15:31.031074+00:00Sep 16 10:15:31.030 [INFO] ``)
            sign("[", r"^(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d) ?)?"
                      r"[A-Z][a-z]{2} \d\d \d\d:\d\d:\d\d\.\d{3} \[(?:INFO|WARN|ERROR|DEBUG)\] "),
            sign("peers", r"accumulated \d+ samples for epoch #\d+ from \d+ peers"),
            # A peer joining a collaboration: it downloads the state from another peer, or fails to and retries
            # (printed bare, through python logging, or in the 2021 examples' ``[date time][LEVEL][caller]``).
            sign("from peer", r"Failed to load state from peers|Downloading parameters from peer \S|Finished "
                              r"downloading state from \S"),
            sign("][", r"^\[\d{4}/\d\d/\d\d \d\d:\d\d:\d\d\.\d{3}\]\[(?:INFO|WARN|WARNING|ERROR|DEBUG)\]\["),
            # A collaborator whose DHT never came up (gensyn rl-swarm and others over hivemind): its p2p daemon's
            # error, or a traceback through hivemind's DHT start.
            sign("P2PDaemonError", r"P2PDaemonError: Daemon failed to start"),
            # gensyn rl-swarm's trainer over hivemind (``INFO:hivemind_exp.trainer.hivemind_grpo_trainer:…``, or its log
            # file's ``- INFO - hivemind_exp.…:302 - …``): its rounds and stages.
            sign("hivemind_exp.", r"^(?:[A-Z]+:|.{10,30} - [A-Z]+ - )hivemind_exp\.[\w.]+:"),
            # and its launcher's own lines (run_rl_swarm.sh)
            sign(">> ", r"^>> (?:Shutting down trainer\.\.\.|An error was detected while running rl-swarm|"
                        r"Good luck in the swarm!)"),
            # its banner's credit and its login server's set-up, before any hivemind line (a node setting up)
            sign("Gensyn", r"^\s*From Gensyn\s*$"),
            sign("Ethereum Server Wallet", r"^Please login to create an Ethereum Server Wallet$"),
            sign("userData.json", r"^(?:>> )?Waiting for (?:modal )?userData\.json to be created"),
            # and the newer rl-swarm's genrl, through hydra's logging format (``[date time,ms][genrl.…][INFO] - ``)
            sign("genrl", r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d[.,]\d{3}\]\[[\w.]*\bgenrl\b[\w.]*\]\[[A-Z]+\] - "),
            sign("hivemind/dht/", r'File "[^"]*/hivemind/dht/dht\.py", line \d+, in (?:__init__|run_in_background)'),
        ),
        yields_to=("sn38",),  # a miner's log with hivemind's lines in it is the miner's
    ),
    FormatSpec(
        "verl", _verl, "verl", STEPS, "a verl log",
        signatures=(
            sign("step:", r"^step:\d{1,12} - (?:global_seqlen|actor|critic|training|timing_s|perf|response_length|"
                          r"val-core|val-aux|val)/[\w@/.-]{1,200}:"),
            # ray_trainer.fit's bar (logged without the console metrics, a run prints only it) and its plan.
            sign("Training Progress", r"^Training Progress:\s+\d{1,3}%\|"),
            sign("Total training steps", r"^Total training steps: \d+$"),
        ),
    ),
    FormatSpec(
        "rllib", _rllib, "rllib", STEPS, "an RLlib log",
        signatures=(
            # a result block's (bare or under Tune's ``Result for …:``), and Tune's status of its trials
            sign("training_iteration", r"^ *training_iteration: \d{1,12}$"),
            sign("time_this_iter_s", r"^ *time_this_iter_s: [\d.]+(?:e[-+]?\d+)?$"),
            sign("episode_re", r"^ *episode_(?:reward|return)_mean: "),
            sign("Result for ", r"^Result for [\w.-]{1,200}:$"),
            sign("Trial name", r"Trial name\b.{0,200}\bstatus\b.{0,200}\biter\b"),
            sign(" iter", r"^ - \S+:\s+(?:RUNNING|TERMINATED|PENDING|PAUSED|ERROR)\b.*, \d+ iter\b"),
            # Ray 2.5+: a result's rounded box and the line above it
            sign("training_iteration", r"^│ training_iteration +\d{1,12} +│$"),
            sign(" result", r"^│ (?:Trial \S{1,200} result|Training result) *│$"),
            sign(" iteration", r"^Trial \S{1,200} (?:completed training after \d+ iterations?|finished iteration \d+) at "),
        ),
    ),
    FormatSpec(
        "espnet", _espnet, "espnet", STEPS, "an ESPnet log",
        signatures=(
            sign("batch: ", r"\d+epoch:train:\d+-\d+batch: "),
            sign("epoch started", r"\(trainer:\d+\) INFO: \d+/\d+epoch started"),
            sign("epoch results", r"\(trainer:\d+\) INFO: \d+epoch results: \[train\] "),
        ),
    ),
    FormatSpec(
        "maxtext", _maxtext, "maxtext", STEPS, "a MaxText log",
        signatures=(sign("completed step", r"completed step: \d+, seconds: [\d.]+, TFLOP/s"),
                    # its startup, before the first step: the TFLOPs a step will take, split (``Per train step:\n Total
                    # TFLOPs: 104.77 \n split as 55.92% learnable weight flops and 44.08% attention flops``; older
                    # versions on one line, ``Per train step, total TFLOPs will be 1033.20, split as …``)
                    sign("learnable weight flops", r"split as [\d.]+% learnable weight flops and [\d.]+% attention flops"),),
    ),
    FormatSpec(
        "tinygrad", _tinygrad, "tinygrad", STEPS, "a tinygrad MLPerf log",
        signatures=(sign(" run, ", r"^\s*\d+ +[\d.]+ m?s run, .*\d loss\b"),),
    ),
    FormatSpec(
        "stable-baselines", _stable_baselines, "stable-baselines", STEPS, "a Stable-Baselines log",
        signatures=(
            # SB3's logger table: its groups' rows, and v2's count of updates
            sign("/ ", r"^ ?\| (?:rollout|time|train|eval)/ +\| +\|$"),
            sign("nupdates", r"^ ?\| nupdates +\| \d+ +\|$"),
        ),
    ),
    FormatSpec(
        "chainer", _chainer, "chainer", STEPS, "a Chainer log",
        signatures=(
            # PrintReport's header, and ProgressBar's count of iterations and epochs
            sign("iteration", r"^epoch {2,}iteration {2,}(?:main/|validation/|val/|lr |elapsed_time)"),
            sign(" epochs", r"^\s*\d+ iter, \d+ epoch / \d+ epochs\s*$"),
            # the header of a report made once an epoch, with no iteration (``epoch  main/loss  validation/main/loss``)
            sign("main/", r"^epoch {2,}(?:main|validation|val)/\S+ {2,}\S"),
        ),
    ),
    FormatSpec(
        "marian", _marian, "marian", STEPS, "a Marian log",
        signatures=(
            # its display line and its validation's, and its banner (``[marian] Marian v1.12.0 65bf82ff …``)
            sign(" : Up. ", r"^Ep\. \d+(?:\.\d+)? : Up\. \d+ : Sen\. [\d,]+ : Cost "),
            sign(" : Up. ", r"^(?:\[valid\] )?Ep\. \d+(?:\.\d+)? : Up\. \d+ : [\w.@-]+ : [-+]?\d"),
            sign("[marian] Marian v", r"^\[marian\] Marian v\d"),
        ),
    ),
    # No signature of its own: read when no format above claims a log (detect.py).
    FormatSpec(
        "generic", _generic, "generic", STEPS, "a training log",
        fallback=True,
        holds_steps=_generic_steps,
        own_line=_generic_step_line,
    ),
)
BY_NAME: dict[str, FormatSpec] = {spec.name: spec for spec in FORMATS}

PARSERS: dict[str, Callable[[], LogParser]] = {spec.name: functools.partial(spec.parser, spec) for spec in FORMATS}
FORMAT_NOUNS: dict[str, str] = {spec.name: spec.noun for spec in FORMATS}
# Formats whose figures are training steps: the monitor gives them the step tracker (app/stats/steps/).
STEP_FORMATS = frozenset(spec.name for spec in FORMATS if spec.kind == STEPS)
FAMILIES: dict[str, str] = {spec.name: spec.family for spec in FORMATS}


def family_usual_lines(spec: FormatSpec) -> tuple[UsualLine, ...]:
    """The usual lines of every format of ``spec``'s family: one parser reads them all."""
    return tuple(usual for other in FORMATS if other.family == spec.family for usual in other.usual_lines)


class UnknownFormatError(ValueError):
    """A format name no parser answers to."""


def create_parser(name: str) -> LogParser:
    """Build a fresh parser for the named format."""
    try:
        spec = BY_NAME[name]
    except KeyError as e:
        raise UnknownFormatError(f"unknown format {name!r}; known: {', '.join(sorted(PARSERS))}") from e
    parser = spec.parser(spec)
    if spec.kind == STEPS:
        # Every step trainer's log is read for crashes and skipped steps the same way (crash.py).
        from .crash import CrashAware

        return CrashAware(cast("StepLines[Any]", parser))
    return parser


def renewed(parser: LogParser) -> LogParser:
    """A fresh parser for a new stream of the same log (truncated, replaced); for a format whose
    file is a document written whole (``renew="document"``), one that goes on from the last document
    read, so a rewrite adds only what is new."""
    from .crash import CrashAware

    inner = parser.parser if isinstance(parser, CrashAware) else parser
    spec = BY_NAME.get(parser.name)
    if spec is not None and spec.renew == "document":
        return CrashAware(cast("StepLines[Any]", cast(Renewable, inner).renewed()))
    return create_parser(parser.name)


def kind_of(name: str | None) -> Kind:
    """The kind of log a format is (``steps`` or ``miner``); a log not recognised is the miner's, as before."""
    spec = BY_NAME.get(name) if name is not None else None
    return spec.kind if spec is not None else MINER
