"""The vocabulary between parsers and trackers: small frozen events.

Every event carries ``at``: the unix time read from the log line's own timestamp
(``None`` when the format prints no time, e.g. nanochat's bare ``print``).
Parsers produce these; the trackers consume them. Nothing here does I/O.
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, make_dataclass
from itertools import islice
from typing import Any, Literal, TypeVar, cast

# --- every format -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tick:
    """The log's clock moved: the latest timestamp among the lines just parsed."""

    at: float | None


# --- IOTA Train at Home (SN9) miner ----------------------------------------


@dataclass(frozen=True, slots=True)
class ForwardPass:
    """A forward step completed on this miner's layer (``layer`` None: the last layer's line has none)."""

    at: float | None
    activation_id: str
    layer: int | None


@dataclass(frozen=True, slots=True)
class ActivationShape:
    """An activation's ``torch.Size([batch, sequence, …])``; tokens per pass = batch × sequence."""

    at: float | None
    batch: int
    sequence: int


@dataclass(frozen=True, slots=True)
class Registered:
    """The orchestrator registered the miner in a layer: a new training stretch starts."""

    at: float | None
    layer: int
    epoch: int | None


@dataclass(frozen=True, slots=True)
class LayerChanged:
    """The miner is new to a layer (``old_layer`` None on a first start)."""

    at: float | None
    layer: int
    old_layer: int | None


@dataclass(frozen=True, slots=True)
class LayerSeen:
    """A line names the miner's current layer without announcing a change."""

    at: float | None
    layer: int


@dataclass(frozen=True, slots=True)
class MinerReset:
    """The miner starts over (launch, lost registration): no layer until it registers again."""

    at: float | None
    reason: str


@dataclass(frozen=True, slots=True)
class OptimizationStep:
    """``Optimization step #N``; the counter restarts every epoch."""

    at: float | None
    number: int


@dataclass(frozen=True, slots=True)
class EpochReset:
    """The step counter goes back to 0 (new epoch, or a full reset on re-registration)."""

    at: float | None
    full: bool


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """The orchestrator's heartbeat response (any field may be missing when the line was cut)."""

    at: float | None
    run_id: str | None
    layer: int | None
    epoch: int | None
    phase: str | None
    status: str | None


@dataclass(frozen=True, slots=True)
class PhaseChanged:
    """The layer's phase as the miner reports it (``training``, ``weights_uploading``, …)."""

    at: float | None
    phase: str
    layer: int | None


@dataclass(frozen=True, slots=True)
class QueueUpdate:
    """A registration-queue response: ``queued`` with a position, then ``confirmed``.

    ``queue_id`` tells one queue from the next (a relaunch joins a new one); None when cut off.
    """

    at: float | None
    status: str
    position: int | None
    queue_id: str | None = None


@dataclass(frozen=True, slots=True)
class ErrorLogged:
    """A record logged at ERROR (or CRITICAL) level: its message's first line."""

    at: float | None
    message: str


@dataclass(frozen=True, slots=True)
class GpuMemory:
    """GPU memory in GB; ``total_gb`` None for the short forms."""

    at: float | None
    used_gb: float
    total_gb: float | None


BackendErrorKind = Literal["queue_state_503", "not_found_404"]


@dataclass(frozen=True, slots=True)
class BackendError:
    """One of the two backend error lines the seed counts."""

    at: float | None
    kind: BackendErrorKind
    endpoint: str | None


@dataclass(frozen=True, slots=True)
class P2PTransfer:
    """An activation push between peers; never a pass, kept for a network figure."""

    at: float | None
    direction: Literal["recv", "send"]
    tensor_bytes: int


@dataclass(frozen=True, slots=True)
class ForwardUndelivered:
    """A forward activation not delivered to the next layer's peer (macrocosm-os/iota#195).

    ``reason``: ``failed`` (``Failed to send forward activation``) or ``unreachable`` (``Peer
    unreachable for forward activation``); ``peer``: the peer the line names, shortened, if any.
    """

    at: float | None
    reason: Literal["failed", "unreachable"]
    peer: str | None = None


@dataclass(frozen=True, slots=True)
class PeerStatus:
    """``Broadcast peer status: N/M ok``: how many of the peers the miner broadcast to answered."""

    at: float | None
    ok: int
    total: int


