"""Launcher and logging prefixes: peeled off, their times read, the step lines behind them read
as if bare, and the format still detected right.

The prefixes are the ones these tools write (their default formats); the lines behind them are
real trainers' lines from tests/data/real/.
"""

from __future__ import annotations

import calendar
import time
from collections.abc import Callable
from dataclasses import replace

import pytest

from app.ingest.formats import create_parser, detect
from app.ingest.formats.prefix import PrefixReader
from app.stats.events import Event, Tick
from tests.reallogs import body


def local(year: int, month: int, day: int, hour: int, minute: int, second: float) -> float:
    return time.mktime((year, month, day, hour, minute, int(second), 0, 0, -1)) + second % 1


MAY_1 = local(2024, 5, 1, 12, 0, 0)
UTC_MAY_1 = calendar.timegm((2024, 5, 1, 12, 0, 0, 0, 0, 0))

# prefix, the time it says (None: none), the rank it names (None: none)
PREFIXES: list[tuple[str, float | None, int | None]] = [
    ("2024-05-01 12:00:00,123 - INFO - ", MAY_1 + 0.123, None),  # logging: asctime - levelname - message
    ("2024-05-01 12:00:00,123 - __main__ - INFO - ", MAY_1 + 0.123, None),  # logging's cookbook format
    ("05/01/2024 12:00:00 - INFO - __main__ - ", MAY_1, None),  # HF example scripts
    ("INFO:__main__:", None, None),  # logging.basicConfig()
    ("WARNING:root:", None, None),
    ("[INFO     | pytorch_lightning.utilities.rank_zero]: ", None, None),  # NeMo's Lightning records (NeMo issue 13140)
    ("[INFO|trainer.py:2048] 2024-05-01 12:00:00,123 >> ", MAY_1 + 0.123, None),  # transformers explicit format
    ("2024-05-01 12:00:00.123 | INFO     | __main__:main:42 - ", MAY_1 + 0.123, None),  # loguru
    ("[2024-05-01 12:00:00,123][__main__][INFO] - ", MAY_1 + 0.123, None),  # hydra
    # logging's "%(asctime)s %(name)s %(levelname)s: " (PyTorch-Ignite's setup_logger; its tutorials'
    # ignite.distributed.launcher.Parallel and CIFAR10-Training loggers, BehindTheScenes' kitti_360)
    ("2024-05-01 12:00:00,123 ignite.distributed.launcher.Parallel INFO: ", MAY_1 + 0.123, None),
    ("2024-05-01 12:00:00,123 kitti_360 WARNING: ", MAY_1 + 0.123, None),
    ("[2024-05-01 12:00:00,123] [INFO] [logging.py:96:log_dist] [Rank 0] ", MAY_1 + 0.123, None),  # deepspeed
    ("2024-05-01T12:00:00.123456789Z ", UTC_MAY_1 + 0.123456789, None),  # docker logs -t, kubectl --timestamps
    ("2024-05-01T14:00:00.5+02:00 ", UTC_MAY_1 + 0.5, None),
    # a container UI's export glues the line to its stamp (petals issue 511, TrueNAS:
    # ``2023-09-16 10:15:31.031074+00:00Sep 16 10:15:31.030 [INFO] Running Petals 2.2.0``)
    ("2024-05-01 12:00:00.031074+00:00", UTC_MAY_1 + 0.031074, None),
    ("[2024-05-01 12:00:00] ", MAY_1, None),  # ts '[%Y-%m-%d %H:%M:%S]'
    ("May 01 12:00:00 ", MAY_1, None),  # ts, no year: the reference's
    ("[05-01 12:00:00][demucs.solver][INFO] - ", MAY_1, None),  # logging's datefmt "%m-%d %H:%M:%S" (demucs), no year
    ("[05/01 12:00:00 d2.engine.hooks]: ", MAY_1, None),  # detectron2's "[%(asctime)s %(name)s]: ", "%m/%d %H:%M:%S"
    ("[2024-05-01 12:00:00,123 INFO] ", MAY_1 + 0.123, None),  # OpenNMT-py's "[%(asctime)s %(levelname)s] "
    ("[2024-05-01 12:00:00,123 WARNING] ", MAY_1 + 0.123, None),
    ("I0501 12:00:00.250000 140213 train.py:88] ", MAY_1 + 0.25, None),  # absl / glog
    ("[rank0]:", None, 0),  # torchrun --tee / --local-ranks-filter (2.x)
    ("[default0]:", None, 0),  # torchrun (1.x)
    ("[Rank 2] ", None, 2),  # DeepSpeed's / Megatron's print_rank_0 leading the line
    ("[rank 1]: ", None, 1),
    ("[1,0]<stdout>:", None, 0),  # mpirun --tag-output
    ("0: ", None, 0),  # srun --label
    (" 3: ", None, 3),
    ("worker-0: ", None, None),  # pdsh (deepspeed's multi-node launcher)
    ("(pid=4242) ", None, None),  # Ray (1.x)
    ("(RayTrainWorker pid=4242, ip=10.0.0.1) ", None, None),  # Ray Train's workers
    ("(en-hi-spot, pid=18593) ", None, None),  # SkyPilot: the task's name
    ("(worker1, rank=1, pid=4242, ip=10.0.0.2) ", None, 1),  # SkyPilot on several nodes
    ("(MapWorker(MapBatches(tokenize)) pid=4242, ip=10.0.0.1) ", None, None),  # Ray Data's workers
    ("[pod/llama-ft-worker-0/pytorch] ", None, None),  # kubectl logs --prefix
    ("[rank: 1] ", None, 1),  # Lightning's rank_prefixed_message
    ("0: [rank0]:2024-05-01 12:00:00,123 - INFO - ", MAY_1 + 0.123, 0),  # stacked
    ("\x1b[32m2024-05-01 12:00:00,123\x1b[0m - \x1b[1;34mINFO\x1b[0m - ", MAY_1 + 0.123, None),  # coloured
    # Markdown an issue's paste leaves before the prefix: an inline code span opened on the first line
    # (spider-schema-gnn issues 4 and 5: `` `2019-07-02 13:16:56,613 - INFO - allennlp.training.trainer - …``), a
    # fence's backticks glued to it, a quote's ``>``
    (" `2024-05-01 12:00:00,123 - INFO - allennlp.training.trainer - ", MAY_1 + 0.123, None),
    ("```2024-05-01 12:00:00,123 - INFO - ", MAY_1 + 0.123, None),
    ("> [2024-05-01 12:00:00,123][__main__][INFO] - ", MAY_1 + 0.123, None),
    # the seconds' fraction printed as its strftime directive unexpanded (logging formats asctime with time.strftime, which
    # has no %f: SiaStegNet's ``datefmt='%Y-%m-%d %H:%M:%S.%f'``, tests/data/real/generic-siastegnet-…): whole seconds;
    # its ``%(filename)s:%(lineno)d[%(process)d] %(levelname)s `` fields; the paste leads each line with a space
    (" 2024-05-01 12:00:00.%f train.py:254[27649] INFO ", MAY_1, None),
    ("2024-05-01 12:00:00,%f - INFO - ", MAY_1, None),
    ("[2024-05-01 12:00:00.%L][__main__][INFO] - ", MAY_1, None),  # Ruby's directive in a Python format
    ("2024-05-01 12:00:00.%3N train.py:88 INFO ", MAY_1, None),
    ("05/01/2024 12:00:00.%f - INFO - __main__ - ", MAY_1, None),
    # a time written with dashes, as a stamp safe in a file's name (``%Y-%m-%d %H-%M-%S``), behind steppy's
    # ``%(asctime)s %(name)s >>> %(message)s`` (open-solution-mapping-challenge issue 203: ``2019-03-22 14-23-11 steps >>> …``)
    ("2024-05-01 12-00-00 steps >>> ", MAY_1, None),
    ("2024-05-01_12-00-00 - INFO - ", MAY_1, None),
    ("[2024-05-01 12-00-00,500] ", MAY_1 + 0.5, None),
    # the message's own time closed by a colon (TensorFlow 1's retrain script, ``'%s: Step %d: …' % datetime.now()``), behind
    # its logger's prefix, glog's, or a second handler's ``[%(asctime)s|%(name)s|%(levelname)s]: `` (its own time is the later)
    ("INFO:tensorflow:2024-05-01 12:00:00.250000: ", MAY_1 + 0.25, None),
    ("I0501 12:00:00.250100 47836397217664 tf_logging.py:115] 2024-05-01 12:00:00.250000: ", MAY_1 + 0.25, None),
    ("[2024-05-01 12:00:00,250|tensorflow|INFO]: 2024-05-01 12:00:00.250000: ", MAY_1 + 0.25, None),
    ("[2024-05-01 12:00:00,123|tensorflow|INFO]: ", MAY_1 + 0.123, None),
    # sockeye's two formats (awslabs/sockeye issues 706 and 664): ``[%(levelname)s:%(name)s] ``, and its verbose one with the
    # time, level, logger and function in one bracket parted by colons (datefmt ``%Y-%m-%d:%H:%M:%S``)
    ("[INFO:sockeye.training] ", None, None),
    ("[2024-05-01:12:00:00:INFO:sockeye.training:__call__] ", MAY_1, None),
    # RecBole's logger, a date day first with its month's name (RUCAIBox/RecBole issue 1533, datefmt ``%d %b %H:%M``: whole
    # minutes, no year; ChangxinTian/RGCF issue 2, the older ``%a %d %b %Y %H:%M:%S``), two spaces and the level after it
    ("01 May 12:00    INFO  ", MAY_1, None),
    ("1 May 12:00    WARNING  ", MAY_1, None),
    ("Wed 01 May 2024 12:00:00 INFO  ", MAY_1, None),
    # Akka's logger (XGBoost4J-Spark's tracker, dmlc/xgboost issue 2945): its level in brackets, then its time, thread and
    # actor
    ("[INFO] [05/01/2024 12:00:00.123] [RabitTracker-akka.actor.default-dispatcher-9] [akka://RabitTracker/user/Handler] ",
     MAY_1 + 0.123, None),
    # MXNet's distributed examples: each worker's lines behind its rank in the kvstore, after the time (apache/mxnet
    # example/kaggle-ndsb1/README.md: ``2016-01-16 22:03:48,269 Node[0] Epoch[49] Train-accuracy=0.664038``)
    ("2024-05-01 12:00:00,123 Node[0] ", MAY_1 + 0.123, 0),
    ("2024-05-01 12:00:00,123 Node[3] ", MAY_1 + 0.123, 3),
    # OLMo's logging fields, tab-separated: the host and its local rank, the logger and its line, the level; an issue's
    # paste turns each tab into spaces (allenai/OLMo issue 692: ``intern-studio-160750:0  olmo.train:908  INFO    ``)
    ("2024-05-01 12:00:00.123\tquick-rain-shines-fin-03:0\tolmo.train:979\tINFO\t", MAY_1 + 0.123, 0),
    ("2024-05-01 12:00:00.123 intern-studio-160750:1  olmo.train:908  INFO    ", MAY_1 + 0.123, 1),
]


