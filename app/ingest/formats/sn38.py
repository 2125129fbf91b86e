"""Bittensor SN38 "Distributed Training" miners (KMFODA → dstrbtd), and hivemind's own lines.

Research note §4. The miner logs through bittensor (``2025-06-27 14:03:11.482 |  INFO  | msg``,
colours stripped), since 2025‑09 possibly as ``   Rank 0    | msg`` (undated), or to its file
handler (``… - name - LEVEL - msg``). Messages are matched unanchored: the per-step line
changed ~7 times (``Outer Step: … | Inner Step: … | Learning Rate: … | Average Loss: …`` now).
An all-reduce round is the DiLoCo outer step: several lines report its end (the averager's,
then the miner's), so one round gives one result, the first that names it.

hivemind lines (``Jun 27 14:05:02.117 [INFO] …``) carry no year: it comes from
``reference_time`` (when the file was last written: a December line in a January file is last
year's); without one they stay undated.

Failures: one failed round is often reported by several lines (the miner's "Gradient averaging
step failed", the averager's ``Averaging step failed: could not find a group`` and its traceback,
hivemind's ``Averaging failed with <class …>``): lines within a few seconds with nothing else
between are one failure, with the most telling text. The errors the SN38 README lists as known
(a DHT peer it cannot connect to, a state download that times out, an asyncio task's timeout)
are counted as :class:`TrainerError`.
"""

from __future__ import annotations

import re

from ...stats.events import (
    COLLABORATION_RATE,
    AllReduceResult,
    CollabProgress,
    Event,
    PeerGroup,
    RoundPeer,
    StepFigures,
    SwarmKind,
    SwarmNews,
    TrainerError,
    TrainingPause,
    TrainStep,
)
from .base import EpochToDate, LocalToEpoch, local_date, local_to_epoch
from .fields import (
    MONTHS,
    NUM,
    Kind,
    LocalTimes,
    finite,
    integer,
    number,
    year_of,
)
from .pipeline import StepLines

_NUM = NUM
_BITTENSOR = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)[.,](\d{3}) (?:\| +([A-Z]+) +\| (?:\S+:\S+:\d+ +\| )?|- (\S+) - ([A-Z]+) - "
    # rl-swarm's log file: the level first, then ``logger:line`` (its trainer's logger names the peer: ``…:mammalian
    # whiskered badger:302``)
    r"|- (DEBUG|INFO|WARNING|ERROR|CRITICAL) - ([\w.]{1,120}(?::[^-\n]{1,80})?:\d{1,6}) - )"
)
_HIVEMIND_OLD = re.compile(r"\[(\d{4})/(\d\d)/(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})\]\[([A-Z]+)\](?:\[([^\]]*)\])? ?")
# Hydra's logging format, which gensyn's genrl (the newer rl-swarm) logs through:
# ``[2025-07-28 22:09:26,975][genrl.logging_utils.global_defs][INFO] - message``.
_HYDRA = re.compile(r"\[(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)[.,](\d{3})\]\[([\w.<>-]{1,120})\]\[([A-Z]+)\] - ")
# python logging's default format, no time (``ERROR:hivemind.optim.optimizer:Failed to …``).
_PYTHON_LOGGING = re.compile(r"(DEBUG|INFO|WARNING|ERROR|CRITICAL):([\w.<>-]{1,120}):")
_HIVEMIND = re.compile(r"([A-Z][a-z]{2}) (\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3}) \[([A-Z]+)\](?: \[([^\]]+)\])? ")
_RANK = re.compile(r"\s*Rank (\d{1,4})\s*\| ")
# A capture tool's stamp before the line (``docker logs -t``, a container UI's export, ``kubectl logs --timestamps``):
# a time with its zone, maybe glued to the line (``2023-09-16 10:15:31.031074+00:00Sep 16 10:15:31.030 [INFO] …``).
_CONTAINER_STAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d) ?")
_PM2 = re.compile(r"\d+\|[\w.-]{1,64}\s*\| ")