@dataclass(frozen=True, slots=True)
class RequestRetry:
    """The miner retries an orchestrator request (``Retrying request to endpoint /miner/x (attempt 3)``)."""

    at: float | None
    endpoint: str


@dataclass(frozen=True, slots=True)
class WorkerCrashed:
    """The worker wrote how it died: a Rust panic or abort, a fatal runtime error, a Python traceback.

    ``line``: the line that says it (the panic's message, the exception's last line), quoted;
    ``fatal``: the process cannot have lived on (an abort, a non-unwinding panic, a segfault),
    where a panic in one thread or a traceback may have been caught.
    """

    at: float | None
    line: str
    fatal: bool


@dataclass(frozen=True, slots=True)
class LineShapeNew:
    """A record shape tokwatch reads nothing from, first seen after the log's usual ones were learnt
    (app/ingest/formats/drift.py): numbers, ids and keys masked."""

    at: float | None
    shape: str


IotaEvent = (
    ForwardPass
    | ActivationShape
    | Registered
    | LayerChanged
    | LayerSeen
    | MinerReset
    | OptimizationStep
    | EpochReset
    | Heartbeat
    | PhaseChanged
    | QueueUpdate
    | GpuMemory
    | BackendError
    | P2PTransfer
    | ErrorLogged
    | ForwardUndelivered
    | PeerStatus
    | RequestRetry
    | WorkerCrashed
    | LineShapeNew
)

# --- step-based trainers (nanochat, nanoGPT/llm.c, HF Trainer, torchtitan, SN38/hivemind) ----
# Fields a trainer does not print stay None; ``at`` is None for the formats that print no time
# (the step tracker places those lines in time on arrival, see app/stats/steps/timing.py).

PauseReason = Literal["evaluation", "checkpoint", "all-reduce", "sampling"]