def reader() -> PrefixReader:
    r = PrefixReader()
    r.reference_time = local(2024, 6, 1, 0, 0, 0)
    return r


@pytest.mark.parametrize(("prefix", "at", "rank"), PREFIXES, ids=[p[0].strip() or "space" for p in PREFIXES])
def test_a_prefix_is_peeled_and_its_time_read(prefix: str, at: float | None, rank: int | None) -> None:
    from app.ingest.formats.fields import clean

    message = "iter 100: loss 2.3000, time 120.50ms, mfu 30.00%"
    got = reader().read(clean(prefix + message))
    assert got.message == message
    assert got.rank == rank
    assert got.at == (pytest.approx(at) if at is not None else None)


@pytest.mark.parametrize(
    "line",
    [
        "iter 100: loss 2.3000, time 120.50ms, mfu 30.00%",
        "step:10/100 train_loss:3.2 train_time:1000ms step_avg:100.00ms",
        "step 00383/29000 (1.32%) | loss: 3.369286 | lrm: 1.00 | dt: 4052.93ms",
        "step: 10  loss:  7.1234  memory: 9.99GiB(10.52%)  tps: 5,856  tflops: 339.16  mfu: 34.29%",
        "loss: 2.3 at step 5",
        "h: 1 pq: 0 rg: 279 | total time: 25.43m | eta: 1951.2m",  # a wrapped line's tail
        "  6%|▋         | 50/750 [00:32<07:28,  1.56it/s]",
        "s:100 trl:3.2217",
        "2024 was a good year",
        "val_bpb:enabled tokenizer_kind=sentencepiece",
        "(step 5) loss 2.3",
        "(pid 4242) loss 2.3",
        "`loss` 2.3 at 2024-05-01 12:00:00",  # a code span that is the text, no prefix after it
        "> 3 steps left",
        "13-45 12:00:00 is no date",
        "Epoch:5 loss 2.3",  # a record's own ``name:number`` is no source file's line
        "2024-05-01_12-00-00.log saved",  # a file named by its stamp
        "2024-05-01 12:00:00%done",
        "    2024-05-01 12:00:00,123 - INFO - a README's code block keeps its copy's dates as text",
        "12 May 12:00 loss 2.3",  # a day and a month's name with no level after: no logger's date
        "32 May 12:00    INFO  no such day",
        # CatBoost's iteration, its tab pasted as spaces: no srun label (catboost issue 274's and optuna issue 4295's pastes)
        "13:     learn 0.2893642169passed: 17.7 sec      total: 6m 57s   remaining: 27m 49s",
        "1492:     learn: 0.0069318        total: 10m 38s  remaining: 0us",
        "0: test: 0.6570642 best: 0.6570642 (0) total: 70.1ms remaining: 1m 10s",
        "[INFO] [5/100] loss 2.3",  # a bracketed level before no date: the record's own brackets after it
        # a figure named with a digit, one a line (BehindTheScenes' depth metrics' threshold accuracies): no host's label
        "a1: 0.21296200156211853",
        "a3: 0.970153178088367",
    ],
)
def test_a_line_without_a_prefix_is_left_alone(line: str) -> None:
    got = reader().read(line)
    assert (got.message, got.at, got.rank) == (line, None, None)


