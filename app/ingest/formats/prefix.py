"""What a launcher or a logging setup writes before a trainer's own line, and the time it gives.

nanoGPT, llm.c, modded-nanogpt, nanochat and the HF Trainer print bare lines, but the lines
often reach the log through something that prefixes them, sometimes several things at once:

* launchers: torchrun ``[rank0]:`` / ``[default0]:``, OpenMPI ``[1,0]<stdout>:``, srun
  ``--label`` ``0: ``, pdsh/deepspeed ``worker-0: ``, a process's name and pid in parentheses (Ray's
  ``(RayTrainWorker pid=4242, ip=10.0.0.1) ``, SkyPilot's ``(task, pid=4242) `` and
  ``(worker1, rank=1, pid=4242, ip=10.0.0.2) ``), ``kubectl logs --prefix`` ``[pod/NAME/CONTAINER] ``;
* logging: python ``logging`` (``2024-05-01 12:00:00,123 - INFO - ``, ``… - __main__ - INFO - ``,
  HF's examples ``05/01/2024 12:00:00 - INFO - __main__ - ``, ``INFO:__main__:``), HF's explicit
  format ``[INFO|trainer.py:2048] 2024-05-01 12:00:00,123 >> ``, loguru
  ``2024-05-01 12:00:00.123 | INFO     | __main__:main:42 - ``, hydra
  ``[2024-05-01 12:00:00,123][__main__][INFO] - ``, deepspeed ``[2024-…] [INFO] [logging.py:96:log_dist] ``,
  absl/glog ``I0501 12:00:00.123456 1402 train.py:88] ``, Lightning's ``[rank: 0] ``;
* capture tools: ``docker logs -t`` / ``kubectl logs --timestamps`` (``2024-05-01T12:00:00.123456789Z ``),
  moreutils ``ts`` (``May 01 12:00:00 `` or ``[2024-05-01 12:00:00]``), journald.

:meth:`PrefixReader.read` peels them and gives back the trainer's message, the time the prefix
printed (unix seconds, None without one) and the launcher's rank. A bare label (``0: ``,
``worker-0: ``) could be the rest of a wrapped record, so it is not peeled while one waits for it.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from itertools import islice

from ...stats.events import Event
from .base import EpochToDate, LocalToEpoch, local_date, local_to_epoch
from .fields import MONTHS, LocalTimes, clean, year_of

_LEVEL = r"(?:TRACE|DEBUG|INFO|SUCCESS|NOTICE|WARNING|WARN|ERROR|CRITICAL|FATAL)"
# The seconds' fraction may be printed as its strftime directive unexpanded: python logging formats ``asctime`` with
# ``time.strftime``, which has no ``%f``, so ``datefmt="%Y-%m-%d %H:%M:%S.%f"`` prints ``18:48:56.%f`` (SiaStegNet's
# logger); Ruby's ``%L``/``%3N`` in a Python format the same way. The time is whole seconds then.
_CLOCK = r"(\d\d):(\d\d):(\d\d)(?:[.,](\d{1,9})|[.,]%\d?[A-Za-z](?![A-Za-z]))?"
# A date and time with the year first (ISO, python logging, loguru; mmengine's ``2024/01/02``), maybe
# with a zone, glued (``Z``, ``+08:00``) or after a space, as ``%z``/``%Z`` print it (pino-pretty's ``[2019-11-28
# 13:15:10.310 +0000] INFO``, cardano-db-sync's ``[2023-03-06 15:09:27.39 UTC] Starting epoch 38``): the zone is
# applied, so a log whose lines print different zones keeps its order; a spaced one only before a space or the
# bracket's end, never a figure of the message (``12:00:00 -1`` stays the message's).
_ISO = re.compile(rf"\[?(\d{{4}})[-/](\d\d)[-/](\d\d)[T ]{_CLOCK}"
                  rf"(Z|[+-]\d\d:?\d\d| [+-]\d\d:?\d\d(?=[\]\s])| (?:UTC|GMT)(?=[\]\s]))?\]?")
# The same with dashes in the time, as a stamp safe in a file's name is written (``%Y-%m-%d %H-%M-%S``; steppy's logger:
# ``2019-03-22 14-23-11 steps >>> epoch 0 batch 418 sum: 2.32141``); its groups are the colon form's.
_ISO_DASHED = re.compile(r"\[?(\d{4})-(\d\d)-(\d\d)[T _](\d\d)-(\d\d)-(\d\d)(?:[.,](\d{1,9}))?(Z)?\]?")
# The same with the time's fields dashed onto the date and closed by a colon, maybe in whole minutes (CenterNet's logger,
# ``time.strftime('%Y-%m-%d-%H-%M')`` before each record, copied by FairMOT and the trackers built on it:
# ``2020-04-15-15-52: epoch: 1 |loss 8.929329 | hm_loss …``).
_ALL_DASHED = re.compile(r"(\d{4})-(\d\d)-(\d\d)-(\d\d)-(\d\d)(?:-(\d\d))?:(?= )")
# HF's example scripts (``datefmt="%m/%d/%Y %H:%M:%S"``); rich's log handler (``[01/15/23 18:11:55]``:
# ``%x %X``, a two-digit year).
_US = re.compile(rf"\[?(\d\d)/(\d\d)/(\d{{4}}|\d\d),? {_CLOCK}\]?")
# A two-digit year first (BasicSR's and mmsr's logger, ``datefmt="%y-%m-%d %H:%M:%S"``: ``21-05-24 02:11:29.657 - INFO: ``).
_YMD = re.compile(rf"\[?(\d\d)-(\d\d)-(\d\d) {_CLOCK}\]?")
# rich's log handler leaves its time column blank while the time is the one printed above
# (``                    INFO     message``): the record's time is that one.
_BLANK_TIME = re.compile(rf" {{8,40}}(?={_LEVEL} )")
# moreutils ``ts`` and journald: no year.
_MONTH_DAY = re.compile(rf"\[?([A-Z][a-z]{{2}}) ([ \d]\d) {_CLOCK}\]?")
# A yearless numeric date (logging's ``datefmt="%m-%d %H:%M:%S"``: demucs' ``[04-04 22:52:33][demucs.solver][INFO] - ``;
# detectron2's ``setup_logger``, ``datefmt="%m/%d %H:%M:%S"`` inside one bracket with the logger's name:
# ``[09/02 02:43:17 d2.engine.hooks]: ``).
# (The slash form only in detectron2's bracket: mmengine's bare ``10/30 22:18:02 - mmengine - INFO - `` is read by its lines.)
_MD = re.compile(rf"\[?(\d\d)(-)(\d\d) {_CLOCK}\]?|\[(\d\d)(/)(\d\d) {_CLOCK}(?= [\w.<>-]{{1,120}}\]:)")
# A time of day with no date leading the record (``%H:%M:%S``: VerSe's ``02:29:53: train iter: 0 …``, ``12:00:01.250 step
# 5 …``), its colon or a space after it; dated by order (:meth:`PrefixReader.ordered_time_of_day`).
# In brackets with its fraction (MAE/DeiT's ``misc.py`` prints ``[07:20:32.390498] `` before every line), or whole
# before what dmlc-core's logger writes behind its clock (XGBoost's CLI and MXNet: a boosting round, ``[20:01:41] [9]\t
# test-error:0.027195``, ``[20:01:35] boosting round 9, 40.8379 sec elapsed``, or a source file's line, ``[17:10:29]
# /xgboost/src/tree/updater_prune.cc:74: …``; another whole-second bracket may be an elapsed clock, ``[00:05:12] step
# 100``, and tqdm's ``[00:05:12<…`` is one): peeled and dated like the bare one, so the record behind it reads as its
# own (``Test:  [ 0/79]`` an evaluation's pass, ``Training time 5:47:14`` the run's end, ``[9]\ttest-error:…`` a round).
_TIME_OF_DAY = re.compile(
    rf"{_CLOCK}:?(?= )|\[(\d\d):(\d\d):(\d\d)(?:[.,](\d{{3,9}})\](?= )"
    rf"|\](?= (?:\[\d{{1,9}}\]\s|boosting round \d|[\w./-]{{1,200}}\.(?:cc|cpp|cu|h):\d{{1,6}}: )))"
)
# A date written day first with its month's name, maybe after its weekday and before its year, its time maybe in whole
# minutes, a level after it: RecBole's logger over its versions (``datefmt="%d %b %H:%M"``: ``23 May 14:00    INFO  ``;
# ``"%a %d %b %Y %H:%M:%S"``: ``Sat 23 Apr 2022 00:39:03 INFO  ``).
_DAY_MONTH = re.compile(rf"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) )?(\d{{1,2}}) ([A-Z][a-z]{{2}})(?: (\d{{4}}))? "
                        rf"(\d\d):(\d\d)(?::(\d\d))?(?=\s+{_LEVEL}\b)")
# A date whose day and month cannot be swapped, written as C, Boost and day-first locales print it, maybe in brackets:
# ctime's (``time.ctime()``, ``asctime()``, C's ``ctime``/``%c`` in the C locale: ``Mon Dec  7 22:59:59 2026``), its
# month named day first or year first (``datefmt="%d-%b-%Y %H:%M:%S"``: ``07-Dec-2026 22:59:59``, Python's logging
# HOWTO's ``%d-%b-%y``: ``07-Dec-26 22:59:59``; Boost's ``to_simple_string``: ``2026-Dec-07 22:59:59``), or dotted with
# the day first (``%d.%m.%Y %H:%M:%S``: ``07.12.2026 22:59:59``, ``[07.12.26 22:59]``, whole minutes). A dotted date is
# never month first in any locale that prints one, so it is read day first; a slashed one may be either (:data:`_US`).
_WEEKDAY = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
# ctime's date alone, its seven groups read by :func:`ctime_date`: the one reading of it, for a prefix here and for a
# clock inside a record (series.py).
CTIME = rf"{_WEEKDAY} ([A-Z][a-z]{{2}}) {{1,2}}(\d{{1,2}}) {_CLOCK} (\d{{4}})"
_NAMED_DATE = re.compile(
    rf"\[?{CTIME}\]?"
    rf"|\[?(\d\d)-([A-Z][a-z]{{2}})-(\d{{4}}|\d\d)[ T:]{_CLOCK}\]?"
    rf"|\[?(\d{{4}})-([A-Z][a-z]{{2}})-(\d\d)[ T]{_CLOCK}\]?"
    rf"|\[?(\d\d)\.(\d\d)\.(\d{{4}}|\d\d),? (\d\d):(\d\d)(?::(\d\d)(?:[.,](\d{{1,9}}))?)?\]?"
)
# absl/glog: level letter, month, day, time, thread id, file:line].
_GLOG = re.compile(rf"[IWEF](\d\d)(\d\d) {_CLOCK}\s+\d+ [^\]\s]{{1,120}}\] ")
# sockeye's own record: its time, level, logger and function in one bracket, parted by colons (``[%(asctime)s:%(levelname)s:
# %(name)s:%(funcName)s] ``, datefmt ``%Y-%m-%d:%H:%M:%S``: ``[2019-03-17:14:36:36:INFO:sockeye.training:__call__] ``).
_COLON_DATED = re.compile(rf"\[(\d{{4}})-(\d\d)-(\d\d):{_CLOCK}:{_LEVEL}:[\w.<>-]{{1,120}}:[\w<>]{{1,120}}\] ")
# HF's explicit format: ``[INFO|trainer.py:2048] 2024-05-01 12:00:00,123 >> ``.
_HF_EXPLICIT = re.compile(rf"\[{_LEVEL}\|[^\]]{{1,120}}\] ")
_HF_ARROWS = re.compile(r"\s*>> ")
# What follows a time in a logging record, any number of times: a separator, the level, a
# bracketed field, ``name - `` (loguru's ``module:function:line - ``), journald's ``host proc[pid]: ``,
# a logger's name before its level (``%(name)s %(levelname)s:``, PyTorch-Ignite's ``ignite.distributed.launcher.Parallel INFO:``);
# the separator may be an em or en dash (``%(asctime)s — %(name)s — %(levelname)s — %(message)s``, a tutorial's format),
# two colons (``%(asctime)s :: %(levelname)s :: %(message)s``), or a bare dash joining two bracketed fields
# (``[%(asctime)s]-[%(filename)s line:%(lineno)d]:``, MUSIC-AVQA-R's logger); a logger's name parted from its level by a
# bar or two colons (``%(asctime)s | %(name)s | %(levelname)s | %(message)s``), only before the level: a bar after any
# other word may be a record's own (fairseq's ``valid | epoch 001 | …``).
_RECORD_FIELD = re.compile(
    # (the level closing the bracket its time opened, OpenNMT-py's ``[%(asctime)s %(levelname)s] ``: ``[2018-09-20
    # 19:26:58,682 INFO] ``, peeled whole so the record behind it reads as its own, ``Validation perplexity: 56.168``)
    rf"\s*(?:[-|\u2014\u2013]|::)\s+|-(?=\[)|\s+|\[{_LEVEL}\]\s*|{_LEVEL}\]\s+|{_LEVEL}\b:?\s*|\[[^\]]{{1,120}}\]:?\s*|[\w.<>-]{{1,120}} {_LEVEL}:\s*"
    rf"|[\w.<>-]{{1,120}}\s+(?:\||::)\s+(?={_LEVEL}\b)"
    rf"|[\w.<>-]{{1,120}}(?::[\w.<>-]{{1,120}}:\d{{1,7}})?\s+[-\u2014\u2013]\s+|[\w.-]{{1,64}} [\w./-]{{1,64}}\[\d{{1,9}}\]: "
    rf"|[\w.<>-]{{1,120}}\]:\s+"  # (the logger's name closing the bracket its time opened: detectron2's ``d2.engine.hooks]: ``)
    # (the MPI process closing the bracket its time opened: Marian's ``[2022-05-01 14:54:07 mpi:0] `` on several nodes)
    rf"|mpi:\d{{1,6}}\]\s+"
    # (the logger's name and level closing the bracket its time opened, parted by bars: ``[%(asctime)s|%(name)s|%(levelname)s]: ``,
    # DC/OS TensorFlow's second handler: ``[2018-04-17 12:48:42,927|tensorflow|INFO]: ``)
    rf"|\|[\w.<>-]{{1,120}}\|{_LEVEL}\]:?\s+"
    # the source file and line, maybe the process id (``%(filename)s:%(lineno)d[%(process)d]``: SiaStegNet's
    # ``train.py:254[27649] INFO ``); a file's name with its extension, so a record's own ``Epoch:5 `` is never one; maybe
    # behind the end of its folders (LeRobot prints its path's last 15 characters: ``ts/train.py:239``)
    rf"|(?:[\w.<>/-]{{0,120}}/)?[\w<>-]{{1,120}}\.(?:py|pyx|lua|cc|cpp|c|h|rs|go|jl):\d{{1,7}}(?:\[\d{{1,9}}\])?:?\s+"
    rf"|[\w.<>-]{{1,120}} >>> "  # the logger's name and ``>>>`` (steppy's ``%(asctime)s %(name)s >>> %(message)s``)
    # a colon glued to the time before the level (``%(asctime)s:%(levelname)s: %(message)s``, the Stanford CS230 project
    # template's logger and the scripts built on it: ``2018-03-09 20:46:10,078:INFO: Starting training for 30 epoch(s)``)
    rf"|:(?={_LEVEL}:\s)"
)
_GLUED_LEVEL = re.compile(rf":{_LEVEL}:\s")
# A bracketed field that holds a training position is the record's own (not a logger's name or a level); so is a
# bracket holding a count alone (a boosting round's ``[9]\ttest-error:0.027195`` after dmlc-core's ``[20:01:41] ``) or a
# counter's word and its count (``[Epoch 7] Batch 120/126 | loss=0.0608``, ``[Epoch 7/10] train_loss=…``). BasicSR pads its
# counts to their width (``[epoch:  3, iter:   2,000, lr:(…)]``: ``epoch:{:3d}``, ``iter:{:8,d}``).
_FIGURED_FIELD = re.compile(r"(?i)\b(?:epoch|iter|iteration|step)\s?[:=]\s{0,8}\d"
                            r"|^\s*\[\s*(?:(?:epoch|iter|iteration|step|batch)\s?)?\d{1,12}\s*(?:/\s*\d{1,12}\s*)?\]")
# Python logging's default format (``basicConfig``): ``INFO:__main__:``.
# NeMo's Lightning records: ``[INFO     | pytorch_lightning.utilities.rank_zero]: ``.
# sockeye's ``[%(levelname)s:%(name)s] %(message)s``: ``[INFO:sockeye.training] ``.
# Akka's logger (XGBoost4J-Spark's tracker): ``[INFO] [12/12/2017 17:27:40.819] [RabitTracker-akka.actor.default-dispatcher-9]
# [akka://RabitTracker/user/Handler] ``, its level in brackets before its time (peeled only there: ``[INFO] `` alone may
# lead a record's own brackets).
_LEVEL_NAME = re.compile(rf"{_LEVEL}:[\w.<>-]{{0,120}}:\s?|\[{_LEVEL} *\| *[\w.<>-]{{1,120}}\]:\s?|\[{_LEVEL}:[\w.<>-]{{1,120}}\] "
                         rf"|\[{_LEVEL}\] (?=\[\d\d/\d\d/\d{{4}} \d\d:\d\d:\d\d)"
                         # LeRobot's ``%(levelname)s %(asctime)s %(filename)s:%(lineno)s``: ``INFO 2026-06-12 18:27:57 ot_train.py:357 ``,
                         # its level before its time (peeled only there)
                         rf"|{_LEVEL} {{1,8}}(?=\d{{4}}-\d\d-\d\d[ T]\d\d:\d\d:\d\d)")
# torchrun's ``[rank0]:``/``[default0]:``, mpirun's ``[1,0]<stdout>:``, Lightning's ``[rank: 0] ``.
# A rank or worker named bare before a separator (``rank 1 | ``, ``worker 3: ``); DeepSpeed's and Megatron's
# ``[Rank 0] `` leading the line (``print_rank_0``'s, and ``log_dist``'s once its logging fields are off).
# MXNet's distributed examples log each worker's lines behind its rank in the kvstore (``Node[0] ``: their
# ``logging.basicConfig(format='%(asctime)-15s Node[' + str(kv.rank) + '] %(message)s')``), after the time.
# OLMo's ``setup_logging`` writes its fields tab-separated: the host and its local rank, the logger and its line, the
# level (``quick-rain-shines-fin-03:0\tolmo.train:979\tINFO\t``; a paste into a web page turns each tab into spaces).
_RANK = re.compile(
    r"\[(?:rank|default)(\d{1,6})\]:\s?|\[\d{1,6},(\d{1,6})\]<std(?:out|err)>:\s?|\[rank: (\d{1,6})\]:? "
    r"|(?i:rank|worker) ?(\d{1,6}) ?[|:] |\[(?i:rank) (\d{1,6})\]:? ?|Node\[(\d{1,6})\] "
    rf"|[\w.-]{{1,253}}:(\d{{1,6}})(?:\t| {{2,8}})[\w.<>-]{{1,120}}:\d{{1,6}}(?:\t| {{2,8}}){_LEVEL}(?:\t| {{1,8}})"
)
# A process named by the launcher that gathers its output: Ray's ``(pid=4242) ``, ``(RayTrainWorker
# pid=4242, ip=10.0.0.1) ``, SkyPilot's ``(task, pid=4242) `` and, on several nodes, ``(worker1,
# rank=1, pid=4242, ip=10.0.0.2) ``; ``kubectl logs --prefix``'s ``[pod/NAME/CONTAINER] ``. Only
# SkyPilot's names a rank; a pid is none.
_PROCESS = re.compile(
    r"\((?:[\w.-]{1,80}(?:\(\S{0,120}\))?(?:, ?| ))?(?:rank=(\d{1,6}), ?)?pid=\w{1,20}(?:, ?ip=[\w.:-]{1,64})?\) ?"
    r"|\[pod/[\w.-]{1,253}/[\w.-]{1,63}\] "
)
# srun's task label, or a host name with a digit in it (pdsh: ``worker-0: ``, ``node017: ``); never an
# exception's dotted name (``hivemind.p2p.p2p_daemon_bindings.utils.P2PDaemonError: ``).
# (CatBoost's iteration, ``13:     learn 0.2893642169passed: …`` once its tab was pasted as spaces, is no label; nor is a
# name with a digit before one number alone, a figure printed one a line: BehindTheScenes' depth metrics' ``a1: 0.2129``.)
_LABEL = re.compile(r"\s*(\d{1,5}): (?!\s*(?:learn|test\d*):?\s?[-+\d.n])|(?=[A-Za-z][\w.-]{0,62}\d)(?![\w.-]{0,63}(?:Error|Exception|Interrupt): )"
                    r"[A-Za-z][\w.-]{0,63}: (?!\s*-?\d[\d.]*(?:[eE][-+]?\d+)?\s*$)")
# Markdown left on a pasted line before its prefix (an issue's paste): an inline code span's or a fence's
# opening backticks, a quote's ``>`` (`` `2019-07-02 13:16:56,613 - INFO - …``); the line is read as printed.
# An issue's paste may also lead every line with a space alone (SiaStegNet's `` 2020-10-26 18:48:56.%f train.py:267…``) before a
# date and time, year first; never four (a Markdown code block's, a README's copy keeps its dates as text).
_PASTE_MARKS = re.compile(r"[ \t]*(?:`{1,3}|>[ \t]?)[ \t]*(?=\[|\d{4}[-/]\d\d[-/]\d\d[ T])"
                          r"| {1,3}(?=\d{4}[-/]\d\d[-/]\d\d[ T]\d\d:\d\d:\d\d)")
# A level letter alone before the message, glog's letter without its time (DeepSpeech's ``I Test of Epoch 3 - WER: …``,
# ``W Parameter …``), maybe indented as a Markdown code block; never a word (``I have``) nor pytest's ``E   ``.
_LEVEL_LETTER = re.compile(r"[ \t]{0,8}[DIWEF] (?=[A-Z0-9-])")
# A cheap test: can the line start with a prefix at all?
_MAYBE = re.compile(r"[ \t]{0,8}[DIWEF] [A-Z0-9-]|(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} |"
                    r"(?i:rank|worker) ?\d|\[|\(|\s*\d| {8,40}[A-Z]{4}|[A-Z][a-z]{2} [ \d]\d |[IWEF]\d{4} |[A-Z]{4,8}:|[A-Z]{4,8} {1,8}\d{4}-|[A-Za-z][\w.-]{0,62}: ")
_MAX_PEELS = 6
# How many lines, over a reader's life, may be looked through ahead for a year (PrefixReader.ahead).
_AHEAD_LINES = 2000
_SCOUT_CHARS = 1000  # how much of a line looked through ahead is read
_HALF_DAY_SECONDS = 12 * 3600


@dataclass(frozen=True, slots=True)
class Prefixed:
    """A line's message, the time its prefix printed (or None) and the launcher's rank (or None)."""

    message: str
    at: float | None
    rank: int | None


class PrefixReader:
    """Peel launcher and logging prefixes off lines; convert the times they print."""

    def __init__(
        self, to_epoch: LocalToEpoch = local_to_epoch, to_date: EpochToDate = local_date, *, dates: bool = True
    ) -> None:
        self._dates = dates  # False: peel only (the format sniffer), convert no time
        self._to_epoch = to_epoch
        self._times = LocalTimes(to_epoch)
        self._to_date = to_date
        # When the lines were written at the latest: a time printed without a year takes it from here.
        self.reference_time: float | None = None
        self._reference: tuple[float, tuple[int, int, int]] | None = None
        self._labelled = False  # the last line that began a record had a bare label
        self._printed_at: float | None = None  # the last time a prefix printed (rich's blank column repeats it)
        self._day_clock: float | None = None  # the last time a prefix printed, dated (the next time of day's day)
        self._year_clock: float | None = None  # the last time a prefix printed with its year (a yearless date's year)
        self._nearest: tuple[tuple[float, int, int], int] | None = None  # _nearest_year's last answer
        self._ahead: Sequence[str] | None = None  # the lines about to be read, not yet looked through (ahead)
        self._after: float | None = None  # the first time printed with a year among lines looked through ahead
        self._ahead_left = _AHEAD_LINES  # how many more lines may be looked through ahead

    def read(self, line: str, continuing: bool = False) -> Prefixed:
        """The message of a cleaned line, the prefix's time and rank (the line itself when none).

        ``continuing``: a record waits for the rest a wrap may have cut; then a bare label
        (``0: ``) is the record's own text (``iter 1`` + ``0: loss …``), unless the lines before
        carried labels too (srun's ``0: `` on every line).
        """
        pos = 0
        if line[:1] in "`> \t":
            marks = _PASTE_MARKS.match(line)
            if marks is not None:
                pos = marks.end()
        if not _MAYBE.match(line, pos):
            if not continuing:
                self._labelled = False
            return Prefixed(line, None, None)
        at: float | None = None
        rank: int | None = None
        labelled = False
        blank = _BLANK_TIME.match(line)
        if blank is not None:
            at, pos = self._printed_at, self._fields(line, blank.end())
        for _ in range(_MAX_PEELS):
            m = _RANK.match(line, pos)
            if m is not None:
                rank = int(next(group for group in m.groups() if group is not None))
                pos = m.end()
                continue
            m = _PROCESS.match(line, pos)
            if m is not None:
                rank = int(m.group(1)) if m.group(1) is not None else rank
                pos = m.end()
                continue
            stamped = self._stamp(line, pos)
            if stamped is not None:
                when, pos = stamped
                at = when if when is not None else at
                self._printed_at = at
                continue
            m = _LEVEL_NAME.match(line, pos)
            if m is not None:
                pos = m.end()
                continue
            if pos == 0:
                m = _LEVEL_LETTER.match(line)
                if m is not None:
                    pos = m.end()
                    continue
            m = None if continuing and not self._labelled else _LABEL.match(line, pos)
            if m is not None and m.end() < len(line):
                labelled = True
                if m.group(1) is not None:
                    rank = int(m.group(1))
                pos = m.end()
                continue
            break
        if labelled or not continuing:
            self._labelled = labelled
        if pos == 0:
            return Prefixed(line, None, None)
        return Prefixed(line[pos:], at, rank)

    def unprefixed(self) -> None:
        """A line read around :meth:`read` began a record and had no prefix (a parser's fast path
        for its usual line, which is all the trainer's own text): what :meth:`read` notes of one."""
        self._labelled = False

    def _stamp(self, line: str, pos: int) -> tuple[float | None, int] | None:
        """A time at ``pos`` and the logging fields after it: (its unix time or None, where the message starts)."""
        at: float | None
        # The year-first form most logs print, tried first: no other form matches where it does (each of them has a
        # letter, a colon, a dash or a dot where it has its year's digits, its date's separators or its clock's lead).
        m = _ISO.match(line, pos) or _ISO_DASHED.match(line, pos)
        if m is not None:
            return self._stamp_end(line, pos, m, self._iso_time(m), False)
        m = _HF_EXPLICIT.match(line, pos)
        if m is not None:
            iso = _ISO.match(line, m.end())
            arrows = _HF_ARROWS.match(line, iso.end()) if iso is not None else None
            if iso is None or arrows is None:
                return None
            return self._dated(self._iso_time(iso)), arrows.end()
        m = _GLOG.match(line, pos)
        if m is not None:
            month, day = int(m.group(1)), int(m.group(2))
            return self._dated(self._yearless(month, day, m, 3), yearless=True), m.end()
        m = _COLON_DATED.match(line, pos) if line.startswith("[", pos) else None
        if m is not None:
            return self._dated(self._local(int(m.group(1)), int(m.group(2)), int(m.group(3)), m, 4)), m.end()
        m = _DAY_MONTH.match(line, pos)
        if m is not None and m.group(2) in MONTHS and 1 <= int(m.group(1)) <= 31:
            return self._dated(self._day_month(m), yearless=m.group(3) is None), self._fields(line, m.end())
        m = _ALL_DASHED.match(line, pos)
        if m is not None:
            year, month, day, hour, minute = (int(g) for g in m.groups()[:5])
            second = int(m.group(6) or 0)
            if not _on_calendar(month, day, hour, minute, second):
                return None
            at = self._times.epoch(year, month, day, hour, minute, second) if self._dates else None
            return self._dated(at), self._fields(line, m.end())
        yearless = False
        m = _NAMED_DATE.match(line, pos)
        if m is not None:
            named = self._named_date(m)
            if named is None:
                return None
            at = named[0] if self._dates else None
            m = named[1]
        else:
            m = _US.match(line, pos)
            if m is not None:
                month, day = int(m.group(1)), int(m.group(2))
                if month > 12:  # day first after all
                    month, day = day, month
                year = int(m.group(3))
                at = self._local(year + 2000 if year < 100 else year, month, day, m, 4)
            elif (m := _YMD.match(line, pos)) is not None:
                year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
                if not (1 <= month <= 12 and 1 <= day <= 31):
                    return None
                at = self._local(year + 2000, month, day, m, 4)
            else:
                m = _MONTH_DAY.match(line, pos)
                yearless = True
                if m is not None and m.group(1) in MONTHS:
                    at = self._yearless(MONTHS[m.group(1)], int(m.group(2)), m, 3)
                else:
                    m = _MD.match(line, pos)
                    if m is None:
                        return self._time_of_day_stamp(line, pos)
                    first = 1 if m.group(1) is not None else 8  # (the dashed form's groups, or the bracketed slash one's)
                    month, day = int(m.group(first)), int(m.group(first + 2))
                    if month > 12:  # day first after all
                        month, day = day, month
                    if not (1 <= month <= 12 and 1 <= day <= 31):
                        return None
                    at = self._yearless(month, day, m, first + 3)
        return self._stamp_end(line, pos, m, at, yearless)

    def _stamp_end(self, line: str, pos: int, m: re.Match[str], at: float | None,
                   yearless: bool) -> tuple[float | None, int] | None:
        """The time a stamp ``m`` read at ``pos`` gives and where the message after it starts; None where the stamp is
        inside a word."""
        end = m.end()
        # A time with its zone is a capture tool's stamp, whole in itself: a container UI may glue the
        # line right after it (``2023-09-16 10:15:31.031074+00:00Sep 16 10:15:31.030 [INFO] …``).
        zoned = m.re in (_ISO, _ISO_DASHED) and m.group(8) is not None
        if pos > 0 and m.re is _ISO and line.startswith(": ", end) and m.group(0)[-1].isdigit():
            # The message's own time closed by a colon, as TensorFlow 1's retrain script prints a record
            # (``tf.logging.info('%s: Step %d: …' % (datetime.now(), …))``) inside its logger's prefix (only there:
            # TensorFlow's C++ logger leads its lines with ``2020-09-07 12:33:26.224454: I tensorflow/…``, read as before).
            return self._dated(at), self._fields(line, end + 2)
        if m.re is _NAMED_DATE and line.startswith(": ", end):
            end += 1  # (``print(time.ctime() + ": " + …)``: the colon closes the time)
        if end < len(line) and not (zoned or line[end].isspace() or line[end] in "[]|-" or _GLUED_LEVEL.match(line, end)):
            return None  # a date inside a word, not a record's time
        return self._dated(at, yearless=yearless), self._fields(line, end)

    def _named_date(self, m: re.Match[str]) -> tuple[float | None, re.Match[str]] | None:
        """The time of a :data:`_NAMED_DATE` and its match; None where its date or clock is no calendar's (a figure)."""
        g = m.groups()
        if g[0] is not None:  # ctime: month, day, clock, year
            ctime = ctime_date(g[:7])
            if ctime is None:
                return None
            if not self._dates:
                return None, m
            year, month, day, hour, minute, second, fraction = ctime
            return self._times.epoch(year, month, day, hour, minute, second + _fraction(fraction)), m
        if g[7] is not None:  # day, month's name, year
            month, day, year, clock = MONTHS.get(g[8], 0), int(g[7]), int(g[9]), g[10:14]
        elif g[14] is not None:  # year, month's name, day
            month, day, year, clock = MONTHS.get(g[15], 0), int(g[16]), int(g[14]), g[17:21]
        else:  # dotted, day first
            month, day, year, clock = int(g[22]), int(g[21]), int(g[23]), (g[24], g[25], g[26] or "00", g[27])
        hour, minute, second = int(clock[0]), int(clock[1]), int(clock[2])
        if not _on_calendar(month, day, hour, minute, second):
            return None
        if not self._dates:
            return None, m
        year += 2000 if year < 100 else 0
        return self._times.epoch(year, month, day, hour, minute, second + _fraction(clock[3])), m

    def _dated(self, at: float | None, *, yearless: bool = False) -> float | None:
        """A time a prefix printed with its date: the day the next time of day printed without one is on (one log may
        print both, as XGBoost4J's tracker's Akka records ``[INFO] [07/22/2019 16:37:26.989]`` between the booster's
        ``[16:37:26]``): never the day the file was written, years after the dated records beside it. One printed with
        its year (not ``yearless``) is also where the next date printed without one takes its year (:meth:`_year_of`)."""
        if at is not None:
            self._day_clock = at
            if not yearless:
                self._year_clock = at
        return at

    @staticmethod
    def _fields(line: str, end: int) -> int:
        """Where the message starts after a record's time: past its logging fields."""
        for _ in range(_MAX_PEELS):
            field = _RECORD_FIELD.match(line, end)
            if field is None or field.end() == end:
                break
            if line[field.start() : field.start() + 2].lstrip()[:1] == "[" and _FIGURED_FIELD.search(field.group()):
                break  # (BasicSR's ``[epoch:207, iter:  20,100, lr:(1.000e-04,)]``: the record itself, no field)
            end = field.end()
        return end

    def _time_of_day_stamp(self, line: str, pos: int) -> tuple[float | None, int] | None:
        """A time of day with no date leading the record, and where its message starts; None for none."""
        m = _TIME_OF_DAY.match(line, pos) if pos == 0 or line[pos - 1] == " " else None
        if m is None:
            return None
        clock = m.groups()[:4] if m.group(1) is not None else m.groups()[4:]
        hour, minute, second = int(clock[0]), int(clock[1]), int(clock[2])
        if hour > 23 or minute > 59 or second > 59:
            return None  # (a duration past a day, ``25:10:03``: no time of day)
        return self.ordered_time_of_day(hour, minute, second + _fraction(clock[3])), self._fields(line, m.end())

    def ordered_time_of_day(self, hour: int, minute: int, second: float) -> float | None:
        """A time of day printed with no date, dated by the lines' order: the first as :meth:`time_of_day` places a
        lone one; each next on the day of the time read before it (dated or not), the next day when it is more than
        half a day earlier (a run past midnight). One that would then be later than the lines can have been written
        (an hour's slack) breaks the order: no wall clock of this log (an elapsed clock), so it dates nothing."""
        if not self._dates:
            return None
        last = self._day_clock
        if last is None:
            at = self.time_of_day(hour, minute, second)
        else:
            year, month, date = self._to_date(last)
            at = self._times.epoch(year, month, date, hour, minute, second)
            if at is not None and at < last - _HALF_DAY_SECONDS:
                year, month, date = self._to_date(at + 86400)
                at = self._times.epoch(year, month, date, hour, minute, second)
            reference = self.reference_time
            if at is None or reference is None or at > reference + 3600:
                return None
        if at is not None:
            self._day_clock = at
        return at

    def time_of_day(self, hour: int, minute: int, second: float) -> float | None:
        """A time of day printed with no date, placed on the day the lines were written: the
        reference time's, or the day before when that would be later than the reference (an
        hour's slack for clocks). None without a reference time."""
        t = self.reference_time
        if t is None or not self._dates:
            return None
        for day in (t, t - 86400):
            year, month, date = self._to_date(day)
            at = self._times.epoch(year, month, date, hour, minute, second)
            if at is None or at <= t + 3600:
                return at
        return None

    def _iso_time(self, m: re.Match[str]) -> float | None:
        if not self._dates:
            return None
        zone = m.group(8)
        if zone is None:
            return self._local(int(m.group(1)), int(m.group(2)), int(m.group(3)), m, 4)
        year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
        hour, minute, second = int(m.group(4)), int(m.group(5)), int(m.group(6))
        if not _on_calendar(month, day, hour, minute, second):
            return None
        zone = zone.lstrip()
        offset = 0
        if zone[0] in "+-":
            digits = zone[1:].replace(":", "")
            offset = (int(digits[:2]) * 60 + int(digits[2:])) * 60 * (1 if zone[0] == "+" else -1)
        try:
            utc = calendar.timegm((year, month, day, hour, minute, second, 0, 0, 0))
        except (OverflowError, ValueError):
            return None
        return utc - offset + _fraction(m.group(7))

    def _local(self, year: int, month: int, day: int, m: re.Match[str], first: int) -> float | None:
        if not self._dates:
            return None
        hour, minute, second = (int(m.group(first + i)) for i in range(3))
        return self._times.epoch(year, month, day, hour, minute, second + _fraction(m.group(first + 3)))

    def _day_month(self, m: re.Match[str]) -> float | None:
        """The time of a date written day first (:data:`_DAY_MONTH`); a year it does not print is the reference's."""
        if not self._dates:
            return None
        day, month = int(m.group(1)), MONTHS[m.group(2)]
        year = int(m.group(3)) if m.group(3) is not None else self._year_of(month, day)
        if year is None:
            return None
        return self._times.epoch(year, month, day, int(m.group(4)), int(m.group(5)), int(m.group(6) or 0))

    def _yearless(self, month: int, day: int, m: re.Match[str], first: int) -> float | None:
        year = self._year_of(month, day)
        return None if year is None else self._local(year, month, day, m, first)

    def _year_of(self, month: int, day: int) -> int | None:
        """The year of a date printed without one (glog's ``W0412 17:05:20.134594``, syslog's ``Dec 07 22:59:59``, ``04-12
        17:05:20``), from the log's own dated lines around it: a trainer's logger prints years (``2022-04-12 17:05:16,552
        - INFO - ``) where the framework's C++ beneath it prints glog's month and day (Paddle's device lines, TensorFlow's
        and absl's), and the file may be read years after it was written.

        The year of the nearest line before it printed with one, or before any such line of the first one among the lines
        read with it (:meth:`ahead`): of that year, the one before and the one after, the one that puts the date nearest
        that line's (a new year between them either way; glog's ``I0430 23:59:59`` flushed just after a logger's
        ``2022-05-01 00:00:05`` is the day before it, not eleven months ahead). A log with no line printed with a year:
        the reference time's year, or the year before for a date later than the reference's (None: no reference).
        """
        anchor = self._year_clock
        if anchor is None:
            anchor = self._dated_after()
        if anchor is not None:
            return self._nearest_year(anchor, month, day)
        t = self.reference_time
        if t is None:
            return None
        if self._reference is None or self._reference[0] != t:
            self._reference = (t, self._to_date(t))
        return year_of(month, day, self._reference[1])

    def _nearest_year(self, anchor: float, month: int, day: int) -> int:
        """Of the anchor's year and the years either side, the one whose month and day fall nearest the anchor's date
        (the last asked kept: every line of a stretch asks the same)."""
        key = (anchor, month, day)
        if self._nearest is not None and self._nearest[0] == key:
            return self._nearest[1]
        year, anchor_month, anchor_day = self._to_date(anchor)
        anchor_ordinal = date(year, anchor_month, anchor_day).toordinal()
        best, gap = year, None
        for candidate in (year, year - 1, year + 1):
            try:
                distance = abs(date(candidate, month, day).toordinal() - anchor_ordinal)
            except ValueError:  # (29 February of a year without one; a day the month lacks)
                continue
            if gap is None or distance < gap:
                best, gap = candidate, distance
        self._nearest = (key, best)
        return best

    def ahead(self, lines: Sequence[str]) -> None:
        """The lines about to be read: a date printed without a year before any printed with one takes its year from
        the first of these that prints one (:meth:`_year_of`). Looked through only when such a date is read, and only
        while no line printed with a year has been: at most :data:`_AHEAD_LINES` lines over the reader's life, as the
        framework's lines that print no year come at a log's start, a trainer's dated ones right after."""
        keep = self._dates and self._year_clock is None and self._ahead_left > 0
        self._ahead = lines[: self._ahead_left] if keep else None  # (not the whole batch: only what may be looked at)

    def _dated_after(self) -> float | None:
        """The time of the first line of :meth:`ahead`'s that prints a year (None: none within reach)."""
        lines, self._ahead = self._ahead, None
        if lines is None:
            return self._after
        scout = PrefixReader(self._to_epoch, self._to_date)
        for line in islice(lines, self._ahead_left):
            self._ahead_left -= 1
            scout.read(clean(line[:_SCOUT_CHARS]))  # (a prefix is at the line's start: a redrawn bar's tail is no use)
            if scout._year_clock is not None:
                self._after = scout._year_clock
                break
        return self._after


def ctime_date(groups: Sequence[str | None]) -> tuple[int, int, int, int, int, int, str | None] | None:
    """The year, month, day, hour, minute, second and the second's fraction (its digits) of a :data:`CTIME`'s groups;
    None where they are no calendar's (a month's own length is the caller's to check)."""
    month_name, day, hour, minute, second, fraction, year = groups
    month = MONTHS.get(month_name or "", 0)
    stamp = int(year or 0), month, int(day or 0), int(hour or 0), int(minute or 0), int(second or 0)
    if not _on_calendar(*stamp[1:]):
        return None
    return (*stamp, fraction)


def _on_calendar(month: int, day: int, hour: int, minute: int, second: int) -> bool:
    """Whether a printed date and clock can be one (a month's own length is :class:`LocalTimes`' to check)."""
    return 1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60 and second < 60


def _fraction(digits: str | None) -> float:
    return float("0." + digits) if digits else 0.0


def newest_time(lines: list[str]) -> float | None:
    """The newest time the lines' prefixes print: a log no format reads is still dated by its lines' own times."""
    reader = PrefixReader()
    reader.ahead(lines)
    newest: float | None = None
    for line in lines:
        at = reader.read(clean(line)).at
        if at is not None and (newest is None or at > newest):
            newest = at
    return newest


def dated(events: list[Event], at: float | None) -> list[Event]:
    """The events with ``at`` for those that carry no time of their own."""
    if at is None:
        return events
    return [replace(event, at=at) if event.at is None else event for event in events]


class LineTimes:
    """Which time and rank the record being read has: its line's prefix, or for a continuation of a
    wrapped record, the prefix of the line it began on; and which rank's lines are followed.

    Under a launcher every rank may print the same steps; one rank is followed (rank 0 as soon as
    it shows up), so another rank's older step never reads as the run going back.
    """

    def __init__(self, reader: PrefixReader | None = None, *, follow: bool = True) -> None:
        self.reader = reader or PrefixReader()
        self.at: float | None = None  # the time of the record being read
        self.latest: float | None = None  # the latest time any prefix printed in this batch
        self.rank: int | None = None  # the rank of the line just read (None: no launcher's prefix)
        self._rank: int | None = None
        # False: every rank's line is given back, and the caller, who can read its step, decides.
        self._follow = follow

    def message(self, line: str, continuing: bool) -> str | None:
        """The message of a cleaned line, noting its time; None for another rank's line."""
        pre = self.reader.read(line, continuing)
        self.rank = pre.rank
        if pre.rank is not None and self._follow:
            if self._rank is None or (pre.rank == 0 and self._rank != 0):
                self._rank = pre.rank
            elif pre.rank != self._rank:
                return None
        if pre.at is not None:
            self.at = pre.at
            if self.latest is None or pre.at > self.latest:
                self.latest = pre.at
        elif not continuing or pre.message is not line:  # a prefixed line begins a record
            self.at = None
        return pre.message


    def unprefixed(self) -> None:
        """A line that began a record without a prefix was read around :meth:`message` (a parser's
        fast path): no time, no rank, as :meth:`message` would have noted."""
        self.reader.unprefixed()
        self.at = self.rank = None