@dataclass(frozen=True, slots=True)
class TrainStep:
    """One printed training step, with the figures the trainer printed beside it.

    ``step_seconds`` is the trainer's own duration of one step; ``elapsed_seconds`` its running
    training clock; ``tokens_per_second`` is global, or per device when ``per_device``;
    ``tokens`` the tokens this line's step(s) processed when the trainer says so directly.
    ``logged``: the log prints no step number (an HF Trainer's dicts without the progress bar),
    so ``step`` counts the logged entries and the position is the ``epoch``.
    ``ends_at_total``: reaching ``total_steps`` ends the run; False when the total is one
    epoch's bar (llama-recipes' last epoch), whose run ends when the trainer prints its summary.
    ``run_eta``: ``trainer_eta_seconds`` is the whole run's even where the count is an epoch's
    (mmengine's and mmcv's ``eta``; a MetricLogger's or a bar's is the epoch's).
    ``epoch_total``: the run's epochs as printed (Keras' ``Epoch 12/40``); ``epoch_steps``: the
    batches of an epoch whose bar is full (its count is then no total of the run's).
    ``epoch_batch`` of ``epoch_batches``: where a line whose ``step`` counts the run's updates is in its
    epoch, as printed beside it (fairseq's ``epoch 010:   1000 / 2737 … num_updates=25634``).
    ``step_seconds_note``: how ``step_seconds`` was worked out where no time of one step is printed (Keras 1's
    epoch time over its steps); None: printed for a step.
    ``per_pass``: the count starts again with each pass of the loop and names no epoch (Keras 3's closing ``15/15``
    of one ``fit`` call a line, unsized bars' ``11it`` once a pass): where that pass is, never the run's step.
    ``interval_average``: ``step_seconds`` is the average over the steps since the line before (MLX-LM's ``It/sec``,
    its report's iterations over their time), not the last step's own time.
    ``elapsed_training_only``: ``elapsed_seconds`` is a clock of the training alone, stopped while the trainer
    evaluates (modded-nanogpt's ``train_time``): no evaluation's pause is in the time between two of its readings.
    ``amends``: the same step as the one before, its record now whole (a block of one figure a line that a live read
    ended inside gave its rows so far; the next read brought the rest): its figures are the step's, in place of what
    that part said, and a loss it gives is that step's loss, not another one logged.
    ``counter``: the log's own word for what ``step`` counts where that is no training step (an RL loop's
    ``Episode: 73``: ``"episode"``; the data a count of the trainer's own unit went through, cryoNeFEN's
    ``[900/6034 images]``: ``"image"``, tf.keras' bar of ``…us/sample``: ``"sample"``), said by that word, and its
    time and rate are that unit's, never a step's; None: steps (or epochs, where the step is the epoch).
    ``unnumbered``: the log prints no step at all, only the steps' own rate (TPUEstimator's ``global_step/sec``): with
    ``logged``, ``step`` counts its reports, no position, and ``step_seconds`` is that rate's, a step's time.
    ``last_of_epochs``: the run's planned epochs where its stop said it reached them (Lightning's ``Trainer.fit`
    stopped: `max_epochs=50` reached.`` after ``Epoch 49``'s full bar): ``epoch``, counted from zero, is the last of them,
    said as such, never as ``49/50`` (which reads as one epoch to go).
    ``step_printed``: the step counter as the log prints it where it abbreviates it (``50K``): said so.
    ``epoch_percent``: how far through its epoch the line is, in per cent, where the log prints that share and no count
    of the epoch's batches (``Epoch 1 complete [80%]``); ``step`` is then the epoch, and the share is never the run's.
    """

    at: float | None
    stage: str
    step: int
    total_steps: int | None = None
    outer_step: int | None = None
    progress_percent: float | None = None
    loss: float | None = None
    loss_note: str | None = None
    lr: float | None = None
    lr_multiplier: float | None = None
    grad_norm: float | None = None
    step_seconds: float | None = None
    elapsed_seconds: float | None = None
    tokens_per_second: float | None = None
    per_device: bool = False
    tokens: float | None = None
    mfu: float | None = None
    mfu_note: str | None = None
    trainer_eta_seconds: float | None = None
    epoch: float | None = None
    parquet_index: int | None = None
    row_group: int | None = None
    figures: tuple[tuple[str, float], ...] = ()
    logged: bool = False
    ends_at_total: bool = True
    run_eta: bool = False
    epoch_total: int | None = None
    epoch_steps: int | None = None
    epoch_batch: int | None = None
    epoch_batches: int | None = None
    step_seconds_note: str | None = None
    per_pass: bool = False
    interval_average: bool = False
    elapsed_training_only: bool = False  # ``elapsed_seconds`` stops while the trainer evaluates (modded-nanogpt)
    amends: bool = False  # the rest of the step's record, part of which an earlier read gave: this is the whole record
    counter: str | None = None
    count_unsaid: bool = False  # its count's unit is said nowhere (Keras 1's ``50000/50000 [====] - 708s - loss: …``)
    epoch_percent: float | None = None
    unnumbered: bool = False
    last_of_epochs: int | None = None
    # The step as printed where the log rounds its counter (LeRobot's ``step:50K``): ``step`` is that rounding's
    # number, said as printed, never more precise.
    step_printed: str | None = None


# TrainStep.counter's words for a count of the data itself (an image, a sample): a line goes through many of them, so
# its lines are no units of its count (an episode's line is one episode).
DATA_UNITS = frozenset({"image", "sample", "example", "sequence", "particle"})


# A StepFigures' figure: the epoch's average seconds an iteration, printed as its epoch ended (a MetricLogger's
# ``Epoch: [43] Total time: 0:00:06 (0.2151 s / it)``), its epoch the event's.
EPOCH_STEP_SECONDS = "epoch_step_seconds"
# A TrainStep's figure: its epoch's own time in seconds, printed on a line tied to the epoch's last step (DGL's
# ``Epoch Time(s): 7.2513``, MXNet's ``Epoch[1] Time cost=4.611``), its epoch the step's.
EPOCH_SECONDS = "epoch_seconds"
# A StepFigures' figure beside its EPOCH_SECONDS: the epoch that time is of, where the line says (PyTorch-Ignite's
# ``Epoch[5] Complete. Time taken: 00:00:09``, printed before or after that epoch's own records).
TIMED_EPOCH = "timed_epoch"
# A StepFigures' figure: the whole run's seconds as printed when the run ended (PyTorch-Ignite's ``Engine run complete.
# Time taken: 00:01:45.348`` right before its launcher's ``End of run``; the transfer-learning tutorial's ``Training
# complete in 24m 31s``, ``Total training time: 0:10:28``: app/ingest/formats/run_time.py). A step after it drops it.
RUN_SECONDS = "run_seconds"
# A TrainStep's figure: the seconds a logging hook printed for its interval, the steps since its record before, where
# the log prints no record before it to span those steps (TF Estimator's ``loss = 1.87, step = 31601 (182.200 sec)``
# as a log's first step line): the interval's time as printed, never one step's.
LOGGING_INTERVAL_SECONDS = "logging_interval_seconds"
# A TrainStep's figure: the training perplexity printed on a step's record that prints no loss (OpenNMT's ``Perplexity
# 8.28``, sockeye's ``perplexity=38.275190``): the run's training figure under its own name, never taken for a loss.
TRAIN_PERPLEXITY = "perplexity"
# A TrainStep's figure: an MFU printed with no ``%`` sign and no more than 1 (wordplay's ``mfu=0.1326``), where no record
# of the log said its unit: a fraction or a percent, shown as printed, never as either.
MFU_AS_PRINTED = "mfu_as_printed"