def test_a_time_without_a_year_takes_the_reference_year_or_none() -> None:
    r = PrefixReader()
    assert r.read("May 01 12:00:00 iter 1: loss 2.0, time 1.00ms, mfu 1.00%").at is None
    r.reference_time = local(2025, 1, 2, 0, 0, 0)  # a December line in a January file: last year
    assert r.read("Dec 31 23:59:59 iter 1: loss 2.0, time 1.00ms, mfu 1.00%").at == local(2024, 12, 31, 23, 59, 59)


# format, a real log of it
LOGS = [
    ("nanogpt", "nanogpt-issue466-every-10.log"),
    ("nanogpt", "nanogpt-issue178-shakespeare.log"),
    ("llmc", "llmc-anthonix-issue2-nan.log"),
    ("llmc", "llmc-main-log-no-timing.log"),
    ("modded-nanogpt", "parameter-golf-8xh100-fullrun.log"),
    ("nanochat", "nanochat-pr147-a100.log"),
    ("hf-trainer", "hf-trl-issue733-dicts-only.log"),
    ("hf-trainer", "hf-zeehu-t5-bars-at-saves.log"),
    ("torchtitan", "torchtitan-pr2389-ranks-unprefixed.log"),
]


def undated(events: list[Event]) -> list[str]:
    """The events without their times, as text (nan is never equal to itself)."""
    return [repr(replace(e, at=None)) for e in events if not isinstance(e, Tick)]