_OUTER = re.compile(
    rf"Outer Step: (\d+) \| Inner Step: (\d+) \|(?: Learning Rate: ({_NUM}) \|)? Average Loss: ({_NUM})"
)
_INNER = re.compile(rf"Inner Step: (\d+) \| Average Loss: ({_NUM})")
_INDEX = re.compile(rf"Index: (\d+) \| Loss: ({_NUM})")
_OLD_STEP = re.compile(rf"Step (\d+) Loss: ({_NUM})")
_MAPPING = re.compile(r"'[^']{1,200}':\s*\d+")
_PARTS = re.compile(r"num_parts_by_peer \(([\d, ]{0,2000})\)")
# The optimizer's and state averager's, and the 2020 quickstart's ``Finished averaging round in with 2 peers.``
_AVERAGED = re.compile(r"(?:Averaged (?:gradients|parameters)|Finished averaging round in) with (\d+) peers")
_CHECKPOINT = re.compile(r"All Reduce Failed At Checkpoint (\d+)")
# The newer miner's per-peer lines (averagers.py): ``UID:55 - PeerID:k2P - Banning Peer``.
_ROUND_PEER = re.compile(r"UID:\s*(\d+) - PeerID:\s*([\w.]{1,80})")
_MAPPING_ENTRY = re.compile(r"'([^']{1,200})':\s*(\d+)")
_DHT_ATTEMPT = re.compile(r"to init DHT using initial_peer as \S+ failed with error: (.*?)(?: -)?$")
# What a failure to join usually means (the SN38 README's known errors; hivemind's p2p daemon).
_JOIN_CAUSES = (
    ("Daemon failed to start: ", ("hivemind's p2p daemon did not start: the bootstrap peers cannot be reached "
                                 "(a closed port, a firewall, or the peers are down)")),
    ("local time must be within", "this machine's clock is out of step with the other peers (sync it: NTP)"),
    ("failed to connect to bootstrap peers", "the bootstrap peers cannot be reached (a closed port, a firewall)"),
    ("Failed to connect to DHT", "the DHT peer cannot be reached (a closed port, a firewall)"),
    ("Daemon failed to start", "hivemind's p2p daemon did not start (ports, firewall)"),
)
# run_training_monitor.py prints a tab before "loss"; copies of it have spaces.
_HM_STEP = re.compile(rf"Step #(\d+)(?:\s+loss = ({_NUM}))?")
# The ALBERT example of 2021 (``[2021/11/01 07:28:18.759][INFO][__main__.on_step_end:153] Step 0``).
_HM_BARE_STEP = re.compile(r"^Step (\d+)$")
# hivemind's progress tracker: ``<run> accumulated 64 samples for epoch #15040 from 4 peers. ETA 16.79 sec``.
_HM_PROGRESS = re.compile(rf"accumulated (\d+) samples for epoch #(\d+) from (\d+) peers\. ETA ({_NUM}) sec")
_LOCAL_EPOCH = re.compile(rf"Local samples:\s+\d+ \| Local epoch:\s+(\d+)(?: \| Loss: ({_NUM}))?")
_HM_EPOCH = re.compile(r"Transitioning to epoch (\d+)")
_HM_LOSS = re.compile(rf"Local loss: ({_NUM})")
_HM_PERF = re.compile(rf"Performance: ({_NUM}) samples(?:/sec| per second)")  # (2021: ``samples per second.``)
# A tqdm bar with no newline of its own, a record printed straight after it (hivemind's examples put
# the local loss in the bar's description: ``loss = 1.911: 459it [00:04, 114.34it/s]Oct 09 …``).
_GLUED_BAR = re.compile(r"^[^\[\]]{0,200}?\d+(?:it|/\d+) \[[\d:]+(?:<[\d:?]+)?,[^\]]{0,120}\]")
_BAR_LOSS = re.compile(rf"\bloss\s*[=:]\s*({_NUM})")
# An unlabelled tqdm bar (the trainer's own steps: gensyn rl-swarm's GRPO stage, ``  0%|  | 0/2 [00:00<?, ?it/s]``),
# at the line's start or right after another bar's end; a labelled one (``Map: 100%|…``) is a data pass.
_TRAIN_BAR = re.compile(r"(?:^|(?<=\]))\s*\d{1,3}%\|[^|]{0,400}\|\s*(\d+)/(\d+) \[[\d:]+<[\d:?]+,\s*([\d.]+|\?)(s/it|it/s)\]")

_ROUND_OPENERS = (
    "Received All Reduce Call",
    "Received Main All Reduce Call",
    "Received Local All Reduce Call",
    "All Reduce Start",
    "Pausing continuous training",
    "Starting Pseudo Gradient Averaging",
)
_SUCCESSES = ("AllReduce Operation Finished Succesfully", "Averaging Round Finished Succesfully", "All Reduce Finish")
_FAILURES = (
    ("All Reduce Runner failed with error ", True),
    ("All Reduce Failed with error: ", True),
    ("Unexpected error during Averaging Process: ", True),
    ("All Reduce Failed At Checkpoint", False),
    ("Averaging gradients failed with ", True),
    ("Averaging failed with ", True),
    ("Gradient averaging step failed with error", True),
    ("Averaging step failed", False),
)
# The errors the SN38 README lists as known (its screenshots): each is counted, the last shown.
_KNOWN_ERRORS = (
    "to init DHT using initial_peer",
    "Failed to connect to DHT",
    "Failed to download state from",
    "Failed to load state from peer",
    "Task exception was never retrieved",
    # a petals client's remote pass that failed on a server and is retried (``Caught exception when running
    # forward via RemoteSpanInfo(…) (retry in 0 sec): RuntimeError(…)``)
    "Caught exception when running",
    # genrl's game manager catching what ended its game (``logger.exception``: its traceback follows)
    "Exception occurred during game run",
)
# hivemind averages in its own process and event loop: an error its averaging modules log, a traceback
# that starts inside them (a cancelled all-reduce), an asyncio task of theirs whose exception nobody
# retrieved, is a round that failed; the trainer goes on (hivemind #351). The old format names the logger
# ``averaging.averager._run_allreduce:440``, the current ``hivemind.averaging.averager._step:485``.
_AVERAGING_CALLER = re.compile(
    r"(?:^|\.)(?:averaging|averager|allreduce|matchmaking|partition|key_manager|grad_averager|state_averager)[.:]"
)
_BACKGROUND_FRAME = re.compile(r'File "[^"]*(?:/hivemind/averaging/|/asyncio/)[^"]*", line \d+')
_AVERAGING_TASK = re.compile(r"Averager|[Aa]ll_?[Rr]educe|[Mm]atchmaking|load_state")
_TASK_FUTURE = re.compile(r"^future: <Task \w+ name='[^']*' coro=<([\w.]+)\(\)(?:.*? exception=(.*)>)?")
_TASK_ERROR = "Task exception was never retrieved"
_FRAME = re.compile(r'^File "[^"]*", line \d+')
_EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Interrupt|Timeout)(?::\s.*)?$")
# The DHT starting: a traceback through it is a failure to join (gensyn rl-swarm's ``setup_dht``, hivemind's own).
_DHT_START_FRAME = re.compile(r'/hivemind/dht/dht\.py", line \d+, in (?:__init__|run_in_background|wait_until_ready)$'
                              r"|, in setup_dht$")