# The ending of an evaluation's name whose figure the log printed as a share in per cent (PyG's ``Val: 65.75%`` →
# ``val_percent``): shown with its ``%``, as printed.
PERCENT_SUFFIX = "_percent"

# A loss the log says went bad after its last numbered step (TensorFlow's ``Model diverged with loss = NaN.``):
# it belongs to no step the log printed, so it is said "after" that step, not "since" it.
LOSS_AFTER_LAST_STEP = "said after the last step line"

# The loss a trainer prints as its training returns (TF Estimator's ``Loss for final step: 0.79459095.``): the last
# step's, whose own line the log did not print.
FINAL_STEP_LOSS = "the final step's"

# The loss an epoch's own summary line prints after that epoch's bar filled (PyG's ``Epoch 02, Loss: 2.1863, Approx.
# Train: 0.4050`` under ``Epoch 02: 100%|…| 90941/90941``; RecBole's ``epoch 3 training [time: 9866.71s, train loss:
# 179017.2822]`` under ``Train     3: 100%|####| 17446/17446``): the epoch's, said at the bar's last count.
EPOCH_SUMMARY_LOSS = "its epoch's summary after the bar"

# The loss on a record led by the training split, its epoch's figures apart by ``|`` (``TRAIN | Acc: 0.8818 | F1: 0.8797 |
# Loss: 0.3693``, split_records.py): the training loss of the steps read before it, as printed.
SPLIT_RECORD_LOSS = "its training split's record"

# The loss in the training set's row of a table of figures by data split, printed as an epoch ends (Ludwig's
# ``│ train │ 0.9779 │`` under ``│ y │ loss │ error │``): the last step's, measured over the training set again.
TRAIN_ROW_LOSS = "the train row of its epoch's table"


@dataclass(frozen=True, slots=True)
class StepFigures:
    """Figures printed on a line of their own for the latest step (HF's log dict, hivemind's loss)."""

    at: float | None
    loss: float | None = None
    loss_note: str | None = None
    lr: float | None = None
    grad_norm: float | None = None
    epoch: float | None = None
    tokens_seen: int | None = None
    figures: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class RunInfo:
    """A startup line that describes the run (tokens per step, planned steps or epochs, GPU, devices)."""

    at: float | None
    tokens_per_step: int | None = None
    total_steps: int | None = None
    total_epochs: int | None = None  # planned, where the run counts epochs (``Starting training for 300 epochs...``)
    # the step training starts from, as its start line says it, with the word for its unit (``Starting training from
    # iteration 16000``: a resumed run's checkpoint), before any step
    start_step: tuple[str, int] | None = None
    # a start of training said in words (``Starting training!``): after an end said with no step line, a run again
    begins: bool = False
    device_count: int | None = None
    gpu_name: str | None = None
    peak_flops: float | None = None
    peak_flops_unknown: bool = False


@dataclass(frozen=True, slots=True)
class StageStart:
    """The trainer announced that training (or a named stage of it) starts now."""

    at: float | None
    stage: str | None = None