def prefixed(lines: list[str], make: Callable[[int], str]) -> list[str]:
    return [make(i) + line for i, line in enumerate(lines)]


def logging_prefix(i: int) -> str:
    return f"2024-05-01 12:{i // 60 % 60:02d}:{i % 60:02d},{i % 1000:03d} - INFO - "


MAKERS: dict[str, Callable[[int], str]] = {
    "logging": logging_prefix,
    "hf-examples": lambda i: f"05/01/2024 12:{i // 60 % 60:02d}:{i % 60:02d} - INFO - __main__ - ",
    "basicConfig": lambda i: "INFO:__main__:",
    "rank0": lambda i: "[rank0]:",
    "default0": lambda i: "[default0]:",
    "mpirun": lambda i: "[1,0]<stdout>:",
    "srun": lambda i: "0: ",
    "ray": lambda i: "(RayTrainWorker pid=4242, ip=10.0.0.1) ",
    "skypilot": lambda i: "(en-hi-spot, pid=18593) ",
    "kubectl-prefix": lambda i: "[pod/llama-ft-master-0/pytorch] ",
    "loguru": lambda i: f"2024-05-01 12:00:{i % 60:02d}.123 | INFO     | __main__:main:42 - ",
    "name-level": lambda i: f"2024-05-01 12:00:{i % 60:02d},123 CIFAR10-Training INFO: ",
    "kubectl": lambda i: f"2024-05-01T12:00:{i % 60:02d}.123456789Z ",
    "absl": lambda i: f"I0501 12:00:{i % 60:02d}.123456 1402 train.py:88] ",
    "stacked-coloured": lambda i: f"0: [rank0]:\x1b[32m2024-05-01 12:00:{i % 60:02d},000\x1b[0m - \x1b[1mINFO\x1b[0m - ",
    "mxnet-node": lambda i: f"2024-05-01 12:{i // 60 % 60:02d}:{i % 60:02d},123 Node[0] ",
    "olmo-fields": lambda i: f"2024-05-01 12:{i // 60 % 60:02d}:{i % 60:02d}.123\tquick-rain-shines-fin-03:0\tolmo.train:979\tINFO\t",
}