# A frame's source line calling it (a paste cut just after it): ``dht = self.setup_dht(grpo_args)``.
_DHT_START_CALL = re.compile(r"\bsetup_dht\(|=\s*(?:hivemind\.)?DHT\(")
# hivemind's p2p daemon that cannot start (``P2PDaemonError: Daemon failed to start: … failed to connect to bootstrap peers``).
_JOIN_ERRORS = ("Daemon failed to start", "failed to connect to bootstrap peers")
_DHT_TRACE = "a traceback through the DHT's start-up"
# Right after the identity check, before any frame says so: the DHT was starting (its frames, if read, confirm it).
_IDENTITY_TRACE = "a traceback right after hivemind's identity check, as its DHT starts"
_IDENTITY_CHECK = "is not used by other peers"  # ``Checking that identity from `…/swarm.pem` is not used by other peers``
# The 2021 CollaborativeOptimizer: ``Collaboration accumulated 33576 samples from 40 peers; ETA 0.00 seconds``,
# then ``Beginning global optimizer step 7``; its matchmaking looking for a group (at DEBUG):
# ``Allreduce group not found: my-albert-v1_averaging.0b, creating new group.``
_OLD_PROGRESS = re.compile(rf"Collaboration accumulated (\d+) samples from (\d+) peers; ETA ({_NUM}) seconds")
_GLOBAL_STEP = re.compile(r"Beginning global optimizer step (\d+)")
_NO_GROUP = "Allreduce group not found"
# gensyn rl-swarm's trainer: the swarm's own rounds, each in stages (``🐝 Joining round: 107 starting at stage: 2``,
# ``📈 Training round: 107 stage: 2``, ``Already finished round: 24. Skipping.``).
# genrl's game manager starts each round (``Starting round: 1234/1000000.``, its plan ``None`` when unset).
_SWARM_ROUND = re.compile(r"(?:Joining round: (\d+) starting at stage: (\d+)|Training round: (\d+) stage: (\d+)"
                          r"|Already finished round: (\d+)\. Skipping|Starting round: (\d+)/(\d+|None)\.?$)")
# gensyn rl-swarm's launcher (run_rl_swarm.sh) setting the node up before its trainer prints anything: its banner's
# credit, the login server's set-up, the login in a browser, its packages, its questions. Each says what it does now.
_SETUP = (
    ("From Gensyn", "starting the launcher"),
    ("Please login to create an Ethereum Server Wallet", "setting up the login server"),
    ("Node.js is already installed", "setting up the login server"),
    ("Node.js not found. Installing", "installing Node.js for the login server"),
    ("Installing Yarn", "installing Yarn for the login server"),
    ("yarn install v", "installing the login server's packages"),
    ("Building server", "building the login server"),
    ("Started server process", "starting the login server"),
    ("open http://localhost:3000", "waiting for the login at http://localhost:3000"),
    ("userData.json to be created", "waiting for the login at http://localhost:3000"),  # (">> … modal …" since 2025-05)
    ("Would you like to connect to the Testnet", "waiting for an answer at the launcher's prompt"),
    ("Waiting for API key to be", "waiting for the API key to be activated"),
    ("API key is activated", "the API key is activated"),
    (">> Getting requirements", "installing the trainer's packages"),
    (">> Installing GenRL", "installing the trainer's packages"),
    (">> Would you like to push models", "waiting for an answer at the launcher's prompt"),
    (">> Enter the name of the model", "waiting for an answer at the launcher's prompt"),
    (">> Would you like your model to participate", "waiting for an answer at the launcher's prompt"),
    (">> Good luck in the swarm!", "starting the trainer"),
)
_SETUP_WORDS = re.compile("|".join(re.escape(needle) for needle, _ in _SETUP))
# A Petals server starting: it loads its blocks of the model one by one (``Loaded enoch/llama-65b-hf block 73, <All keys
# matched successfully>``), each block's adapters with them (``Loaded adapter timdettmers/guanaco-65b for block 72``,
# ``Adapter … has dropout enabled, this server will disable dropout``). No training: it serves what it loads.
_SERVER_BLOCK = re.compile(r"^Loaded (?:adapter \S+ for )?(?:\S+ )?block (\d{1,6})\b")
_SERVER_ADAPTER = re.compile(r"^Adapter \S+ has dropout enabled, this server will disable dropout")

# Lines of one failure report arrive within this many seconds of each other.
_SAME_FAILURE_SECONDS = 10.0


class _Line:
    __slots__ = ("at", "bar_loss", "bar_step", "caller", "level", "message", "prefixed", "rank")

    def __init__(self, at: float | None, rank: int | None, message: str, prefixed: bool = True,
                 level: str | None = None, caller: str | None = None) -> None:
        self.at = at
        self.rank = rank
        self.message = message
        self.prefixed = prefixed  # a logger's line (not a traceback's or other bare text)
        self.level = level  # hivemind's records: the level and the logger's ``module.function:line``
        self.caller = caller
        self.bar_loss: float | None = None  # the loss a bar glued before it showed
        self.bar_step: TrainStep | None = None  # the trainer's own bar, read as its step