@dataclass(frozen=True, slots=True)
class StageEnd:
    """The trainer printed its end-of-training summary.

    ``said``: the end is a stop message next to the last step, not a trainer's summary.
    ``evaluation``: an evaluation job's end (nanochat's base_eval wrote its results): the end of
    the run only for a log with no training step; inside a training run it is one more evaluation.
    """

    at: float | None
    summary: str | None = None
    evaluation: bool = False
    # The run said in words that it stops (a wall-clock cap, an early stop, its final weights saved):
    # its end, unless a step follows after all (then it was not the end).
    said: bool = False
    early: bool = False  # and that it stopped short of its plan (a wall-clock cap, a time limit, an early stop)
    saved: bool = False  # it only said it saved its model: the end once the next step is overdue
    # The same end as the one before, its summary now longer (a block of one figure a line, read a row at a time):
    # its summary is the end's, in place of what the one before said.
    amends: bool = False
    # Its summary is the run's closing figures (a ``Final training loss: 1.14`` block, app/ingest/formats/summaries.py):
    # printed after an end already said (``Training completed in 3 days``), they are that end's figures, added to its
    # words rather than lost behind them.
    figures: bool = False
    # The run's last step, as its closing lines name it (wandb's: its summary's ``global_step`` row, the last step of
    # the history it uploads as the run finishes); None where they name none.
    step: int | None = None


@dataclass(frozen=True, slots=True)
class EvalResult:
    """One evaluation figure (``step`` None when the line names none; ``closes``: its line is the evaluation's last,
    so training goes on after it rather than pausing for more of it; ``late``: printed after later steps were read,
    its step an earlier one of this run, never a next run's)."""

    at: float | None
    name: str
    value: float | None
    step: int | None = None
    closes: bool = False
    late: bool = False


@dataclass(frozen=True, slots=True)
class SharedBar:
    """An epoch's bar that counts its validation's batches on after its training's (Lightning 1.x's ``Epoch 0:
    85%|…| 11/13 [02:52<00:31, 15.71s/it, …]``: 3 training batches, then 8 of the validation's 10), as its newest
    record says: its count and total, the training's share of them, and its time left (``eta_seconds``: to the
    epoch's end, its validation included)."""

    count: int
    total: int
    trained: int
    eta_seconds: float | None


@dataclass(frozen=True, slots=True)
class TrainingPause:
    """Training pauses on purpose (evaluation, checkpoint, all-reduce): not a stall (``batches``: an evaluation's
    own bar's total, where it prints one; ``done``: its batches done so far, and ``epoch``: the epoch it evaluates,
    where its record says; ``bar``: the epoch's bar that counts the pass on after the training, where it does)."""

    at: float | None
    reason: PauseReason
    batches: int | None = None
    done: int | None = None
    epoch: float | None = None
    bar: SharedBar | None = None


@dataclass(frozen=True, slots=True)
class TrainingResumed:
    """The log says training goes on again (demucs' ``Training...``, an ASR trainer's ``TRAIN`` after its ``VALID``):
    a pause it announced is over before the next step line comes."""

    at: float | None


@dataclass(frozen=True, slots=True)
class LinesLeftOut:
    """The log says lines were left out here: a person's mark over the middle of an excerpt (``..........``, ``[...]``,
    Caffe users' ``^^^^ 3000 iter ^^^^``). The step line after it comes steps later that nobody saw run, so no time is
    measured across it; the step time is that of lines printed one after the other."""

    at: float | None


@dataclass(frozen=True, slots=True)
class PeerGroup:
    """An all-reduce group formed with this many peers (SN38, hivemind)."""

    at: float | None
    peers: int


@dataclass(frozen=True, slots=True)
class TrainerError:
    """An error the trainer reported that is not an all-reduce result (a DHT peer it could not
    reach, a state download that timed out): counted, the last one shown."""

    at: float | None
    error: str


@dataclass(frozen=True, slots=True)
class AllReduceResult:
    """An all-reduce round ended (``peers`` None when the line does not say)."""

    at: float | None
    ok: bool
    peers: int | None = None
    error: str | None = None
    checkpoint: int | None = None  # where the newer miner says the round failed (``At Checkpoint 2``)
    again: bool = False  # the last failure, told again more fully (its traceback's end): no new round


# The figure a collaboration's pace (samples a second, all peers) goes out as; a peer's own is ``samples_per_second``.
COLLABORATION_RATE = "collaboration_samples_per_second"