@pytest.mark.parametrize("maker", sorted(MAKERS))
@pytest.mark.parametrize(("format_name", "name"), LOGS, ids=[n for _, n in LOGS])
def test_a_prefixed_log_reads_as_the_bare_one(format_name: str, name: str, maker: str) -> None:
    bare = body(name)
    lines = prefixed(bare, MAKERS[maker])
    assert detect(lines) == format_name
    plain_parser, parser = create_parser(format_name), create_parser(format_name)
    parser.reference_time = plain_parser.reference_time = local(2024, 6, 1, 0, 0, 0)
    expected = plain_parser.feed(bare)
    got = parser.feed(lines)
    assert undated(got) == undated(expected)
    assert parser.bad_lines == plain_parser.bad_lines


def test_a_prefix_with_a_time_dates_every_event_of_its_line() -> None:
    lines = prefixed(body("nanogpt-issue466-every-10.log"), logging_prefix)
    parser = create_parser("nanogpt")
    events = parser.feed(lines)
    steps = [e for e in events if type(e).__name__ == "TrainStep"]
    assert steps and all(e.at is not None for e in steps)
    # each step line was the n-th line of the log: its prefix says 12:00:n.(n ms)
    for event in steps:
        n = next(i for i, line in enumerate(lines) if f"iter {event.step}: " in line)  # type: ignore[attr-defined]
        assert event.at == pytest.approx(MAY_1 + n + n / 1000)
    assert isinstance(events[-1], Tick) and events[-1].at == max(e.at for e in steps if e.at is not None)