class Sn38Parser(StepLines[_Line]):
    """SN38 miner and hivemind lines in, step and all-reduce events out."""

    def __init__(
        self, name: str = "sn38", to_epoch: LocalToEpoch = local_to_epoch, to_date: EpochToDate = local_date
    ) -> None:
        self.name = name
        self._to_date = to_date
        self._reference: tuple[float, tuple[int, int, int]] | None = None
        self._local = LocalTimes(to_epoch)
        self._times = None  # its records read their own prefixes (:meth:`classify`)
        self._start(self.classify)
        self._failure: AllReduceResult | None = None  # a failed round still being reported
        self._rank: int | None = None
        self._round_open = False
        self._round_peers: int | None = None
        self._miner_steps = False  # an SN38 step line was seen: hivemind epochs are not steps then
        self._hivemind_steps = False  # hivemind's example trainer prints ``Step #N`` itself
        self._epoch_start: tuple[int, float, int] | None = None  # epoch, time, samples of its first progress line
        self._global_step: int | None = None  # the 2021 CollaborativeOptimizer's, as it begins one
        # A traceback under way: 1 its header read, 2 in its frames; whether it is hivemind's averaging's
        # (a round failing) or runs through the DHT's start (a failure to join).
        self._trace = 0
        self._trace_background = False
        self._trace_dht = False
        self._dht_inferred = False  # the DHT's start only from the identity check just before (no frame of it yet)
        self._after_averaging_error = False  # the record just read was an averaging module's error
        self._background_line = False  # the line just read belongs to a background error (survives)
        self._task_error: float | None = None  # asyncio's "never retrieved" read: the ``future:`` line says whose
        self._after_error_record = False  # the last logger's record was an error's (a traceback under it is its)
        self._dht_starting = False  # the record just read was hivemind's identity check (the DHT starting)
        self._failure_told: AllReduceResult | None = None  # the failure sent out last, its report maybe going on
        self._join_open = False  # a failure to join is being told (its traceback, a repeat: no new attempt)
        self._setting_up = False  # the launcher's set-up was said, no trainer's record since
        self._blocks: tuple[int, int] | None = None  # a Petals server's first and last block loaded so far

    def survives(self) -> bool:
        """A traceback of hivemind's averaging (its own process and loop) is a failed round, not the trainer's end."""
        return self._background_line

    def batch_end(self, events: list[Event]) -> None:
        """A failed round still being reported goes out with the batch."""
        if self._task_error is not None:
            events.append(TrainerError(at=self._task_error, error=_TASK_ERROR))
            self._task_error = None
        self._end_failure(events)

    def classify(self, text: str) -> tuple[Kind, _Line | None]:
        """What a piece of an SN38 or hivemind line is: a record behind its prefix, or text."""
        if text[:1].isdigit():
            stamp = _CONTAINER_STAMP.match(text)
            if stamp is not None and stamp.end() < len(text):
                text = text[stamp.end() :]  # (the line's own clock, when it has one, says its time)
        line = self._split_prefix(text)
        if line is None and "]" in text:
            line = self._after_bar(text)
            if line is not None and line.bar_step is not None:
                return Kind.FULL, line
        if line is None:
            bare = text.strip()
            # A traceback's lines and a join error are records of their own (a log may open with them).
            told = (_FRAME.match(bare) is not None or bare.startswith(("Traceback (most recent", "future: <Task"))
                    or _EXCEPTION_LINE.match(bare) is not None or _SETUP_WORDS.search(bare) is not None)
            return (Kind.FULL if told else Kind.OTHER), _Line(None, None, text, prefixed=False)
        # A message ending in a bare number (the loss has two decimals) may have been cut.
        return (Kind.OPEN if text[-1:].isdigit() else Kind.FULL), line

    def _after_bar(self, text: str) -> _Line | None:
        """A record behind a tqdm bar drawn on the same line, with the loss the bar showed; a bar
        alone (its loss only, no record) as a line of its own."""
        m = _GLUED_BAR.match(text)
        if m is None:
            return None
        loss = _BAR_LOSS.search(m.group())
        rest = text[m.end() :]
        line = self._split_prefix(rest) if rest.strip() else None
        if line is None:
            if loss is None:
                return self._train_bar(text)
            line = _Line(None, None, rest, prefixed=False)
        line.bar_loss = finite(number(loss.group(1))) if loss is not None else None
        return line

    def _train_bar(self, text: str) -> _Line | None:
        """The trainer's own bar (the last unlabelled one on the line) as a line of its own: its step and total."""
        found = list(_TRAIN_BAR.finditer(text))
        if not found:
            return None
        m = found[-1]
        rate = number(m.group(3)) if m.group(3) != "?" else None
        seconds = None
        if rate is not None and rate > 0:
            seconds = rate if m.group(4) == "s/it" else 1 / rate
        line = _Line(None, None, text, prefixed=False)
        # A stage's bar (rl-swarm runs one a stage of each round): its total ends the stage, not the run.
        line.bar_step = TrainStep(at=None, stage="train", step=int(m.group(1)), total_steps=int(m.group(2)),
                                  step_seconds=seconds, ends_at_total=False)
        return line

    def _split_prefix(self, text: str) -> _Line | None:
        if text[:1] in " \t" and not _RANK.match(text):
            text = text.lstrip()  # an indented copy (a README, a Markdown quote): the line as printed
        first = text[:1]
        if first.isdigit():
            m = _BITTENSOR.match(text)
            if m is not None:
                y, mo, d, h, mi, s, ms = (int(m.group(i)) for i in range(1, 8))
                return _Line(self._local.epoch(y, mo, d, h, mi, s + ms / 1000), None, text[m.end() :],
                             level=m.group(8) or m.group(10) or m.group(11), caller=m.group(9) or m.group(12))
            m = _PM2.match(text)
            if m is not None:
                return self._split_prefix(text[m.end() :]) or _Line(None, None, text[m.end() :])
        elif first == "[":
            m = _HIVEMIND_OLD.match(text)
            if m is not None:
                y, mo, d, h, mi, s, ms = (int(m.group(i)) for i in range(1, 8))
                return _Line(self._local.epoch(y, mo, d, h, mi, s + ms / 1000), None, text[m.end() :],
                             level=m.group(8), caller=m.group(9))
            m = _HYDRA.match(text)
            if m is not None:
                y, mo, d, h, mi, s, ms = (int(m.group(i)) for i in range(1, 8))
                return _Line(self._local.epoch(y, mo, d, h, mi, s + ms / 1000), None, text[m.end() :],
                             level=m.group(9), caller=m.group(8))
        elif first == " " or first == "R":
            m = _RANK.match(text)
            if m is not None:
                return _Line(None, int(m.group(1)), text[m.end() :])
        elif first.isupper():
            m = _HIVEMIND.match(text)
            if m is not None:
                return _Line(self._hivemind_time(m), None, text[m.end() :], level=m.group(7), caller=m.group(8))
            m = _PYTHON_LOGGING.match(text)
            if m is not None:
                return _Line(None, None, text[m.end() :], level=m.group(1), caller=m.group(2))
        return None

    def _hivemind_time(self, m: re.Match[str]) -> float | None:
        """A hivemind timestamp's time, its year from the reference time; None without one."""
        month, reference = MONTHS.get(m.group(1)), self._reference_date()
        if month is None or reference is None:
            return None
        day, h, mi, sec, ms = (int(m.group(i)) for i in range(2, 7))
        return self._local.epoch(year_of(month, day, reference), month, day, h, mi, sec + ms / 1000)

    def _reference_date(self) -> tuple[int, int, int] | None:
        t = self.reference_time
        if t is None:
            return None
        if self._reference is None or self._reference[0] != t:
            self._reference = (t, self._to_date(t))
        return self._reference[1]

    def emit(self, line: _Line, events: list[Event]) -> None:
        """A whole line's events, for the rank followed; a record logged at ``WARN`` (hivemind's ``[WARN]``, the
        miner's ``| WARN |``) that says nothing else read is kept as said (a slow DHT declaration, a failed loop)."""
        start = len(events)
        self._line_events(line, events)
        if line.level == "WARN" and line.prefixed and len(events) == start and line.message.strip():
            events.append(SwarmNews(line.at, "warning", line.message.strip()))

    def _serving(self, message: str, at: float | None, events: list[Event]) -> bool:
        """A Petals server's start-up record (``_SERVER_BLOCK``): what it does now, as a set-up step; True when it was one."""
        block = _SERVER_BLOCK.match(message)
        if block is None:
            return self._blocks is not None and _SERVER_ADAPTER.match(message) is not None
        n = int(block.group(1))
        first = n if self._blocks is None else min(self._blocks[0], n)
        self._blocks = (first, max(n, self._blocks[1]) if self._blocks is not None else n)
        loaded = f"block {first}" if self._blocks[0] == self._blocks[1] else f"blocks {first}→{self._blocks[1]}"
        events.append(SwarmNews(at, "setting_up", f"a server starting: loading its blocks ({loaded} loaded)"))
        self._setting_up = True
        return True

    def _line_events(self, line: _Line, events: list[Event]) -> None:
        if line.rank is not None:
            if self._rank is None or line.rank < self._rank:
                self._rank = line.rank
            elif line.rank != self._rank:
                return  # another local rank repeating the same run
        at = line.at
        if at is not None and (self._latest is None or at > self._latest):
            self._latest = at
        message = line.message
        if line.bar_loss is not None:  # the bar was drawn just before the record behind it
            events.append(StepFigures(at=at, loss=line.bar_loss, loss_note="local"))
        if line.bar_step is not None:
            if not self._miner_steps:
                self._hivemind_steps = True
                events.append(line.bar_step)
            return
        self._background_line = False
        if not line.prefixed:
            if self._bare(message.strip(), events):
                return
        else:
            self._trace, self._join_open = 0, False  # a logger's record: any traceback before it is over
            if self._serving(message.strip(), at, events):
                return
            if self._setting_up:  # the trainer's first record: its launcher's set-up is over
                self._setting_up = False
                events.append(SwarmNews(at, "setting_up", None))
            # hivemind checks its identity as its p2p daemon starts for the DHT: a traceback next is that start failing.
            self._dht_starting = _IDENTITY_CHECK in message
            self._after_error_record = line.level in ("ERROR", "CRITICAL", "WARN", "WARNING")
            if self._task_error is not None:
                events.append(TrainerError(at=self._task_error, error=_TASK_ERROR))
                self._task_error = None
        if line.prefixed:
            averaging_error = (line.level in ("ERROR", "CRITICAL") and line.caller is not None
                               and _AVERAGING_CALLER.search(line.caller) is not None)
            self._after_averaging_error = averaging_error
            if averaging_error and not _is_failure(message) and _TASK_ERROR not in message:
                # A round failing in hivemind's averager: its traceback, if any, follows.
                error = message.strip() or f"an error in {line.caller}"  # (its traceback, if any, says more)
                self._fail(AllReduceResult(at=at, ok=False, peers=self._round_peers, error=error), events)
                self._round_open = False
                return
        if line.prefixed and not _is_failure(message) and _TASK_ERROR not in message:
            self._end_failure(events)
            self._failure_told = None  # that failure's report is over
        if _TASK_ERROR in message:
            self._task_error = at  # whose task it was comes on the next line
            return
        if "round: " in message:
            m = _SWARM_ROUND.search(message)
            if m is not None:
                if m.group(5) is not None:
                    detail = f"round {m.group(5)} already finished: waiting for the next"
                elif m.group(6) is not None:
                    # (of the rounds it plans, as printed: ``Starting round: 39512/1000000.``; ``None`` plans none)
                    planned = f" of {int(m.group(7)):,}" if m.group(7).isdigit() else ""
                    detail = f"starting round {m.group(6)}{planned}"
                elif m.group(1) is not None:
                    detail = f"joining round {m.group(1)} at stage {m.group(2)}"
                else:
                    detail = f"training round {m.group(3)} · stage {m.group(4)}"
                    events.append(SwarmNews(at, "training_round", detail))
                    return
                events.append(SwarmNews(at, "round", detail))
                return
        if _NO_GROUP in message:  # matchmaking: looking for a group to average with
            self._open_round(at, events)
            return
        if ("Collaboration accumulated" in message or "global optimizer step" in message) and \
                self._old_collaboration(at, message, events):
            return
        if ("Step" in message or "Index: " in message) and self._step(at, message, events):
            return
        if "Local epoch" in message:
            m = _LOCAL_EPOCH.search(message)
            if m is not None:  # the hivemind.Optimizer-era miner: its local epoch is its step
                self._miner_steps = True
                events.append(TrainStep(at=at, stage="train", step=int(m.group(1)), loss=number(m.group(2))))
                return
        if "accumulated" in message:
            m = _HM_PROGRESS.search(message)
            if m is not None:
                samples, epoch, peers = int(m.group(1)), int(m.group(2)), int(m.group(3))
                events.append(CollabProgress(at, epoch, samples, peers, finite(number(m.group(4)))))
                self._swarm_rate(at, epoch, samples, events)
                return
        if any(marker in message for marker in _KNOWN_ERRORS):
            error = message.strip(" -") or message
            events.append(TrainerError(at=at, error=error))
            self._swarm_error(at, error, events)
            return
        if any(marker in message for marker in _JOIN_ERRORS):  # a logger's record of the daemon failing
            error = message.strip(" -") or message
            events.append(TrainerError(at=at, error=error))
            self._join_failed(at, error, events)
            return
        if "sync" in message or "ownload" in message or "newer epoch" in message or "Catching up" in message:
            news = _sync_news(message)
            if news is not None:
                events.append(SwarmNews(at, news[0], news[1]))
                return
        if (
            "ll Reduce" in message
            or "llReduce" in message
            or "veraging" in message
            or "training" in message
            or "eer" in message
            or "optimizer step #" in message
        ):
            self._all_reduce(at, message, events)
            return
        if "Transitioning to epoch" in message:
            m = _HM_EPOCH.search(message)
            # A collaboration's epoch is its step, unless the log prints steps of its own.
            if m is not None and not self._miner_steps and not self._hivemind_steps:
                events.append(TrainStep(at=at, stage="train", step=int(m.group(1))))
            return
        if "Local loss" in message or "Performance" in message:
            m = _HM_LOSS.search(message)
            if m is not None:
                events.append(StepFigures(at=at, loss=number(m.group(1)), loss_note="local"))
                return
            m = _HM_PERF.search(message)
            if m is not None and finite(number(m.group(1))) is not None:
                rate = number(m.group(1))
                assert rate is not None
                events.append(StepFigures(at=at, figures=(("samples_per_second", rate),)))

    def _bare(self, text: str, events: list[Event]) -> bool:
        """A line with no logger's prefix: a traceback's (whose?), asyncio's ``future:`` line, a join error."""
        if self._task_error is not None:
            at, self._task_error = self._task_error, None
            m = _TASK_FUTURE.match(text)
            if m is not None and _AVERAGING_TASK.search(m.group(1)):
                error = m.group(2) or _TASK_ERROR
                self._fail(AllReduceResult(at=at, ok=False, peers=self._round_peers, error=error), events)
                self._round_open = False
                self._trace, self._trace_background, self._trace_dht = 0, True, False  # its traceback follows
                self._after_averaging_error = True
                return True
            whose = f": {m.group(2)}" if m is not None and m.group(2) else ""
            events.append(TrainerError(at=at, error=f"{_TASK_ERROR}{whose}"))
            if m is not None:
                return True
        if text.startswith("Traceback (most recent call last)"):
            self._trace, self._trace_dht, self._dht_inferred = 1, False, False
            self._trace_background = self._after_averaging_error
            self._background_line = self._trace_background
            if self._dht_starting:  # right after the identity check: the DHT's daemon did not come up, it seems
                self._trace_dht = self._dht_inferred = True
                self._join_failed(None, _IDENTITY_TRACE, events)
            return True
        if _FRAME.match(text):
            if self._trace != 2:  # its first frame: the header's, or a paste's cut above it
                if self._trace == 0:
                    self._trace_background, self._trace_dht, self._dht_inferred = self._after_averaging_error, False, False
                self._trace_background = self._trace_background or _BACKGROUND_FRAME.search(text) is not None
                self._trace = 2
            self._background_line = self._trace_background
            if (not self._trace_dht or self._dht_inferred) and _DHT_START_FRAME.search(text):
                self._trace_dht, self._dht_inferred = True, False
                self._join_failed(None, _DHT_TRACE, events)  # (after the identity check: the same failure, confirmed)
            return True
        if not self._trace:
            if any(marker in text for marker in _JOIN_ERRORS):
                self._join_failed(None, text, events)
                return True
            setup = _SETUP_WORDS.search(text)
            if setup is not None:
                doing = next(meaning for needle, meaning in _SETUP if needle == setup.group())
                events.append(SwarmNews(None, "setting_up", doing))
                self._setting_up = True
                return True
            return False
        if _EXCEPTION_LINE.match(text) is None:
            self._background_line = self._trace_background
            if (not self._trace_dht or self._dht_inferred) and _DHT_START_CALL.search(text):
                self._trace_dht, self._dht_inferred = True, False
                self._join_failed(None, _DHT_TRACE, events)
            return True  # a frame's source line, its markers
        self._trace = 0
        if self._trace_background:
            self._background_line = True
            if self._after_averaging_error or not self._after_error_record:
                # (under another error's record, that record said what failed: a state download, a peer)
                self._fail(AllReduceResult(at=None, ok=False, peers=self._round_peers, error=text), events)
                self._round_open = False
            return True
        if self._trace_dht or any(marker in text for marker in _JOIN_ERRORS):
            self._join_failed(None, text, events)
            return True
        return False

    def _join_failed(self, at: float | None, error: str, events: list[Event]) -> None:
        """A failure to join the DHT; the same failure said again (its traceback's error line, a repeat)
        refines the one said, it is no new attempt."""
        again = self._join_open  # the same failure still being told (no logger's record since)
        cause = next((meaning for marker, meaning in _JOIN_CAUSES if marker in error), None)
        if cause is None and error == _DHT_TRACE:
            cause = "hivemind's DHT did not start; the error that stopped it is not in the log"
        elif cause is None and error == _IDENTITY_TRACE:
            cause = "the trainer died as hivemind's DHT was starting; the error that stopped it is not in the log"
        self._join_open = True
        events.append(SwarmNews(at, "join_failed", error, cause, again=again))

    def _open_round(self, at: float | None, events: list[Event]) -> None:
        if not self._round_open:
            self._round_open = True
            self._round_peers = None
            events.append(TrainingPause(at=at, reason="all-reduce"))

    def _old_collaboration(self, at: float | None, message: str, events: list[Event]) -> bool:
        """The 2021 CollaborativeOptimizer's progress and global steps (its step is the collaboration's)."""
        m = _OLD_PROGRESS.search(message)
        if m is not None:
            samples, peers = int(m.group(1)), int(m.group(2))
            events.append(CollabProgress(at, None, samples, peers, finite(number(m.group(3)))))
            return True
        m = _GLOBAL_STEP.search(message)
        if m is not None:
            self._global_step = int(m.group(1))
            if not self._miner_steps and not self._hivemind_steps:
                events.append(TrainStep(at=at, stage="train", step=self._global_step))
            self._open_round(at, events)
            return True
        return False

    def _swarm_rate(self, at: float | None, epoch: int, samples: int, events: list[Event]) -> None:
        """The collaboration's samples a second since its epoch's first progress line (the trainer's own
        ``Performance`` line is this peer's, a figure of its own)."""
        start = self._epoch_start
        if at is None:
            return
        if start is None or start[0] != epoch or samples < start[2]:
            self._epoch_start = (epoch, at, samples)
            return
        if at > start[1] and samples > start[2]:
            rate = (samples - start[2]) / (at - start[1])
            events.append(StepFigures(at=at, figures=((COLLABORATION_RATE, rate),)))

    def _step(self, at: float | None, message: str, events: list[Event]) -> bool:
        m = _OUTER.search(message)
        if m is not None:
            self._miner_steps = True
            events.append(
                TrainStep(
                    at=at,
                    stage="train",
                    step=int(m.group(2)),
                    outer_step=int(m.group(1)),
                    loss=number(m.group(4)),
                    loss_note="mean over this step's micro-batches",
                    lr=finite(number(m.group(3))),
                )
            )
            return True
        for pattern in (_INNER, _INDEX, _OLD_STEP):
            m = pattern.search(message)
            if m is not None:
                self._miner_steps = True
                events.append(
                    TrainStep(at=at, stage="train", step=int(m.group(1)), loss=number(m.group(2)), loss_note="average")
                )
                return True
        m = _HM_BARE_STEP.match(message) if not self._miner_steps else None
        if m is not None:
            self._hivemind_steps = True
            events.append(TrainStep(at=at, stage="train", step=int(m.group(1))))
            return True
        m = _HM_STEP.search(message)
        if m is not None and not self._miner_steps and "Step #" in message[:12]:
            self._hivemind_steps = True
            events.append(TrainStep(at=at, stage="train", step=int(m.group(1)), loss=number(m.group(2))))
            return True
        return False

    def _swarm_error(self, at: float | None, error: str, events: list[Event]) -> None:
        """A known error that says where the peer stands in its swarm: a failed join or state download."""
        if "DHT" in error:
            m = _DHT_ATTEMPT.search(error)
            detail = m.group(1).strip() if m is not None else error
            cause = next((meaning for marker, meaning in _JOIN_CAUSES if marker in detail), None)
            events.append(SwarmNews(at, "join_failed", detail, cause))
        elif "Failed to download state" in error or "Failed to load state" in error:
            events.append(SwarmNews(at, "download_failed", error))

    def _all_reduce(self, at: float | None, message: str, events: list[Event]) -> None:
        if "UID:" in message and "PeerID:" in message:
            m = _ROUND_PEER.search(message)
            if m is not None:
                uid, peer = int(m.group(1)), m.group(2)
                if "Banning Peer" in message:
                    events.append(RoundPeer(at, peer, uid, "banned"))
                elif "Failed to communicate" in message:
                    error = message.split("due to error", 1)[1].strip(" -:") if "due to error" in message else None
                    events.append(RoundPeer(at, peer, uid, "failed", error or None))
                else:
                    events.append(RoundPeer(at, peer, uid))
                return
        if "there are no other peers" in message or "Found no active peers" in message:
            events.append(SwarmNews(at, "alone", message.strip()))
            return
        if "Beginning optimizer step #" in message:  # hivemind's optimizer: its averaging round begins
            if not self._round_open:
                self._round_open = True
                self._round_peers = None
                events.append(TrainingPause(at=at, reason="all-reduce"))
            return
        if any(opener in message for opener in _ROUND_OPENERS):
            if not self._round_open:
                self._round_open = True
                self._round_peers = None
                events.append(TrainingPause(at=at, reason="all-reduce"))
            return
        if "PeerID to UID mapping" in message:
            self._group(at, len(_MAPPING.findall(message)), events)
            for peer, uid in _MAPPING_ENTRY.findall(message):
                events.append(RoundPeer(at, peer, int(uid)))
            return
        if "num_parts_by_peer" in message:
            m = _PARTS.search(message)
            if m is not None:
                self._group(at, len([p for p in m.group(1).split(",") if p.strip()]), events)
            return
        m = _AVERAGED.search(message)
        if m is not None:
            peers = integer(m.group(1))
            events.append(AllReduceResult(at=at, ok=True, peers=peers))
            self._round_open = False
            return
        if any(success in message for success in _SUCCESSES):
            if self._round_open:
                events.append(AllReduceResult(at=at, ok=True, peers=self._round_peers))
                self._round_open = False
            return
        for marker, has_error in _FAILURES:
            i = message.find(marker)
            if i >= 0:
                if self._round_open or marker.startswith(("Averaging", "Gradient")):
                    error = message[i + len(marker) :].strip(" -:") if has_error else message[i:].strip()
                    m = _CHECKPOINT.search(message)
                    checkpoint = int(m.group(1)) if m is not None else None
                    if m is not None and not has_error:
                        error = ""  # the checkpoint is all the line says
                    self._fail(AllReduceResult(at=at, ok=False, peers=self._round_peers, error=error or None,
                                               checkpoint=checkpoint), events)
                    self._round_open = False
                return

    def _fail(self, failure: AllReduceResult, events: list[Event]) -> None:
        """Take a failure line: the same failure's report goes on, or a new failure begins. A failure
        already sent out (the batch ended inside its report) is told again, more fully, as ``again``."""
        held, again = self._failure, False
        if held is None and self._failure_told is not None:
            held, again = self._failure_told, True
        if held is not None and (
            failure.at is None or held.at is None or failure.at - held.at <= _SAME_FAILURE_SECONDS
        ):
            checkpoint = held.checkpoint if held.checkpoint is not None else failure.checkpoint
            error = failure.error if _telling(failure.error) > _telling(held.error) else held.error
            self._failure = AllReduceResult(at=held.at if held.at is not None else failure.at, ok=False,
                                            peers=held.peers if held.peers is not None else failure.peers,
                                            error=error, checkpoint=checkpoint, again=again or held.again)
            self._failure_told = None
            return
        self._end_failure(events)
        self._failure_told = None
        self._failure = failure

    def _end_failure(self, events: list[Event]) -> None:
        if self._failure is not None:
            events.append(self._failure)
            self._failure_told = self._failure
            self._failure = None

    def _group(self, at: float | None, peers: int, events: list[Event]) -> None:
        if peers > 0:
            self._round_peers = peers
            events.append(PeerGroup(at=at, peers=peers))



def _sync_news(message: str) -> tuple[SwarmKind, str | None] | None:
    """Where a peer stands against the collaboration's state, from the optimizer's and averager's lines."""
    if "Peer is out of sync" in message:
        return "out_of_sync", None
    if "Found peer with newer epoch" in message:
        return "out_of_sync", message.strip()
    if "Downloading parameters from peer" in message:
        return "downloading", message.split("from peer", 1)[1].strip() or None
    if "Finished downloading state" in message:
        return "downloaded", message.strip()
    if "Catching up with collaboration step" in message:
        return "catching_up", message.strip()
    return None


def _is_failure(message: str) -> bool:
    return any(marker in message for marker, _ in _FAILURES)


def _telling(error: str | None) -> int:
    """How much an error text says: nothing, only an exception class, or a message."""
    if not error:
        return 0
    bare_name = ":" not in error and "(" not in error and " " not in error  # ``asyncio.exceptions.CancelledError``
    return 1 if error.startswith("<class") or bare_name else 2