SwarmKind = Literal[
    "join_failed",  # an attempt to join the DHT failed (``cause``: what it usually means)
    "out_of_sync",  # the peer is behind the collaboration: it will load the state
    "downloading",  # it downloads the state from a peer
    "downloaded",  # the state came
    "download_failed",  # the download failed (it retries)
    "catching_up",  # it took the collaboration's step and goes on
    "alone",  # no other peer to average with
    "round",  # where the swarm's own rounds have it (gensyn rl-swarm: ``detail`` ``joining round 14 at stage 1``)
    "training_round",  # … a round it trains in now (rl-swarm's ``Training round: 331 stage: 1``): it is training
    "warning",  # a record logged at WARN that says nothing else read (``detail``: its message)
    "setting_up",  # its launcher sets the node up, no trainer yet (``detail``: what it does; None: the set-up is over)
]


@dataclass(frozen=True, slots=True)
class SwarmNews:
    """A collaborator's place in its swarm changed: joining, in sync or not, alone (SN38, hivemind)."""

    at: float | None
    kind: SwarmKind
    detail: str | None = None  # the error or the peer, as printed
    cause: str | None = None  # a join failure's usual meaning (a clock out of step, a closed port)
    again: bool = False  # the same failure said again, more fully (its traceback's error line): no new attempt


@dataclass(frozen=True, slots=True)
class RoundPeer:
    """A peer of the averaging round under way: in its group, failed in it, or banned."""

    at: float | None
    peer: str  # as the log shortens it
    uid: int | None = None
    outcome: Literal["member", "failed", "banned"] = "member"
    error: str | None = None


@dataclass(frozen=True, slots=True)
class CollabProgress:
    """A hivemind collaboration's progress: its epoch, the samples gathered for it, from how many
    peers, and when the next epoch is due (``ETA`` seconds, as printed)."""

    at: float | None
    epoch: int | None  # None: the line names none (the 2021 ``Collaboration accumulated N samples from P peers``)
    samples: int
    peers: int
    eta_seconds: float | None = None


@dataclass(frozen=True, slots=True)
class RunCrashed:
    """The run died: an uncaught exception's last line, a kill, a fatal launcher or NCCL error.

    Any trainer's log can carry one (app/ingest/formats/crash.py reads them for every step parser);
    a later training step means the run was started again.
    """

    at: float | None
    error: str
    killed: bool = False  # ended from outside: a signal, the OOM killer, the scheduler
    # Stopped by someone rather than dead: ``hand`` (Ctrl-C: SIGINT, KeyboardInterrupt) or ``signal`` (SIGTERM,
    # a scheduler's cancel or time limit); None for a crash. None too on a placeholder whose error line is to come.
    stopped: str | None = None
    placeholder: bool = False  # a traceback read before its error line (glued to a bar, cut short)


@dataclass(frozen=True, slots=True)
class StepSkipped:
    """The optimizer skipped a step: an fp16 gradient overflow (``loss_scale``: the scale it tried, when printed)."""

    at: float | None
    loss_scale: float | None = None


TrainingEvent = (
    TrainStep
    | StepFigures
    | RunInfo
    | StageStart
    | StageEnd
    | EvalResult
    | TrainingPause
    | TrainingResumed
    | LinesLeftOut
    | PeerGroup
    | AllReduceResult
    | TrainerError
    | RunCrashed
    | StepSkipped
    | CollabProgress
    | SwarmNews
    | RoundPeer
)

# --- the source itself (the monitor says so; no parser produces it) -------------

SourceChange = Literal["truncated", "replaced", "switched"]


@dataclass(frozen=True, slots=True)
class SourceChanged:
    """The log was truncated or replaced at its path, or (folder mode) a newer file is followed.

    Sent by the monitor when the tailer restarts the stream. A switch to another file is
    another session of the miner, so a tracker drops what it knew; after a truncation or a
    replacement what it knew is from before: kept, but never presented as current.
    """

    at: float | None
    change: SourceChange
    name: str | None = None  # the file now followed, for a switch


Event = Tick | IotaEvent | TrainingEvent | SourceChanged