def test_only_one_rank_is_followed_rank_zero_first() -> None:
    """Every rank printing its own copy: another rank's older step must not read as a restart."""
    lines = [
        "[rank1]:iter 0: loss 10.9, time 900.00ms, mfu -100.00%",
        "[rank0]:iter 0: loss 10.9, time 900.00ms, mfu -100.00%",
        "[rank0]:iter 10: loss 9.9, time 100.00ms, mfu 30.00%",
        "[rank1]:iter 10: loss 9.8, time 100.00ms, mfu 30.00%",
        "[rank0]:iter 20: loss 8.9, time 100.00ms, mfu 30.00%",
        "[rank1]:iter 20: loss 8.8, time 100.00ms, mfu 30.00%",
    ]
    events = create_parser("nanogpt").feed(lines)
    assert [(e.step, e.loss) for e in events] == [(0, 10.9), (0, 10.9), (10, 9.9), (20, 8.9)]  # type: ignore[attr-defined]


def test_a_wrapped_record_keeps_the_time_of_the_line_it_began_on() -> None:
    lines = [
        "2024-05-01 12:00:00,000 - INFO - step 00383/29000 (1.32%) | loss: 3.369286 | lrm: 1.00 | dt: 4052.93ms | tok/sec: 1",
        "29,360 | bf16_mfu: 62.46 | epoch: 1 pq: 0 rg: 279 | total time: 25.43m | eta: 1951.2m",
        "2024-05-01 12:00:04,000 - INFO - step 00384/29000 (1.32%) | loss: 3.368000 | lrm: 1.00 | dt: 4052.93ms | tok/sec: 129,360 | bf16_mfu: 62.46 | epoch: 1 pq: 0 rg: 280 | total time: 25.50m | eta: 1951.1m",
    ]
    parser = create_parser("nanochat")
    events = [e for e in parser.feed(lines) if not isinstance(e, Tick)]
    assert [(e.step, e.tokens_per_second, e.at) for e in events] == [  # type: ignore[attr-defined]
        (383, 129_360, MAY_1),
        (384, 129_360, MAY_1 + 4),
    ]
    assert parser.bad_lines == 0


def test_an_iota_log_is_still_an_iota_log() -> None:
    from pathlib import Path

    for name in ("iota-sample.log", "iota-requeue.log", "iota-queue-resets.log"):
        lines = (Path(__file__).resolve().parents[2] / "data" / name).read_text(encoding="utf-8").splitlines()
        assert detect(lines) == "iota", name


def test_a_step_line_printed_through_loguru_is_the_trainers_not_the_miners() -> None:
    lines = prefixed(body("nanogpt-issue466-every-10.log"), MAKERS["loguru"])
    assert detect(lines) == "nanogpt"


def test_a_wrap_that_leaves_a_label_like_tail_is_joined_not_peeled() -> None:
    """``iter 1`` / ``0: loss …``: a terminal cut inside the step number, not srun's label."""
    parser = create_parser("nanogpt")
    events = parser.feed(["iter 0: loss 3.1000, time 130.00ms, mfu 29.00%", "iter 1", "0: loss 2.3000, time 120.50ms, mfu 30.00%"])
    assert [(e.step, e.loss) for e in events] == [(0, 3.1), (10, 2.3)]  # type: ignore[attr-defined]
    assert parser.bad_lines == 0


def test_srun_labels_on_every_line_are_peeled_even_after_an_open_record() -> None:
    """llm.c's main.log lines end in a bare number (a wrap could continue them); srun labels every line."""
    parser = create_parser("llmc")
    events = parser.feed(["0: s:0 tel:11.0092", "0: s:0 trl:11.0091 lr:0.000001 norm:15.37", "0: s:1 trl:10.9598"])
    assert [type(e).__name__ for e in events] == ["EvalResult", "TrainStep", "TrainStep"]
    assert parser.bad_lines == 0