@dataclass(frozen=True, slots=True)
class StepRun:
    """Consecutive undated step lines in their trainer's usual shape, in columns.

    What the history import reads an every-step log's usual lines as (hundreds of thousands of
    them): one object per stretch instead of a ``TrainStep`` per line. :meth:`step` is the
    ``TrainStep`` the line reads as; the step tracker applies the stretch in bulk
    (``run_end``, ``apply_run``: app/stats/steps/tracker.py) as it would apply those events one by one.
    """

    stage: str
    loss_note: str | None
    mfu_note: str | None  # said of a step whose MFU is negative (the trainer had not measured it)
    steps: tuple[int, ...]
    losses: tuple[float | None, ...]  # (None at an evaluation line's places: StepRun.evals)
    step_ms: tuple[float, ...]
    mfus: tuple[float, ...]
    # The other figures the lines print, a column each: (a ``TrainStep`` field's name, its value on each
    # line), such as llm.c's grad norm and learning rate or nanochat's total steps and eta.
    columns: tuple[tuple[str, tuple[Any, ...]], ...] = ()
    # An evaluation's line among the steps (modded-nanogpt's ``step:N/M val_loss:…`` at the step just
    # trained): its step again, without a loss, then its figures: (the place of each figure's
    # ``EvalResult`` among the run's events, its name, its value). That place's columns are its line's.
    evals: tuple[tuple[int, str, float | None], ...] = ()

    def __len__(self) -> int:
        """The run's events: a step a line, and an ``EvalResult`` an evaluation's figure."""
        return len(self.steps)

    def step(self, i: int) -> TrainStep:
        """The ``i``-th line's step, as the parser reads that line alone."""
        if self.columns:
            return timed_step(self.stage, self.steps[i], self.losses[i], self.loss_note, self.step_ms[i],
                              self.mfus[i], self.mfu_note, **{name: values[i] for name, values in self.columns},
                              # (an elapsed column is modded-nanogpt's ``train_time``: pipeline's ``elapsed_ms``)
                              **({"elapsed_training_only": True} if self.column("elapsed_seconds") else {}))
        return timed_step(self.stage, self.steps[i], self.losses[i], self.loss_note, self.step_ms[i], self.mfus[i],
                          self.mfu_note)

    def event(self, i: int) -> TrainStep | EvalResult:
        """The ``i``-th event, as the parser reads its line alone."""
        for at, name, value in self.evals:
            if at == i:
                return EvalResult(at=None, name=name, value=value, step=self.steps[i])
        return self.step(i)

    def evaluation_lines(self, start: int, end: int) -> list[tuple[int, int]]:
        """The evaluation lines with an event from ``start`` to ``end``: (the place of its step, the place
        after its last figure), in order."""
        lines: list[tuple[int, int]] = []
        evals = self.evals
        # (only the figures at start or after, and the line's others before them: a run holds thousands of
        # steps, dozens of evaluations)
        first = bisect_left(evals, start, key=_PLACE)
        while 0 < first < len(evals) and evals[first - 1][0] == evals[first][0] - 1:
            first -= 1
        for at, _, _ in islice(evals, first, bisect_left(evals, end + 1, key=_PLACE)):
            if lines and lines[-1][1] == at:
                lines[-1] = (lines[-1][0], at + 1)  # (another figure of the same line)
            else:
                lines.append((at - 1, at + 1))
        return [(first, after) for first, after in lines if first < end and after > start]

    def step_spans(self, start: int, end: int) -> list[tuple[int, int]]:
        """The stretches from ``start`` to ``end`` that hold no evaluation's line: ``(first, after)`` each."""
        spans: list[tuple[int, int]] = []
        at = start
        for first, after in self.evaluation_lines(start, end):
            if first > at:
                spans.append((at, min(first, end)))
            at = max(at, after)
        if at < end:
            spans.append((at, end))
        return spans

    def steps_only(self, spans: list[tuple[int, int]]) -> StepRun:
        """The run of the steps in ``spans`` (StepRun.step_spans), no evaluation among them."""
        return StepRun(self.stage, self.loss_note, self.mfu_note, spanned(self.steps, spans), spanned(self.losses, spans),
                       spanned(self.step_ms, spans), spanned(self.mfus, spans),
                       tuple((name, spanned(values, spans)) for name, values in self.columns))

    def step_losses(self, start: int, end: int) -> tuple[float, ...]:
        """The losses from ``start`` to ``end``, a stretch that holds no evaluation's line (StepRun.step_spans):
        every one a step's own."""
        return cast("tuple[float, ...]", self.losses[start:end])

    def column(self, name: str) -> tuple[Any, ...] | None:
        """The values of the ``TrainStep`` field ``name`` on each line, when the lines print it."""
        for other, values in self.columns:
            if other == name:
                return values
        return None


def spanned(values: Sequence[Any], spans: list[tuple[int, int]], offset: int = 0) -> tuple[Any, ...]:
    """The values in ``spans`` (places, less ``offset``), in order, as one tuple (slices joined in C)."""
    if len(spans) == 1:
        first, after = spans[0]
        return tuple(values[first - offset : after - offset])
    joined: list[Any] = []
    for first, after in spans:
        joined += values[first - offset : after - offset]  # (a slice's items copied at once)
    return tuple(joined)


_PLACE = operator.itemgetter(0)


E = TypeVar("E")


def builder(cls: type[E]) -> Callable[..., E]:
    """A function that builds ``cls`` (a frozen slots event) as ``cls(...)`` does, four times faster.

    A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``, about a third
    of a microsecond a field: a ``TrainStep``'s 25 fields cost more than parsing its line. Where
    events are made by the hundred thousand (an every-step log's usual line, the import's spool),
    an instance of a mutable twin with the same slots is filled by plain stores and then given
    ``cls`` as its class (the same layout, so Python allows it): an equal, frozen ``cls`` event.
    """
    specs = [(f.name, f.type, field(default=f.default, default_factory=f.default_factory)) for f in fields(cls)]  # type: ignore[arg-type]
    draft: Any = make_dataclass(f"{cls.__name__}Draft", specs, slots=True)
    plain = hasattr(cls, "__post_init__") or any(not f.init for f in fields(cls))  # type: ignore[arg-type]
    if plain or draft.__slots__ != getattr(cls, "__slots__", None):
        return cls  # not the shape this is for: the class's own constructor

    def build(*args: Any, **kwargs: Any) -> E:
        event = draft(*args, **kwargs)
        event.__class__ = cls
        return event  # type: ignore[no-any-return]

    return build


_train_step = builder(TrainStep)  # made by the hundred thousand (an every-step log's usual line)


def timed_step(stage: str, step: int, loss: float | None, loss_note: str | None, step_ms: float, mfu: float,
               mfu_note: str | None, **figures: Any) -> TrainStep:
    """An undated step with its loss, its time in ms (0: none) and its MFU (negative: not measured, ``mfu_note``);
    ``figures``: any other of its fields."""
    return _train_step(
        at=None,
        stage=stage,
        step=step,
        loss=loss,
        loss_note=loss_note,
        step_seconds=step_ms / 1000 if step_ms > 0 else None,
        mfu=None if mfu < 0 else mfu,
        mfu_note=mfu_note if mfu < 0 else None,
        **figures,
    )


# --- the Train at Home app's shell log (``main.log`` beside the worker's) --------------------

ShellKind = Literal[
    "session_started",  # [iota-cli runIotaCli] Connecting to CHANNEL
    "quit",  # [iota-cli registerQuitHandler] Closing IOTA Cli
    "miner_exited",  # miner process exited code=1 signal=SIGABRT
    "script_failed",  # Failed to execute script (the PyInstaller worker could not start)
    "training_state",  # training.state accepted { state: 'training' }
    "updated",  # [AutoUpdater] … a new version downloaded or installed
    "version",  # the app names its version
    "host_gate_failed",  # Miner control host gating failed
]


@dataclass(frozen=True, slots=True)
class ShellEvent:
    """One line of the app's shell log that tokwatch reads; never applied to the worker's tracker.

    ``code``/``signal``: a miner exit's (None: ``null`` or absent); ``state``: the shell's training
    state; ``version``: an update's or the app's version; ``line``: the line itself, for a crash.
    """

    at: float
    kind: ShellKind
    code: int | None = None
    signal: str | None = None
    state: str | None = None
    version: str | None = None
    line: str | None = None


# --- the machine (``--hardware``: app/ingest/hardware.py) ------------------------------------


@dataclass(frozen=True, slots=True)
class HardwareSample:
    """One reading of the machine's tool: watts, °C, throttled (None: unknown) and why; ``at`` is wall time."""

    at: float
    watts: float | None
    temperature_c: float | None
    throttled: bool | None
    reasons: tuple[str, ...] = ()
