"""The generic step reader: trainers tokwatch has no parser for (Megatron, Lightning, MLX, …).

A line is read through the field grammar (app/ingest/formats/grammar.py): ``name separator
value`` pairs, a JSON-lines record, or a tqdm bar with its description and postfix. It is a
step when it carries a step, labelled as one (``step 120``, ``iteration 120/5000``, ``Iter 10:``,
``"current_steps": 10``) or as a position (a training bar's ``450/1000``, the leading counters of
``490 | loss …`` and torchtune's ``1|120|Loss: …``), and at least one training figure beside it
(a loss, a learning rate, a step time or rate, tokens/s). Nothing is guessed: a number with no
name is no figure, a time without a unit no duration, a rate or ETA comes only from printed
times. Every other line (a traceback, a warning, a config dump) is left alone and reads as
nothing here.

A bar counts the batches of its epoch when its description names one (Lightning, NeMo,
llama-recipes): its total is the epoch's, so a full epoch bar is not the run's end unless it is
the last epoch (``Training Epoch: 3/3``).
"""

from __future__ import annotations

import calendar
import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from ...stats.events import (
    EPOCH_SECONDS,
    EPOCH_SUMMARY_LOSS,
    FINAL_STEP_LOSS,
    LOGGING_INTERVAL_SECONDS,
    LOSS_AFTER_LAST_STEP,
    MFU_AS_PRINTED,
    PERCENT_SUFFIX,
    RUN_SECONDS,
    SPLIT_RECORD_LOSS,
    TIMED_EPOCH,
    TRAIN_PERPLEXITY,
    TRAIN_ROW_LOSS,
    EvalResult,
    Event,
    LinesLeftOut,
    RunInfo,
    SharedBar,
    StageEnd,
    StageStart,
    StepFigures,
    TrainingPause,
    TrainingResumed,
    TrainStep,
)
from .banner import (
    evaluation_block,
    header_epochs,
    may_say_start,
    planned_run,
    started_run,
    table_header,
    whole_echo,
)
from .boosting_rounds import best_round_next, boosting_round, cli_metric, loss_metric
from .box_rows import BoxRows
from .bracketed_epochs import batch_record, epoch_record, is_bracketed, round_batch, round_end, speed_named
from .catboost_iterations import SET_LABEL as CATBOOST_SET_LABEL
from .catboost_iterations import catboost_iteration
from .classes import (
    Kin,
    Named,
    beside,
    memory_figures,
    planned_epochs,
    position_scores,
    scores,
    tied,
    training_perplexity,
)
from .coco import CocoTable
from .drawn_bars import RuledScores, drawn_bar, epoch_header
from .endings import CLOSING_FIGURE, last_planned_epoch_from_zero
from .episodes import episode_env_steps, episode_line, episode_named, episode_reward
from .epoch_time import epoch_time, epochs_planned
from .fairseq_lua import FairseqLuaRecords
from .fields import (
    BATCHES_RATE_NOTE,
    ENV_TIMESTEPS,
    FIGURE_PART,
    LOSS_PART,
    NUM,
    RATE_PART,
    TOTAL_PART,
    Kind,
    clean,
    clock_seconds,
    epoch_average,
    finite,
    number,
    side_job,
)
from .grammar import (
    EVAL_WORDS,
    EVALUATED_WORDS,
    LOSS_RANK,
    Field,
    Reading,
    batch_unplaced,
    json_reading,
    lookup,
    loss_words,
    normalise,
    pairs,
)
from .ignite_engine import (
    epoch_completed,
    examples_epoch_time,
    launcher_end,
    run_completed,
    run_started,
    trainers_epoch,
)
from .interval_times import (
    UNITLESS_NAMES,
    UNITLESS_NOTE,
    above_rate,
    bare_time_reading,
    day_gap,
    day_seconds,
    interval_note,
    per_step_seconds,
    rate_note,
    unitless_agrees,
)
from .keras_bars import SampleCounts, keras_line, sample_time_note
from .legends import MAX_LEGEND_NAMES, legend_row, spelled_out
from .lone_figures import LOSS_NAMES, generation_figures, lone_figure
from .loss_groups import LossGroups, loss_groups
from .loss_tables import LossTable, loss_table_header, loss_table_row
from .lost_losses import lost_loss
from .marked_scores import heading_alone, marked_scores, positioned_scores, score_under_heading
from .metric_lines import current_metric, evaluation_dict
from .pipeline import StepLines, not_again
from .prefix import LineTimes
from .prose_figures import figure_of_epoch, one_figure, prose_figure
from .record_figures import block_figure, epoch_summary, record_figures, scores_of_split, split_twins
from .results_blocks import REDRAWN_BAR_TAIL, ResultsBlock
from .run_args import run_args
from .run_clock import boosted_clock, finished_clock, value_elapsed
from .run_time import run_seconds
from .scalar_prints import HEADS as SCALAR_HEADS
from .scalar_prints import scalar_print, scalars_inside
from .search_trials import MAYBE as SEARCH_TRIAL
from .search_trials import SearchLine, objective_line, search_line, search_trial
from .series import MIN_RECORDS, SeriesWindow
from .series import Record as SeriesRecord
from .shapes import METRICS_HEADER, METRICS_ROW, RESULTS_HEADER
from .side_programs import launched
from .split_records import TRAIN as TRAIN_SPLIT
from .split_records import split_record
from .step_evals import evaluated_at
from .step_source import (
    STARRED_SUMMARY,
    StepSource,
    counted_score,
    evaluation_position,
    evaluation_stage,
    shares,
    split_scores,
    starred_top_k,
    top_k_scores,
)
from .tagged_scalars import TaggedScalars, tagged
from .tf_estimator import estimator_eval, final_step_loss, logging_interval, nan_said, stable_step
from .throughput_timer import MAYBE as THROUGHPUT_TIMER
from .throughput_timer import throughput_timer
from .tree_summaries import TreeSummary
from .vertical_records import VerticalRecord, vertical_start
from .yolo_rows import cut_row_columns, headerless_columns, whole_class_header

MAX_CHARS = 4096
# A box-drawn table (rich's, RLinf's MetricTable): rows start with a vertical, sections with a border.
_BOX_ROW = frozenset("│┃║")
_BOX_BORDER = frozenset("├╰╭└┌┣┗┏╠╚╔╒╞╘╓╟╙┝┡")
_BOX_CELL = re.compile(r"[│┃║]")
_BOX_CELLS = 64
# An MFU of 0 beside a throughput: the trainer had no peak FLOPS for the GPU (nanochat, its forks).
MFU_PLACEHOLDER_NOTE = "unknown: the log printed 0.00 while training ran (no peak FLOPS for this GPU)"
# A tqdm bar: ``45%|████▌ | 450/1000 [01:58<02:10, 3.46it/s, loss=2.3]`` or, without a total,
# ``17671it [1:05:34,  4.49it/s, loss=2.15]``. The last one on a line counts (redraws run together).
_BAR = re.compile(
    r"(?:(?:(?P<pct>\d{1,3})%\|[^|]{0,400}\|\s*)?(?P<n>\d{1,12})/(?P<m>\d{1,12})|(?<![\w.-])(?P<count>\d{1,12})it)\s*"
    r"\[(?P<elapsed>\d[\d:]{0,11})(?:<(?P<remain>[\d:?]{1,12}))?"
    r"(?:,\s*(?:(?P<rate>\d{1,9}(?:\.\d+)?)|\?)\s*(?P<unit>s/it|it/s))?"  # NeMo's own bar prints none
    r"(?:(?:,\s*(?P<post>[^\]]{0,2000}))?\]"
    # A bar that never closes: a message printed over it (Lightning's ``… loss=nan, v_num=Epoch 0, global
    # step 51: 'val_accuracy' reached …``) or a wrap cut it. Its whole pairs are those a comma follows.
    r"|,\s*(?P<cut>(?:[\w/.-]{1,40}=[^,\s\]\[]{1,40},\s*){0,40}))"
)
# Lightning's rich bar ``Epoch 0/9 ━━━━━ 157/469 0:00:12 • 0:00:25 12.63it/s v_num: 0 loss: 0.3`` (Keras's: keras_bars.py).
_RICH = re.compile(
    r"(?P<n>\d{1,12})/(?P<m>\d{1,12}) (?P<elapsed>\d{1,3}:\d\d:\d\d) • (?P<remain>\d{1,3}:\d\d:\d\d|-:--:--)"
    r"(?: (?P<rate>\d{1,9}(?:\.\d+)?)it/s)?"
)
# What a training bar's description says (an evaluation's, a download's or a loader's is no step).
# What a line read as the run's plan is (a total, planned epochs): under an evaluation's heading, the pass's count instead.
_PLANS = frozenset({"total", "epochs", "banner_epochs", "args"})
_TRAINING = re.compile(r"(?i)\b(?:epoch|train\w*|steps?|iteration)\b")
# Lightning's validation bar (``Validating:``, ``Validation DataLoader 0:``): drawn beside the epoch's main bar, which counts
# the validation's batches on in its own count (its total is the epoch's training batches and validation batches).
_LIGHTNING_VALIDATION = re.compile(r"\s*(?:Validating|Validation DataLoader \d{1,3})\s*:")
_EVAL_START = re.compile(r"(?i)^\W*(?:" + "|".join(sorted(EVAL_WORDS)) + r")\b")
# A bar's description that names its pass an evaluation's after what it counts (the epoch): the split as the
# description's last word (seqar's ``Epoch 3/400 val:``, ``Epoch 2 test:``) or in brackets (``Epoch 1/50 [Validating]:``,
# ``Epoch 15 (validation) validation/acc/qa=1.0:``). Its bar counts the evaluation's batches, never training steps.
_SPLIT_WORDS = "|".join(sorted(EVAL_WORDS | {"testing"}, key=len, reverse=True))
_SPLIT_STAGE = re.compile(rf"(?i)[\[(]\s*(?:{_SPLIT_WORDS})\s*[\])]|(?<![\w/.-])(?:{_SPLIT_WORDS})\s*:?\s*$")
# A comma-separated table's header row: names only (``epoch,loss,val_loss``, ``Epoch ,FinishTime ,LR``).
_COLUMN_NAME = re.compile(r"[A-Za-z][\w .()/-]{0,40}")
_TABLE_COLUMNS = 64
# A rule drawn across the terminal naming the step of the figures under it (dreamerv3's Rich ``console.rule``:
# ``───── Step 15104 ─────``, its later ``────[Agent Step 558_096]────``).
_RULED_STEP = re.compile(r"^\s*[─━-]{3,}\s?\[?(?:Agent )?Step (\d[\d_,]{0,17})\]?\s?[─━-]{3,}\s*$")
_BRACKET_SLASHED = re.compile(r"\[(\d{1,12})\] (?=[A-Za-z][\w./-]{0,80} -?\d)")
# A pipeline's next stage, begun after training's last step (IRN's ``step.make_cam: Tue Sep 17 …``, a script's
# ``Step 2: …``, ``evaluating``, ``making cams``).
_NEXT_STAGE = re.compile(r"(?i)(?:step\.[a-z]\w{0,40}:|step \d{1,2}:\s+[A-Za-z]|(?:evaluating|making cams?)\b)")
_RULE_HEADS = frozenset(" ─━-")
_SLASHED_LINES = 200  # a ruled record's lines, at most (its figures wrapped at the terminal's width)
# One figure of a `` / ``-joined record: a name (``train/loss/image``, ``fps/train``) and its number (``-4.3e-6``).
_SLASHED_PAIR = re.compile(rf"([A-Za-z][\w./-]{{0,80}}) ({NUM})")
# A figure named by a path (``train/loss/image: 61.08``, ``fps/train: 1253.7``): a loss's part, a rate.
_PATH_LOSS = re.compile(rf"(?<![\w/])(?:[A-Za-z]\w{{0,30}}/){{0,3}}loss/(\w{{1,40}}):\s?({NUM})(?=\s*(?:\||$))")
_PATH_RATE = re.compile(rf"(?<![\w/])((?:[A-Za-z]\w{{0,30}}/){{0,3}}fps(?:/\w{{1,30}})?):\s?({NUM})(?=\s*(?:\||$))")
# A space-aligned table: its header's names (``GPU_mem``, ``box_loss``; no ``:``, ``=``), its first cell a position
# (``13/30``, ``120``), its cells numbers with a unit or an SI suffix (``13.1G``, ``576``).
# A bar drawn without tqdm's brackets (ultralytics' ``100% ━━━━━━━━━━━━ 8/8 4.6it/s 1.7s``): count, rate, seconds so far.
# A tqdm bar whose format ends at its count and elapsed clock: ``100%|██████████| 1849/1849 13:15`` (YOLOv5 since 7.0).
_ELAPSED_BAR = re.compile(r"\d{1,3}%\|[^|]{0,200}\| ?(\d{1,12})/(\d{1,12}) (\d{1,3}:\d\d(?::\d\d)?)")
# tqdm's bar cut at the terminal's width after its elapsed clock (``5777/5777 [14:35<00:00,  6.``): its count and clock
# (whole: the ``<`` after it), its rate lost
_CUT_BAR = re.compile(r"\d{1,3}%\|[^|]{0,200}\| ?(\d{1,12})/(\d{1,12}) \[(\d{1,3}:\d\d(?::\d\d)?)<[^\]]{0,40}")
ELAPSED_MEAN_NOTE = "the bar's elapsed time over its count"
_PLAIN_BAR = re.compile(r"^(?:\d{1,3}% )?[━─╸╺]{1,200} (\d{1,12})/(\d{1,12}) (\d{1,9}(?:\.\d+)?)(it/s|s/it) (\d{1,7}(?:\.\d+)?)s$")
# A rule of dash runs under a table's header (three columns at least), and the numbers in its rows.
_DASH_RULE = re.compile(r"-{1,40}(?: {1,8}-{1,40}){2,63}")
_DASHED_VALUE = re.compile(r"-?\d{1,12}(?:\.\d+)?(?:[eE][-+]?\d+)?")
_SPACED_NAME = re.compile(r"[A-Za-z][\w()-]{0,30}")
_MARKS = frozenset({"+", "*"})  # a table's cell that marks its row (skorch's ``+``: a checkpoint saved at that epoch)
_SPACED_POSITION = re.compile(r"\d{1,9}(?:/\d{1,9})?")
_SPLIT_PREFIX = re.compile(r"(?i)(?:valid|val|test|train|eval)[_ ]")
_SPACED_VALUE = re.compile(r"-?\d[\d.,]*(?:[eE][-+]?\d+)?(?:/\d{1,9})?[KMGTB%]?|\d{1,3}:\d\d(?::\d\d)?|nan|inf|#na#")
# Two or more losses named for their part (a GAN's ``[D loss: 0.45] [G loss: 1.2]``, ``Discriminator Loss: 0.55
# Generator Loss: 1.1``): training figures, none of them the model's one loss.
_SEVERAL_LOSSES = re.compile(r"(?i)\b\w{1,16}[ _]loss\b\s*[:=]\s*-?\d[^\n]*\b\w{1,16}[ _]loss\b\s*[:=]\s*-?\d")
# A heading alone on its line that says the records under it are an evaluation's (``Evaluation:``).
_ENDS_IN_FIGURE = re.compile(r"\d\s?%?\s*$")
_EVAL_HEADING = re.compile(r"(?i)^\W*(?:final\s+)?(?:evaluation|evaluating|validation|validating|testing|test|eval)(?:\s+(?:results?|metrics))?\W*$")
# An evaluation's start said in words, the line's whole message (after a logger's `` - ``, `` : `` or an evaluator's
# ``Name: ``): ``Evaluating...``, ``Start evaluating``, ``Running validation``, DAMO-YOLO's ``Start evaluation on
# coco_2017_val dataset(570 images).``, YOLOX's ``Evaluate in main process...``, an epoch's (``Epoch 3 evaluation``,
# ``Validating epoch 3``), sentence-transformers' evaluators' (``Information Retrieval Evaluation on msmarco_dev_small
# dataset``, ``EmbeddingSimilarityEvaluator: Evaluating the model on sts-dev dataset in epoch 0 after 500 steps:``), the
# evaluator object it was handed printed after it (``<…SequentialEvaluator object at 0x7f99084fe2b0>``), a heading alone
# (``Validation:``, ``Evaluation started``), TF Estimator's ``Starting evaluation at 2020-05-22T11:09:04Z``, detectron2's
# evaluator's ``Start inference on 380 batches``. Its results follow; a figure on the line makes it a result, never a start.
_EVAL_NOUN = r"(?:evaluation|evaluating|validation|validating|testing|test|eval)"
_EVAL_BEGUN = re.compile(
    r"(?i)(?:^\W{0,4}|\s-\s|\s:\s|(?<=[a-z]):\s)"
    rf"(?:(?:start(?:ing|ed|s)?|begin(?:ning|s)?|running|run)\s+(?:the\s+)?{_EVAL_NOUN}|evaluating|validating|testing"
    rf"|evaluate\s+in\s+main\s+process|^Testing net|epoch\s+\d{{1,6}}\s+{_EVAL_NOUN}|start\s+inference(?=\s+on\s+\d)"
    r"|(?:[a-z][\w-]{0,30}\s){1,3}evaluation(?=\s+(?:on|of)\s)"
    r"|(?:evaluation|validation)(?=\s*(?:\.{1,3}|…|:)?$|\s+(?:started|starts|begins)\s*$))"
    r"(?:\s+(?:started|starts|begins)|\s+epoch\s+\d{1,6}|\s+at\s+\d{4}-\d\d-\d\d[T -]\d\d:\d\d:\d\d(?:\.\d+)?Z?"
    r"|\s+(?:the\s+model\s+)?(?:[a-z][\w-]{0,30}\s+){0,3}(?:on|of|for|at|after|in)\s+[^:=<>]{1,120}?)?"
    r"(?:\s+<[^<>]{1,200}>)?\s*(?:\.{1,3}|…|:|!)?$")
# detectron2's evaluator as it goes (``inference_on_dataset``): ``Inference done 2309/6028. Dataloading: 0.0008 s/iter.
# Inference: 0.1869 s/iter. Eval: 0.0004 s/iter. Total: 0.1882 s/iter. ETA=0:11:40``, before 2020 ``Inference done
# 278/5000. 0.7071 s / img. ETA=0:55:49``: the pass's batches done of its total.
_INFERENCE_DONE = re.compile(r"^Inference done (\d{1,9})/(\d{1,9})\.(?:\s|$)")
# The epoch an evaluation's start names (``Epoch 3 evaluation``, ``… dataset in epoch 0 after 500 steps:``).
_EVAL_EPOCH = re.compile(r"(?i)\bepoch\s+(\d{1,6})\b")
# Caffe's solver before its ``Iteration N, Testing net (#0)`` (2014): ``Testing net`` after the iteration's training line,
# then each output a line by its index alone, ``Test score #0: 0.001`` (solver.cpp's ``Test()``).
_TEST_SCORE = re.compile(r"^Test score #\s?(\d{1,3}): (-?\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf)\s*$")
_LEGEND_EDGES = frozenset("│┃|")  # the first character of a drawn table's row, a legend's among them (legends.py)
# A launcher's ``[trainer0|0]:`` (torchx), also left dangling at the end of a redrawn line.
_LAUNCHER = re.compile(r"\[[\w-]{1,32}\|\d{1,6}\]:")
# A record led by its stage, epoch and position in the epoch: ``[train: 35, 50 / 1000]``.
_STAGE_POSITION = re.compile(r"\[([A-Za-z]{1,12}):\s?(\d{1,9}),\s{1,4}(\d{1,12})\s?/\s?(\d{1,12})\]\s*")
# A position in the epoch printed beside the run's own step (its count, the epoch's total), kept as figures.
IN_EPOCH, EPOCH_STEPS = "epoch/step", "epoch/steps"
# A step record that may carry a figure of a name class (a rate's, an evaluation's): the cheap test first.
_BESIDE_HINT = re.compile(r"(?i)fps|/s|samples|examples|timesteps|episodes|reward|return|[ _]timer?\b|\b(?:val|valid|test|eval|m?ap)\w*\b")
# The timing a line under a step may print alone, and the step's field each amends.
_TIMING_FIELDS = {Field.STEP_TIME: "step_seconds", Field.ELAPSED: "elapsed_seconds", Field.ITS: "its",
                  Field.TOKENS_PER_SECOND: "tokens_per_second"}
# A bar's postfix that may carry an evaluation's figure (the bar's own rate is no name class's figure).
# Keras' ``fit`` on arrays, as it starts: ``Train on 50000 samples, validate on 10000 samples``.
_TRAIN_ON_SAMPLES = re.compile(r"Train on (\d{1,12}) samples(?:, validate on \d{1,12} samples)?\s*$")
_BAR_EVAL_HINT = re.compile(r"(?i)\b(?:val|valid|test|eval|m?ap)\w*\b")
# ESPnet2's trainer record: ``1epoch:train:1365-2046batch: `` (its epoch, its stage, the batches it sums up).
_EPOCH_BATCHES = re.compile(r"(?<![\w.])(\d{1,6})epoch:([a-z]{2,10}):(\d{1,12})-(\d{1,12})batch:\s*")
# A record led by its step, its figures printed before their names (tinygrad): the step, then ``value [unit] name``.
_VALUES_FIRST_LEAD = re.compile(r"^(\d{1,12}) (?=\d)")
_VALUE_NAME = re.compile(rf"({NUM})(?: (s|ms))? ([A-Za-z][A-Za-z ]{{0,20}})")
# A position's names that say nothing of whose count it is (the run's or its epoch's).
_PLAIN_STEPS = frozenset({"step", "iter", "iteration", "batch"})
# A position named by a word that counts no training step: said by that word (TrainStep.counter)
_OWN_COUNTERS = frozenset({"episode", "generation", "trial"})
# A count of the data itself, its unit printed after its total (cryoNeFEN's ``[900/6034 images]``): said in that unit
# (TrainStep.counter), its time and rate that unit's, never a step's.
_COUNT_UNIT = re.compile(r"(?<![\w.])(\d{1,12})\s?/\s?(\d{1,12})\s(images|imgs|samples|examples|sequences|particles)\b",
                         re.IGNORECASE)
_UNIT_WORDS = {"images": "image", "imgs": "image", "samples": "sample", "examples": "example", "sequences": "sequence",
               "particles": "particle"}
# Readings that make a line a record of the run, not an echo of its arguments
_ARGS_NOT = frozenset({Field.STEP, Field.EPOCH, Field.LOSS, Field.EVAL_LOSS})
# A time printed without its unit, kept under its printed name (``time/gpu time``): no step's duration.
TIME_PART = "time/"
# Memory as printed beside a step, under its name and printed unit (``memory/max_mem M``: 2372; ``memory/memory``).
MEMORY_PART = "memory/"
# BasicSR's and mmsr's losses, each named for its part (``l_pix: 2.14e-02``, ``l_g_pix: 3.2e-03 l_g_gan: 6.1e-02``).
_L_LOSS = re.compile(rf"(?<![\w/])(l_[a-z]\w{{0,30}}):\s?({NUM})")
_LTR_FPS = re.compile(r"\bFPS: (\d{1,9}(?:\.\d+)?) \(")
# Paddle's throughput in samples (images) a second over the iterations since the line before: PaddleOCR's and PaddleX's
# ``ips: 11.21165 samples/s`` (PaddlePaddle/PaddleOCR tools/program.py, ``total_samples / train_batch_cost``),
# PaddleDetection's ``ips: 0.51395 images/sec``, PaddleRec's ``ips: 15.94403 ins/s`` (instances: its samples).
_PADDLE_IPS = re.compile(r"\bips: (\d{1,9}(?:\.\d+)?) (?:samples|images|ins)/s(?:ec)?\b")
# A throughput in the data's unit, printed after the figure: named by a word (gotorch's ``throughput: 167.910267
# samples/sec``, DeepDanbooru's ``Speed = 9.0 samples/s``) or a field of its own (PSENet.pytorch's ``step: 109, 3.247
# samples/sec, batch_loss: …``, tensorflow_PSENet's ``…, 1.43 examples/second``): the rate of that unit, named by the unit
# as a trainer that leads with it does (``samples/s: 384.622``), never a rate of steps.
_RATE_IN_UNIT = re.compile(rf"(?i)(?:\b(?:throughput|speed)\s?[:=]\s?|(?<=, ))({NUM})\s?"
                           r"(samples|images|imgs|img|tokens|examples)/s(?:ec(?:ond)?)?\b")
# Each unit's rate under the name the figures' classes know it by (classes.py)
_RATE_NAMED = {"samples": "samples/sec", "examples": "examples/sec", "images": "images/sec", "imgs": "img/s",
               "img": "img/s", "tokens": "tokens/s"}
# A position N/M that leads a record, a labelled figure or a bracketed one after it (not a Keras bar's `` [==>``).
_LEADING_POSITION = re.compile(r"(\d{1,12})/(\d{1,12})(?=\s?\([A-Za-z]|,\s?[A-Za-z])")
# Leading counters before a labelled record: ``490 | loss …`` (llama2.c), ``1|120|Loss: …``
# (torchtune: epoch, then step).
_COUNTERS = re.compile(r"^(\d{1,12})\s*\|\s*(?:(\d{1,12})\s*\|\s*)?(?=[A-Za-z])")
# A ``| 8060.78ms |`` field: a duration printed with no name, in a record of named fields.
_BARE_DURATION = re.compile(rf"(?:^|\|)\s*({NUM})\s?(ms|s)\s*(?=\||$)")
_END = re.compile(
    r"(?i)^(?:total )?training (?:time|took|completed?|finished|done|is done|has finished)\b"
    r"|^`?trainer\.fit`? stopped|^\[after training is done\]|^finished training\b|^exiting program (?:at|after)\b"
    r"|^key: avg_train_\w+, value:"  # llama-recipes' results, printed once training returned
    r"|^Optimization Done\.$"  # Caffe's solver, once it reached ``max_iter`` (solver.cpp, caffe.cpp)
)
# The PyTorch examples' ``Train Epoch: 1 [6400/60000 (11%)]\tLoss: 0.29``: a position in the epoch.
# (a sub-batch's counter may stand before the share: ``[7010/7010 Srno: 2 (100%)]``)
_PROGRESS = re.compile(r"\[\s*(\d{1,12})/(\d{1,12})(?:\s+[A-Za-z]\w{0,12}:\s?\d{1,6})?\s*\(\s*(\d{1,3})%\)\]")
# timm's ``Train: 3 [ 100/1251 (  8%)]``: the number before the position is the epoch.
# A Python dict's whole-number epoch (``{'epoch': 3, 'loss': 0.52}``; a Trainer's ``'epoch': 0.75`` is a step's share).
_DICT_WHOLE_EPOCH = re.compile(r"'epoch':\s*\d{1,9}\s*[,}]")
_STAGE_EPOCH = re.compile(r"(?i)\b(?:train|training):\s*(\d{1,9})\s*$")
# The PyTorch quickstart's ``loss: 2.299719  [   64/60000]``: a bracketed position that ends the record, its samples (or
# batches) done of the epoch's, printed without a percentage.
_END_POSITION = re.compile(r"\[\s*(\d{1,12})\s*/\s*(\d{1,12})\s*\]\s*$")
# mmengine / mmcv: ``Epoch(train) [1][ 50/500]``, ``Epoch [1][50/1000]``, and torchvision's and
# DETR's MetricLogger ``Epoch: [0]  [1330/3696]``: the epoch, then the iteration in it.
_EPOCH_ITER = re.compile(r"(?i)\bepoch(?:\(\w{1,10}\))?:?\s*\[\s*(\d{1,9})\s*\]\s*\[\s*(\d{1,12})\s*/\s*(\d{1,12})\s*\]")
# fairseq's progress line ``| epoch 011  3000 / 8223 loss=0.75 (1.35), wps=963, …`` (``| epoch 001:
# 100 / 8223`` later): the epoch, then the update in it, with no name of its own.
_EPOCH_POSITION = re.compile(r"(?i)\bepoch:?\s*(\d{1,9}):?(?:\s*\|)?\s+(\d{1,12})\s*/\s*(\d{1,12})(?![\d/.])")
# OpenNMT-py's record (onmt's Trainer until 2018, and the forks): ``Epoch %2d, %5d/%5d; acc: …`` — its epoch, then the
# epoch's batches done of their total.
_EPOCH_COUNT = re.compile(r"Epoch\s{1,3}(\d{1,6}),\s{1,12}(\d{1,12})/\s{0,12}(\d{1,12});")
# An epoch leading the record, then its batches in brackets without a percentage: ``Train: 3 [   0/246]``,
# ``Train EP:0 [1/529]``, ``Epoch  1 [ 10/250]``.
_EPOCH_BRACKETED = re.compile(
    r"(?i)^\W{0,8}(?:train(?:ing)?\s?(?:ep(?:och)?)?|epoch)\s?:?\s?(\d{1,6})\s{0,4}\[\s*(\d{1,12})\s*/\s*(\d{1,12})\s*\]\s")
# A record that says it evaluates on a data set (fairseq's ``| epoch 001 | valid on 'valid' subset | loss 5.41 | …``).
# The epoch's mean training loss said alone (``Train Error: Avg loss: 0.232530``, ``Train set: Average loss: 0.2325``).
_TRAIN_AVERAGE = re.compile(rf"(?i)^train(?:ing)?(?: set| error| epoch)?:\s*(?:avg|average|mean)[ _]loss:\s*({NUM})\s*,?\s*$")
# An evaluation's mean loss named with what it was taken over: ``Mean test loss of 296 batches: 4.106204550008516.``
_EVAL_LOSS_OVER = re.compile(
    rf"(?i)(?:^|[\s\]])(?:mean |average |avg )?(test|val|valid|validation|eval|evaluation) loss of \d{{1,9}} [a-z]{{1,20}}"
    rf"\s?[:=]\s?({NUM})\.?$")
_JSON_STATS = "json_stats: "  # Detectron's (Caffe2) training stats, one JSON record a logging period
_DETECTRON_QUEUE = '"mb_qsize": '  # (Detectron's utils/training_stats.py logs its minibatch queue's size in every record)
_EVAL_ON = re.compile(r"(?i)\b(?:" + "|".join(sorted(EVAL_WORDS)) + r")\s+on\s+['\"]?\w")
# An evaluation named as the record's stage after its position, its figures after the colon (icefall's ``Epoch 1,
# validation: loss=8.6, simple_loss=6.902, …``)
_EVAL_STAGE = re.compile(r"(?i)[,|]\s*(?:" + "|".join(sorted(EVAL_WORDS)) + r"):\s+(?=[A-Za-z][\w ]{0,40}[=:]\s?-?\d)")
# An evaluation named as the record's stage right after its counter, a word of its own (RecBole's ``epoch 5 evaluating
# [time: 0.05s, valid_score: 0.130400]`` after its ``epoch 5 training [time: 0.98s, train loss: 7450.7010]``): that
# counter's evaluation, its time the evaluation's own, never a training step's.
_STAGE_AFTER_COUNTER = re.compile(
    r"(?i)^\W{0,3}(?:epoch|step|iter|iteration|batch)\s?[:#]?\s?\d{1,9}\s+(?:"
    + "|".join(sorted(EVAL_WORDS | {"testing"})) + r")(?![\w-])")
# Their ``time: 0.798`` (``data_time:`` is the loader's share of it).
_ITER_BASED = re.compile(r"\bIter\(\w{1,10}\)\s*\[")  # mmengine's iteration-based loop
_D2_ITER = re.compile(r"\beta: [\d:]{4,12}\s+iter: \d")  # detectron2's ``eta: 0:14:36  iter: 19 … time: 0.4385``
_ITERATION_TIME = re.compile(rf"(?<![\w])[Tt]ime:\s+({NUM})(?=[,\s]|$)")
# A nanoGPT-like evaluation line's clocks with a day count (storch's port: ``… @ 00 00:08:11.065,
# mean 00 00:00:00.122``): the run's time so far, and the mean time of a step.
# nanoGPT's evaluation line, whose losses are the step's it names (a step line that repeats the
# last evaluation, litgpt's ``val:``, says an older step's).
_EVAL_SHAPE = re.compile(r"(?i)step \d{1,12}: train loss ")
_DAY_CLOCKS = re.compile(r"@ (\d{1,3}) (\d\d:\d\d:\d\d(?:\.\d+)?), mean (\d{1,3}) (\d\d:\d\d:\d\d(?:\.\d+)?)\b")
# A record that starts with its epoch (``Epoch 005 loss …``, ``[Epoch 3] loss=…``).
# (``Training Epoch:[844/1500] loss=…``; OGB's examples' Logger, ``Run: 01, Epoch: 05, Loss: …``, leads with the repeat;
# PyTorch-Ignite's examples' ``Training Results - Epoch: 5  Avg accuracy: 0.83 Avg loss: 0.49``, the training set
# evaluated again at the epoch's end: its loss the epoch's training loss, as printed; their ``Validation Results - Epoch:
# 5  …`` that epoch's evaluation, at that epoch whether printed before or after the training's)
_EPOCH_LEADS = re.compile(r"(?i)^[^\w|]{0,8}(?:run\W{1,3}\d{1,4}\W{1,4})?"
                          r"(?:(?:train(?:ing)?|validation|test|evaluation)\s+results\s+-\s+|train(?:ing)?\s+)?(?:epoch|ep)\b")
# PyTorch-Ignite's examples' epoch in brackets: ``Epoch[1], Iter[100] Loss: 0.19``, ``Validation Results - Epoch[1] Avg …``.
_IGNITE_BRACKETED = re.compile(r"((?:Training|Validation|Test|Evaluation) Results - )?Epoch\[(\d{1,6})\]"
                               r"(?(1)\s+|,\s?Iter\[(\d{1,12})\]\s+)")
# An epoch printed with its fraction (torch-rnn's ``Epoch 1.00 / 50, i = 1 / 47800``): the run's share of its epochs at a
# step, never a record an epoch, even where the fraction is .00.
_FRACTION_OF_EPOCHS = re.compile(r"(?i)\bepoch\b\W{0,3}\d{1,6}\.\d{1,6}\s?(?:/|of)\s?\d")
# An epoch and how far through it, in per cent, with no count of its batches (``Epoch 1 complete [80%]    Loss: 1.516``,
# ``Epoch 3/10 [45%]``): the share is the epoch's, never the run's (the PyTorch examples' ``[6400/60000 (11%)]`` is _PROGRESS).
_EPOCH_SHARE = re.compile(r"(?i)^[^\w|]{0,8}(?:train(?:ing)?\s+)?epoch:?\s?(\d{1,6})(?:\s?/\s?\d{1,6})?(?:\s+[a-z]{1,12})?\s?\[\s*(\d{1,3}(?:\.\d{1,3})?)\s?%\]")
_FRACTIONAL_EPOCH = re.compile(r"(?i)^[^\w|]{0,8}(?:train(?:ing)?\s+)?(?:epoch|ep)\W{0,3}\d{1,6}\.\d")
# ``Training Epoch0:`` (llama-recipes' old bar): an epoch glued to its name.
# Training said to go on, the line's whole message (after a logger's `` - ``): ``Training...``, ``TRAIN``, ``Start training``
_RESUMED = re.compile(r"(?:^|\s-\s)(?:(?:start(?:ing|ed)?|resum(?:e|ing|ed)|continu(?:e|ing))\s+)?(?:training|train)"
                      r"(?:\.{2,3}|…)?$", re.IGNORECASE)
# How a loss read from the run's closing line (endings.py's CLOSING_FIGURE) is said, after its printed name
# (``Loss 41.662 (Average Loss in its closing line, as printed)``): the run's last figure, not a step line's.
CLOSING_LINE = "in its closing line"
_ENV_STEP = re.compile(r"\benv_step=(\d{1,15})\b")
_PLUS_MINUS = re.compile(rf"\s?±\s?{NUM}")  # a mean's spread after it (``200.000000 ± 0.000000``)
_GLUED_EPOCH = re.compile(r"(?i)\bepoch(?: ?#)?(\d{1,6})\b")  # (``epoch3``; tianshou's ``Epoch #5``)
# A bar described by its stage and the epoch's number alone: RecBole's ``Train     2: 100%|####| 17446/17446`` (its trainer's
# ``f"Train {epoch_idx:>5}"``), the bar of that epoch's batches.
_STAGE_EPOCH_BAR = re.compile(r"\s*Train(?:ing)?\s+(\d{1,6})\s*:?\s*")
# The outer bar of nested bars, described by the word alone (``Epoch:  33%|███▎      | 1/3 [00:23<00:46, 23.10s/it]``,
# BERT fine-tuning scripts' ``trange(…, desc="Epoch")``): its count is the epochs done of the run's, the bars drawn
# under it (``Iteration: 100%|…| 117/117``, ``Evaluating``) that epoch's passes.
_EPOCHS_BAR = re.compile(r"\s*(?:Epochs?|EPOCHS?|epochs?)\s*:?\s*")
# Lightning's ModelCheckpoint: ``Epoch 0, global step 100: 'val_loss' reached 1.98000 (best 1.98000), saving model to
# '…' as top 1`` (the monitored figure at that global step, as it names it) or ``… 'val_loss' was not in top 1`` (no figure).
_LIGHTNING_CHECKPOINT = re.compile(
    rf"\bEpoch (\d{{1,9}}), global step (\d{{1,12}}): '([^']{{1,80}})' (?:reached ({NUM}) \(best {NUM}\)|was not in top \d)"
)
# Lightning's end at its planned steps: ``Trainer.fit` stopped: `max_steps=10` reached.``
# A record led by its count alone as ``n=`` (SafeLife's ``INFO     n=1920: loss=…``), behind a logger's padded level.
_N_LEADS = re.compile(r"^((?:[A-Z]{4,8}\s+)?)n=(\d{1,12}):\s+(?=[A-Za-z_]\w{0,30}=)")
_VALUE_ESTIMATE = re.compile(r"(?<![\w/])val=(?=-?\d)")
_BAR_HEAD = re.compile(r"\d%\||\d(?:it/s|s/it)\b")  # a bar, or what is left of one
_MAX_STEPS_REACHED = re.compile(r"\bmax_steps=(\d{1,12})`? reached\b")
_MAX_EPOCHS_REACHED = re.compile(r"\bmax_epochs=(\d{1,9})`? reached\b")
_CHECKPOINT = re.compile(
    r"(?i)\b(?:sav(?:e|ed|ing)|wrote|writing)\b[^|]{0,40}?\b(?:checkpoint|model|weights|adapter)"
    # the other word order, the saved thing first (``Best model saved``, ``Checkpoint saved to …``)
    r"|^\W{0,4}(?:[\w-]+ ){0,2}(?:checkpoint|model|weights)s? (?:has been |have been |was |were |is )?saved\b"
)
# A wall clock printed inside a step line, for a log whose lines have no prefix time: a date and
# time anywhere (``2024-05-01 12:00:01``), or a time of day named ``time`` alone (torch-xla's
# ``Time=07:29:43``, ``time: 12:00:01``), in brackets (``[12:00:01]``) or leading the record. It dates
# the line, and is never a step's duration (the grammar reads no duration from a bare ``time`` clock).
_WHEN = r"(?:(\d{4})-(\d\d)-(\d\d)[ T])?([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:[.,](\d{1,9}))?(Z|[+-]\d\d:?\d\d)?"
_LINE_CLOCK = re.compile(
    rf"(?i)(?<![\w.])(?:time|timestamp|clock|now|wall[ _]?(?:time|clock))\s*[=:]?\s*{_WHEN}(?![\d:])"
    rf"|\[{_WHEN}\]"
    r"|(?<![\d/-])(\d{4})-(\d\d)-(\d\d)[ T]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:[.,](\d{1,9}))?(Z|[+-]\d\d:?\d\d)?(?![\d:])"
    rf"|^\s*{_WHEN}(?=[\s,|-])"  # a record that leads with its time (``12:00:01 step 5 loss 2.1``)
)
# A month and day glued to the time, no year (``%m.%d_%H:%M:%S``: DySPN's ``FinishTime 04.29_01:45:54``;
# ``04-29 01:45:54``): a date, so the time the record was written under whatever name.
_MONTH_DAY_CLOCK = re.compile(r"(?<![\d.:/-])(0[1-9]|1[0-2])[._-](0[1-9]|[12]\d|3[01])[_ T-]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?![\d:])")
# A rank named inside a record (see ``_record_rank``).
_RECORD_RANK = re.compile(r"(?i)\b(?:local_|global_)?rank[\s=:]{1,3}(\d{1,5})\b|\bcuda:(\d{1,3})\b")
_HMS = re.compile(r"\d:[0-5]\d:[0-5]\d")  # a clock at all: the cheap test first
# A time of day with no date is a wall clock only near the time the log was last written (lines read
# live: now): further back it is as likely a run's elapsed clock. (A cold start's lines older than
# this stay undated, and are placed back from the newer ones by the durations printed.)
_TIME_OF_DAY_SLACK_SECONDS = 60 * 60
# Keys a JSON-lines record gives its own time under.
# How much a bare ``time`` must grow over three lines in a row to be the run's clock (see ``_running_time``).
RUNNING_TIME_GROWTH = 1.5
# … and by about as much from the first to the second as from the second to the third (a clock read every so many steps
# grows by about as much each time; a step's own time that happens to rise three times in a row does not: pix2pix's
# ``time: 0.226``, ``0.230``, ``0.354``).
RUNNING_TIME_EVENNESS = 3.0
# … or, far into the run, a clock grows little beside its value (DCGAN-tensorflow's older ``Epoch: [14] [ 398/1093] time:
# 18566.68``, about half a second a batch after five hours): a bare ``time`` of a minute or more whose three even rises a
# step are each under this share of it is the run's clock (a step's own time of minutes wavers by more than that).
RUNNING_TIME_MINUTE_SECONDS = 60.0
RUNNING_TIME_SMALL_RISE = 0.001
# A first bare ``time`` this long may as well be the run's clock so far; a shorter one is read as the step's
# at once (timm's ``Time: 0.334s``: a clock that short would have run its steps in a blink).
UNDECIDED_TIME_SECONDS = 1.0
# An ``elapsed`` that falls between records whose values all lie within this factor is each record's own time.
OWN_TIME_SPREAD = 2.0
# The name of a position counted within its epoch (fairseq's ``epoch 011  3000 / 8223``).
EPOCH_POSITION = "position in epoch"
_TIME_KEYS = ("timestamp", "_timestamp", "time", "datetime", "date", "ts", "wall_time", "walltime")
_MFU_FIELDS = frozenset({Field.MFU, Field.MFU_AS_PRINTED})
_FIGURES = (Field.LOSS, Field.LR, Field.STEP_TIME, Field.ITS, Field.TOKENS_PER_SECOND,
            Field.TOKENS_PER_SECOND_DEVICE, Field.GRAD_NORM)  # fmt: skip


@dataclass(slots=True)
class _Bar:
    step: int
    total: int | None
    step_seconds: float | None
    elapsed: float | None
    eta: float | None
    seconds_note: str | None = None  # how ``step_seconds`` was worked out, where no step's own time is printed
    unit: str | None = None  # what its count counts where the bar says it is no step (Keras' ``…us/sample``: ``sample``)
    unsaid: bool = False  # a full bar that prints no unit time: what its count counts, steps or samples, is unsaid



@dataclass(slots=True)
class _Line:
    """What one line says: its kind and its readings (a step record's, or another's)."""

    what: str  # "step", "eval", "end", "pause", "total", "args"
    at: float | None
    readings: list[Reading] = field(default_factory=list)
    bar: _Bar | None = None
    counters: tuple[int | None, int] | None = None  # (epoch, step) printed before the record
    text: str = ""
    epoch_above: bool = False  # its epoch is on a line of its own above it (Keras)
    evaluation: bool = False  # an evaluation line that is also the run's position (its losses are this step's)
    rank: int | None = None  # the launcher's rank that printed it (None: no rank prefix)
    run_eta: bool = False  # its ETA is the whole run's, though its count is its epoch's
    loss_note: str | None = None  # what the loss is, when the trainer names it so (a boosting round's ``train-rmse``)
    parts: tuple[tuple[str, float], ...] = ()  # a loss printed in its parts, none the model's one loss (``box_loss``)
    train: bool = False  # its record names its stage as training (``[train: 35, 50 / 1000]``)
    closes: bool = False  # an evaluation's last line (a per-class table's ``all`` row): no pause for more of it
    epoch_percent: float | None = None  # how far through its epoch the line is, in per cent (``Epoch 1 [80%]``)
    begun: bool = False  # an epoch and the learning rate it begins with, nothing else: the epoch begun, no record
    epoch_seconds: float | None = None  # Keras 1's ``fit(verbose=2)`` line (``67s - loss: …``): its epoch's time
    named: tuple[Named, ...] = ()  # a line tied to the last step: its figures, sorted by their names' classes
    # Lightning's checkpoint line: (epoch, global step, the monitored figure's name, its value when printed, a model saved)
    checkpoint: tuple[int, int, str, float | None, bool] | None = None
    before: _Line | None = None  # a record whole only once this line was read (``tag value step`` lines), emitted first
    epochs_bar: bool = False  # nested bars' outer bar: its count the epochs done
    epochs_done: bool = False  # the outer bar at its total: the run's end, its last epoch's batches its own
    # The outer bar's epochs done as the run's record an epoch, where no inner bar is drawn under it (``_outer_bar``)
    record: _Line | None = None
    anew: bool = False  # a line read again once a later one showed what its numbers are: the run's count starts from it
    starts_from: tuple[str, int] | None = None  # a start line's step training starts from, with its unit's word (banner.py)
    # A held block's record handed on (in part) at a batch's end, or the rest of it: the events its block gave so far,
    # which this one's do not give again (pipeline.py ``not_again``); its own are added to them
    amends: list[Event] | None = None
    continues: bool = False  # a logged record of figures written in prose, going on: this line adds to it (no new record)
    of_round: bool = False  # a batch that names no epoch, counted in the round its trainer ends in a line of its own
    scored_step: int | None = None  # the step a results block's or a tied score's figures are at (its ``global_step``; None: the latest)
    unitless_seconds: float | None = None  # a step's time printed with no unit (``dt=0.0199``): seconds, if dates agree

    def step_before(self, other: _Line) -> bool:
        """True when this step line's position is before ``other``'s (both read by the series: a count that ticks)."""
        mine, theirs = _position(self.readings), _position(other.readings)
        return mine is not None and theirs is not None and mine.value < theirs.value


# A name beside a test report's figures that counts its position, not a score (``Test of Epoch 77263``).
_POSITION_NAME = re.compile(r"epoch|step|iter|batch")
# An epoch said as it begins, with the run's epochs in brackets: ``Training at epoch 4 (total 4) with lr 0.0008``.
_EPOCH_OF_TOTAL = re.compile(r"(?i)(?:start(?:ing)?|begin(?:ning)?|train(?:ing)?)(?: \w{1,12}){0,2} epoch (\d{1,6}) "
                             r"\((?:total|of) (\d{1,6})\)")
_NO_DIGITS = str.maketrans("", "", "0123456789")
# What a user's print beside an engine's progress may carry for the step it names (``[200] Loss : 6.38``).
_PRINTED_FIGURES = frozenset({Field.STEP, Field.LOSS, Field.LR, Field.GRAD_NORM})
SERIES_SHAPES = 64  # step line shapes remembered as settled


@dataclass(slots=True)
class _ProseRecord:
    """A logged record of figures written in prose, one a line, under way."""

    names: set[str]  # the names printed so far (one printed again begins the next record)
    figures: dict[str, float]  # the figures tokwatch knows among them, under their keys (``loss/…``, ``reward``)


def _after(whole: _Line | None, kind: Kind, line: _Line | None) -> tuple[Kind, _Line | None]:
    """A line read after the record a held block closed into (``whole``): that record goes first, as the line's
    ``before``; either alone is what it is."""
    if whole is None:
        return kind, line
    if line is None:
        return Kind.FULL, whole
    line.before = whole
    return kind, line


class GenericParser(StepLines[_Line]):
    """Any trainer's step lines in, the step trainers' events out (see the module's docstring)."""

    _times: LineTimes

    name = "generic"
    # A README's indented copy of a prefixed line keeps its prefix as text: its dates are years
    # before the file's, and the lines are placed back from the file's time instead.
    unindent = False

    def __init__(self) -> None:
        self._times = LineTimes(follow=False)  # ranks: see :meth:`emit`
        self._start(self.classify)
        self._rank: int | None = None  # the rank followed
        self._legend: dict[str, str] = {}  # the log's legend's short names of rates, spelled out (legends.py)
        self._mfu_percent = False  # a record of this log printed its MFU as a percent (a ``%`` sign, a value above 1)
        self._borrowed: int | None = None  # the last step read from another rank's line
        self._total: int | None = None  # announced on a line of its own
        # How the time of a step in the record just assembled was worked out (a table's time over its iterations)
        self._mean_seconds: str | None = None
        self._table_figures: tuple[tuple[str, float], ...] = ()  # that record's environment's counts and rate
        self._printed_total: int | None = None  # the last total a step line printed
        self._printed_in_epoch = False  # ... and whether it counted an epoch's batches
        self._counted_steps = False  # a step line counted steps (not epochs): an epoch's summary is no step
        # PyTorch-Ignite's engines' runs under way, each by the epochs it was started for (an evaluator's inside the
        # trainer's): whose ``Epoch[N] Complete`` a line is
        self._engine_runs: list[int] = []
        self._timed_epoch: _Line | None = None  # an epoch's time said before any step (given to the first)
        self._timed_epochs = False  # the log's records are its epochs' own times, one line each (no step of theirs)
        self._run_took: float | None = None  # the seconds of the engine run that completed on the line just read
        self._epoch_header: Reading | None = None  # an epoch said alone on the line above, no step read under it yet
        self._results_block = False  # an ``Evaluation Results:`` heading was read: its figures follow, one a line
        self._evaluation_next = False  # an ``Evaluation:`` heading was read: the next record is its
        self._columns: list[str] = []  # a comma-separated table's header row, for the rows under it
        self._loss_table: LossTable | None = None  # a tab-separated table of losses with no counter (loss_tables.py)
        self._tree = TreeSummary()  # an epoch's summary drawn as a tree (tree_summaries.py)
        # The lines are the rows of a block of a job's figures once it is over (shapes.py): "train" (HF's train metrics,
        # no figure read), "evaluation" (an evaluation's results, its figures read); None: no such block.
        self._metrics_block: str | None = None
        self._results = ResultsBlock()  # an evaluation's results block's rows held (results_blocks.py)
        self._bare_times: list[float] = []  # the last bare ``time`` durations read, oldest first
        self._bare_places: list[float | None] = []  # … and the position each was read at
        self._time_is_clock = False  # … found to be the run's clock, not a step's time
        self._tokens_at: tuple[int, float] | None = None  # (step, running token count) last read
        self._evals: dict[str, float] = {}  # the evaluation figures a step line repeats
        self._evaluation_block = False  # under an evaluation's settings heading (banner.evaluation_block), its counts
        # The evaluation figures the last step record printed, and those a step record printed again unchanged from the
        # record before it (carried: litgpt's ``val: 1.057`` on each line since its evaluation): see _record_own_eval.
        self._record_evals: dict[str, float] = {}
        self._carried_evals: set[str] = set()
        self._ended: tuple[int, float | None] | None = None  # (step, epoch) when the end was printed
        self._fit_epoch: Reading | None = None  # the last epoch said with the run's epochs (Keras' ``Epoch 100/100``)
        self._fit_bar: int | None = None  # the count of the last epoch's full Keras bar, ``fit`` over: none since
        self._last: tuple[int, float | None] | None = None
        self._last_counter: str | None = None  # what the last step line counted where no training step (TrainStep.counter)
        self._last_position: str | None = None  # the name of the last step line's own counter, as read (``step``)
        # A search's trial lines (``_search_trial``): the first held until a second shows the log's records are trials;
        # True once they are
        self._trial_held: _Line | None = None
        self._trials = False
        # A hyperparameter search's own lines (search_trials.py): a trial begun or complete read; the objective's line
        # due under a trial complete
        self._searching = False
        self._epoch_record = False  # the last record was an epoch's (the loop logs once an epoch)
        self._objective_next = False
        self._pieces_read = 0  # the pieces of lines classified so far (which step line was read just before)
        self._side_program = False  # an inference or evaluation script runs after training (side_programs.py)
        # (its position's name, its loss, the piece it was read at) of the last step line, for the record's second line
        self._record_line: tuple[str, float, int] | None = None
        self._logged = 0  # a loop's bare loss prints read so far, in a log that numbers no step (scalar_prints.py)
        self._prose: _ProseRecord | None = None  # the logged record of figures written in prose under way
        self._marked_heading = False  # the line before was BasicSR's validation heading, its scores under it (marked_scores.py)
        self._checkpoint_at: tuple[int, int] | None = None  # (epoch, global step) Lightning's last checkpoint line named
        self._eval_positions = False  # the run's position is read from its validations (no training line yet)
        self._eval_updates: int | None = None  # the updates the last validation named (no training line yet)
        self._vertical = VerticalRecord()  # a one-figure-a-line record under way
        self._fairseq_lua = FairseqLuaRecords()  # fairseq-lua's checkpoint summary, held for its train loss
        self._table_released: list[Event] = []  # … the events of its record handed on so far, at a batch's end
        self._tagged_released: list[Event] = []  # … and of the ``tag value step`` lines held (below)
        self._counter_at: float | None = None  # the time of the counter line that opened the last such block
        self._last_step: int | None = None  # the last step read (its stride to the next one says how often it logs)
        self._stride = 0  # that stride, from the step before the last one read (0: not known)
        self._run_done: TrainStep | None = None  # that step, when it was its last epoch's last of the run
        self._run_record: tuple[int, int] | None = None  # (step, total) of the last record counting the run's steps
        self._epoch_bar: tuple[Reading, _Bar] | None = None  # an epoch's bar beside such records: its epoch, its rate
        self._begun_lr: float | None = None  # the learning rate the first epoch began with, before any step: the first's
        self._slashed: list[str] | None = None  # a ruled step's record: its step, then its lines so far
        self._spaced_columns: list[str] = []  # a space-aligned table's header names, while its rows follow
        self._spaced_marks: frozenset[str] = frozenset()  # … its columns of marks (skorch's ``cp``), no figure's
        self._spaced_first = False  # … no row read under that header yet
        self._spaced_from_zero = False  # … its epoch column counts from 0 (its first row was 0)
        self._row_parts: tuple[tuple[str, float], ...] = ()  # the loss parts of the last such row read
        self._class_columns: list[str] = []  # a per-class evaluation table's metric names, for its ``all`` row
        self._class_cut = False  # … its header cut at the terminal's width (its rows may print more cells than it names)
        self._coco = CocoTable()  # a COCO evaluation's table under way
        self._epoch_open: TrainStep | None = None  # the last step counted in its epoch, short of the epoch's total
        self._epoch: Reading | None = None  # announced on a line of its own, for the bars after it
        # Under nested bars' outer bar: whether the last inner training bar was full. The outer bar is redrawn only when
        # something is printed over it, so an inner bar that starts again after a full one is the next epoch's
        self._inner_full: bool | None = None  # (None: no outer bar read)
        self._bar_drawn = False  # a training bar read: an epochs bar is then an outer bar over it, never the run's record
        self._validating: tuple[int, int] | None = None  # Lightning's validation bar under way: (its total, its count)
        self._full_epoch: tuple[TrainStep, int] | None = None  # the last step: a full epoch's bar, and its total
        self._box: list[str] = []  # the cells of a box-drawn table's rows since its last border
        self._box_rows = BoxRows()  # a box-drawn table a row a record, and its header (box_rows.py)
        self._split_columns: list[str] = []  # a box-drawn table of figures by data split: its header's names
        # A step came from a block of one figure a line (a logger's table), or from a record that went on to a second
        # line (TFLearn's): no sentence reads so, one is a log's
        self.block_steps = False
        self._dashed: list[str] = []  # a table's names, read from the header above its rule of dash runs (spaCy)
        self._above = ""  # the line before this one (a rule of dash runs names its header's columns by it)
        # An ASCII table of iterations (Turi Create's ``| Iteration | Loss | Elapsed Time |`` between ``+---+`` rules):
        # its rows of numbers read since its last rule, and whether the last of them was read as a step
        self._ruled_rows = 0
        self._ruled_step = False
        self._best_next = False
        self._elapsed_at: tuple[int, float] | None = None  # (step, elapsed) of the last record that printed one
        self._elapsed_own = False  # … found to be each record's own time, not the run's clock
        self._elapsed_span: tuple[float, float] | None = None  # the lowest and highest elapsed read
        self._steps_in_epoch = False  # a plain ``Step N`` beside its epoch went back as the epoch went on
        self._planned_epochs: int | None = None  # the run's epochs, said on a line of their own (``max: 15 epochs``)
        self._first_epoch_record: int | None = None  # the epoch of the first record that counts epochs (0: from zero)
        # Keras' ``fit`` on arrays says ``Train on 50000 samples, validate on 10000 samples``: its bars of that total count
        # samples, not steps (Keras 1 and 2, tf.keras before 2.2; Keras 2 labels the time of one ``…us/step`` all the same)
        self._train_samples: int | None = None
        self._sample_counts = SampleCounts()  # … and where no such line was read, whether the bars' counts say samples
        self._unsized_last: int | None = None  # the last count of an unsized bar naming no epoch (``11it``)
        self._unsized_restarts = 0  # … and how often such a count did not go past the one before it
        self._clocked_step: tuple[int, float] | None = None  # (step, the time of day it leads with) of an undated line
        # (step, its line's date) of the last record printing a unitless step time, and whether the dates agreed with one
        self._unitless_at: tuple[int, float] | None = None
        self._unitless_seconds = False
        self._bare_timed_at: tuple[int, float] | None = None  # (step, its line's date) of the last record printing ``time:``
        self._tagged = TaggedScalars()  # ``losses/q1_loss 65.36 193000`` lines of one step, held
        self._scores = RuledScores()  # an evaluation's table of scores between rules of ``=``, under way
        self._unplaced_epoch = False  # the last step counted an epoch's batches, naming no epoch (``batch count: N/M``)
        self._epoch_passes = False  # an epoch's record followed an unsized bar: each such bar is an epoch's pass
        self._series = SeriesWindow()  # the log's repeated records, for the lines the rules read no step from
        self._own_steps = 0  # step lines the word rules read themselves
        self._slashed_last: tuple[_Line, int, int] | None = None  # the last such line, its ``a/b`` position (a, b)
        self._outer_slash = False  # … where ``a`` stays while ``b`` grows: the epoch, then its batch (``_own``)
        self._own_last: int | None = None  # … and the last step they read
        self._settled: set[str] = set()  # step lines' shapes (digits dropped) the series had nothing to add to
        self._series_read = False  # a repeated record was read by its series: its template is the run's step line
        self._source = StepSource()  # which series gives the run's position (step_source.py)
        self._rate_reports: list[float] = []  # the steps' own rates a log prints with no step line (TPUEstimator's)
        self._step_event: tuple[list[Event], int] | None = None  # where the last step's event was put, to amend  # a boosting library said its best round: the round line under it is a repeat

    def pieces(self, part: str) -> Iterable[str]:
        """A bar and the message printed straight after it, as two (capped: a record is never longer); a message so
        glued keeps its logger's prefix, which is peeled and dates it as a line's own does."""
        texts = _unglued(part[:MAX_CHARS])
        if len(texts) > 1 and _GLUED_RECORD.match(texts[1]) is not None:
            message = self._times.message(texts[1], False)
            texts[1:2] = [message] if message is not None else []
        return texts

    # --- reading a line ------------------------------------------------------------

    def classify(self, text: str) -> tuple[Kind, _Line | None]:
        """What a piece of any trainer's line says: a step, an evaluation, an end, a pause, a total."""
        self._pieces_read += 1
        if ".py" in text and self._last is not None:
            program = launched(text)
            if program is not None:
                # the next command at the shell's prompt: an inference or evaluation script's lines are not the
                # training's (side_programs.py); another script's are a new run's
                self._side_program = program
                return Kind.FULL, None
        if self._side_program:
            return self._beside_side_program(text)
        return self._classify_text(text)

    def _beside_side_program(self, text: str) -> tuple[Kind, _Line | None]:
        """A line after an inference or evaluation script's command: its lines are not the training's, until a step
        goes on past the training's last (the command was printed by a training that goes on: ``python eval.py …``
        spawned beside it)."""
        kind, line = self._classify_text(text)
        position = _position(line.readings) if line is not None and line.what == "step" else None
        if position is not None and self._last is not None and position.value > self._last[0]:
            self._side_program = False
            return kind, line
        return Kind.FULL, None

    def _classify_text(self, text: str) -> tuple[Kind, _Line | None]:
        if self._tagged.step is None and not tagged(text):
            return self._classify_piece(text)
        held, record = self._tagged.line(text)
        whole = self._classify_piece(record)[1] if record is not None else None
        if whole is not None and self._tagged.completes:
            whole.amends, self._tagged_released = self._tagged_released, []
        if held:
            return Kind.FULL, whole
        return _after(whole, *self._classify_piece(text))

    def batch_end(self, events: list[Event]) -> None:
        """The ``tag value step`` lines held at the batch's end are their step's record (the log ends there), as is
        a one-figure-a-line table that names its position (a log cut before the table's closing rule).

        Both stay held: a live read can end inside a block (a block-buffered stdout flushes every 8 KB, wherever that
        falls), and the next read brings the rest of it. The record handed on now is completed then by the block's
        whole record, less what this one gave already (``_Line.amends``): its step is the same step printed again,
        and no loss, grad norm or evaluation is counted twice."""
        record = self._tagged.close()
        if record is not None:
            _, line = self._classify_piece(record)
            if not self._tagged.completes:
                self._tagged_released = []
            if line is not None:
                line.amends = self._tagged_released
                self.emit(line, events)
        held = self._results_line()
        if held is not None:
            self.emit(held, events)  # (a results block's rows read so far: the log ends inside the block, or after it)
        table = self._vertical.close()
        if table is not None:
            if self._vertical.counted:
                _, line = self._counted_record(table, self._counter_at)
            else:
                _, line = self._classify_record(table, True)
            if not self._vertical.completes:
                self._table_released = []
            if line is not None:
                line.amends = self._table_released
                self.emit(line, events)

    def _results_line(self) -> _Line | None:
        """The figures of an evaluation's results block held so far as one record (None when none is held): at the
        block's ``global_step`` where it printed one and the run has not read past it, else at the latest step."""
        figures, step, at = self._results.take()
        if not figures:
            return None
        if step is not None and self._last is not None and step < self._last[0]:
            step = None  # (a step the run's own count has passed: a count of another kind)
        return _Line("scores", at, text="results", parts=figures, scored_step=step)

    def _classify_piece(self, text: str) -> tuple[Kind, _Line | None]:
        head = text.lstrip()[:1]
        if head in _LEGEND_EDGES and (row := legend_row(text.strip())) is not None:
            if len(self._legend) < MAX_LEGEND_NAMES:
                self._legend[row[0]] = row[1]
            return Kind.FULL, None  # (a legend's row: what a record's short name stands for, no record itself)
        if self._legend:
            text = spelled_out(text, self._legend)  # (``tps=6401.85`` where the legend says ``tps`` is tokens a second)
        if self._tree.reading or TreeSummary.maybe(text):
            branch = self._tree.read(text.rstrip())
            if branch is not None:
                # (super-gradients' epoch summary drawn as a tree: a validation stage's figure, this epoch's evaluation)
                name, value = branch
                return Kind.FULL, _Line("tie", None, text=text, named=(Named(Kin.EVAL, normalise(name), value, name),))
            if self._tree.reading:
                return Kind.FULL, None  # (a stage's name, a training figure, a figure's history: no record)
        if head in ".^[(…" and self._last is not None and _LEFT_OUT.fullmatch(text.strip()):
            # A person's mark over lines left out of the excerpt (``..........``, ``^^^^ 3000 iter ^^^^``): the step line
            # after it comes steps later that nobody saw run (no time is measured across it)
            return Kind.FULL, _Line("left_out", self._times.at, text=text.strip())
        if head == "+" and _ASCII_RULE.fullmatch(text.strip()):
            # A table of iterations closed by its bottom rule: the rule under two rows or more that ran unruled, each
            # a step, ends the training (Turi Create draws it once max_iterations is done; a table ruled between every
            # row, or a rule over a header, says nothing of the run). A later step says it was not the end.
            rows, stepped, self._ruled_rows, self._ruled_step = self._ruled_rows, self._ruled_step, 0, False
            if rows >= 2 and stepped and self._last is not None:
                return Kind.FULL, _Line("table_end", self._times.at, text=text.strip())
        elif head == "|":
            cells = text.strip().strip("|").split("|")
            if len(cells) >= 2 and all(_RULED_NUMBER.fullmatch(cell.strip()) for cell in cells):
                self._ruled_rows += 1
                kind, line = self._classify_piece_drawn(text, head)
                self._ruled_step = line is not None and line.what == "step"
                return kind, line
            self._ruled_rows, self._ruled_step = 0, False
        return self._classify_piece_drawn(text, head)

    def _classify_piece_drawn(self, text: str, head: str) -> tuple[Kind, _Line | None]:
        """A piece read past its ASCII table's bookkeeping: box-drawn tables, ruled records, blocks, then the line."""
        if head in _BOX_ROW or (head in _BOX_BORDER and self._box):
            # A box-drawn table (``│ Global Step: 51/1000 │ … │`` between ``├──…`` borders): its rows,
            # up to the next border, are one record whose cells the ``|`` separators part.
            if head in _BOX_ROW:
                cells = [c.strip() for c in _BOX_CELL.split(text) if c.strip()]
                drawn = self._box_rows.row(cells) if not self._box else None
                if drawn is not None:
                    # a table drawn a row a record (neupy's ``│ 3.5858e+06 │ 0.042621 │ … │ 23 ms │``): box_rows.py
                    drawn_record, unnamed = drawn
                    if not drawn_record:
                        return Kind.OTHER, None
                    kind, line = self._classify_record(drawn_record, False)
                    if line is not None and line.what == "step" and unnamed:
                        line.parts = (*line.parts, *unnamed)
                    return kind, line
                self._box.extend(cells[:_BOX_CELLS])
                return Kind.OTHER, None
            cells, self._box = self._box, []
            trained = self._train_row_loss(cells)
            if trained is not None:
                # (its other figures, an error or r2 over the training set, are no evaluation's)
                return Kind.FULL, _Line("train_row", self._times.at, [Reading(Field.LOSS, "loss", trained)],
                                        text=" | ".join(cells))
            split = self._box_split(cells)
            if split is None:
                return Kind.OTHER, None  # a split table's header row: its names key the rows under it
            text = split or " | ".join(cells)
        elif self._box:
            self._box = []
        above, self._above = self._above, text
        if self._slashed is not None or (text[:1] in _RULE_HEADS and "Step" in text):
            held, slashed = self._slashed_line(text)
            if held:
                if slashed is None:
                    return Kind.OTHER, None
                text = slashed
        if self._dashed or (text[:3] == "---" and above):
            dashed = self._dashed_line(text, above)
            if dashed is not None:
                return Kind.FULL, dashed if dashed.what == "step" else None
        vertical = False
        if self._vertical.pairs is not None or vertical_start(text):
            opened, counter_at = self._vertical.opened, self._counter_at
            held, record = self._vertical.line(text)
            if self._vertical.opened != opened:
                self._counter_at = self._times.at  # (a counter's record is dated by its counter line)
            if held:
                begun = self._test_begun(text)
                if begun is not None:
                    # (Caffe's test of its net began: the run evaluates at the iteration it names until its outputs)
                    whole = self._classify_record(record, True)[1] if record is not None else None
                    return _after(self._completing(Kind.FULL, whole)[1], Kind.FULL, begun)
                if record is None:
                    return Kind.OTHER, None
                if self._vertical.counted:
                    return self._completing(*self._counted_record(record, counter_at))
                text, vertical = record, True
            elif record is not None:
                # (the block closed at a line of its own: the block's record first, then the line)
                if self._vertical.counted:
                    _, whole = self._counted_record(record, counter_at)
                else:
                    _, whole = self._classify_record(record, True)
                return _after(self._completing(Kind.FULL, whole)[1], *self._classify_piece(text))
        if vertical:
            return self._completing(*self._classify_record(text, vertical))
        return self._classify_record(text, vertical)

    def _engine_epoch(self, done: tuple[int, float], at: float | None, text: str) -> _Line | None:
        """PyTorch-Ignite's ``Epoch[2] Complete. Time taken: 00:00:09``: the trainer's epoch 2 took 9 s, as its Engine
        timed it (ignite_engine.py); None for an evaluator's, or an epoch 1 whose engine the log does not say."""
        epoch, took = done
        if not trainers_epoch(epoch, self._engine_runs):
            return None
        return _Line("epoch_time", at, [Reading(Field.EPOCH, "epoch", float(epoch))], text=text,
                     named=(Named(Kin.EPOCH_TIME, "epoch time", took, "Time taken"),))

    def _test_begun(self, text: str) -> _Line | None:
        """Caffe's ``Iteration 1950, Testing net (#0)`` just read: the solver has done that many iterations and tests its
        net before the next (solver.cpp's ``Step``: ``TestAll`` at the top of an iteration, then the training line for
        it); an evaluation under way at that iteration, its outputs its result."""
        iteration = self._vertical.test_begun
        if iteration is None:
            return None
        self.block_steps = True  # (the solver's own line, as exact as its outputs: no sentence that says "iteration")
        return _Line("evaluating", self._times.at, [Reading(Field.STEP, "iteration", float(iteration))], text=text)

    def _completing(self, kind: Kind, line: _Line | None) -> tuple[Kind, _Line | None]:
        """A one-figure-a-line block's record, marked as the rest of one handed on at a batch's end when it is."""
        if line is not None and self._vertical.completes:
            line.amends, self._table_released = self._table_released, []
        return kind, line

    def _counted_record(self, record: str, at: float | None) -> tuple[Kind, _Line | None]:
        """A counter's one-figure-a-line block (vertical_records.py) as one record, at its counter line's time; the
        counter line alone (no figure followed it) read as printed."""
        kind, line = self._classify_record(record, not self._vertical.plain)
        if line is not None:
            line.at = at  # (an undated counter line's record is undated: the line under it may carry a time)
        return kind, line

    def _split_record(self, text: str, kind: Kind) -> tuple[Kind, _Line | None]:
        """A record led by its data split that no other rule read (split_records.py): a training split's loss is the
        latest training loss, once a step was read; an evaluation split's figures are its scores, a loss among them or
        not (``TEST  | Acc: 0.9938 | F1: 0.9938 | P: 0.9938 | R: 0.9937``)."""
        said = split_record(text)
        if said is None:
            return kind, None
        if said.split == TRAIN_SPLIT:
            if said.loss is None or self._last is None:
                return kind, None
            return Kind.FULL, _Line("split_loss", self._times.at, [Reading(Field.LOSS, "loss", said.loss)], text=text)
        parts = tuple((f"{said.split}_loss" if name == "loss" else name, value) for name, value in said.figures)
        # (the split's whole record: its evaluation is over, the training goes on)
        return Kind.FULL, _Line("scores", self._times.at, text=text, parts=parts, closes=True)

    def _classify_record(self, text: str, vertical: bool) -> tuple[Kind, _Line | None]:
        """What a line (or a one-figure-a-line block's record, ``vertical``) says, its prefix and tables read."""
        if vertical:
            # (the figures the record's table counts, and how its step's time was worked out, go with its step)
            self._table_figures = self._vertical.figures
            self._mean_seconds = self._vertical.mean_seconds or self._mean_seconds
        kind, line = self._classify_line(text, vertical)
        if self._evaluation_block and line is not None:
            if line.what in _PLANS:
                # (a count under an evaluation's heading, ``Total prediction steps = 192``: the pass's, no plan of the run)
                return Kind.FULL, None
            self._evaluation_block = False  # (its settings are over: a result, a bar, a step)
        if line is None and not vertical and "***" in text and evaluation_block(text):
            # (after a step, the pass has begun: the run is evaluating until its result, a step line or the training
            # said to go on)
            self._evaluation_block = True
            return Kind.FULL, None if self._last is None else _Line("evaluating", self._times.at, text=text.strip())
        if line is None and kind is Kind.OTHER and not vertical and "|" in text:
            kind, line = self._split_record(text.strip(), kind)
        if not vertical and (line is None or line.what in ("step", "epoch", "total")):
            kind, line = self._by_series(text, kind, line)
        if ((line is None or (line.what == "evaluating" and line.bar is None)) and self._run_done is not None
                and _NEXT_STAGE.match(text.lstrip())):
            # IRN's ``step.make_cam:`` after its last epoch's last step: another stage of the pipeline began, the
            # training ended (it is done, not stalled; an evaluation's start said then is that stage's)
            self._run_done = None
            return Kind.FULL, _Line("end", self._times.at, text=text.strip())
        if vertical and line is not None and line.what == "step":
            self.block_steps = True
            # (a test of the net's outputs are that iteration's evaluation, printed before its training line)
            line.evaluation = line.evaluation or self._vertical.tested
            if self._vertical.tagged:
                # (an evaluation's block under a tag that names no split: its figures that evaluation's, at the epoch
                # it names, each under the tag and the metric's name as printed; a name the grammar reads stays its)
                line.named = (*line.named, *_tagged_figures(self._vertical.tagged, line.named))
                line.evaluation = True
        if line is not None and self._evaluation_next and line.what in ("step", "eval"):
            line.what = "eval"  # the record under an ``Evaluation:`` heading is the evaluation's
            self._evaluation_next = False
        if line is not None:
            if line.what == "epoch" and line.readings:
                # (a said epoch, not a document's ``"epoch": 2.0,`` key: a trainer_state.json read as lines)
                self._epoch_header = None if '"' in line.text else line.readings[-1]
                said = line.readings[-1]
                if said.field is Field.EPOCH and said.total is not None:
                    self._fit_epoch, self._fit_bar = said, None  # (a further ``fit``'s ``Epoch 1/5``: training again)
            elif line.what == "step":
                self._epoch_header = None
                self._fit_closes(line)
            if line.what == "step" and not self._counted_steps:
                position = _position(line.readings)
                self._counted_steps = line.bar is not None or line.counters is not None or (
                    position is not None and position.name != "epoch")
            line.rank = self._times.rank if self._times.rank is not None else _record_rank(line.text)
            if line.at is None and line.bar is None and line.what in ("step", "eval"):
                line.at = self._clock_in(line.text)
        return kind, line

    def _by_series(self, text: str, kind: Kind, line: _Line | None) -> tuple[Kind, _Line | None]:
        """A repeated record read by its numbers' series (series.py) where the word rules read no step
        from it, or read as its position a number that does not tick while another does."""
        if kind is Kind.PARTIAL or kind is Kind.FRAGMENT:
            return kind, line  # a record's first or torn-off part: the series sees it once the wrap joiner joins it
        if line is None:
            if self._own_steps >= MIN_RECORDS and not self._series_read:
                return kind, line  # the word rules read the run's steps: a line they do not read is no step record
            record = self._series.see(text, when=self._times.at, catch_up=True)
            if record is None:
                return kind, line
        elif line.what == "epoch":
            # (an epoch said on its own line: the series keeps it for the records under it; one that repeats beside a
            # ticking step and a throughput is an engine's progress record, DeepSpeed's ``epoch=0/micro_step=34/…``)
            record = self._series.see(text, when=self._times.at, catch_up=True)
            if record is None or not record.progress:
                return kind, line
        elif line.what == "total":
            # (a run's length said again and again, ticking: CycleGAN's ``(epoch: 1, iters: 100, …)``, ``iters: 200``
            # is the count of its iterations, no planned total; one said once stays the run's length)
            record = self._series.see(text, when=self._times.at, catch_up=True)
            if record is None:
                # (one beside the epoch it counts in is held until its series shows whether it ticks: read then)
                return kind, None if _first(line.readings, Field.EPOCH) is not None else line
        else:
            step = self._step_of(line)
            if step is None or line.bar is not None:
                return self._own(kind, line, step)
            shape = text.translate(_NO_DIGITS)
            if self._source.figures_only(shape, step) and all(r.field in _PRINTED_FIGURES for r in line.readings) and (
                    not line.named and not line.parts and getattr(_position(line.readings), "total", None) is None):
                # (a user's print of a loss at a step the engine's own progress already reached: that step's figures; a
                # record with more of its own, a total or a time, stays a step record)
                line.what = "figures"
                return kind, line
            # A record shape the series found nothing to add to is settled: at a step past the last one its lines are
            # read as the word rules read them, only kept in the window, not judged again (most step lines of most logs)
            plain = not self._series_read and (self._own_last is None or step > self._own_last) and (
                line.counters is not None or getattr(_position(line.readings), "name", None) != "epoch")
            if plain and shape in self._settled:
                self._series.keep(shape, text)
                return self._own(kind, line, step)
            record = self._series.see(text, shape=shape)
            if record is None or not (self._series_adds(line, record) or (
                    step not in record.ticking and self._contradicted(line, step, record.total))):
                if record is not None and plain:
                    if len(self._settled) >= SERIES_SHAPES:
                        self._settled.clear()
                    self._settled.add(shape)
                return self._own(kind, line, step)
        labels: list[str] = []
        if record.looped:
            unknown: list[tuple[str, str | None, str, str | None]] = []
            pairs(text, unknown)
            labels = [name for name, *_ in unknown]
        read_kind, read = self._series_line(record, self._times.at, labels)
        if read is None:
            return kind, line
        self._series_read = True
        if record.progress:
            self._source.chosen(text.translate(_NO_DIGITS), record.step)
        read.text = text.strip()
        if record.at is not None:
            read.at = self._dates_batch(record.at)
        for earlier in record.earlier:
            # (the template's first instances, read as nothing until its series was known: steps of the run too)
            _, early = self._series_line(earlier, earlier.at, labels)
            if early is not None and early.step_before(read):
                early.before, read.before = read.before, early
        return read_kind, read

    def _search_said(self, said: SearchLine, s: str, at: float | None) -> _Line | None:
        """A search's own line (search_trials.py): a trial begun or complete marks the log as a search, whose trainings'
        ends are no end of it; a trial complete is the search's position where the trials train no steps of their own
        (``_trial_record``), its objective on the next line no figure; its best so far and its clock are none either,
        and only its own end words end it."""
        if said.what == "ended":
            # (a trial complete still held, the search's only one: its position as it ended)
            held, self._trial_held = self._trial_held, None
            return _Line("end", at, text=s, before=held) if self._searching else None
        if said.what == "said":
            return None
        self._searching = True
        if said.what == "begun":
            return None
        self._objective_next = True
        # (the trial's own time, as the tuner prints it: the time of one step of the search's count)
        timed = [Reading(Field.STEP_TIME, "trial time", said.seconds)] if said.seconds else []
        trial = _Line("step", at, [Reading(Field.STEP, "trial", float(said.trial or 0), said.total), *timed], text=s)
        record = self._trial_record(trial)
        if said.total is not None and said.trial is not None and said.trial >= said.total:
            return _Line("end", at, text=s, before=record)  # (the last trial of the search's printed total: its end)
        return record

    def _trial_record(self, trial: _Line) -> _Line | None:
        """A search's trial line as the run's position where the log's records are its trials, two trial lines before
        any other record (the first held till the second, emitted before it); None where the model a trial trains
        prints its own steps (CatBoost's iterations under Optuna's trial lines): those steps are the position, the
        trial line no record of them."""
        if self._trials:
            # trials run side by side finish out of their order (13, 16, 14, 8, 15): the search's position is the
            # furthest trial ended, its time measured over those; a trial ended behind it is no record
            at_trial = _position(trial.readings)
            return trial if self._last is None or at_trial is None or at_trial.value >= self._last[0] else None
        if self._last is not None:
            return None
        if self._trial_held is None:
            self._trial_held = trial
            return None
        held, self._trial_held, self._trials = self._trial_held, None, True
        if held.at is None:
            held.at = self._clock_in(held.text)  # (a held line dated by its own stamp once it is a record)
        trial.before = held
        return trial

    def _series_line(self, record: SeriesRecord, at: float | None,
                     labels: list[str] | None = None) -> tuple[Kind, _Line | None]:
        """A record read by its series as the generic reader reads it: a step line, or None. A loop's own report
        with no loss word (``looped``) is a step of its losses as printed (``labels``: their names in the line)."""
        if record.looped:
            return Kind.FULL, _looped_line(record, at, labels or [])
        read_kind, read = self._classify_line(record.text)
        if record.progress and read is not None and read.what == "epoch":
            # An engine's progress record counting its epochs (rl_games' ``fps total: 209712.3 epoch: 14/1000``): each
            # line an epoch, of the total it prints, its throughput by its name
            epoch = _first(read.readings, Field.EPOCH)
            if epoch is not None:
                rates = {_rate_figure(named)[0]: named for named in reversed(beside(record.text)) if named.kin is Kin.RATE}
                return Kind.FULL, _Line("step", at, [epoch, Reading(Field.STEP, "epoch", epoch.value, epoch.total)],
                                        text=record.text, named=tuple(reversed(rates.values())))
        if record.progress and (read is None or read.what == "other"):
            # An engine's progress record (its count beside the throughput it measured, no loss): the run's position,
            # its throughput by its name
            rates = {_rate_figure(named)[0]: named for named in reversed(beside(record.text)) if named.kin is Kin.RATE}
            return Kind.FULL, _Line("step", at, [Reading(Field.STEP, "iter", float(record.step))],
                                    text=record.text, named=tuple(reversed(rates.values())))
        if read is None or read.what != "step":
            return read_kind, None
        if record.at is not None or at is not None:
            read.at = record.at if record.at is not None else at
        return read_kind, read

    def _own(self, kind: Kind, line: _Line, step: int | None) -> tuple[Kind, _Line]:
        """A step line read as the word rules read it. A position ``a/b`` whose ``a`` stays from one line to the next
        while its ``b`` grows is no count of a total: ``a`` is the epoch, ``b`` the batch within it (WeNet's and
        CosyVoice's ``TRAIN Batch 15/37600``, then ``15/37700``), on that line and every one after it."""
        position = _position(line.readings)
        if (step is not None and position is not None and position.total is not None and line.bar is None
                and line.counters is None and _first(line.readings, Field.EPOCH) is None):
            last, self._slashed_last = self._slashed_last, (replace(line, readings=list(line.readings)), step,
                                                            position.total)
            if not self._outer_slash and last is not None and last[1] == step and position.total > last[2]:
                self._outer_slash = True
                # (the line before, read as a count of a total, is this batch's predecessor: read again, the run's
                # count starting from it)
                line.before = _outer_read(last[0])
                line.before.anew = True
                self._printed_total = None  # (no total was printed: the batch was read as one)
            if self._outer_slash:
                _outer_read(line)
                step = position.total
        self._own_steps += 1
        self._own_last = step
        return kind, line

    def _contradicted(self, line: _Line, step: int, total: bool) -> bool:
        """True when the step the word rules read is no position while the series found one: it went back from
        the last one they read (an episode's length), it stays where a count ticks to a fixed total, or it is an
        epoch said above the record. A step that stays beside a count with no total is no contradiction (litgpt's
        ``iter 46 step 1``: the iterations of one optimizer step)."""
        position = _position(line.readings)
        if (not self._series_read and position is not None and position.name == EPOCH_POSITION
                and position.value == position.total and _first(line.readings, Field.EPOCH) is not None):
            return False  # (an epoch's last batch beside its epoch, a line an epoch: PyTorch-SRGAN's ``[6/100][2112/2112]``)
        return self._series_read or (position is not None and position.name == "epoch") or (
            self._own_last is not None and (step < self._own_last or (step == self._own_last and total)))

    def _series_adds(self, line: _Line, record: SeriesRecord) -> bool:
        """True when the series gives the step the word rules read a total, an epoch or a running clock that they
        did not. Where they read an epoch, a count with a total beside their step is the epoch's (fairseq's
        ``epoch 001:   2800 / 160368 …, num_updates=2800``), no total of the run's step."""
        if line.counters is not None or record.step != self._step_of(line):
            return False
        position = _position(line.readings)
        epoch = _first(line.readings, Field.EPOCH)
        return (record.total and epoch is None and (position is None or position.total is None)) or (
            record.epoch and epoch is None) or (
            record.clock and line.at is None and not any(r.field in _TIMING_FIELDS for r in line.readings))

    def _clock_in(self, s: str) -> float | None:
        """The wall clock a step line prints in itself (see ``_LINE_CLOCK``), in unix seconds."""
        if ":" not in s or _HMS.search(s) is None:
            return None
        for m in _LINE_CLOCK.finditer(s):
            before = s[: m.start()].rstrip()
            if m.group(0)[0].isalpha() and before[-1:].isalpha():
                continue  # the end of a longer name (``elapsed time: 00:12:01``): another clock
            groups = next(g for g in (m.groups()[i : i + 8] for i in (0, 8, 16, 24)) if g[3] is not None)
            year, month, day, hour, minute, second, fraction, zone = groups
            if year is not None:
                stamp = f"{year}-{month}-{day} {hour}:{minute}:{second}" + (f".{fraction}" if fraction else "")
                when = self._times.reader.read(stamp + (zone or "") + " .").at
            else:
                when = self._times.reader.time_of_day(int(hour), int(minute), int(second) + float(f"0.{fraction or 0}"))
                reference = self._times.reader.reference_time
                if when is not None and reference is not None and when < reference - _TIME_OF_DAY_SLACK_SECONDS:
                    continue  # an elapsed clock (``[00:05:12]`` five minutes in), not the time the line was written
            if when is not None:
                return self._dates_batch(when)
        dated = _MONTH_DAY_CLOCK.search(s)
        if dated is not None:
            month, day, hour, minute, second = dated.groups()
            when = self._times.reader.read(f"{calendar.month_abbr[int(month)]} {day} {hour}:{minute}:{second} .").at
            if when is not None:
                return self._dates_batch(when)
        return None

    def _dates_batch(self, when: float) -> float:
        """A clock a line printed in itself: the batch's ``Tick`` is at the latest of them."""
        if self._times.latest is None or when > self._times.latest:
            self._times.latest = when
        return when

    def _classify_line(self, text: str, record: bool = False) -> tuple[Kind, _Line | None]:
        at = self._times.at
        prose, self._prose = self._prose, None  # (a line of another kind ends a record of figures in prose)
        run_took, self._run_took = self._run_took, None  # (an engine's run time read on the line just before)
        s = _LAUNCHER.sub("", text).strip() if "|" in text else text.strip()
        objective_next, self._objective_next = self._objective_next, False
        if s[:1] in "STBHO" and (searched := search_line(s)) is not None:
            return Kind.FULL, self._search_said(searched, s, at)
        if objective_next and objective_line(s):
            return Kind.FULL, None  # (the trial's objective, its best epoch's figure: no record of the search's position)
        if THROUGHPUT_TIMER in s and self._last is not None and (timed := self._throughput_under_step(s, at)):
            return Kind.FULL, timed
        under_heading, self._marked_heading = self._marked_heading, False
        if "#" in s and self._last is not None:
            # a validation's scores marked with hashes (marked_scores.py: BasicSR's and the ESRGAN codes'), at the step
            # just logged; the line is no comment
            marked = score_under_heading(s) if under_heading else marked_scores(s)
            if marked is not None:
                self._marked_heading = under_heading  # (its next score may follow, a line each)
                return Kind.FULL, _Line("tie", at, text=s, named=tuple(marked))
        elif s[:10] == "Validation" and self._last is not None and heading_alone(s):
            self._marked_heading = True  # (BasicSR's heading, its scores on the lines under it)
        elif s[:6] == "<epoch" and (positioned := positioned_scores(s)) is not None:
            # a validation's own line (marked_scores.py: mmsr's ``<epoch: 99, iter: 5,000> psnr: 2.9862e+01``): its scores
            # at the iteration it names, the step just logged; where no step has reached it (the validation's own log)
            # the line is the run's position too, its scores that step's evaluation
            validated_epoch, validated_at, validated = positioned
            if self._last is not None and self._last[0] == validated_at:
                return Kind.FULL, _Line("tie", at, text=s, named=tuple(validated))
            if self._last is None or self._last[0] < validated_at:
                return Kind.FULL, _Line("step", at, [Reading(Field.EPOCH, "epoch", float(validated_epoch)),
                                                     Reading(Field.STEP, "iter", float(validated_at))],
                                        text=s, named=tuple(validated), evaluation=True)
            return Kind.FULL, None  # a validation of an iteration the run has passed: no record, nor a figure of it
        elif s[:3].lower() == "cur" and self._last is not None and (current := current_metric(s)) is not None:
            # an evaluation's result printed between the step records (metric_lines.py: PaddleOCR's ``cur metric,
            # precision: …, hmean: …``), at the step just logged
            return Kind.FULL, _Line("tie", at, text=s, named=tuple(current))
        elif (s[-1:] == "}" and self._last is not None and ("esult" in s[:48] or "etric" in s[:48] or "core" in s[:48])
              and (evaluated_dict := evaluation_dict(s)) is not None):
            # an evaluation's figures printed as a dict after words naming it (metric_lines.py: DuReader's ``Dev eval
            # result: {'Bleu-4': …}``), at the step (or epoch) just logged
            return Kind.FULL, _Line("tie", at, text=s, named=tuple(evaluated_dict))
        if not s or (s[:1] == "#" and not (s[-1:] == "#" and len(s) <= 40 and _EVAL_HEADING.match(s))):
            # a comment (a shell's, a markdown heading): no record; an evaluation's heading ruled with hashes is one
            # (RLCard's ``########## Evaluation ##########``)
            return Kind.FULL, None
        if s[:6] == "wandb:":
            return Kind.FULL, None  # wandb's own lines (its run summary's last values: the crash watch's, summaries.py)
        if self._metrics_block is not None:
            row = REDRAWN_BAR_TAIL.sub("", s) if "|" in s else s
            block_row = METRICS_ROW.fullmatch(row) if " = " in row else None
            if block_row is not None:
                # (a row of it: the job's figures once it is over, never a step's; an evaluation's are its figures,
                # held until the block ends: its ``global_step`` may come after them)
                if self._metrics_block == "evaluation":
                    self._results.row(block_row.group(1), block_row.group(2), at)
                return Kind.FULL, None
            self._metrics_block = None
            held = self._results_line()
            if held is not None:
                return _after(held, *self._classify_line(text, record))
        if s[:5] == "*****":
            # The HF Trainer's ``trainer.log_metrics`` blocks and the older scripts' ``***** Eval results *****``
            # (shapes.py): rows that sum a job up once it is over. Read as a record, a train block's ``epoch = 3.0`` and
            # ``train_loss = 0.84`` would be a step of an epoch; an evaluation's block is that evaluation's end. (A
            # logger's heading printed over an evaluation's bar keeps the bar's tail after it: its own words are read.)
            if "|" in s:
                s = REDRAWN_BAR_TAIL.sub("", s)
            split = METRICS_HEADER.fullmatch(s)
            if split is not None and split.group(1) == "train":
                self._metrics_block = "train"
                return Kind.FULL, None
            older = RESULTS_HEADER.fullmatch(s)
            if (split is not None and split.group(1) in ("eval", "test", "predict")) or older is not None:
                self._metrics_block = "evaluation"
                self._results.begin(split.group(1) if split is not None else older.group(1) if older else "eval")
                return Kind.FULL, _Line("evaluated", at, text=s)
        if s[:9] == "Train on ":
            train_on = _TRAIN_ON_SAMPLES.match(s)
            if train_on is not None:
                self._train_samples = int(train_on.group(1))
                self._sample_counts.said(self._train_samples)
                return Kind.FULL, None
        if self._train_samples is not None:
            sampled = self._samples_bar(s, at)
            if sampled is not None:
                return sampled
        if s[:1] in SCALAR_HEADS and self._last is None and (printed := scalar_print(s)) is not None:
            # a notebook's ``print(loss)`` of a tensor (scalar_prints.py), in a log that numbers no step
            return Kind.FULL, _Line("logged", at, [Reading(Field.LOSS, "loss", printed)], text=s)
        if "tensor(" in s:
            s = scalars_inside(s)  # (a record's figure printed as a one-number tensor: its number)
        if s[:1] == "=" or self._scores.waiting:
            ruled = self._scores.line(s)
            if ruled is not None:
                # (GLPDepth's ``d1  d2  d3  abs_rel …`` table between rules of ``=``, after an epoch: its evaluation)
                return Kind.FULL, _Line("scores", at, text=s, parts=tuple(ruled))
        if s[:1] == "[" and s[1:2] in "=>":
            drawn_record = drawn_bar(s)
            if drawn_record is not None:
                s = drawn_record  # (GLPDepth's ``[====>]  St 6057/6057  Tot: 41m50s | … | Depth Loss: 0.1365``: drawn_bars.py)
        elif s[:6] == "Epoch:" and " - " in s:
            epoch_said = epoch_header(s)
            if epoch_said is not None:
                said = Reading(Field.EPOCH, "epoch", float(epoch_said[0]), epoch_said[1])
                return Kind.FULL, _Line("epoch", at, [said], text=s)
        if s[:4] == "Loss" and self._last is not None and (final := final_step_loss(s)) is not None:
            return Kind.FULL, _Line("final_loss", at, [Reading(Field.LOSS, "loss", final)], text=s)
        if ("00%]" in s or "inal " in s) and self._last is not None and (closing := CLOSING_FIGURE.match(s)) is not None:
            closing_value = number(closing.group("value"))
            if closing_value is not None:
                # the run's closing line, its last figure named (endings.py reads its end): PyMC's ``Finished [100%]:
                # Average Loss = 41.662``, the loss; ``Finished [100%]: ELBO = -225.56``, a figure under its own name
                return Kind.FULL, _Line("closing_figure", at, [Reading(Field.LOSS, closing.group("name"), closing_value)],
                                 text=s)
        if s[:7] == "Saving " and (estimated := estimator_eval(s)) is not None:
            # TF Estimator's evaluation record: its loss and scores, at the global step it evaluated
            return Kind.FULL, _Line("eval", at, estimated, text=s, closes=True)
        if "NaN" in s and self._last is not None and nan_said(s):
            # TensorFlow's ``ERROR:tensorflow:Model diverged with loss = NaN.``: the loss went NaN after the last step
            return Kind.FULL, _Line("nan_loss", at, text=s)
        if "(total " in s or "(of " in s:
            begun = _EPOCH_OF_TOTAL.match(s)
            if begun is not None:
                # PccAI's ``Training at epoch 4 (total 4) with lr 0.0008 and aux_lr 0.005``: the epoch begun, of the run's
                said = Reading(Field.EPOCH, "epoch", float(begun.group(1)), int(begun.group(2)))
                return Kind.FULL, _Line("epoch", at, [said], text=s)
        if "\t" in s:
            if self._loss_table is not None:
                loss_row = loss_table_row(self._loss_table, s)
                if loss_row is not None:  # (a row of a table of losses that numbers none: a logged record, loss_tables.py)
                    loss_name = normalise(self._loss_table.columns[self._loss_table.loss_at])
                    return Kind.FULL, _Line("logged", at, [Reading(Field.LOSS, loss_name, loss_row[0])], text=s,
                                            parts=loss_row[1])
            loss_table = loss_table_header(s)
            if loss_table is not None:
                self._loss_table = loss_table
                return Kind.FULL, None  # the header: its names are the next rows'
        if "," in s and (self._columns or s[:1].isalpha()):
            table = self._table_row(s)
            if table is None:
                return Kind.FULL, None  # the header row: its names are the next rows' keys
            if table:
                s = table  # a row, read as its ``name: value`` pairs
        if s[:1].isdigit() and ", " in s:
            named_after = _values_first(s)
            if named_after is not None:
                s = named_after  # (tinygrad's ``2 101.78 s run, 11.8750 loss, 1e-12 LR, 1454.57 GB used, …``)
        if s[:2] == "| " and " updates | " in s:
            lua = self._fairseq_lua.record(s)
            if lua is not None:
                s = lua  # (fairseq-lua's ``| epoch 009 | 0046063 updates | words/s    7730| trainloss     3.03 | …``)
        if "n=" in s[:24]:
            counted = _N_LEADS.match(s)
            if counted is not None:
                # SafeLife's ``INFO     n=1920: loss=1.68, entropy=2.086, val=-0.676, adv=0.335``: the count leading
                # the record is its step; its ``val`` is the critic's value estimate, no validation loss
                rest = _VALUE_ESTIMATE.sub("value=", s[counted.end() :])
                s = f"{counted.group(1)}step: {counted.group(2)} | {rest}"
        if s[:1].isdigit():
            led = _LEADING_POSITION.match(s)
            if led is not None:
                # A record led by its position alone (char-rnn's ``170/9500 (epoch 0.895), train_loss = 2.84``)
                s = f"step: {led.group(1)}/{led.group(2)} | {s[led.end():]}"
            counted = _COUNT_THEN_POSITION.match(s)
            if counted is not None:
                # A count, then the position in brackets (``  2: [  200 /   600] loss: 0.693147``): the outer loop's
                # count is the epoch, the bracket the batch of its batches
                s = f"epoch: {counted.group(1)} | batch: {counted.group(2)}/{counted.group(3)} | {s[counted.end():]}"
        if "epoch:" in s and "batch:" in s:
            ranged = _EPOCH_BATCHES.search(s)
            if ranged is not None:
                # ESPnet2's ``1epoch:train:1365-2046batch: iter_time=…, loss=61.936, …``: the epoch, its stage, and the
                # batches the record sums up (the last one its position); what precedes it (its launcher's and logger's
                # fields, a date) stays before it
                epoch, stage, last = ranged.group(1), ranged.group(2), ranged.group(4)
                prefix = "" if stage == "train" else f"{stage} "
                head = s[: ranged.start()].lstrip("`")
                s = f"{head}{prefix}epoch: {epoch} | batch: {last} | {s[ranged.end():].rstrip('`')}"
        if s[:5] in ("Epoch", "epoch", "EPOCH") and (lead := _EPOCH_LABEL.match(s)) is not None:
            nested = _EPOCH_BATCH_PAIRS.match(s, lead.end())
            if nested is not None and int(nested.group(1)) <= int(nested.group(2)):
                # DCGAN-tensorflow's ``Epoch: [ 5/200] [   0/   4] time: 235.7465, d_loss: …, g_loss: …``: the bracket
                # pairs led by their label, as unlabelled below (DCGAN's ``[2/5][100/1583]``)
                epoch, epochs, batch, batches = nested.groups()
                s = f"epoch: {epoch}/{epochs} | batch: {batch}/{batches} | {s[nested.end():]}"
        # (behind a logger's name the prefix leaves, MONAI's ``(ignite.engine.engine.SupervisedTrainer) - ``)
        if (engine_epochs := run_started(s)) is not None:
            self._engine_runs.append(engine_epochs)
            return Kind.FULL, None
        if (run_done := run_completed(s)) is not None:
            if self._engine_runs:
                self._engine_runs.pop()
            self._run_took = run_done
            return Kind.FULL, None
        if run_took is not None and launcher_end(s):
            return Kind.FULL, _Line("run_time", at, text=s, named=(Named(Kin.ELAPSED, "run time", run_took, "Time taken"),))
        if self._last is not None and (run_printed := run_seconds(s)) is not None:
            # The whole run's time printed as it ended, after its steps (``Training complete in 24m 31s``,
            # ``Training resnet-18 complete in 304m 5s``: run_time.py), and where its words say so (``_END``), its end.
            what = "end" if _END.search(s) is not None else "run_time"
            return Kind.FULL, _Line(what, at, text=s, named=(Named(Kin.ELAPSED, "run time", run_printed),))
        if (engine_epoch := epoch_completed(s)) is not None:
            return Kind.FULL, self._engine_epoch(engine_epoch, at, s)
        if "poch" in s and (epoch_in_words := epoch_time(s)) is not None:
            # An epoch's own time said in words beside its epoch (``Epoch 3 complete in 1m 2s``, ``Time for epoch 4 is
            # 12.5 sec``: epoch_time.py): that epoch's, shown as printed, no step's nor the run's; where its batches were
            # counted short of their total, the epoch they were in is done
            timed_no, timed_seconds = epoch_in_words
            timed = _Line("epoch_time", at, [] if timed_no is None else [
                              Reading(Field.EPOCH, "epoch", float(timed_no), epochs_planned(s))],
                          text=s, named=(Named(Kin.EPOCH_TIME, "epoch time", timed_seconds, "time"),))
            if timed_no is not None and self._epoch_open is not None and self._epoch_open.epoch == timed_no:
                timed.before = _Line("epoch_done", at, text=s)
            return Kind.FULL, timed
        if (example_epoch := examples_epoch_time(s)) is not None:
            epoch_took = example_epoch[1]
            return Kind.FULL, None if epoch_took is None else _Line(
                "epoch_time", at, [Reading(Field.EPOCH, "epoch", float(example_epoch[0]))], text=s,
                named=(Named(Kin.EPOCH_TIME, "epoch time", epoch_took, "Time Taken"),))
        if s[:6] == "Epoch[" or " Results - Epoch[" in s[:32]:
            ignite = _IGNITE_BRACKETED.match(s)
            if ignite is not None:
                # PyTorch-Ignite's examples since 0.4: ``Epoch[1], Iter[100] Loss: 0.19`` (the run's iteration, never the
                # batch of the epoch MXNet's ``Epoch[0] Batch [100]`` counts) and ``Training Results - Epoch[1] Avg
                # accuracy: 0.97 Avg loss: 0.09``: the older examples' ``Epoch: 1``, read as those are
                results, epoch, iteration = ignite.groups()
                rest = s[ignite.end():]
                s = f"{results}Epoch: {epoch}  {rest}" if results else f"epoch: {epoch} | iter: {iteration} | {rest}"
        epoch_led = of_round = False
        if s[:1] in "[I" and self._unplaced_epoch and (ended := round_end(s)) is not None:
            # MXNet R's round's end after its batches (``[1] Train-accuracy=0.70``): the epoch they were in, the batches
            # after it the next's (its training metric is no figure tokwatch shows)
            return Kind.FULL, _Line("epoch_summary", at, [Reading(Field.EPOCH, "epoch", float(ended))], text=s)
        if is_bracketed(s):
            epoch_lines = epoch_record(s)
            if epoch_lines is not None:
                # MXNet's epoch lines after its batches (``Epoch[0] Time cost=12.300``, ``Epoch[0] Validation-accuracy=…``):
                # the epoch's time and its validation's figures, tied to the last batch (bracketed_epochs.py)
                return Kind.FULL, _Line("tie", at, text=s, named=tuple(epoch_lines)) if epoch_lines else None
            batch_pairs = batch_record(s)
            if batch_pairs is not None:
                s, epoch_led = batch_pairs, True  # (``Epoch[0] Batch [100]\tSpeed: … samples/sec\taccuracy=…``: its pairs)
        elif s[:5] == "Batch" and (counted_batch := round_batch(s)) is not None:
            s, epoch_led, of_round = counted_batch, True, True  # (MXNet R's ``Batch [50] Speed: … samples/sec …``)
        elif "samples/sec" in s:
            s = speed_named(s)  # (gluon-cv's ``[Epoch 3][Batch 10799], LR: …, Speed: 28.997 samples/sec, …``)
        if "/s" in s:
            s = _RATE_IN_UNIT.sub(lambda m: f"{_RATE_NAMED[m.group(2).lower()]}: {m.group(1)}", s)
        trained = False
        if s[:1] == "[" and ": " in s[:24]:
            staged = _STAGE_POSITION.match(s)
            if staged is not None:
                # pytracking's ``[train: 35, 50 / 1000] FPS: 4.0 (7.9)  ,  Loss/total: 3.41968  ,  …``: the stage, its
                # epoch and the batch in it; a training stage's record is a step whatever test figures it carries
                stage, epoch, n, m = staged.groups()
                trained = not _EVAL_START.match(stage)
                s = f"epoch: {epoch} | batch: {n}/{m} | {s[staged.end():]}"
        if best_round_next(s):
            self._best_next = True
            return Kind.FULL, None
        if (cli := cli_metric(s)) is not None:
            # The LightGBM CLI's metric lines since 2017, one a data set's metric (``Iteration:18, training
            # binary_logloss : 0.206054``, ``Iteration:18, valid_1 auc : 0.594637``)
            return Kind.FULL, self._cli_metric(cli, at, s)
        if self._last is not None and " elapsed, finished " in s and (finished := finished_clock(s)) is not None:
            # LightGBM's ``2.436162 seconds elapsed, finished 1000 iteration`` after that iteration's metrics: the run's
            # clock at the last step (run_clock.py); a clock naming another iteration is none of this one's
            run_clock = Named(Kin.ELAPSED, "elapsed", finished[0], "seconds elapsed")
            return Kind.FULL, _Line("tie", at, text=s, named=(run_clock,)) if finished[1] == self._last[0] else None
        if self._last is not None and s[:15] == "boosting round " and (rounds_clock := boosted_clock(s)) is not None:
            # XGBoost's ``boosting round 9, 40.8379 sec elapsed`` after round ``[8]``'s metrics (rounds counted from one,
            # the metrics' from zero): the run's clock at the last step; a clock after another round is none of its
            run_clock = Named(Kin.ELAPSED, "elapsed", rounds_clock[0], "sec elapsed")
            return Kind.FULL, _Line("tie", at, text=s, named=(run_clock,)) if rounds_clock[1] == self._last[0] + 1 else None
        if s[:1].isdigit() and "remaining:" in s:
            iteration = _catboost_iteration(s, at)
            if iteration is not None:
                return Kind.FULL, iteration
        if SEARCH_TRIAL in s[:48] and (trial := _search_trial(s, at)) is not None:
            return Kind.FULL, self._trial_record(trial)
        if s[:1] == "[":
            boosted = _boosting_round(s, at)
            if boosted is not None:
                if self._best_next:  # the best round's line again, under the end: no round trained
                    self._best_next = False
                    return Kind.FULL, None
                return Kind.FULL, boosted
            nested = _EPOCH_BATCH_PAIRS.match(s)
            if nested is not None and int(nested.group(1)) <= int(nested.group(2)):
                # DCGAN's ``[2/5][100/1583]\tLoss_D: 0.4567\tLoss_G: 3.2100``: the epoch of the epochs, then the batch
                # of that epoch's batches
                epoch, epochs, batch, batches = nested.groups()
                s = f"epoch: {epoch}/{epochs} | batch: {batch}/{batches} | {s[nested.end():]}"
            pair = _BRACKET_PAIR.match(s)
            if pair is not None:
                # PyTorch's CIFAR tutorial: ``[1,  2000] loss: 2.187``, its epoch and its mini-batch in that epoch
                s = f"epoch: {pair.group(1)} | batch: {pair.group(2)} | {s[pair.end():]}"
            slashed = _BRACKET_SLASHED.match(s) if " / " in s else None
            if slashed is not None and (joined := _slashed_pairs(s[slashed.end():])) is not None:
                # dreamerv3 without Rich: ``[15104] episode/score 0.09 / train/loss/image 61.08 / fps/train 1253.7``
                s = f"step: {slashed.group(1)} | {joined}"
            led = _BRACKET_STEP.match(s)
            if led is not None:
                # A record led by its step in brackets (clu's metric writer, behind absl's prefix:
                # ``[400] steps_per_second=1.58, train_loss=3.22``): the bracketed number is the step.
                s = f"step: {led.group(1)} | {s[led.end():]}"
        # (a record held from one figure a line, a batch's record led by its bracketed epoch: its position makes it a
        # step, as a table's row)
        table_row = record or epoch_led
        if self._coco.kind or s.endswith(("results for bbox:", "results for segm:", "results for keypoints:")):
            coco = self._coco.row(s)
            if coco is not None:
                return Kind.FULL, _Line("eval", at, coco, text=s) if coco else _Line("other", at)
        if self._class_columns or ((s[:6] == "Class " or s[:8] == "classes ") and "  " in s):
            evaluated = self._class_row(s, at)
            if evaluated is not None:
                return Kind.FULL, evaluated or None
        parts: tuple[tuple[str, float], ...] = ()
        if not self._spaced_columns and s[:1].isdigit() and "G " in s and "%" in s:
            headerless = headerless_columns(s)
            if headerless is not None:
                self._spaced_columns = list(headerless)  # (yolov3's row, its header not in the log: yolo_rows.py)
        if self._spaced_columns or (s[:1].isalpha() and ("  " in s or "\t" in s) and ":" not in s and "=" not in s):
            spaced = self._spaced_row(s)
            if spaced is None:
                # the header row: its names are the next rows' keys; before the first step, the run has begun (banner.py)
                return Kind.FULL, _Line("begun", at, text=s) if self._last is None and table_header(s) else None
            if spaced:
                s, table_row = spaced, True
                parts, self._row_parts = self._row_parts, ()
        if s[:5].lower() == "train" and "loss" in s[:60]:
            averaged = _TRAIN_AVERAGE.match(s)
            if averaged is not None and (mean_loss := number(averaged.group(1))) is not None:
                # The epoch's mean training loss on a line of its own, as the PyTorch examples print their test set's
                # (``Train Error: Avg loss: 0.232530``, ``Train set: Average loss: 0.2325``): shown beside the evaluation's
                return Kind.FULL, _Line("eval", at, [Reading(Field.EVAL_LOSS, "train avg loss", mean_loss)], text=s)
        if " loss of " in s:
            over = _EVAL_LOSS_OVER.search(s)
            if over is not None and (mean_loss := number(over.group(2))) is not None:
                # An evaluation's mean loss named with what it was taken over (ST-GCN's ``Mean test loss of 296 batches:
                # 4.106204550008516.``): the evaluation's loss; its count of batches is no figure
                return Kind.FULL, _Line("eval", at, [Reading(Field.EVAL_LOSS, f"{over.group(1).lower()} loss", mean_loss)],
                                        text=s)
        if self._last is not None and s[:12] == "Test score #" and (score := _TEST_SCORE.match(s)) is not None:
            # (an output of the net tested after the last training line: that iteration's evaluation, by its index)
            output = Named(Kin.EVAL, f"test score {score.group(1)}", float(score.group(2)), f"Test score #{score.group(1)}")
            return Kind.FULL, _Line("tie", at, text=s, named=(output,))
        if s[:15] == "Inference done " and (inferred := _INFERENCE_DONE.match(s)) is not None:
            # an evaluation pass under way, after training steps or alone: its times and ETA are the evaluation's,
            # none a training step's, its count the pass's, never the run's position
            done, batches = int(inferred.group(1)), int(inferred.group(2))
            return Kind.FULL, _Line("evaluating", at, bar=_Bar(done, batches, None, None, None), text=s)
        if self._last is not None and len(s) <= 240 and _EVAL_BEGUN.search(s):
            # an evaluation's start said after training steps (``Evaluating...``, YOLOX's ``Evaluate in main
            # process...``): its pass is under way until its result, a step line or the training said to go on
            self._evaluation_next = len(s) <= 40 and _EVAL_HEADING.match(s) is not None
            epoch_named = _EVAL_EPOCH.search(s)
            return Kind.FULL, _Line("evaluating", at, [] if epoch_named is None else [
                Reading(Field.EPOCH, "epoch", float(epoch_named.group(1)))], text=s)
        if (len(s) <= 40 or (s[:1] == "=" and len(s) <= 120 and len(s.strip("=")) <= 40)) and _EVAL_HEADING.match(s):
            # ``Evaluation:`` on a line of its own, or a banner of rules (DL4J's ``=====Evaluation Metrics=====``): its
            # figures follow (its results or metrics, a figure a line)
            self._evaluation_next = True
            self._results_block = self._last is not None and ("esult" in s or "etrics" in s)
            return Kind.FULL, None
        stats = s.startswith(_JSON_STATS)
        if stats:
            s = s[len(_JSON_STATS):]  # Detectron's ``json_stats: {…}``: a JSON record (its ``time`` and ``mem`` below)
        elif s[:1] == "{" and _DETECTRON_QUEUE in s:
            stats = True  # (the same record pasted without its lead: ``mb_qsize``, its loader's queue, is Detectron's own key)
        if s.startswith("{"):
            if not s.endswith("}"):
                return (Kind.PARTIAL if s.startswith(('{"', "{'")) else Kind.OTHER), None
            unread: list[tuple[str, str | None, str, str | None]] = []
            parsed = self._json(s, unread)
            if parsed is not None:
                readings, when = parsed
                if (self._last is None and not stats and not any(r.field in (Field.LOSS, Field.EVAL_LOSS) for r in readings)
                        and (echoed := run_args(s)) is not None and echoed.epochs is not None):
                    # a config dict echoed before any step, its epochs the run's plan (run_args.py: EfficientDet's
                    # ``{…, 'epochs': 10, 'steps': 4, …}``, its steps the batches an epoch): no record of a step
                    return Kind.FULL, _Line("args", at, [Reading(Field.EPOCH, "epochs", 0.0, echoed.epochs)], text=s)
                if when is not None and (self._times.latest is None or when > self._times.latest):
                    self._times.latest = when  # the batch's Tick
                line = _Line("step", when if when is not None else at, readings, text=s)
                if stats:
                    line.readings.extend(_detectron_time(s))
                    line.named = tuple(memory_figures(s.replace('"mem":', "mem:")))
                return Kind.FULL, _json_classed(_decide(line), unread)
        if "global step" in s:
            stable = stable_step(s)
            if stable is not None:
                # TF Estimator's warning names the global step it read twice: where the run is (``Current value (could be
                # stable): 97``), the only step a log of ``global_step/sec`` lines may print
                return Kind.FULL, _Line("step", at, [Reading(Field.STEP, "global step", stable)], text=s)
            saved = _LIGHTNING_CHECKPOINT.search(s)
            if saved is not None:
                value = saved.group(4)
                return Kind.FULL, _Line("checkpoint", at, text=s, checkpoint=(
                    int(saved.group(1)), int(saved.group(2)), saved.group(3), None if value is None else float(value), _saving(s)))
        head = s[:80].lower()
        if ("train" in head or "exiting" in head or head[:13] == "optimization ") and _END.search(s):
            return Kind.FULL, _Line("end", at, text=s)
        bar = None
        outer: re.Match[str] | None = None
        if "[" in s and ("/" in s or "it [" in s):
            described_from = 0
            for m in _BAR.finditer(s):
                if m.group("m") is not None and _EPOCHS_BAR.fullmatch(s[described_from : m.start()]):
                    outer = m
                described_from, bar = m.end(), m
        epochs = None if outer is None else _epochs_bar(outer, at, s)
        if outer is not None and outer is bar and epochs is not None:
            return Kind.FULL, _outer_bar(outer, epochs, at, s)
        if bar is not None:
            head, post = s[: bar.start()], bar.group("post") or bar.group("cut") or ""
            named_unknown: list[tuple[str, str | None, str, str | None]] = []
            readings = _in_epoch(batch_unplaced(pairs(head, named_unknown) + pairs(post, named_unknown), s))
            if named_unknown and not any(r.field in (Field.LOSS, Field.EVAL_LOSS) for r in readings):
                headed = _headed_loss(named_unknown)  # (the textual-inversion bar's ``dataset loss: 0.1425575: 1%|…``)
                if headed is not None:
                    readings.append(headed)
                elif not parts:
                    # (a GAN's losses in Lightning's bar, none the model's: ``aeloss_step=1.41e+5, discloss_step=0.000``)
                    parts = _named_loss_parts(named_unknown)
            glued = _GLUED_EPOCH.search(head) or _STAGE_EPOCH_BAR.fullmatch(head)
            if glued is not None and not any(r.field is Field.EPOCH for r in readings):
                readings.append(Reading(Field.EPOCH, "epoch", float(glued.group(1))))
            # (``Generating train split``, ``Map``: a data set's bar, whose count is no training step)
            training = any(r.field is Field.LOSS for r in readings) or (_TRAINING.search(head) and not side_job(head))
            evaluation = _EVAL_START.match(head) is not None or _SPLIT_STAGE.search(head) is not None
            if training and not evaluation:
                drawn = _bar(bar)
                placed = _described_position(head, readings) if drawn.total is None else None
                if placed is not None:
                    # An unsized bar whose description prints where the epoch is (``Train Epoch: 19 [512000/819200
                    # (62%)]\tLoss: 0.011: : 1000it [37:36, 2.26s/it]``): the bracket is the record's position, the
                    # bar's count and pace those of its iterations, another unit
                    readings.append(placed)
                    return Kind.FULL, _Line("step", at, readings, text=s, parts=parts)
                line = _Line("step", at, readings, bar=drawn, text=s, parts=parts)
                if _BAR_EVAL_HINT.search(post) is not None:
                    line.named = tuple(n for n in beside(post) if n.kin is Kin.EVAL)  # (a bar's ``val_acc=0.91``)
                if "mem" in head or "mem" in post:
                    line.named = (*line.named, *memory_figures(head + " " + post))  # (YOLO's row: ``GPU_mem: 0.545G``)
                stepped = _ENV_STEP.search(post) if "env_step=" in post else None
                if stepped is not None:  # (tianshou's ``env_step=250000``: the environment's steps so far)
                    line.parts = (*line.parts, (ENV_TIMESTEPS, float(stepped.group(1))))
                counters = _COUNTERS.match(head)
                if counters is not None:
                    line.counters = _counted(counters)
                line.before = epochs  # (the outer bar drawn just before an inner one, on the same line: its epochs first)
                return Kind.FULL, line
            if (not training and self._last is None and self._spaced_columns and not head.strip()
                    and bar.group("n") == "0" and bar.group("m") not in (None, "0")):
                # the first bar under a table's header before its first row (YOLO's ``  0%|    | 0/3280 [00:00<?, ?it/s]``):
                # the run's first epoch begun, none of its batches done (banner.py)
                return Kind.FULL, _Line("bar_at_zero", at, bar=_bar(bar), text=s)
            if (self._last is not None or _LIGHTNING_VALIDATION.match(head)) and evaluation:
                # (a validation's own bar after training steps, Lightning's ``Validating:  40%|…| 4/10``, one named after
                # its epoch, ``Epoch 3/400 val: 100%|…| 289/289``: a pause, its count and pace the evaluation's; the
                # loss its description prints once full, ``Valid Epoch: 20 Loss: nan: 100%|…| 660/660``, is its result)
                losses = [r for r in readings if r.field in (Field.LOSS, Field.EVAL_LOSS)]
                return Kind.FULL, _Line("evaluating", at, losses[:1], bar=_bar(bar), text=s)
            return Kind.OTHER, None
        other = _other_bar(s, at)
        if other is not None and self._after_fit(other):
            # A full Keras bar after the last epoch's, of another count and with no loss: ``predict`` (``30/30 [====] - 3s
            # 97ms/step``, its time a prediction batch's) or ``evaluate`` (``- loss: … - acc: …``, no ``val_``) run after
            # ``fit`` on other data, no training step; ``evaluate``'s figures are that evaluation's (the test set's)
            loss = _first(other.readings, Field.LOSS)
            if loss is None:
                return Kind.FULL, _Line("other", at)
            first_name = _KERAS_FIGURE_NAME.search(s)
            figures = s[first_name.start() :] if first_name is not None else ""
            tested = "test " + _KERAS_FIGURE_NAME.sub("test ", figures)  # (``- acc: 0.87``: ``test acc: 0.87``)
            return Kind.FULL, _Line("eval", at, [Reading(Field.EVAL_LOSS, "test loss", loss.value)], text=tested)
        if other is not None and other.bar is not None and other.bar.elapsed is None and other.bar.total is not None:
            if other.bar.unit == "sample":
                self._sample_counts.said(other.bar.total)  # (tf.keras' ``…us/sample``: every bar of its total counts them)
            elif other.bar.unit is None and self._sample_counts.counts_samples(other.bar.step, other.bar.total):
                # a Keras bar of samples that does not say so on its line (``Train on N samples`` said it, or its counts
                # move a batch at a time): its count is the epoch's samples, its time (Keras 2's ``127us/step``) a sample's
                other.bar = replace(other.bar, unit="sample", seconds_note=(
                    sample_time_note(s) if other.bar.step_seconds is not None else None))
        if other is not None:
            return Kind.FULL, other
        if self._last is None and may_say_start(s):
            started = started_run(s)
            if started is not None:
                # a trainer's word that training starts, before any step (banner.py): a run begun, from the step it names
                said_total = [] if started.total is None else [Reading(Field.TOTAL, "total", float(started.total))]
                return Kind.FULL, _Line("begun", at, said_total, text=s,
                                        starts_from=None if started.step is None else (started.unit, started.step))
        if " epoch " in s and (of_epoch := figure_of_epoch(s)) is not None:
            s = of_epoch  # (a figure said of the epoch named after it: that epoch's record, prose_figures.py)
        unknown: list[tuple[str, str | None, str, str | None]] = []
        # (a network's loss with its parts in parentheses after its name: read apart, its parts never pairs of their own)
        groups = loss_groups(s) if "(" in s else None
        readings = _in_epoch(batch_unplaced(pairs(s if groups is None else groups.rest, unknown), s), s)
        if self._results_block:
            # (a row ends in its figure: a note under the rows, DL4J's ``Precision, recall & F1: macro-averaged
            # (equally weighted avg. of 10 classes)``, ends the block)
            block_said = block_figure([(r.name, r.value) for r in readings], unknown) if _ENDS_IN_FIGURE.search(s) else None
            self._results_block = block_said is not None
            if isinstance(block_said, tuple):
                # (``📊 Evaluation Results:`` then ``   Loss: 0.4887``, ``   Perplexity: 1.63``, a figure a line: that
                # evaluation's, at the step logged before it; record_figures.py)
                block_name, block_value = block_said
                return Kind.FULL, _Line("tie", at, text=s, named=(Named(Kin.EVAL, normalise(block_name), block_value,
                                                                        block_name),))
            if block_said:
                return Kind.FULL, None  # (a count it went through: ``Tokens: 2,982,385``)
        if not any(r.field in _ARGS_NOT for r in readings) or (
                self._last is None and whole_echo(s) and not any(r.field in (Field.LOSS, Field.EVAL_LOSS) for r in readings)):
            # (a whole echo of the arguments before any step counts no step: EfficientDet's ``{…, 'epochs': 10, 'steps': 4,
            # …}`` asks for 4 batches an epoch)
            planned_args = run_args(s)
            if planned_args is not None and (planned_args.epochs is not None
                                             or not any(r.field is Field.TOTAL for r in readings)):
                # the run's length in the arguments it echoes (run_args.py: ``Namespace(…, epochs=30, …)``); a count of
                # steps the line's own words read already is theirs (a record that ticks, LLaMA-Factory's
                # ``{"current_steps": 5, "total_steps": 250, …}``)
                planned_readings: list[Reading] = []
                if planned_args.epochs is not None:
                    planned_readings.append(Reading(Field.EPOCH, "epochs", 0.0, planned_args.epochs))
                if planned_args.steps is not None:
                    steps_name = planned_args.steps_key or "steps"
                    planned_readings.append(Reading(Field.TOTAL, steps_name, float(planned_args.steps)))
                return Kind.FULL, _Line("args", at, planned_readings, text=s)
        if not readings and self._last is not None and (step_scored := evaluated_at(unknown)) is not None:
            # (``eval at step 400: acc 0.71``, ``Eval at episode 90: average reward 40.0`` where the run counts episodes:
            # that step's evaluation, step_evals.py; never the position. An episode's where the run counts steps is at
            # no step it logged: no record, never its episode's count read as a figure)
            if step_scored[1] != self._last_counter:
                return Kind.FULL, None
            return Kind.FULL, _Line("tie", at, text=s, scored_step=step_scored[0], named=tuple(
                Named(Kin.EVAL, normalise(name), value, name) for name, value in step_scored[2]))
        if "eward" in s or "eturn" in s or "core" in s:
            readings = episode_line(readings, unknown, s)
        if not readings and unknown and "eward" in s:
            episode = episode_named(unknown)
            if episode is not None:
                readings.append(episode)  # (an RL loop's line per episode, no step: episodes.py)
        if (unknown and groups is None and not any(r.field in (Field.LOSS, Field.EVAL_LOSS) for r in readings)
                and _position(readings)):
            headed = _headed_loss(unknown)
            if headed is not None:
                readings.append(headed)
        if (unknown and not record and self._last is not None and "(" in s[:24]
                and not any(r.field in _RECORD_FIGURES for r in readings)
                and evaluation_stage(s[:24]) and _EPOCH_ITER.search(s) is None
                and (results := tuple(n for n in beside(s, True, unknown) if n.kin is Kin.EVAL))):
            # An evaluation's results, its stage named after its counter and no position of its batches (mmcv's
            # ``Epoch(val) [1][2]	accuracy_top-1: 22.0000, accuracy_top-3: 38.0000``): the last step's evaluation
            return Kind.FULL, _Line("tie", at, text=s, named=results)
        if (unknown and not record and len(readings) == 1 and self._last is not None
                and (position := _position(readings)) is not None
                and position.value == self._last[0] and (scored := position_scores(unknown)) is not None):
            # A record of the last step's evaluation scores alone, each a line of its own (TensorFlow 1's retrain
            # script: ``Step 90: Cross entropy = 0.031337`` then ``Step 90: Validation accuracy = 100.0% (N=100)``); never a
            # block of one figure a line gathered under its counter (Caffe's ``Test net output #0: …``), whose part is no whole
            return Kind.FULL, _Line("tie", at, text=s, named=tuple(scored))
        if (readings and self._last is not None and all(r.field in _TIMING_FIELDS for r in readings)
                and tied(s, known=True) is not None):
            # A line of the step's timing alone under it (``Step time: 0.52s``, ``elapsed: 0:12:30``): that step's
            return Kind.FULL, _Line("tie", at, readings, text=s)
        if (not readings and self._last is not None and len(unknown) == 1 and unknown[0][1] is None
                and unknown[0][3] is None and normalise(unknown[0][0]) in UNITLESS_NAMES and tied(s, known=True) is not None
                and (value := number(unknown[0][2])) is not None):
            # A stopwatch's time alone on its line, no unit printed (S3FD's and DSFD's ``Timer: 0.6720`` printed before
            # each record): shown as printed under its name, never taken for a step's seconds (docs/figures.md)
            return Kind.FULL, _Line("tie", at, text=s, named=(Named(Kin.TIME, normalise(unknown[0][0]), value,
                                                                     unknown[0][0]),))
        if (readings and unknown and self._last is not None
                and all(r.field in (Field.LOSS, Field.EVAL_LOSS) for r in readings)
                and (step_scored := evaluated_at(unknown, losses=True)) is not None
                and step_scored[1] == self._last_counter):
            # (``eval at step 400: acc 0.71, loss 1.95``: that step's evaluation, its loss the evaluation's, step_evals.py)
            its_losses = tuple(Named(Kin.EVAL, "val loss" if r.field is Field.LOSS else normalise(r.name), r.value,
                                     r.name) for r in readings)
            return Kind.FULL, _Line("tie", at, text=s, scored_step=step_scored[0], named=(*its_losses, *(
                Named(Kin.EVAL, normalise(name), value, name) for name, value in step_scored[2])))
        if not readings:
            if self._last is None and ("\t" in s or "  " in s) and table_header(s):
                # a table's header before its first row (spaCy v2's ``Itn.  Dep Loss  NER Loss …``): the run has begun
                return Kind.FULL, _Line("begun", at, text=s)
            planned = planned_epochs(s)
            if planned is not None:
                return Kind.FULL, _Line("epochs", at, [Reading(Field.EPOCH, "epochs", 0.0, planned)], text=s)
            banner = planned_run(s)
            if banner is not None:
                # a start banner's planned length in its own words (banner.py: kohya's ``total optimization steps /
                # 学習ステップ数: 1520``), said before any step
                if banner.unit == "epochs":
                    return Kind.FULL, _Line("banner_epochs", at, [Reading(Field.EPOCH, "epochs", 0.0, banner.count)], text=s)
                return Kind.FULL, _Line("total", at, [Reading(Field.TOTAL, banner.name, float(banner.count))], text=s)
            if "±" in s and self._last is not None:
                # tianshou's ``Epoch #5: test_reward: 200.000000 ± 0.000000, best_reward: … in #1``: the mean is the score
                rewarded = tuple(n for n in beside(_PLUS_MINUS.sub("", s)) if n.kin is Kin.EVAL)
                if rewarded:
                    return Kind.FULL, _Line("tie", at, text=s, named=rewarded[:1])
            if "=" in s and "/" in s and (benchmark := counted_score(s)) is not None:
                # (build-nanogpt's ``HellaSwag accuracy: 3045/10042=0.3032`` after its ``validation loss:``: the
                # benchmark's score, the fraction as printed, the step logged before it its)
                benchmark_printed, benchmark_name, fraction = benchmark
                benchmark_score = Named(Kin.EVAL, benchmark_name, fraction, benchmark_printed)
                return Kind.FULL, _Line("tie", at, text=s, named=(benchmark_score,))
            if "%" in s and _EVAL_START.match(s) and shares(s):
                # the PyTorch examples' ``Test Epoch: 33<TAB>Accuracy: 9466/11005 (86%)``: a test pass's result, its
                # score a count of a total and its share (no step of its own: the training records count those)
                return Kind.FULL, _Line("eval", at, text=s)
            # (before any step, an evaluation's scores alone: a paste that begins with the last one, DGL's ``Eval Acc 0.8398``)
            tied_figures = tied(s) if self._last is not None else scores(tied(s)) or self._rates_alone(tied(s))
            if tied_figures is not None:
                # (``Time elasped: 196.28`` under its step line, ``Eval Acc 0.9248`` after an epoch's)
                return Kind.FULL, _Line("tie", at, text=s, named=tuple(tied_figures))
            if self._last is None and (prose_said := one_figure(text)) is not None:
                # (rl_replicas' ``Loss of the current policy:         -0.0405`` in a log that prints no step: a figure
                # written in prose, with the ones on the lines before it a logged record, prose_figures.py)
                return Kind.FULL, self._prose_line(prose, prose_said, at, s)
            if self._evaluation_next and (prose_said := one_figure(text)) is not None and prose_figure(*prose_said):
                # (RLCard's ``Average reward is -0.376`` under its ``########## Evaluation ##########`` heading after a
                # step: that evaluation's figure, written in prose, tied to the step as printed)
                self._evaluation_next = False
                name, value = prose_said
                return Kind.FULL, _Line("tie", at, text=s, named=(Named(Kin.EVAL, normalise(name), value, name),))
            if _saving(s):
                return Kind.FULL, _Line("pause", at, text=s)
            if self._last is not None and len(s) < 80 and _RESUMED.search(s):
                # (demucs' ``- Training...`` after its valid summary, an ASR trainer's ``- TRAIN`` after ``VALID``)
                return Kind.FULL, _Line("resumed", at, text=s)
            # Only a piece of a ``|``-separated record continues a wrapped one: a traceback or a
            # warning after a cut record stays a line of its own, for whoever reads it.
            return (Kind.OTHER if "|" in s else Kind.FULL), None
        if "@ " in s and ", mean " in s:
            readings.extend(_day_clocks(s))
        if "|" in s and not any(r.field is Field.ELAPSED for r in readings):
            readings.extend(_last_clock(s))
        if (" elapsed" in s or s.endswith(" sec")) and not any(r.field is Field.ELAPSED for r in readings) \
                and (clock := value_elapsed(s)) is not None:
            readings.append(Reading(Field.ELAPSED, "elapsed", clock))  # (OpenNMT-py's ``… 18163 s elapsed``: run_clock.py)
        lone = lone_figure(unknown, readings) if unknown and not record and groups is None else None
        if lone is not None and self._last is not None and _evaluated_step(lone[0], readings, self._last):
            # (``Step 200 accuracy: 0.81`` after ``Step 200 loss 2.20``, ``Step 50 acc: 0.8123`` after step 200: a
            # score at a step already logged is that step's evaluation, filed at the step it names, never a step,
            # never the position going back)
            position = _position(readings)
            return Kind.FULL, _Line("tie", at, text=s, named=tuple(
                Named(Kin.EVAL, normalise(name), value, name) for name, value in lone[0]),
                scored_step=int(position.value) if position is not None else None)
        if lone is None and unknown and not record and groups is None:
            lone = generation_figures(unknown, readings)
        line = _Line("step", at, readings, text=s, train=trained)
        if lone is not None and lone[1]:
            (line.loss_note, lone_loss), = lone[0]
            readings.append(Reading(Field.LOSS, "loss", lone_loss))
        elif lone is not None:
            line.parts = tuple((FIGURE_PART + name, value) for name, value in lone[0])
        if unknown and not any(r.field in (Field.STEP_TIME, Field.ITS) for r in readings):
            line.unitless_seconds = _unitless_seconds(unknown)
        counters = _COUNTERS.match(s)
        if "l_" in s and not any(r.field is Field.LOSS for r in readings):
            named = [(name, value) for name, text in _L_LOSS.findall(s) if (value := number(text)) is not None]
            if len(named) == 1:
                readings.append(Reading(Field.LOSS, "loss", named[0][1]))
                line.loss_note = named[0][0]
            elif named:
                line.parts = tuple((LOSS_PART + name, value) for name, value in named)
        if groups is not None and _position(readings) is not None:
            line.parts = (*line.parts, *_grouped_losses(groups, unknown))
        if trained and "FPS: " in s:
            fps = _LTR_FPS.search(s)
            if fps is not None:
                # (pytracking's ``FPS: 4.0 (7.9)``: samples a second, the run's mean then the last batch's)
                line.parts = (*line.parts, ("samples_per_second", float(fps.group(1))))
        if "ips: " in s:
            ips = _PADDLE_IPS.search(s)
            if ips is not None:
                line.parts = (*line.parts, ("samples_per_second", float(ips.group(1))))
        lossy = any(r.field is Field.LOSS for r in readings)
        if counters is not None and lossy:
            line.counters = _counted(counters)
        elif lossy and "%)]" in s and not any(r.field is Field.STEP for r in readings):
            progress = _PROGRESS.search(s)
            if progress is not None:
                # The position in the epoch's samples or batches, when the line names its epoch.
                if not any(r.field is Field.EPOCH for r in readings):
                    stage_epoch = _STAGE_EPOCH.search(s[: progress.start()])
                    if stage_epoch is not None:
                        readings.append(Reading(Field.EPOCH, "epoch", float(stage_epoch.group(1))))
                epoch_known = any(r.field is Field.EPOCH for r in readings)
                readings.append(Reading(Field.STEP, EPOCH_POSITION if epoch_known else "position",
                                        float(progress.group(1)), int(progress.group(2))))
        elif ("][" in s or "]  [" in s or "] [" in s) and not any(r.field is Field.STEP for r in readings):
            nested = _EPOCH_ITER.search(s)
            if nested is not None and evaluation_stage(nested.group(0)):
                # mmengine's ``Epoch(val) [2][3550/21046]``: a validation pass's batches after the epoch, under way; its
                # ``time`` and ``eta`` are the evaluation's, none of them a training step's
                epoch, done, batches = (int(nested.group(i)) for i in (1, 2, 3))
                return Kind.FULL, _Line("evaluating", at, [Reading(Field.EPOCH, "epoch", float(epoch))],
                                        bar=_Bar(done, batches, None, None, None), text=s)
            if nested is not None:
                # The iteration counts its epoch's batches: the total and the ``eta`` beside it are
                # the epoch's, and the epoch stays beside the step.
                readings.append(Reading(Field.STEP, EPOCH_POSITION, float(nested.group(2)), int(nested.group(3))))
                # mmengine's ``Epoch(train) [1][50/1000]`` and mmcv's ``Epoch [1][50/1000]`` print the run's
                # ``eta``; torchvision's MetricLogger (``Epoch: [0]``) its epoch's.
                line.run_eta = not nested.group(0)[5:].lstrip().startswith(":")
                if not any(r.field is Field.EPOCH for r in readings):
                    readings.append(Reading(Field.EPOCH, "epoch", float(nested.group(1))))
                _iteration_time(s, readings)
        elif s[:1] == "E" and "; " in s and not any(r.field is Field.STEP for r in readings) and (
                epoch_count := _EPOCH_COUNT.match(s)) is not None and int(epoch_count.group(3)) > 0:
            # OpenNMT-py's (and its forks') ``Epoch  2,   550/  725; acc: …; ppl: …; 5187 src tok/s; …``: the epoch's
            # batches done of its own, no loss printed (accuracy and perplexity only)
            readings.append(Reading(Field.STEP, EPOCH_POSITION, float(epoch_count.group(2)), int(epoch_count.group(3))))
        elif lossy and "/" in s and not any(r.field is Field.STEP for r in readings):
            in_epoch = _EPOCH_POSITION.search(s)
            bracketed = _EPOCH_BRACKETED.match(s) if in_epoch is None and "]" in s else None
            if in_epoch is not None:
                readings.append(Reading(Field.STEP, EPOCH_POSITION, float(in_epoch.group(2)), int(in_epoch.group(3))))
            elif bracketed is not None and int(bracketed.group(3)) > 0:
                # The epoch leads, its batches follow in brackets with no percentage (timm's ``Train: 3 [   0/246]
                # Loss: …`` as forks print it, ``Train EP:0 [1/529] loss: …``): the count is the epoch's.
                readings[:] = [r for r in readings if r.field is not Field.EPOCH]
                readings.append(Reading(Field.EPOCH, "epoch", float(bracketed.group(1))))
                readings.append(Reading(Field.STEP, EPOCH_POSITION, float(bracketed.group(2)), int(bracketed.group(3))))
            elif s.endswith("]") and (end := _END_POSITION.search(s)) is not None and int(end.group(2)) > 0:
                epoch_known = any(r.field is Field.EPOCH for r in readings)
                readings.append(Reading(Field.STEP, EPOCH_POSITION if epoch_known else "position",
                                        float(end.group(1)), int(end.group(2))))
        elif lossy and "/" in s and "epoch" in s[:40].lower():
            in_epoch = _EPOCH_POSITION.search(s)
            if in_epoch is not None and int(in_epoch.group(3)) > 0:
                # fairseq's ``| epoch 001:    650 / 1891 loss=…, num_updates=645``: the run's step is its update, the
                # position in the epoch is shown beside it
                line.parts = ((IN_EPOCH, float(in_epoch.group(2))), (EPOCH_STEPS, float(in_epoch.group(3))))
        # An epoch with the learning rate it begins with and nothing else is the epoch begun, no record of it (``Epoch: 8``
        # then ``Learning rate: 0.049932`` over the epoch's bar, a ResNet trainer's)
        line.begun = (not lossy and not unknown and {r.field for r in readings} == {Field.EPOCH, Field.LR})
        figured = not line.begun and (lossy or any(r.field in _FIGURES for r in readings) or _own_figure(line)
                                      # (a GAN's losses a network each, none the model's: CTGAN's ``Epoch 1, Loss G:
                                      # 1.7863,Loss D: -0.3639``)
                                      or ("oss" in s and bool(_part_losses(s))))
        if figured and not self._counted_steps and not any(r.field is Field.STEP for r in readings):
            # ``Epoch 005 loss 9.5198 | train 2.2s``: a loop that logs once an epoch counts its
            # epochs; the epoch that leads the record is its position (a log of step lines keeps
            # its steps: an epoch's summary there is no step).
            epoch = _first(readings, Field.EPOCH)
            if epoch is not None and epoch.value.is_integer() and _EPOCH_LEADS.match(s) and not _FRACTIONAL_EPOCH.match(s):
                readings.append(Reading(Field.STEP, "epoch", epoch.value, epoch.total))
                share = _EPOCH_SHARE.match(s)
                if share is not None and float(share.group(1)) == epoch.value and float(share.group(2)) <= 100:
                    # a line a share of the epoch, not an epoch a line: its position is the epoch and that share
                    line.epoch_percent = float(share.group(2))
        if ("Iter(" in s[:40] and _ITER_BASED.search(s[:40])) or ("iter: " in s and _D2_ITER.search(s)) or (
                ("data_time: " in s or "DataTime: " in s) and _position(readings) is not None):
            # (a bare ``time:`` beside the loader's ``data_time:`` is the iteration's, in seconds: detectron2's and
            # mmcv's loggers, whatever their ``eta`` looks like (``eta: 2 days, 12:32:45``); dcgan.torch's ``Time: 0.127
            # DataTime: 0.000``, its torch.Timer's real seconds)
            _iteration_time(s, readings)
        if not any(r.field is Field.STEP_TIME for r in readings):
            bare = _BARE_DURATION.search(s)
            if bare is not None and line.counters is not None:
                value = number(bare.group(1))
                if value is not None:
                    seconds = value / 1000 if bare.group(2) == "ms" else value
                    line.readings.append(Reading(Field.STEP_TIME, "duration", seconds))
        if (not lossy and "nd of epoch" in s[:24] and any(r.field is Field.EVAL_LOSS for r in readings)
                and _EPOCH_CLOSED.match(s)):
            # The record that closes an epoch with its validation (PyTorch's word_language_model: ``| end of epoch   5 |
            # time: 35.32s | valid loss   nan | valid ppl      nan``): that evaluation's figures; its time is the
            # epoch's, no step's, said beside the epoch's last step
            took = [r.value for r in readings if r.field is Field.STEP_TIME and r.name == "time"]
            readings[:] = [r for r in readings if r.field is not Field.STEP_TIME]
            line.what = "eval"
            if took:
                line.before = _Line("tie", at, text=s, named=(Named(Kin.EPOCH_TIME, "epoch time", took[0], "time"),))
            return Kind.FULL, line
        if _EVAL_START.match(s) or ("on" in s and _EVAL_ON.search(s[:120])) or (
                ": " in s and _EVAL_STAGE.search(s[:120])) or (s[:1] == "*" and STARRED_SUMMARY.match(s)) or (
                not lossy and _STAGE_AFTER_COUNTER.match(s)):
            passing = evaluation_position(s)
            if passing is not None:
                # an evaluation pass's batches under way (MetricLogger's ``Test:  [ 100/5000]  eta: … model_time: …
                # time: …``): its times are the evaluation's, none a training step's; the running figures it prints
                # (``loss: 0.3880 (0.4688)  acc1: 89.0625 (87.5000)``) are the pass's so far, its result is printed
                # once its batches are done (DeiT's ``* Acc@1 88.381 Acc@5 96.779 loss 0.445``); a loss at its total is it
                losses = [r for r in readings if r.field in (Field.LOSS, Field.EVAL_LOSS)]
                return Kind.FULL, _Line("evaluating", at, losses[:1] if passing[0] >= passing[1] else [],
                                        bar=_Bar(passing[0], passing[1], None, None, None), text=s)
            own_count = _position(readings)
            if (own_count is not None and own_count.total is None and self._last is not None
                    and all(r.field in (Field.STEP, Field.EPOCH) for r in readings)
                    and all(normalise(name).rsplit(" ", 1)[-1] == "epoch" for name, *_ in unknown)):
                # an evaluation pass counting its own iterations after training, no total and no figure (Jittor's
                # ``Test in epoch 49 iteration 2`` after ``Training in epoch 49 iteration 178 loss = …``): the pass is
                # under way, its count is the evaluation's, not the training's position
                return Kind.FULL, _Line("evaluating", at, bar=_Bar(int(own_count.value), None, None, None, None), text=s)
            line.what = "eval"
            return Kind.FULL, line
        line = _decide(line)
        if line.what == "epoch" and unknown and self._last is not None and (split_said := scores_of_split(s, unknown)):
            # (``Epoch 16 - Validation BLEU: BLEU-1 73.94, …`` after epoch 16's lines: that split's scores at that epoch,
            # named with the split's word; record_figures.py)
            return Kind.FULL, _Line("tie", at, text=s, named=tuple(
                Named(Kin.EVAL, normalise(name), value, name) for name, value in split_said))
        line.of_round = of_round
        if line.what == "eval" and self._on_from_last(readings):
            # (``Epoch 1 Step 30 | Loss: 2.12 | Avg Loss: 2.33 | eval_loss: 2.50`` after ``… Step 20 | Loss: 2.20 | …``:
            # the training's own record under its own counter, gone on, with its evaluation beside: the step and its
            # evaluation, never an evaluation that leaves the run behind at step 20)
            line.what, line.evaluation = "step", True
        if table_row and (line.what == "other" or (line.what == "epoch" and not line.begun)):
            # A row under a header that names its position column (YOLO's ``Epoch``): the row is that position's
            # record, whatever of its figures tokwatch knows (``box_loss``, ``cls_loss`` are parts of a loss). (An epoch
            # and its learning rate alone, one a line under its counter, stay the epoch begun.)
            position = _position(readings) or _first(readings, Field.EPOCH)
            if position is not None:
                if position.field is Field.EPOCH:
                    readings.append(Reading(Field.STEP, "epoch", position.value, position.total))
                line.what = "step"
        if line.what == "other" and ("return" in s or "reward" in s) and unknown and _position(readings) is not None:
            line = _returned(line, s, unknown)
        if line.what in ("other", "step") and "loss/" in s and not (parts or line.parts) and _position(readings):
            # dreamerv3's ``train/loss/image: 61.08 | train/loss/rew: 0.52``: a loss printed in its parts, each named
            # after its ``loss/``; its rates (``fps/train``) beside them under their names
            path_losses = _path_losses(s)
            if path_losses:
                line.what, parts = "step", (*path_losses, *_path_rates(s))
        if parts and line.what == "step":
            line.parts = parts
        if line.what == "step" and unknown and _BESIDE_HINT.search(s) is not None:
            # (a step record's evaluation scores beside it, one in per cent as printed: ``Test Acc: 85.20%``)
            line.named = tuple(beside(s, unknown=unknown, in_shares=True))
        if line.what in ("other", "step") and len(readings) == 1 and readings[0].name == "episode" and not any(
                n.kin is Kin.REWARD for n in line.named):
            said_reward = episode_reward(s)
            if said_reward is not None:
                # an RL loop's line per episode, its reward beside it and no step (``Episode: 59, Actions: 2351,
                # reward: -18, Avg. reward: -19.900``): the episode is its position, its mean reward the figure
                figure, mean, label = said_reward
                line.what, line.named = "step", (
                    Named(Kin.REWARD, "avg reward" if mean else "episode reward", figure, label or "reward"),
                    *(line.named or (n for n in beside(s, unknown=unknown) if n.kin is Kin.TIME)),
                    *episode_env_steps(unknown))
        if (line.what == "step" and unknown and not _own_figure(line)
                and (lossy or any(n.kin is Kin.REWARD for n in line.named))):
            # (a record's other figures beside its loss or reward, each under its own name: Keras' CSVLogger's
            # ``accuracy``, a second loss's ``Train L1 Loss``, an RL loop's ``Win Rate: 18.00%``; record_figures.py)
            line.parts = (*line.parts, *record_figures(unknown, frozenset(n.value for n in line.named)))
            if any(r.field is Field.EVAL_LOSS for r in readings):
                # (the validation's half of a record that names its figures as training's do: ``Val Loss: 8.65 | Token
                # Acc: 0.0683`` after ``Train Loss: 8.66 | Token Acc: 0.0682``, the second its; record_figures.py)
                own_twins, twins = split_twins(s, unknown)
                if twins:
                    line.parts = (*line.parts, *own_twins)
                    line.named = (*line.named, *(Named(Kin.EVAL, normalise(name), value, name) for name, value in twins))
                    line.evaluation = True  # (each record prints its validation: its figures are this epoch's, even unchanged)
        if line.what == "step" and ("mem" in s or "Mem" in s or "MEM" in s or "B used" in s):
            line.named = (*line.named, *memory_figures(s))  # (``max_mem: 2372M``, ``Peak mem 2.334 GB``, as printed)  # (``fps: 49``, ``val_acc: 0.91``: figures no rule names, by their names)
        if line.what == "step" and _cut(s):
            return Kind.PARTIAL, None  # a terminal wrapped the record: its rest follows
        header = self._epoch_header
        if (line.what == "other" and header is not None and not self._counted_steps and not line.parts and '"' not in s
                and any(r.field is Field.LOSS for r in readings) and all(r.field in _FIGURES for r in readings)):
            # An epoch said alone, its figures on lines of their own under it (``Epoch 2/10``, then `` Loss: 0.5000``):
            # the first figures are that epoch's record
            line.readings += [Reading(Field.EPOCH, "epoch", header.value, header.total),
                              Reading(Field.STEP, "epoch", header.value, header.total)]
            line.what = "step"
        if line.what == "other":
            summed = _summary_loss(self._full_epoch, s, readings)
            if summed is not None:
                # the epoch's own record after the bar of its batches (the bar counted the epoch; no step of its own)
                return Kind.FULL, _Line("epoch_loss", at, [summed], text=s)
            if self._last is not None and self._counted_steps and ("omplete" in s or "inish" in s or "one" in s or "nded" in s):
                summary = epoch_summary(s)
                if summary:
                    # (``Epoch 49 completed | Average loss: 0.0278`` after step lines: that epoch's summary, its loss no
                    # step's; record_figures.py)
                    return Kind.FULL, _Line("epoch_summed", at, text=s, parts=summary)
            if self._last is None and not parts and (prose_said := one_figure(text)) is not None:
                # (the same, its name one the grammar reads: ``Policy loss: 0.12`` on its own, no step beside it)
                return Kind.FULL, self._prose_line(prose, prose_said, at, s)
            if _saving(s):
                return Kind.FULL, _Line("pause", at, text=s)
            if self._unplaced_epoch and lossy and not any(r.field is Field.STEP for r in readings):
                summed = _first(readings, Field.EPOCH)
                if summed is not None and summed.total is not None and summed.value.is_integer():
                    # PccAI's ``Epoch: 3/3 --- time: 1134.98, lr: 0.0008, …, avg_loss: 0.106102`` after its ``batch count:
                    # 300/308`` lines: the epoch those batches were in, said as it ends
                    return Kind.FULL, _Line("epoch_summary", at, [summed], text=s)
                loss = _first(readings, Field.LOSS)
                if (summed is not None and summed.value.is_integer() and loss is not None and self._unsized_last is not None
                        and _EPOCH_LEADS.match(s)):
                    # DGL GraphBolt's ``Epoch 00001 | Loss 0.5345 | Accuracy 0.8912`` after its unsized ``Training:
                    # 1178it`` bar: the epoch that pass was, ended, its loss the epoch's; the next pass the next epoch's
                    return Kind.FULL, _Line("pass_summary", at, [summed], text=s,
                                            before=_Line("epoch_loss", at, [loss], text=s))
            if self._epoch_open is not None and _EPOCH_SUMMARY.search(s):
                epoch = _first(readings, Field.EPOCH)
                if epoch is not None and epoch.value == self._epoch_open.epoch:
                    # ``Train Summary | Epoch 35 | Loss=0.1127``: the epoch it counted batches of is done
                    return Kind.FULL, _Line("epoch_done", at, text=s)
            return (Kind.OTHER if "|" in s else Kind.FULL), None
        return Kind.FULL, line

    def _throughput_under_step(self, s: str, at: float | None) -> _Line | None:
        """DeepSpeed's ThroughputTimer line printed under the engine's own step line, at that step (throughput_timer.py):
        the step's samples a second. None: no such line, or its count is not the step just read (a log of timer lines
        alone counts its steps by them)."""
        timer = throughput_timer(s)
        if timer is None or self._last is None or timer[0] != self._last[0] or timer[1] is None:
            return None
        return _Line("tie", at, text=s, named=(timer[1],))

    def _prose_line(self, held: _ProseRecord | None, figure: tuple[str, float], at: float | None,
                    s: str) -> _Line | None:
        """A figure written in prose on a line of its own, in a log that numbers no step (yet): with the ones on the lines
        just before it, one logged record of the loop's (prose_figures.py); a name printed again begins the next record.
        None when its name says no figure tokwatch knows (the record goes on: ``Average Episode Length: 46`` in a block)."""
        name, value = figure
        record = held if held is not None and name not in held.names else _ProseRecord(set(), {})
        continues = record is held and bool(record.figures)  # (its record was given already: this completes it)
        record.names.add(name)
        self._prose = record
        known = prose_figure(name, value)
        if known is None:
            return None
        record.figures[known[0]] = known[1]
        return _Line("logged", at, text=s, parts=tuple(record.figures.items()), continues=continues)

    def _fit_closes(self, line: _Line) -> None:
        """Remember the count of a full Keras bar under the run's last epoch (``Epoch 100/100``): ``fit`` is over."""
        bar, said = line.bar, self._fit_epoch
        if (line.epoch_above and bar is not None and bar.total is not None and bar.step >= bar.total and said is not None
                and said.total is not None and said.value >= said.total):
            self._fit_bar = bar.total

    def _after_fit(self, line: _Line) -> bool:
        """Whether a Keras bar is a pass run after ``fit`` closed: full, its count not the last epoch's, and no
        validation's figure on it (``predict`` prints none, ``evaluate`` its loss and metrics, never a ``val_`` one)."""
        bar = line.bar
        return (self._fit_bar is not None and line.epoch_above and bar is not None and bar.total is not None
                and bar.step >= bar.total and bar.total != self._fit_bar and not line.named
                and not any(r.name.startswith("val") for r in line.readings))

    def _samples_bar(self, s: str, at: float | None) -> tuple[Kind, _Line | None] | None:
        """A Keras bar whose total is the samples ``fit`` said it trains on: a full one is its epoch's line (its step
        the epoch, its time the epoch's as printed), one part-way counts samples into the epoch and is no step. No
        step's time either: ``…us/step`` beside it is a sample's."""
        keras = keras_line(s)
        if keras is None or keras.count is None or keras.count[1] != self._train_samples or "/sample" in keras.rest:
            return None  # (tf.keras' ``…us/sample`` says its unit itself: a sample's time, read as printed)
        done, total = keras.count
        if done < total:
            return None  # (read as any Keras bar: its count the epoch's samples, SampleCounts told by ``Train on``)
        line = _Line("step", at, keras.readings, text=s, epoch_above=True, epoch_seconds=keras.bar_seconds or 0.0)
        if _BAR_EVAL_HINT.search(keras.rest) is not None:
            line.named = tuple(n for n in beside(keras.rest) if n.kin is Kin.EVAL)
        return Kind.FULL, line

    def _dashed_line(self, text: str, above: str) -> _Line | None:
        """A table whose header a rule of dash runs underlines (spaCy's ``E    #       LOSS TOK2VEC  LOSS NER  ENTS_F
        …  SCORE`` over ``---  ------  ------------ …``): the runs cut the header into its names, which may hold spaces.
        A row of as many numbers is a step (``#``, or a step's name) in its epoch (``E``); one ``LOSS …`` column is
        the loss (several: each a part's, none the model's), the others that step's evaluation. Returns the rule's
        or a row's line (a rule: what ``other``), None for any other line (which ends the table)."""
        if text[:3] == "---" and _DASH_RULE.fullmatch(text.rstrip()):
            spans = [m.span() for m in re.finditer(r"-+", text)]
            names = [above[a:b].strip() for a, b in spans]
            if all(names) and (names[1] == "#" or lookup(normalise(names[1]))[0] is Field.STEP):
                self._dashed = names
                return _Line("other", None)
            self._dashed = []
            return None
        cells = text.split()
        if not self._dashed:
            return None
        if len(cells) != len(self._dashed) or not all(_DASHED_VALUE.fullmatch(c) for c in cells):
            self._dashed = [] if cells and cells[0] != self._dashed[0] else self._dashed  # (the header repeats)
            return None
        readings: list[Reading] = []
        losses = [name for name in self._dashed if name.upper().startswith("LOSS ")]
        for name, cell in zip(self._dashed, cells, strict=True):
            value = float(cell)
            if name == "#" or lookup(normalise(name))[0] is Field.STEP:
                readings.append(Reading(Field.STEP, "step", value))
            elif name == "E" or lookup(normalise(name))[0] is Field.EPOCH:
                readings.append(Reading(Field.EPOCH, "epoch", value))
            elif name in losses:
                if len(losses) == 1:
                    readings.append(Reading(Field.LOSS, "loss", value))
            else:
                readings.append(Reading(Field.EVAL_LOSS, normalise(name), value))
        line = _Line("step", self._times.at, readings, text=text, loss_note=losses[0] if len(losses) == 1 else None)
        if len(losses) > 1:
            # (each of several a part's, shown under the name printed: ``LOSS TOK2VEC``, ``LOSS NER``)
            line.parts = tuple((LOSS_PART + name, float(cell)) for name, cell in zip(self._dashed, cells, strict=True)
                               if name in losses)
        line.evaluation = True  # (the row is printed when the step is evaluated: its scores are that step's)
        return line

    def _train_row_loss(self, cells: list[str]) -> float | None:
        """The loss in the training set's row of a box-drawn table by data split (Ludwig's ``│ train │ 0.9779 │ -0.1092
        │`` under ``│ y │ loss │ error │``): the column its header names ``loss``, the latest step's; None for any other
        row, and before any step (an evaluation alone says nothing of the training's loss)."""
        columns = self._split_columns
        if (self._last is None or not columns or len(cells) != len(columns) or cells[0].lower() not in _TRAIN_SPLITS
                or "loss" not in (named := [c.lower() for c in columns[1:]])):
            return None
        return number(cells[1 + named.index("loss")])

    def _box_split(self, cells: list[str]) -> str | None:
        """A box-drawn table of figures by data split (Ludwig's and tabulate's ``│ Survived │ loss │ roc_auc │``
        over ``│ vali │ 0.4184 │ 0.8406 │``): None for its header row (remembered), a row as ``vali loss: 0.4184 |
        vali roc_auc: 0.8406`` (an evaluation's figures, named for its split), "" for any other record."""
        columns = self._split_columns
        if columns and len(cells) == len(columns) and cells[0].lower() in _SPLITS and all(
                number(c) is not None for c in cells[1:]):
            return " | ".join(f"{cells[0]} {name}: {value}" for name, value in zip(columns[1:], cells[1:], strict=True))
        if 2 <= len(cells) <= _BOX_CELLS and all(_COLUMN_NAME.fullmatch(c) and number(c) is None for c in cells) and any(
                "loss" in c.lower() for c in cells[1:]):
            self._split_columns = cells
            return None
        self._split_columns = []
        return ""

    def _slashed_line(self, text: str) -> tuple[bool, str | None]:
        """A record under a rule naming its step (dreamerv3's ``──── Step 15104 ────``, then its figures, ``name
        value`` joined by `` / `` and wrapped at the terminal's width, then a blank line): (True, None) while its
        lines are held, (True, record) at the blank line that closes it, (False, None) for a line of no such record."""
        title = _RULED_STEP.match(text)
        if title is not None:
            self._slashed = [title.group(1).replace("_", "").replace(",", "")]
            return True, None
        held = self._slashed
        if held is None:
            return False, None
        body = text.strip()
        if body and len(held) <= _SLASHED_LINES:
            held.append(body)
            if body.endswith("/") or _SLASHED_PAIR.fullmatch(body.rsplit(" / ", 1)[-1]) is None:
                return True, None  # wrapped at the terminal's width (after a ``/``, or between a name and its value)
            body = ""
        self._slashed = None
        record = _slashed_pairs(" ".join(held[1:]))
        if record is None:
            return (not text.strip()), None
        return True, f"step: {held[0]} | {record}"

    def _spaced_row(self, s: str) -> str | None:
        """A table whose columns line up under a header of names (ultralytics' ``Epoch  GPU_mem  box_loss …``,
        then ``13/30  13.1G  1.822 …``, a bar after the last cell): a row as ``name: value | …`` pairs with
        what follows it; None for a header row (remembered); "" for any other line (which ends the table, unless
        the header repeats)."""
        cells = s.split()
        columns = self._spaced_columns
        if columns and len(cells) == len(columns) and _SPACED_POSITION.fullmatch(cells[0]):
            # A column of marks (skorch's ``cp``: ``+`` where the epoch saved a checkpoint, blank where it did not):
            # no figure, and its blank leaves a row a cell short; the column is known by its mark, then read past
            self._spaced_marks |= {columns[k] for k, cell in enumerate(cells) if k and cell in _MARKS}
        if self._spaced_marks and columns:
            columns = [name for name in columns if name not in self._spaced_marks]
            cells = [cell for cell in cells if cell not in _MARKS]
            s = " ".join(cells)
        if columns and len(cells) < len(columns):
            columns = cut_row_columns(columns, cells) or columns  # (a YOLO row cut at the terminal's width: yolo_rows.py)
        if columns and len(cells) >= len(columns) and _SPACED_POSITION.fullmatch(cells[0]):
            values = cells[: len(columns)]
            values[-1] = values[-1].removesuffix(":")
            if all(_SPACED_VALUE.fullmatch(v) for v in values):
                rest = s.split(None, len(columns))[len(columns):]
                by_epoch = lookup(normalise(columns[0]))[0] is Field.EPOCH
                if self._spaced_first:
                    # A row an epoch (no step column beside it) whose first row is 0 counts from 0: each row is written
                    # as its epoch ends (fastai's Recorder logs its loop's ``self.epoch``, 0 for the first), so row N
                    # says N + 1 epochs are done (the master bar beside it, ``[4/25 00:13<01:10]`` after rows 0-3 in
                    # timeseriesAI/tsai#639). Beside a step column (``Epoch  Iter  Loss``) the epoch is the one under
                    # way, as printed.
                    a_row_an_epoch = by_epoch and not any(lookup(normalise(name))[0] is Field.STEP for name in columns[1:])
                    self._spaced_from_zero, self._spaced_first = a_row_an_epoch and values[0] == "0", False
                if self._spaced_from_zero and values[0].isdigit():
                    values[0] = str(int(values[0]) + 1)
                # A row an epoch (fastai's ``epoch  train_loss  valid_loss  accuracy  time``): its ``time`` is that
                # epoch's, the step's; skorch's ``dur`` (``epoch  train_loss  valid_acc  valid_loss  dur``) is too, in
                # seconds printed without their unit (skorch's PrintLog: the epoch's wall-clock difference).
                names = [("step time" if name.lower() in ("time", "dur") and by_epoch else name) for name in columns]
                for k, name in enumerate(columns):
                    if name.lower() == "dur" and by_epoch and number(values[k]) is not None:
                        values[k] += "s"
                lowered = [name.lower() for name in names]
                if "valid_loss" in lowered:
                    # (the metrics after the validation loss are the validation's: fastai computes them on the
                    # validation set only, fastai/fastai#1691)
                    names = [f"valid_{name}" if k > lowered.index("valid_loss") and name != "step time"
                             and not _SPLIT_PREFIX.match(name) else name for k, name in enumerate(names)]
                if "total" in names and any(normalise(name) == "gpu mem" for name in names):
                    names[names.index("total")] = "total_loss"  # an older YOLO's sum of its losses' parts
                pairs_text = " | ".join(f"{name}: {value}" for name, value in zip(names, values, strict=True))
                self._row_parts = _loss_parts(names, values)
                # (a bar after the row, when whole: its count and rate; one cut at the terminal's width before its clock
                # is dropped)
                whole_bar = bool(rest) and "]" in rest[0] and "/" in rest[0]
                if rest and not whole_bar:
                    # ultralytics' own bar since 8.3 (``100% ━━━━━━━━━━━━ 8/8 4.6it/s 1.7s``): as tqdm's, whole
                    drawn = _PLAIN_BAR.search(rest[0])
                    if drawn is not None:
                        n, m, rate, unit, elapsed = drawn.groups()
                        whole = int(float(elapsed))  # (tqdm's clock keeps whole seconds)
                        return f"{pairs_text} {n}/{m} [{whole // 60:02d}:{whole % 60:02d}, {rate}{unit}]"
                    timed = _ELAPSED_BAR.fullmatch(rest[0].strip()) or _CUT_BAR.fullmatch(rest[0].strip())
                    if timed is not None:
                        # YOLOv5's bar since its format printed no rate (``100%|██████████| 1849/1849 13:15``), or a bar
                        # whose rate the terminal's width cut: its count, and its clock over it
                        return f"{pairs_text} {timed.group(1)}/{timed.group(2)} [{timed.group(3)}]"
                return pairs_text + (" " + rest[0] if whole_bar else "")
        if 3 <= len(cells) <= _TABLE_COLUMNS and ("  " in s or "\t" in s) and all(_SPACED_NAME.fullmatch(c) for c in cells):
            known = [lookup(normalise(c))[0] for c in cells]
            if known[0] in (Field.STEP, Field.EPOCH) and (len(cells) >= 4 or any("loss" in c.lower() for c in cells)):
                self._spaced_columns, self._spaced_first, self._spaced_marks = cells, True, frozenset()
                return None
        # (A line between the header and its row, such as YOLO's validation ``all  787  2054 …`` printed on another
        # stream, keeps the table: only another position header replaces it.)
        return ""

    def _class_row(self, s: str, at: float | None) -> _Line | None:
        """A per-class evaluation table (ultralytics' and YOLOv5's validation: ``Class  Images  Instances
        Box(P  R  mAP50  mAP50-95): 100%|…|`` over ``all  722  1444  0.994  0.995  0.995  0.734``): its header
        names the metrics, its ``all`` row (every class at once) is the evaluation's figures, each class's own
        row is no figure of the run's. Returns the ``all`` row's evaluation, an empty line for the header or
        another row of the table, None for a line that is neither (which ends the table)."""
        cells = s.split()
        if cells[0] in ("Class", "classes"):  # (``classes  top1_acc  top5_acc``: a classifier's validation)
            names, cut = _class_metrics(s)
            if names:
                self._class_columns, self._class_cut = names, cut
                return _Line("other", at)
        columns = self._class_columns
        if (not columns or len(cells) < len(columns) or (len(cells) > len(columns) and not self._class_cut)
                or not all(_DASHED_VALUE.fullmatch(c) for c in cells[1:])):
            if columns and cells[0] != "all" and all(_SPACED_NAME.fullmatch(c) for c in cells):
                # (the training table's header printed before the validation's ``all`` row on the other stream: YOLOv7's
                # ``Epoch  gpu_mem  box …`` then ``all  787  2054 …``): the table waits for its row
                return None
            self._class_columns = []
            return None
        if cells[0] != "all":
            return _Line("other", at)  # one class's own figures
        readings = [Reading(Field.EVAL_LOSS, name, float(cell)) for name, cell in zip(columns, cells, strict=False)
                    if name and name != "Class"]
        return _Line("eval", at, readings, text=s, closes=True) if readings else _Line("other", at)

    def _table_row(self, s: str) -> str | None:
        """A comma-separated table (a CSV logger's file, ``Epoch ,LR ,RMSE_Train`` padded): its header
        row's names key the rows under it. None for a header row (remembered); a row as ``name: value |
        …`` pairs (its empty cells left out); "" for any other line (which ends the table)."""
        cells = [c.strip() for c in s.split(",")]
        if self._columns and len(cells) == len(self._columns) and number(cells[0]) is not None:
            return " | ".join(f"{name}: {cell}" for name, cell in zip(self._columns, cells, strict=True) if cell)
        if 3 <= len(cells) <= _TABLE_COLUMNS and all(_COLUMN_NAME.fullmatch(c) for c in cells):
            known = [lookup(normalise(c))[0] for c in cells]
            if any(f in (Field.STEP, Field.EPOCH, Field.LOSS) for f in known):
                self._columns = cells
                return None
        self._columns = []
        return ""

    def _json(self, s: str, unread: list[tuple[str, str | None, str, str | None]]) -> tuple[list[Reading], float | None] | None:
        """A JSON-lines record's readings (one level of nesting as ``train/loss``) and its time; ``unread`` gets the
        numbers under keys the grammar does not name, as printed pairs (for the name classes)."""
        try:
            record = json.loads(s)
        except ValueError:
            found = pairs(s)  # a Python dict: read as pairs
            epoch = _first(found, Field.EPOCH)
            if (epoch is not None and not self._counted_steps and not any(r.field is Field.STEP for r in found)
                    and _DICT_WHOLE_EPOCH.search(s) is not None and any(r.field in _FIGURES for r in found)):
                # ``print({'epoch': epoch, 'loss': loss.item()})``: a record an epoch, as a JSON one below
                found.append(Reading(Field.STEP, "epoch", epoch.value, epoch.total))
            return (found, None) if found else None
        if not isinstance(record, dict):
            return None
        flat: dict[str, object] = {}
        for key, value in record.items():
            if isinstance(value, dict):
                flat.update({f"{key}/{inner}": v for inner, v in value.items()})
            else:
                flat[str(key)] = value
        readings = []
        for key, value in flat.items():
            reading = json_reading(key, value)
            if reading is not None:
                readings.append(reading)
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                unread.append((key, None, repr(value), None))
        readings = _in_epoch(batch_unplaced(readings, ""))
        _json_iteration_time(flat, readings)
        episode = flat.get("episode")
        if (isinstance(episode, (int, float)) and not isinstance(episode, bool) and float(episode).is_integer()
                and not any(r.field in (Field.STEP, Field.EPOCH) for r in readings)):
            # An RL loop's record an episode (``{"episode": 120, "mean_episode_reward": 13.2}``) with no step: the
            # episode is its position (a step only with a figure beside it: :func:`_json_classed`)
            readings.append(Reading(Field.STEP, "episode", float(episode)))
        epoch = _first(readings, Field.EPOCH)
        if (epoch is not None and not self._counted_steps and not any(r.field is Field.STEP for r in readings)
                and any(isinstance(flat.get(key), int) for key in _EPOCH_KEYS)
                and any(r.field is Field.LOSS or r.field in _FIGURES for r in readings)):
            # A record an epoch (DeiT's and timm's ``log.txt``: ``{"train_loss": …, "epoch": 98}``): its
            # whole-number epoch is its position, wherever the key stands (a fractional one is a step's share).
            readings.append(Reading(Field.STEP, "epoch", epoch.value, epoch.total))
        return (readings, self._json_time(flat)) if readings else None

    def _json_time(self, record: dict[str, object]) -> float | None:
        """The record's own time: an ISO date (``"2024-05-01T12:00:00Z"``) or unix seconds."""
        for key in _TIME_KEYS:
            value = record.get(key)
            if isinstance(value, str) and value[:1].isdigit():
                when = self._times.reader.read(value.strip() + " .").at
                if when is not None:
                    return when
            elif isinstance(value, (int, float)) and not isinstance(value, bool) and 1e9 < value < 1e10:
                return float(value)  # unix seconds (wandb's ``_timestamp``)
        return None

    # --- emitting ------------------------------------------------------------------

    def emit(self, line: _Line, events: list[Event]) -> None:
        """A whole line's events: a step, an evaluation, the run's end or a pause."""
        if line.amends is not None:
            released, line.amends = line.amends, None
            start = len(events)
            self.emit(line, events)
            events[start:] = not_again(events[start:], released)
            released.extend(events[start:])
            return
        if line.before is not None:
            whole, line.before = line.before, None
            self.emit(whole, events)
        if line.anew:
            events.append(StageStart(at=line.at))  # (the steps read from it before were no positions: counted anew)
        if line.rank is not None:
            # Under a launcher every rank may print the same lines: one rank is followed (rank 0
            # as soon as it shows up); another's step line still counts when its step is past the
            # last one read (the followed rank's copy is not in the log, or not yet).
            if self._rank is None or (line.rank == 0 and self._rank != 0):
                if self._rank is not None and self._last is not None:
                    self._borrowed = self._last[0]  # the steps so far were another rank's
                self._rank = line.rank
            if line.rank != self._rank:
                if not (line.what == "step" and self._ahead(line)):
                    return
                self._borrowed = self._step_of(line)
            elif line.what == "step" and self._borrowed is not None:
                if self._step_of(line) == self._borrowed:
                    return  # the followed rank's copy of a step another rank already gave
                self._borrowed = None
        if line.what == "logged":
            if not line.continues:
                self._logged += 1  # (the loop's prints, counted: it numbers none)
            # (a record of figures in prose gives its figures so far, the whole record in place of its part)
            events.append(TrainStep(at=line.at, stage="train", step=self._logged,
                                    loss=line.readings[0].value if line.readings else None, figures=line.parts,
                                    logged=True, amends=line.continues))
            return
        if line.what == "end":
            if self._full_epoch is not None and not line.epochs_done:
                # The trainer ended right after an epoch's bar filled: that epoch was the last, its
                # batches the run's (Lightning's ``Trainer.fit` stopped: `max_epochs=1` reached``).
                step, total = self._full_epoch
                planned = _MAX_EPOCHS_REACHED.search(line.text)
                if planned is not None and step.epoch is not None and step.epoch == int(planned.group(1)) - 1:
                    # (its plan's epochs reached at an epoch counted from zero: that epoch the last of them)
                    step = replace(step, last_of_epochs=int(planned.group(1)))
                events.append(replace(step, at=line.at if line.at is not None else step.at, total_steps=total))
                self._full_epoch = None
            else:
                self._planned_end(line, events)
            if line.named and self._last is not None:
                events.append(StepFigures(at=None, figures=((RUN_SECONDS, line.named[0].value),)))  # (its time, above)
            events.append(StageEnd(at=line.at, summary=line.text[:200]))
            self._ended = self._last
        elif line.what == "epoch_done" and self._epoch_open is not None and (
                line.at is not None or self._epoch_open.at is not None or self._epoch_open.elapsed_seconds is None):
            # (an undated summary after steps timed by the trainer's own clock alone, flair's ``EPOCH 2 done: loss …``
            # under ``epoch 2 - iter 860/864 - … time (sec): 318.20``, has no time on that clock: no step is placed)
            open_step = self._epoch_open
            assert open_step.total_steps is not None
            self._epoch_open = None
            if 0 < self._stride and open_step.step == self._last_step and open_step.step + self._stride > open_step.total_steps:
                # The last printed step was its stride's last short of the total (flair's ``epoch 1 - iter 240/249``
                # every 24, then ``EPOCH 1 done``): fewer than a stride's steps were left, which no line printed; the
                # position stays the last printed step, with its total as printed, and no step is made up.
                return
            # The summary closes its epoch: all its batches are done, at the summary's time (a full epoch, as
            # Keras' bar is: its count the epoch's, no run's total to finish at).
            events.append(replace(open_step, at=line.at, step=open_step.total_steps, total_steps=None,
                                  epoch_steps=open_step.total_steps, loss=None, lr=None, grad_norm=None,
                                  step_seconds=None, elapsed_seconds=None, tokens_per_second=None, tokens=None,
                                  mfu=None, mfu_note=None, trainer_eta_seconds=None, figures=()))
            self._epoch_open = None
        elif line.what == "pause":
            events.append(TrainingPause(at=line.at, reason="checkpoint"))
        elif line.what == "resumed":
            events.append(TrainingResumed(at=line.at))
        elif line.what == "left_out":
            events.append(LinesLeftOut(at=line.at))
        elif line.what == "evaluating":
            reached = _first(line.readings, Field.STEP)
            if reached is not None and (self._last is None or reached.value > self._last[0]):
                # (the pass begins at a step it names that no line read yet: the run is there)
                self.emit(_Line("step", line.at, [reached], text=line.text), events)
            said = _first(line.readings, Field.EPOCH)  # (mmengine's ``Epoch(val) [2][…]``: the epoch it evaluates)
            if said is not None:
                self._evaluated_epoch(said, events)
            bar = line.bar
            self._validating = ((bar.total, bar.step) if bar is not None and bar.total is not None and bar.step < bar.total
                                and _LIGHTNING_VALIDATION.match(line.text) else None)
            events.append(TrainingPause(at=line.at, reason="evaluation", batches=line.bar.total if line.bar else None,
                                        done=line.bar.step if line.bar else None,
                                        epoch=said.value if said else None))
            result = next((r for r in line.readings if r.field in (Field.LOSS, Field.EVAL_LOSS)), None)
            if result is not None and line.bar is not None and line.bar.total is not None and line.bar.step >= line.bar.total:
                events.append(EvalResult(at=line.at, name="val_loss", value=result.value, step=None))
        elif line.what == "checkpoint" and line.checkpoint is not None:
            epoch_at, global_step, name, value, saved = line.checkpoint
            self._checkpoint_at = (epoch_at, global_step)
            if value is not None:
                # The figure it monitors, at the global step it names: a bar's count of its epoch's batches is
                # no global step, the figure is then the bar's latest
                self._evals[name] = value
                at_step = None if self._printed_in_epoch else global_step
                events.append(EvalResult(at=line.at, name=name, value=value, step=at_step))
            if saved:
                events.append(TrainingPause(at=line.at, reason="checkpoint"))
        elif line.what == "epoch":
            said = next(r for r in reversed(line.readings) if r.field is Field.EPOCH)
            if line.epochs_bar:
                self._inner_full = False  # (the outer bar said the epochs done: the inner bars after it are that epoch's)
                if line.record is not None and not self._bar_drawn:
                    # (drawn alone, no inner bar under it: its count is the run's, a record an epoch, its s/it the epoch's;
                    # that epoch done, an inner bar drawn next is the next epoch's)
                    self._epoch, self._inner_full = said, True
                    self._step(line.record, events)
                    return
                # The inner bars drawn under it are the epoch under way: the one after those done, counted from one as
                # the outer bar counts them (``Epoch:   0%|…| 0/1`` over epoch 1's ``Iteration`` bars); at its total, the
                # last (``1/1``: epoch 1 of 1, done)
                said = replace(said, value=min(said.value + 1, said.total) if said.total else said.value + 1)
            lr = _first(line.readings, Field.LR)
            average = epoch_average(line.text)
            if average:  # (a MetricLogger's ``Epoch: [43] Total time: 0:00:06 (0.2151 s / it)``)
                events.append(StepFigures(at=line.at, epoch=said.value, figures=average))
            if said.total is None and self._epoch is not None and self._epoch.total and said.value == self._epoch.value:
                # The epoch said again without the run's epochs keeps them (kohya's ``epoch 5/80`` header, then its
                # ``epoch is incremented. current_epoch: 4, epoch: 5``)
                said = self._epoch
            if (self._last is None and self._epoch is None and said.total and not line.epochs_bar
                    and header_epochs(line.text) is not None):
                # an epoch's header alone before any step (Keras' ``Epoch 1/50``): the run begun, its epochs said (banner.py)
                events.append(RunInfo(at=None, total_epochs=int(said.total)))
            before, self._epoch = self._epoch, said
            if self._full_epoch is not None and self._full_epoch[0].per_pass and self._epoch.value >= 1:
                self._epoch_before(self._epoch, events)
            moved = False
            if self._full_epoch is not None:
                finished = self._full_epoch[0].epoch
                # (Keras' ``Epoch 12/40`` after epoch 11's full bar: the run is in epoch 12 now)
                moved = finished is not None and self._epoch.value > finished
            elif self._last is not None and before is not None and self._epoch.value > before.value:
                # (kohya's ``epoch 6/80`` after the run's bar in epoch 5: the run is in epoch 6 now, its count the run's)
                moved = True
            if moved or (lr is not None and self._last is not None):
                events.append(StepFigures(at=line.at, epoch=self._epoch.value if moved else None,
                                          lr=lr.value if lr is not None else None))
            elif lr is not None:
                self._begun_lr = lr.value  # (no step yet to give it to: the first step's, where it prints none)
        elif line.what == "total":
            self._total = next(int(r.value) for r in line.readings if r.field is Field.TOTAL)
            if self._total > 0:  # the run's length before its first step (``max_steps=100``): said at once
                events.append(RunInfo(at=line.at, total_steps=self._total))
        elif line.what == "eval":
            self._eval(line, events)
        elif line.what == "tie":
            self._tie(line, events)
        elif line.what == "run_time":
            if self._last is not None:
                # (the trainer's whole run, as its engine timed it: no step's nor epoch's time)
                events.append(StepFigures(at=None, figures=((RUN_SECONDS, line.named[0].value),)))
        elif line.what == "epoch_time" and self._epochs_timed_alone(line):
            # A log whose records are its epochs' times alone (TensorFlow's DCGAN tutorial: ``Time for epoch 3 is 12.4
            # sec`` and nothing else): each line its epoch, done, and that epoch's time as printed; no step's time
            held, self._timed_epoch = self._timed_epoch, None
            for timed in (held, line) if held is not None else (line,):
                number = timed.readings[0]
                of = number.total or self._planned_epochs
                self._step(replace(timed, what="step", readings=[
                    Reading(Field.STEP, "epoch", number.value, of), Reading(Field.EPOCH, "epoch", number.value, of),
                    Reading(Field.STEP_TIME, "epoch time", timed.named[0].value)], named=()), events)
        elif line.what == "epoch_time":
            # (an epoch's time said with its own epoch, the trainer's records printed before or after it; before any
            # step, held for the first: an excerpt begun at an epoch's end; where it says the epochs planned
            # (pix2pix's ``End of epoch 3 / 400``), the run's)
            self._timed_epoch = line
            if line.readings and line.readings[0].total and not self._planned_epochs:
                self._planned_epochs = line.readings[0].total
            self._epoch_timed(events)
        elif line.what == "figures":
            self._figures(line, events)
        elif line.what == "bar_at_zero" and line.bar is not None:
            if self._planned_epochs and lookup(normalise(self._spaced_columns[0]))[0] is Field.EPOCH:
                # no step done: batch 0 of the first epoch's, among the epochs its banner planned
                events.append(TrainStep(at=line.at, stage="train", step=0, total_steps=line.bar.total, ends_at_total=False,
                                        epoch_total=self._planned_epochs))
            else:
                events.append(RunInfo(at=None))  # (no plan said: a run begun, its bar's count no known unit's)
        elif line.what == "begun":
            # (a run known, waiting for its first step, from the step its start line names; no clock of its own to move)
            said_total = int(line.readings[0].value) if line.readings else None  # (the total its start line says: banner.py)
            if said_total is not None:
                self._total = said_total
            events.append(RunInfo(at=None, start_step=line.starts_from, total_steps=said_total, begins=True))
        elif line.what in ("epochs", "banner_epochs"):
            self._planned_epochs = line.readings[0].total
            if line.what == "banner_epochs" and self._last is None and self._planned_epochs:
                # a start banner's epochs, said before the first step (``Starting training for 50 epochs...``, kohya's
                # ``num epochs / epoch数: 2``): a run known, waiting for its first step
                events.append(RunInfo(at=None, total_epochs=int(self._planned_epochs)))
        elif line.what == "args":
            for said in line.readings:
                if said.field is Field.EPOCH:
                    self._planned_epochs = said.total
                    if self._last is None and said.total:
                        # the run's epochs its arguments plan, before any step (run_args.py): a run known, waiting
                        events.append(RunInfo(at=None, total_epochs=int(said.total)))
                else:
                    self._total = int(said.value)
                    events.append(RunInfo(at=line.at, total_steps=self._total))
        elif line.what == "closing_figure":
            name, value = line.readings[0].name, line.readings[0].value
            words = normalise(name).split(" ")
            if ("loss" in words or normalise(name) in LOSS_NAMES) and not set(words) & EVAL_WORDS:
                events.append(StepFigures(at=line.at, loss=value, loss_note=f"{name} {CLOSING_LINE}"))
            else:
                events.append(StepFigures(at=line.at, figures=((FIGURE_PART + name, value),)))
            self._ended = self._last  # (an evaluation after it is the run's final one)
        elif line.what == "final_loss":
            events.append(StepFigures(at=line.at, loss=line.readings[0].value, loss_note=FINAL_STEP_LOSS))
            self._ended = self._last  # (train() returned: an evaluation after it is the run's final one)
        elif line.what == "table_end":
            events.append(StageEnd(at=line.at, summary="its table of iterations closed by its bottom rule", said=True))
            self._ended = self._last
        elif line.what == "train_row":
            events.append(StepFigures(at=line.at, loss=line.readings[0].value, loss_note=TRAIN_ROW_LOSS))
        elif line.what == "nan_loss":
            events.append(StepFigures(at=line.at, loss=math.nan, loss_note=LOSS_AFTER_LAST_STEP))
        elif line.what == "scores":
            events.extend(EvalResult(at=line.at, name=name, value=value, step=line.scored_step, closes=line.closes)
                          for name, value in line.parts)
        elif line.what == "evaluated":
            # An evaluation's results block begins (its figures follow): that evaluation is over; a job that trained
            # nothing ends with it
            events.append(StageEnd(at=line.at, summary=line.text[:200], evaluation=True))
        elif line.what == "epoch_summary":
            self._summed_epoch(line.readings[0], events)
        elif line.what == "pass_summary":
            self._summed_pass(line.readings[0], events)
            self._pass_scores(line, events)
        elif line.what == "split_loss":
            events.append(StepFigures(at=line.at, loss=line.readings[0].value, loss_note=SPLIT_RECORD_LOSS))
        elif line.what == "epoch_summed":
            events.append(StepFigures(at=line.at, figures=line.parts))
        elif line.what == "epoch_loss":
            events.append(StepFigures(at=line.at, loss=line.readings[0].value, loss_note=EPOCH_SUMMARY_LOSS))
            self._summary_scores(line, events)
        elif line.what == "step" and line.epoch_seconds is not None:
            # Keras 1's ``fit(verbose=2)``: the line is its epoch, said on the line above (``Epoch 3/15``)
            if self._epoch is None:
                self._eval(line, events)
                return
            line.readings.append(Reading(Field.STEP, "epoch", self._epoch.value, self._epoch.total))
            if line.epoch_seconds > 0:
                line.readings.append(Reading(Field.STEP_TIME, "epoch time", line.epoch_seconds))
            self._step(line, events)
        elif line.what == "step" and self._bar_reset(line):
            pass  # (Lightning redraws the epoch just filled at 0 before its next epoch's bar: no step of either)
        elif line.what == "step":
            self._timed_epochs = False  # (a record of the trainer's own: its epochs' times are no longer its records)
            if self._inner_full is not None and line.bar is not None and line.bar.total is not None:
                self._inner_bar(line)
            self._bar_drawn = self._bar_drawn or line.bar is not None
            self._step(line, events)
            if self._timed_epoch is not None:
                self._epoch_timed(events)

    def _epochs_timed_alone(self, line: _Line) -> bool:
        """True when ``line``, an epoch's time with its epoch, is one of a log's records that are nothing else: a second
        such line after the first with no step between them, or any after them until the trainer's first step record."""
        if self._timed_epochs:
            return bool(line.readings)
        held = self._timed_epoch
        self._timed_epochs = (self._last is None and held is not None and bool(held.readings) and bool(line.readings)
                              and held.readings[0].value < line.readings[0].value)
        return self._timed_epochs

    def _epoch_timed(self, events: list[Event]) -> None:
        """The epoch time last said with its epoch (PyTorch-Ignite's ``Epoch[45] Complete. Time taken: 00:00:01.981``),
        once a step has been read to give it to."""
        line = self._timed_epoch
        if line is None or self._last is None:
            return
        self._timed_epoch = None
        # (undated: the engine's line is no record of the trainer's, its time none of the lines' the rate is measured by;
        # a line that names no epoch times the one just recorded)
        epoch = line.readings[0].value if line.readings else self._last[1]
        events.append(StepFigures(at=None, figures=((EPOCH_SECONDS, line.named[0].value),
                                                    *(() if epoch is None else ((TIMED_EPOCH, epoch),)))))

    def _inner_bar(self, line: _Line) -> None:
        """An inner bar under nested bars' outer one (``Iteration:`` under ``Epoch:``) is in the outer bar's epoch; one
        drawn again after a full one is the next epoch's, though the outer bar, redrawn only when a line is printed over
        it, did not say so yet."""
        if self._epoch is None or _first(line.readings, Field.EPOCH) is not None or line.bar is None:
            return
        if self._inner_full and (self._epoch.total is None or self._epoch.value < self._epoch.total):
            self._epoch = replace(self._epoch, value=self._epoch.value + 1)
        self._inner_full = line.bar.total is not None and line.bar.step >= line.bar.total
        line.readings.append(self._epoch)  # (its count that epoch's batches, as a bar that names its epoch counts them)

    def _bar_reset(self, line: _Line) -> bool:
        """``line`` is the bar of the epoch just filled, drawn again at 0 of the same total (``Epoch 0: 100% 2/2`` then
        ``Epoch 0:   0% 0/2``, then ``Epoch 1:   0% 0/2``)."""
        full, bar = self._full_epoch, line.bar
        if full is None or bar is None or bar.step != 0 or bar.total != full[1]:
            return False
        epoch = _first(line.readings, Field.EPOCH)
        return epoch is not None and full[0].epoch is not None and epoch.value == full[0].epoch

    def _on_from_last(self, readings: list[Reading]) -> bool:
        """Whether a line read as an evaluation's is the training's record gone on: its counter the one the step lines
        count by, ahead of the last, and a bare ``loss`` beside the evaluation's (the step's own, as on every step line;
        nanoGPT's ``step 500: train loss …, val loss …`` names its loss by the split it estimates and counts by another
        word than its ``iter`` lines)."""
        if self._last is None or self._last_position is None:
            return False
        position = _position(readings)
        return (position is not None and position.field is Field.STEP and position.name == self._last_position
                and position.value > self._last[0]
                and any(r.field is Field.LOSS and r.name.lower() == "loss" for r in readings))

    def _second_line(self, line: _Line, position: Reading | None, loss: Reading | None, readings: list[Reading],
                     events: list[Event]) -> bool:
        """The second line of the step record read just before it, when it is one: the same loss printed again under
        another counter whose count is not the step's (TFLearn's TermLogger: ``Training Step: 8  | total loss: 2.03040``
        then ``| Adam | epoch: 001 | loss: 2.03040 - acc: 0.2720 -- iter: 00512/55000``, its ``iter`` the samples the
        epoch has gone through of its 55000). That counter counts the epoch's data, no step, and its total is no run's
        length; the line's epoch and its evaluation's figures (``val_loss: 1.42485 - val_acc: 0.5097``) are the step's."""
        record = self._record_line
        if (record is None or position is None or loss is None or self._last is None or position.field is not Field.STEP
                or position.total is None or record[2] != self._pieces_read - 1 or position.name == record[0]
                or loss.value != record[1] or int(position.value) == self._last[0]):
            return False
        self._record_line = None
        self.block_steps = True
        step = self._last[0]
        epoch = _first(readings, Field.EPOCH)
        held = self._held_step(events)
        if epoch is not None and held is not None and held[1].epoch is None:
            events[held[0]] = replace(held[1], epoch=epoch.value)
            self._last = (step, epoch.value)
        results = [(_eval_label(r.name), r.value) for r in readings if r.field is Field.EVAL_LOSS]
        if results:  # (its scores beside its losses, by their names: ``val_acc: 0.5097``; the training's ``acc`` is none)
            results += [(_named_label(n), n.value) for n in beside(line.text, evaluation=True)
                        if n.kin is Kin.EVAL and set(normalise(n.name).split(" ")) & EVAL_WORDS]
        for label, value in results:
            if self._evals.get(label) != value:
                self._evals[label] = value
                events.append(EvalResult(at=line.at, name=label, value=value, step=step))
        return True

    def _held_step(self, events: list[Event]) -> tuple[int, TrainStep] | None:
        """The last step's event and where it sits in ``events``, while it is still in this batch's list (one read in
        an earlier batch has gone on to the tracker: None)."""
        held = self._step_event
        if held is None:
            return None
        where, index = held
        step = events[index] if where is events and index < len(events) else None
        return (index, step) if isinstance(step, TrainStep) else None

    def _step_now(self, events: list[Event]) -> tuple[tuple[int, TrainStep] | None, TrainStep | None]:
        """The last step's event where this batch holds it (:meth:`_held_step`), and that step, held or gone on to the
        tracker in an earlier batch (:meth:`_gone_step`); None for either that is not there."""
        held = self._held_step(events)
        return held, held[1] if held is not None else self._gone_step(events)

    def _amend_step(self, events: list[Event], held: tuple[int, TrainStep] | None, amended: TrainStep) -> None:
        """The last step's record made whole (``amended``): in place while this batch still holds it; read in a later
        batch than its step's (a live read fell between them), that step has gone on to the tracker, so it goes again,
        its record now whole (its loss and grad norm not counted again)."""
        if held is not None:
            events[held[0]] = amended
        else:
            events.append(replace(amended, loss=None, loss_note=None, grad_norm=None, amends=True))
            self._step_event = (events, len(events) - 1)

    def _evaluated_epoch(self, said: Reading, events: list[Event]) -> None:
        """An evaluation said to be an epoch's after steps that named none (``[Iter 760 / 762] loss: …`` then ``Epoch 3
        evaluation``): the last of them was in that epoch, and its count, now beside an epoch, is that epoch's batches,
        no run's steps (as ``Epoch 3 [Iter 760 / 762]`` reads)."""
        held, step = self._step_now(events)
        if step is None or self._last is None or step.epoch is not None:
            return
        self._amend_step(events, held, replace(step, epoch=said.value, ends_at_total=False))
        self._last = (self._last[0], said.value)

    def _epoch_before(self, said: Reading, events: list[Event]) -> None:
        """Keras' ``Epoch 2/30`` after a full bar that named no epoch (the log begins at that bar): the bar was the
        epoch before's, its count that epoch's (read in this batch)."""
        held = self._held_step(events)
        if held is None:
            return
        index, step = held
        if step.per_pass and step.epoch is None and self._full_epoch is not None:
            amended = replace(step, epoch=said.value - 1, epoch_total=said.total, per_pass=False)
            events[index] = amended
            self._full_epoch = (amended, self._full_epoch[1])
            if self._last is not None:
                self._last = (self._last[0], said.value - 1)

    def _summed_epoch(self, summed: Reading, events: list[Event]) -> None:
        """An epoch's summary after batches that named none: the last of them was in it."""
        self._unplaced_epoch = False
        self._epoch = summed
        held, step = self._step_now(events)
        if step is not None and step.epoch in (None, summed.value) and (summed.total is None or summed.value < summed.total):
            # the batches after the summary are the next epoch's (``Epoch [6/10], Loss: 0.97`` then ``Batch 0, …``)
            self._epoch = replace(summed, value=summed.value + 1)
        if step is None or self._last is None:
            return
        if step.epoch is None and not step.ends_at_total:
            self._amend_step(events, held, replace(step, epoch=summed.value, epoch_total=summed.total))
            self._last = (self._last[0], summed.value)

    def _summary_scores(self, line: _Line, events: list[Event]) -> None:
        """An epoch summary's evaluation scores beside its training loss, each named by its split (``Epoch 10/10 - Train
        Loss: 1.0050, Train Acc: 76.96%, Test Acc: 71.23%`` after the epoch's bar): that epoch's evaluation, at the
        step just logged, a share as printed; the training split's own figures none."""
        step = self._last[0] if self._last is not None else None
        for named in beside(line.text, in_shares=True):
            if named.kin is Kin.EVAL and set(named.name.split(" ")) & EVAL_WORDS:
                label = _named_label(named, line.text)
                self._evals[label] = named.value
                events.append(EvalResult(at=line.at, name=label, value=named.value, step=step))

    def _summed_pass(self, summed: Reading, events: list[Event]) -> None:
        """An epoch's record after an unsized bar that named none (DGL GraphBolt's ``Training: 1178it`` then ``Epoch
        00000 | Loss …``): the bar was that epoch's pass, its count the epoch's batches, never the run's steps; the
        unsized bars after it are the next epochs' passes."""
        self._epoch_passes = True
        held, step = self._step_now(events)
        if step is not None and self._last is not None and step.epoch is None and step.total_steps is None:
            self._amend_step(events, held, replace(step, epoch=summed.value, epoch_total=summed.total, ends_at_total=False))
            self._last = (self._last[0], summed.value)
        self._summed_epoch(summed, events)

    def _pass_scores(self, line: _Line, events: list[Event]) -> None:
        """The scores an epoch's record after its pass prints, each under its name (``Accuracy 0.8912``; a split's,
        ``Approx. Val: 0.6590``): that epoch's evaluation, over."""
        named = [(_named_label(n, line.text), n.value) for n in beside(line.text, evaluation=True) if n.kin is Kin.EVAL]
        scored = dict([*split_scores(line.text), *named])
        for index, (label, value) in enumerate(scored.items(), 1):
            self._evals[label] = value
            events.append(EvalResult(at=line.at, name=label, value=value, step=None, closes=index == len(scored)))

    def _planned_end(self, line: _Line, events: list[Event]) -> None:
        """Lightning stopped at its planned steps (``max_steps=10`` reached): the run's last step is that total
        when the last step line printed the one before it, counted from zero (or, with no step line, its checkpoint's
        ``global step 9`` or ``10``); nothing is said of a step the log does not come near, nor twice."""
        planned = _MAX_STEPS_REACHED.search(line.text)
        if planned is None:
            return
        total = int(planned.group(1))
        checkpoint = self._checkpoint_at
        # The step lines' own count where there are any (a bar's count of its epoch's batches is no global step:
        # RVT's ``115816it`` beside ``global step 400000``), else the checkpoint's global step
        if self._last is not None:
            if self._last[0] != total - 1:
                return  # (the last step line was that step already, or is far from it)
        elif checkpoint is None or checkpoint[1] not in (total - 1, total):
            return
        epoch: float | None = None
        if self._last is not None:
            epoch = self._last[1]
        elif self._epoch is not None:
            epoch = self._epoch.value
        elif checkpoint is not None:
            epoch = checkpoint[0]
        self._last = (total, epoch)
        events.append(TrainStep(at=line.at, stage="train", step=total, total_steps=total, epoch=epoch))

    def _ahead(self, line: _Line) -> bool:
        """True for a step line whose step is past the last one read."""
        step = self._step_of(line)
        return step is not None and (self._last is None or step > self._last[0])

    @staticmethod
    def _step_of(line: _Line) -> int | None:
        if line.bar is not None:
            return line.bar.step
        if line.counters is not None:
            return line.counters[1]
        position = _position(line.readings)
        return int(position.value) if position is not None else None

    def _eval(self, line: _Line, events: list[Event]) -> None:
        """An evaluation line: its losses (the training loss beside them too, as printed)."""
        step = _first(line.readings, Field.STEP)
        if self._second_line(line, step, _first(line.readings, Field.LOSS), line.readings, events):
            return  # (the step record's second line, its evaluation beside the training's figures)
        # After the end was printed, the final evaluation is the run's last step's.
        at_step = int(step.value) if step is not None and self._ended is None else None
        if step is None and self._epoch_record and self._last is not None and self._ended is None:
            at_step = self._last[0]  # (after a record an epoch, naming no step: that epoch's evaluation)
        evaluated = any(r.field is Field.EVAL_LOSS for r in line.readings)
        summed = _summary_loss(self._full_epoch, line.text, line.readings)
        if summed is not None:
            # (an epoch's summary after its bar, its validation beside: ``Epoch 04 | Train Loss: 0.1139 | Val Loss:
            # 0.2764``; the training loss is the epoch's, no evaluation's)
            events.append(StepFigures(at=line.at, loss=summed.value, loss_note=EPOCH_SUMMARY_LOSS))
        epoch = _first(line.readings, Field.EPOCH)
        if (step is not None and step.total is None and step.name != EPOCH_POSITION and line.counters is None
                and epoch is not None and self._ended is None and (self._last is None or self._eval_positions)):
            # Validations that name the epoch and the run's updates so far, and no training line (fairseq's legacy
            # ``| epoch 016 | valid on 'valid' subset | loss 3.29 | … | num_updates 130000`` after an elision): once
            # the updates went on from one to the next, training got there, and each is where the run is as well.
            updates_before, self._eval_updates = self._eval_updates, int(step.value)
            if updates_before is not None and step.value > updates_before:
                self._eval_positions = True
                self._last = (int(step.value), epoch.value)
                events.append(TrainStep(at=line.at, stage="train", step=int(step.value), epoch=epoch.value,
                                        epoch_total=epoch.total))
        # A line that starts with ``validation`` names its loss ``lm loss`` (Megatron).
        own = "test_loss" if "test" in line.text.lower()[:60] else "val_loss"
        seen: set[str] = set()
        for label, value in split_scores(line.text) if evaluated else ():
            # (each split's score, in the order printed: the training split's too, which the grammar reads as none)
            if label not in seen:
                seen.add(label)
                self._evals[label] = value
                events.append(EvalResult(at=line.at, name=label, value=value, step=at_step, closes=line.closes))
        for r in line.readings:
            if r.field is Field.EVAL_LOSS:
                label = _eval_label(r.name, line.text)
            elif r.field is Field.LOSS and summed is None:
                label = "train_loss" if evaluated else own
            else:
                continue
            if label not in seen:
                seen.add(label)
                self._evals[label] = r.value
                events.append(EvalResult(at=line.at, name=label, value=r.value, step=at_step, closes=line.closes))
        # (a validation's plain loss with its scores, once the run is placed: one such line alone may be a sentence)
        if evaluated or (own in seen and (own == "test_loss" or self._last is not None)) or not seen:
            # (its scores beside its losses, by their names: vietocr's ``valid loss: 0.729 - acc full seq: 0.8856``;
            # a test report's beside its plain loss, DeepSpeech's ``Test of Epoch 3 - WER: 0.5, loss: 40.5, …``; a
            # validation's line whose plain loss is its own, ``Validation | loss 0.60 | acc 0.81``, ``Val. Loss: 0.70 |
            # Val. PPL: 2.02``; an evaluation that prints no loss at all, its scores alone: a Paddle loop's ``[test]
            # batch_id:76, precision:[0.955], recall:[0.974], f1:[0.964]``)
            # (beside such a plain loss a whole number is the evaluation's own count or set, no score of it: ``VALID SET
            # 0 LOSS:0.1735``)
            counted = not evaluated and own == "val_loss" and own in seen
            for named in beside(line.text, evaluation=True):
                label = _named_label(named, line.text)
                if counted and named.value.is_integer():
                    continue
                if named.kin is Kin.EVAL and label not in seen and (evaluated or not _POSITION_NAME.search(label)):
                    seen.add(label)
                    self._evals[label] = named.value
                    events.append(EvalResult(at=line.at, name=label, value=named.value, step=at_step))
        if "%" in line.text or line.text[:1] == "*":
            # (a score printed as a count of a total and its share: ``Accuracy: 9890/10000 (99%)``, in per cent; a
            # pass's starred summary, ``* Acc@1 88.381 Acc@5 96.779``)
            for name, share in (*shares(line.text), *top_k_scores(line.text), *starred_top_k(line.text)):
                label = _eval_label(name if name.split(" ")[0] in EVAL_WORDS else f"{own[:-5]} {name}")
                if label not in seen:
                    seen.add(label)
                    self._evals[label] = share
                    events.append(EvalResult(at=line.at, name=label, value=share, step=at_step))

    def _cli_metric(self, cli: tuple[int, str, str, float | None], at: float | None, s: str) -> _Line | None:
        """A LightGBM CLI metric line (boosting_rounds.py): the training set's loss is the iteration's step record;
        another set's metric is that iteration's evaluation, tied to it once its step is read; a training score (``auc``)
        is no figure tokwatch shows."""
        iteration, data, metric, value = cli
        if value is None:
            return None
        if "train" in data.lower():
            if not loss_metric(metric):
                return None
            readings = [Reading(Field.STEP, "iteration", float(iteration)), Reading(Field.LOSS, "loss", value)]
            return _Line("step", at, readings, text=s, loss_note=f"{data} {metric}")
        if self._last is None or self._last[0] != iteration:
            return None
        return _Line("tie", at, text=s, named=(Named(Kin.EVAL, normalise(f"{data} {metric}"), value, metric),))

    def _tie(self, line: _Line, events: list[Event]) -> None:
        """A line tied to the last step: its clock, its epoch's time and rates amend that step; its
        evaluation's figures are that step's."""
        if self._last is None and self._rate_report(line, events):
            return
        if self._last is None:
            for named in line.named:  # (scores alone, before any step: at no step)
                label = _named_label(named)
                self._evals[label] = named.value
                events.append(EvalResult(at=line.at, name=label, value=named.value, step=None))
            return
        amend: dict[str, object] = {}
        figures: list[tuple[str, float]] = []
        for named in line.named:
            if named.kin is Kin.EVAL:
                label = _named_label(named)
                self._evals[label] = named.value
                scored = line.scored_step if line.scored_step is not None else self._last[0]
                events.append(EvalResult(at=line.at, name=label, value=named.value, step=scored))
            elif named.kin is Kin.ELAPSED:
                amend["elapsed_seconds"] = named.value
            elif named.kin is Kin.EPOCH_TIME:
                figures.append((EPOCH_SECONDS, named.value))
            elif named.kin is Kin.RATE:
                figures.append(_rate_figure(named))
            elif named.kin is Kin.TIME:
                figures.append((TIME_PART + (named.printed or named.name), named.value))
        for r in line.readings:  # (a timing the grammar reads: the step's own, where its line printed none)
            key = _TIMING_FIELDS[r.field]
            if key == "its":
                key, value = "step_seconds", 1 / r.value if r.value > 0 else None
            else:
                value = r.value
            if value is not None and key not in amend:
                amend[key] = value
        if not amend and not figures:
            return
        held, step = self._step_now(events)
        if step is None:
            return
        for key in ("elapsed_seconds", "step_seconds", "tokens_per_second"):
            if getattr(step, key) is not None:
                amend.pop(key, None)  # (the step line's own figure stands)
        if figures:
            amend["figures"] = (*step.figures, *figures)
        if not amend:
            return
        self._amend_step(events, held, replace(step, **amend))  # type: ignore[arg-type]

    def _rates_alone(self, found: list[Named] | None) -> list[Named] | None:
        """Those figures when every one is a rate and one is the steps' own (``global_step/sec``), or the data's beside
        such reports already read (``examples/sec``); before any step, else None."""
        if not found or not all(named.kin is Kin.RATE for named in found):
            return None
        if self._rate_reports or any(_steps_rate(named) for named in found):
            return found
        return None

    def _rate_report(self, line: _Line, events: list[Event]) -> bool:
        """Rates alone where the log prints no step (TPUEstimator's ``global_step/sec: 1.04328`` and ``examples/sec:
        133.5``, nothing else): each report of the steps' rate is a record of the run, its step time the rate's, and
        its count of reports no step; a rate of the data beside it is that record's. False: not such a line."""
        rates = [_rate_figure(named) for named in line.named if named.kin is Kin.RATE]
        if not rates or len(rates) != len(line.named) or line.readings:
            return False
        steps = [named.value for named in line.named if _steps_rate(named)]
        if not steps:
            if not self._rate_reports:
                return False
            held, step = self._step_now(events)
            if step is None or not step.logged:
                return True
            figures = dict(step.figures)
            if all(figures.get(name) == value for name, value in rates):
                return True  # (the same rate printed again by a second logger: absl's line under TensorFlow's)
            self._amend_step(events, held, replace(step, figures=tuple({**figures, **dict(rates)}.items())))
            return True
        rate = steps[-1]
        if self._rate_reports and self._rate_reports[-1] == rate:
            return True  # (the same report printed again by a second logger: absl's line under TensorFlow's)
        self._rate_reports.append(rate)
        events.append(TrainStep(at=line.at, stage="train", step=len(self._rate_reports), logged=True, unnumbered=True,
                                step_seconds=1.0 / rate if rate > 0 else None, interval_average=True,
                                step_seconds_note=f"from the {_STEPS_RATE_NAME} printed" if rate > 0 else None,
                                figures=tuple(rates)))
        self._step_event = (events, len(events) - 1)
        return True

    def _gone_step(self, events: list[Event]) -> TrainStep | None:
        """The last step's event when an earlier batch gave it (it has gone on to the tracker); None otherwise."""
        held = self._step_event
        if held is None or held[0] is events:
            return None
        where, index = held
        step = where[index] if index < len(where) else None
        return step if isinstance(step, TrainStep) else None

    def _figures(self, line: _Line, events: list[Event]) -> None:
        """A record at the run's last step printed beside the series that gives the position: that step's figures (one
        at an older step amends nothing: that step has gone on)."""
        if self._last is None or self._step_of(line) != self._last[0]:
            return
        loss, lr, grad_norm = (_first(line.readings, kind) for kind in (Field.LOSS, Field.LR, Field.GRAD_NORM))
        if loss is not None or lr is not None or grad_norm is not None:
            events.append(StepFigures(at=line.at, loss=None if loss is None else loss.value,
                                      lr=None if lr is None else lr.value,
                                      grad_norm=None if grad_norm is None else grad_norm.value))

    def _running_time(self, readings: list[Reading]) -> list[Reading]:
        """The readings with a bare ``time`` that grows from line to line as the run's clock (cellpose's
        ``Epoch 5, Time 4981.4s`` … ``Epoch 20, Time 28029.8s``): three lines in a row each later than
        the one before by about as much, the third half as long again as the first, make it the run's time so far,
        never a step's (a step's own time wavers around its mean)."""
        timed = next((r for r in readings if r.field is Field.STEP_TIME and r.name in ("time", "time per iteration")),
                     None)
        if timed is None:
            return readings
        if not self._time_is_clock:
            seen = self._bare_times = [*self._bare_times[-2:], timed.value]
            position = _position(readings)
            places = self._bare_places = [*self._bare_places[-2:], None if position is None else position.value]
            # (a ``time`` a MetricLogger-like template prints is the iteration's, unless it is a clock far into the run:
            # DCGAN-tensorflow's older ``Epoch: [14] [ 398/1093] time: 18566.68`` has that shape)
            template = timed.name == "time per iteration"
            self._time_is_clock = (len(seen) == 3 and seen[0] < seen[1] < seen[2] and _even_growth(seen, places)
                                   and ((seen[2] >= RUNNING_TIME_GROWTH * seen[0] and not template)
                                        or _late_clock(seen, places)))
            undecided = RUNNING_TIME_MINUTE_SECONDS if template else UNDECIDED_TIME_SECONDS
            if (not self._time_is_clock and len(seen) < 3 and timed.value >= undecided
                    and (len(seen) == 1 or seen[0] < seen[1])):
                # Undecided: a clock's first readings look like slow steps (flair's ``time (sec): 5.65``,
                # ``10.81`` in its epoch), so they are neither until a third line says which.
                return [r for r in readings if r is not timed]
        if not self._time_is_clock:
            return readings
        return [Reading(Field.ELAPSED, r.name, r.value) if r is timed else r for r in readings]

    def _own_elapsed(self, readings: list[Reading]) -> list[Reading]:
        """The readings with an ``elapsed`` that does not grow from one record to the next as that record's own
        time, spread over the steps since the last (deeprm's ``Elapsed time 106.1 seconds`` then ``98.7``: each
        iteration's, not the run's clock, which only grows)."""
        elapsed = next((r for r in readings if r.field is Field.ELAPSED), None)
        position = _position(readings)
        if elapsed is None or position is None:
            return readings
        last, self._elapsed_at = self._elapsed_at, (int(position.value), elapsed.value)
        low, high = self._elapsed_span or (elapsed.value, elapsed.value)
        self._elapsed_span = (min(low, elapsed.value), max(high, elapsed.value))
        if not self._elapsed_own:
            # (a clock started again by a resume falls too, from far higher: its values span more than twice)
            self._elapsed_own = (last is not None and position.value > last[0] and elapsed.value < last[1]
                                 and self._elapsed_span[1] <= OWN_TIME_SPREAD * self._elapsed_span[0])
            if not self._elapsed_own:
                return readings
        steps = int(position.value) - last[0] if last is not None and position.value > last[0] else 1
        return [Reading(Field.STEP_TIME, r.name, r.value / steps) if r is elapsed else r for r in readings]

    def _record_own_eval(self, label: str) -> bool:
        """True when an evaluation figure that changed on a step's record is that record's step's: the record before
        printed it too, with another value, and no record printed it again unchanged (the trainer evaluates for each
        record it prints: MMF's ``iter: 900 train_loss: 1.8463 … val_score: 0.3668 val_loss: 2.4809 time(s): 335.9 s``).
        A figure records carry unchanged from one to the next (litgpt's ``val: 1.057`` on each line since its
        evaluation), or one first printed, was evaluated since the record before: its step is not this one."""
        return label in self._record_evals and label not in self._carried_evals

    def _step(self, line: _Line, events: list[Event]) -> None:
        readings = self._own_elapsed(self._running_time(line.readings))
        got: dict[Field, Reading] = {}
        loss: Reading | None = None
        for r in readings:
            if r.field is Field.LOSS:
                # (a line that leads with its plain ``Loss:`` names its parts after it: StyleTTS2's ``Loss: 0.31, Disc
                # Loss: 3.86, …, LM Loss: 1.08`` is a loss of 0.31, its ``LM Loss`` a part's)
                plain_first = loss is not None and loss.name == "loss" and r.name == "lm loss"
                if loss is None or (LOSS_RANK.get(r.name, 2) > LOSS_RANK.get(loss.name, 2) and not plain_first):
                    loss = r
            elif r.field not in got:
                got[r.field] = r
        loss_note = line.loss_note
        lost = lost_loss(loss, readings, line.text)
        if lost is not None:
            # (a loss field that is not a number beside the one chosen, DLLogger's ``average_loss : nan  step_loss :
            # 1.0703125``, MetricLogger's ``loss: 5.6569 (nan)``: the run made a nan, it is the record's loss)
            loss, loss_note = lost
        step_reading = _position(readings)
        bar = line.bar
        if bar is None and self._second_line(line, step_reading, loss, readings, events):
            return
        if (self._validating is not None and bar is not None and line.counters is None
                and self._validation_tick(line, bar, self._validating, events)):
            return
        epoch_reading = got.get(Field.EPOCH) or (self._epoch if line.epoch_above else None)
        if (epoch_reading is not None and epoch_reading.total is None and self._epoch is not None
                and self._epoch.total and self._epoch.value == epoch_reading.value):
            # The run's epochs, said by the epoch's header (``==== EPOCH 8/10 ====``), beside its steps' ``[Epoch 8]``
            epoch_reading = replace(epoch_reading, total=self._epoch.total)
        if (bar is not None and bar.total is not None and epoch_reading is not None and self._run_record is not None
                and self._run_record[1] > bar.total and line.counters is None):
            # An epoch's bar beside records that count the run's steps to a larger total (verl's SFT trainer: ``Epoch
            # 3/3: 83%|…| 29/35 [06:26<01:19, 13.17s/it]`` then ``step:100 - train/loss:…`` of 105): the records are the
            # position, the bar only says the epoch and its rate, for the next record (its count restarts each epoch:
            # no steps)
            self._epoch_bar = (epoch_reading, bar)
            return
        epoch_bar, self._epoch_bar = self._epoch_bar, None
        if (epoch_bar is not None and bar is None and line.counters is None
                and (epoch_reading is None or "epoch" not in line.text.lower())):
            epoch_reading = epoch_bar[0]  # (a record that prints no epoch is in the bar's, not one carried from before)
        epoch = epoch_reading.value if epoch_reading is not None else None
        if line.counters is not None and line.counters[0] is not None:
            epoch = float(line.counters[0])
        # (a run counted in epochs takes its planned epochs, never a planned count of steps, and the other way round)
        total = self._planned_epochs if step_reading is not None and step_reading.name == "epoch" else self._total
        if Field.TOTAL in got:
            total = int(got[Field.TOTAL].value)
        step_seconds = _step_seconds(got)
        seconds_note, self._mean_seconds = self._mean_seconds, None
        table_figures, self._table_figures = self._table_figures, ()
        if Field.STEP_TIME not in got:
            seconds_note = None
            if step_seconds is not None and got[Field.ITS].name.startswith("batches"):
                # (a rate of batches printed, no time: the step's time is one over it, said so, never "as printed")
                seconds_note = BATCHES_RATE_NOTE
        elapsed = got[Field.ELAPSED].value if Field.ELAPSED in got else None
        eta = got[Field.ETA].value if Field.ETA in got else None
        if (step_reading is not None and bar is None and line.counters is None and epoch is not None
                and step_reading.field is Field.STEP and step_reading.name in _PLAIN_STEPS
                and step_reading.total is None  # (a count with its total is read as such already: flair's)
                and step_reading.printed is None):  # (a count printed rounded, ``step:50K``, repeats as the epoch goes on)
            if (not self._steps_in_epoch and self._last is not None and self._last[1] is not None
                    and epoch > self._last[1] and step_reading.value <= self._last[0]):
                # DGL's ``Epoch 00001 | Step 00000 | Loss …`` after ``Epoch 00000 | Step 00020``: the step went back
                # as the epoch went on, so it counts the epoch's batches (as a bar that names its epoch does)
                self._steps_in_epoch = True
            if self._steps_in_epoch:
                step_reading = replace(step_reading, name=EPOCH_POSITION)
        if (step_reading is not None and step_reading.name == "batch count" and step_reading.total is not None
                and bar is None and line.counters is None):
            # ``batch count: 220/308``: the epoch's batches, in the epoch said alone above them (``Training at epoch 4
            # (total 4)``) where no epoch is on the line
            step_reading = replace(step_reading, name=EPOCH_POSITION)
            if epoch is None and self._epoch is not None:
                epoch_reading, epoch = self._epoch, self._epoch.value
        summed_before = False
        if (step_reading is not None and step_reading.name == "batch" and step_reading.total is None and epoch is None
                and bar is None and line.counters is None
                and (line.of_round or (loss is not None and loss.name == "batch loss"))):
            # ``Batch 300, Batch Loss: 0.70`` (a loop's own print, naming no epoch): the epoch's batches; after an epoch's
            # summary (``Epoch [6/10], Loss: 0.9700``) they are the next epoch's
            step_reading = replace(step_reading, name=EPOCH_POSITION)
            if self._epoch is not None:
                epoch_reading, epoch, summed_before = self._epoch, self._epoch.value, True
        if (bar is not None and bar.total is not None and bar.step >= bar.total and epoch is None and not line.epoch_above
                and line.counters is None and self._epoch is not None
                and (self._epoch.total is None or self._epoch.value < self._epoch.total)):
            # A full bar that names no epoch, under an epoch said on a line of its own whose run's epochs are not all
            # done (none printed, or fewer than said): that epoch's batches (Ludwig's ``Epoch  6`` over ``Training:
            # 100%|…| 22/22``, its evaluation and save after), no run's end. Under the last epoch said it ends the run
            # as before (kohya's bar of all the run's steps, under its ``epoch 3/80``, is full only there).
            epoch_reading, epoch = self._epoch, self._epoch.value
        if bar is not None and bar.total is None and epoch is None and self._epoch_passes and self._epoch is not None:
            epoch_reading, epoch = self._epoch, self._epoch.value  # (an unsized bar after an epoch's record: the next's pass)
        full_epoch = fit_closed = False
        bar_total: int | None = None
        # A bar that names its epoch counts that epoch's batches: full, it is not the run's end,
        # which the trainer's end line says (llama-recipes evaluates and sums up after its last
        # epoch; Lightning says ``Trainer.fit`` stopped).
        ends_at_total = ((bar is None or (epoch is None and not line.epoch_above))
                         and (step_reading is None or step_reading.name != EPOCH_POSITION))
        # Keras' bar with no epoch read (its closing line of one ``fit`` call, no ``Epoch N/M`` printed); unsized bars
        # naming no epoch, each a pass of its own: the count is that pass's, no run's step
        per_pass = bar is not None and epoch is None and self._epoch is None and line.epoch_above
        if bar is not None and bar.total is None and epoch is None and ends_at_total and self._per_pass(bar.step):
            ends_at_total, per_pass = False, True
        if bar is not None:
            step = bar.step
            total = bar.total
            if total is not None and step >= total and (epoch is not None or line.epoch_above):
                # (Keras' bar counts its epoch's steps even before an ``Epoch N/M`` line is read)
                last_epoch = (
                    epoch_reading is not None
                    and epoch_reading.total is not None
                    and epoch_reading.value >= epoch_reading.total
                )
                if not last_epoch or self._searching:
                    # an epoch's bar is full; the run goes on to the next epoch (a search's trial's last: its next trial)
                    total = None
                    full_epoch = True
                    bar_total = bar.total
                # Keras prints nothing after ``fit``: its last epoch's bar at its total (the epoch's evaluation on
                # the same line) is the run's end, as said (a further ``fit``'s step takes it back). Not ``Epoch 1/1``:
                # a loop of one-epoch ``fit`` calls prints that each time, the next call's bar no further than this one
                fit_closed = (last_epoch and line.epoch_above and epoch_reading is not None and epoch_reading.total != 1
                              and not self._searching)
            if bar.step_seconds is not None:
                step_seconds, seconds_note = bar.step_seconds, bar.seconds_note
            elapsed, eta = bar.elapsed, bar.eta
        elif line.counters is not None:
            step = line.counters[1]
        elif step_reading is not None:
            step = int(step_reading.value)
            if step_reading.total is not None:
                total = step_reading.total
                if step_reading.name == EPOCH_POSITION and step >= total:
                    # as a full epoch's bar: the next epoch follows, the epoch's batches as printed
                    total, full_epoch, bar_total = None, True, total
            if step_seconds is not None and Field.STEP_TIME in got:
                # ``iter time`` is one iteration's; a step is several, when the counters say how many.
                iters = _iterations_per_step(readings, step)
                step_seconds = step_seconds * iters if iters is not None else None
            if step_seconds is None and epoch_bar is not None and epoch_bar[1].step_seconds is not None:
                # (the record prints no time of its own: the epoch's bar drawn just before says a batch's, one step)
                step_seconds, seconds_note = epoch_bar[1].step_seconds, epoch_bar[1].seconds_note
        else:
            return
        if total is not None:
            self._printed_total, self._printed_in_epoch = total, not ends_at_total
        elif (not full_epoch and self._printed_total is not None and step <= self._printed_total
              and self._printed_in_epoch == (not ends_at_total)):  # an epoch's batches are no run's steps
            # Another line of the same run printed it (Megatron's ``iteration N/ M`` beside
            # DeepSpeed's ``steps: N``, a bar beside the trainer's own log line).
            total = self._printed_total
        if self._ended is not None and self._ended == (step, epoch):
            return  # the bar drawn once more as it closes, after the end was printed
        self._ended = None
        # A step line repeats the last evaluation (litgpt's ``val:``, Lightning's ``val_loss=``): a
        # figure counts when it changes, or again when the step goes back (a new epoch's bar, a
        # restart), where it belongs to the stretch that begins (an evaluation before its step).
        back = self._last is not None and step < self._last[0]
        unspanned: list[tuple[str, float]] = []
        if step_seconds is None and "sec)" in line.text:
            interval = logging_interval(line.text)
            if interval is not None and interval[0] == step:
                # TensorFlow's logging hook: ``loss = 4.26, step = 100 (124.394 sec)``, the time since its last record
                if self._last is not None and step > self._last[0]:
                    step_seconds = interval[1] / (step - self._last[0])
                else:
                    # (no record before it in the log: the steps the interval spans are not printed, only its time)
                    unspanned.append((LOGGING_INTERVAL_SECONDS, interval[1]))
        # (a dated line's printed time the dates contradict is the tracker's to judge: timing.clock_contradicts)
        day = day_seconds(line.text) if line.at is None else None
        clocked, self._clocked_step = self._clocked_step, (step, day) if day is not None else None
        if (step_seconds is not None and bar is None and Field.STEP_TIME in got and clocked is not None
                and day is not None and seconds_note is None):
            # ``02:33:59: train iter: 200 … seconds: 123.053`` a line every 100 iterations: the interval's time, by the
            # time of day the undated lines lead with
            each = per_step_seconds(step_seconds, step - clocked[0], day_gap(clocked[1], day))
            if each is not None:
                step_seconds, seconds_note = each, interval_note(step_seconds, step - clocked[0])
        if step_seconds is None and bar is None and line.unitless_seconds is not None and line.at is not None:
            # ``step=150 loss=4.26 dt=0.0199942``: seconds once two records' dates agree, then as printed even where the
            # dates between records take in other work (a sample, a save)
            before, self._unitless_at = self._unitless_at, (step, line.at)
            if not self._unitless_seconds and before is not None:
                self._unitless_seconds = unitless_agrees(line.unitless_seconds, step - before[0], line.at - before[1])
            if self._unitless_seconds:
                step_seconds, seconds_note = line.unitless_seconds, UNITLESS_NOTE
        bare = next((n.value for n in line.named if n.kin is Kin.TIME and n.name == "time"), None)
        if step_seconds is None and bar is None and bare is not None and line.at is not None and not got.keys() & {
                Field.STEP_TIME, Field.ITS}:
            # ``<epoch:193, iter: 505,700, …, time:113.664>`` a record every 100 iterations: the interval's time or one
            # step's, as the dates since the record before say (interval_times.bare_time_reading)
            before, self._bare_timed_at = self._bare_timed_at, (step, line.at)
            if before is not None and step > before[0]:
                reading = bare_time_reading(bare, step - before[0], line.at - before[1])
                if reading is not None:
                    step_seconds, seconds_note = reading
        its = got.get(Field.ITS)
        if (step_seconds is not None and bar is None and Field.STEP_TIME in got and its is not None and seconds_note is None
                and above_rate(step_seconds, its.value)):
            step_seconds, seconds_note = 1.0 / its.value, rate_note(step_seconds)  # (``seconds: 123.0 … it/s: 0.81``)
        split = split_scores(line.text) if not line.train else []
        printed: dict[str, float] = {}  # this record's evaluation figures, changed or not
        for label, value in split:
            # (each split's score in the order printed, those the grammar reads as none too: ``Train: 0.83``, OGB's
            # ``Valid: 92.50%``)
            printed[label] = value
            if back or line.evaluation or self._evals.get(label) != value:
                self._evals[label] = value
                own = line.evaluation or (step_reading is not None and step_reading.name == "epoch")
                own = own or self._record_own_eval(label)
                events.append(EvalResult(at=line.at, name=label, value=value, step=step if back or own else None))
        scored = {label for label, _ in split}
        for r in readings:
            if r.field is Field.EVAL_LOSS:
                label = _eval_label(r.name, line.text)
                if label not in scored:
                    printed[label] = r.value
                # (an evaluation line that is the run's position prints this step's figures, the same or not)
                if label not in scored and (back or line.evaluation or self._evals.get(label) != r.value):
                    self._evals[label] = r.value
                    # (on a loop's line an epoch, the figures beside it are that epoch's)
                    own = line.evaluation or (step_reading is not None and step_reading.name == "epoch")
                    own = own or self._record_own_eval(label)
                    at_step = step if back or own else None
                    events.append(EvalResult(at=line.at, name=label, value=r.value, step=at_step))
        rates: list[tuple[str, float]] = []
        # (a figure read already under another name: the ``val_loss valid: 13.069`` a step line repeats is the
        # ``val_loss: 13.069`` its evaluation printed; pytracking's ``FPS`` its samples a second)
        read_evals = {r.value for r in readings if r.field is Field.EVAL_LOSS} | set(self._evals.values())
        read_figures = {value for _, value in line.parts}
        # (a split's figure named as the record's own is printed: its value may equal the record's, ``Seq Acc: 0.0000`` twice)
        twinned = {normalise(name) for name, _ in _split_twin_names(line)}
        for named in line.named:
            if (named.value in read_figures and not (named.kin is Kin.EVAL and line.evaluation and named.name in twinned)) or (
                    named.kin is Kin.EVAL and line.train):
                continue  # (a record that names its stage as training: its ``test`` figures are training's)
            if named.kin is Kin.RATE:
                rates.append(_rate_figure(named))
            elif named.kin is Kin.TIMESTEPS:
                rates.append((ENV_TIMESTEPS, named.value))
            elif named.kin is Kin.EPISODES:
                rates.append((TOTAL_PART + "episodes", named.value))
            elif named.kin is Kin.REWARD:
                rates.append(("reward", named.value))
            elif named.kin is Kin.EPOCH_TIME:
                rates.append((EPOCH_SECONDS, named.value))
            elif named.kin is Kin.TIME and not (named.name == "time" and step_seconds is not None):
                rates.append((TIME_PART + (named.printed or named.name), named.value))
            elif named.kin is Kin.MEMORY:
                rates.append((MEMORY_PART + named.printed, named.value))
            elif named.kin is Kin.EVAL and (named.value not in read_evals or (
                    # (a record that prints its validation each time: its figure unchanged is still this step's)
                    line.evaluation and self._evals.get(_named_label(named, line.text)) == named.value)
            ) and _named_label(named, line.text) not in scored and (
                    back or line.evaluation or self._evals.get(_named_label(named, line.text)) != named.value):
                self._evals[_named_label(named, line.text)] = named.value
                own = line.evaluation or (step_reading is not None and step_reading.name == "epoch")
                own = own or self._record_own_eval(_named_label(named, line.text))
                events.append(EvalResult(at=line.at, name=_named_label(named, line.text), value=named.value,
                                         step=step if back or own else None))
            if named.kin is Kin.EVAL and _named_label(named, line.text) not in scored:
                printed.setdefault(_named_label(named, line.text), named.value)
        if loss is None and not line.evaluation and Field.EVAL_LOSS not in got and (
                perplexity := training_perplexity(line.text)) is not None:
            # A record that prints its training perplexity and no loss (OpenNMT's ``… ; Perplexity 8.28``, sockeye's
            # ``perplexity=38.275190``): the run's training figure, under its own name
            rates.append((TRAIN_PERPLEXITY, perplexity))
        self._last, self._eval_positions = (step, epoch), False
        # (a record an epoch: the evaluation printed after it, naming no step of its own, is that epoch's)
        self._epoch_record = step_reading is not None and step_reading.name == "epoch" and bar is None
        self._carried_evals.update(label for label, value in printed.items() if self._record_evals.get(label) == value)
        self._record_evals = printed
        tokens_per_second = got.get(Field.TOKENS_PER_SECOND) or got.get(Field.TOKENS_PER_SECOND_DEVICE)
        percent = got.get(Field.PERCENT)
        printed_mfu = got.get(Field.MFU)
        unsaid_mfu = got.get(Field.MFU_AS_PRINTED)
        if printed_mfu is not None:
            self._mfu_percent = True
        elif unsaid_mfu is not None and self._mfu_percent:
            printed_mfu = unsaid_mfu  # (the log's other records said percent: ``mfu=1.2`` then ``mfu=0.9``)
        elif unsaid_mfu is not None:
            rates.append((MFU_AS_PRINTED, unsaid_mfu.value))
        mfu, mfu_note = _mfu(printed_mfu, tokens_per_second, step_seconds)
        events.append(
            TrainStep(
                at=line.at,
                stage="train",
                step=step,
                # (a line a share of its epoch: the epochs printed are no total it reaches at that epoch's start)
                total_steps=total if total is not None and total > 0 and line.epoch_percent is None else None,
                progress_percent=percent.value if percent is not None else None,
                loss=loss.value if loss is not None else None,
                loss_note=loss_note if loss is not None else None,
                lr=got[Field.LR].value if Field.LR in got else self._begun_lr,
                grad_norm=got[Field.GRAD_NORM].value if Field.GRAD_NORM in got else None,
                step_seconds=step_seconds,
                step_seconds_note=seconds_note if step_seconds is not None else None,
                elapsed_seconds=elapsed,
                tokens_per_second=tokens_per_second.value if tokens_per_second is not None else None,
                per_device=tokens_per_second is not None and tokens_per_second.field is Field.TOKENS_PER_SECOND_DEVICE,
                tokens=self._tokens(step, got.get(Field.TOKENS)),
                mfu=mfu,
                mfu_note=mfu_note,
                trainer_eta_seconds=eta,
                # (an epoch said on a line of its own above steps that name none is still the data's epoch, though
                # their count is the run's: kohya's ``epoch is incremented`` over its bar of all the steps)
                epoch=epoch if epoch is not None or self._epoch is None else self._epoch.value,
                ends_at_total=ends_at_total and line.epoch_percent is None,
                epoch_percent=line.epoch_percent,
                run_eta=line.run_eta,
                epoch_total=(epoch_reading.total if epoch_reading is not None and epoch_reading.total
                             else self._epoch.total if epoch is None and self._epoch is not None
                             else self._planned_epochs if epoch is not None else None),
                epoch_steps=bar_total,
                per_pass=per_pass,
                # (a rate printed under its name, not a bar's: the steps since the line before over their time)
                interval_average=bar is None and (Field.ITS in got and Field.STEP_TIME not in got
                                                  or _averaged_step_time(got.get(Field.STEP_TIME))),
                # (a table's figures under their names, then the named figures no table gave)
                figures=(*line.parts, *table_figures, *(r for r in rates if r[0] not in dict(table_figures)),
                         *_running_count(got.get(Field.TOKENS)), *unspanned),
                counter=_counted_as(line, step_reading, bar, step),
                count_unsaid=bar is not None and bar.unsaid and bar.unit is None,
                step_printed=step_reading.printed if step_reading is not None and step_reading.value == step else None,
            )
        )
        self._begun_lr = None
        last = events[-1]
        if isinstance(last, TrainStep) and step_reading is not None and step_reading.name == "epoch":
            if self._first_epoch_record is None:
                self._first_epoch_record = last.step
            planned = self._planned_epochs
            if (Field.TOTAL not in got and (epoch_reading is None or not epoch_reading.total)
                    and last_planned_epoch_from_zero(self._first_epoch_record, last.step, planned)):
                # (``epoch 49`` of ``range(50)``, the plan printed before it: the last of the plan, never ``49/50``)
                events[-1] = last = replace(last, total_steps=None, epoch_total=None, last_of_epochs=planned)
        self._step_event = (events, len(events) - 1)
        self._record_line = None
        if step_reading is not None and loss is not None and bar is None:
            self._record_line = (step_reading.name, loss.value, self._pieces_read)
        if isinstance(last, TrainStep):
            self._last_counter = last.counter  # (what an evaluation's step names must count to be one of its: step_evals.py)
            self._last_position = step_reading.name if step_reading is not None and bar is None else None
            # the run's last step: its last epoch's (of a printed total), no further step of its stride short of its total
            stride = last.step - self._last_step if self._last_step is not None else 0
            self._last_step = last.step
            self._stride = stride
            done = (last.epoch is not None and last.epoch_total is not None and last.epoch >= last.epoch_total
                    and last.total_steps is not None and stride > 0 and last.step + stride > last.total_steps)
            self._run_done = last if done else None
        if isinstance(last, TrainStep) and bar is None and line.counters is None and last.ends_at_total:
            self._run_record = (last.step, last.total_steps or 0)
        # (an unsized bar that names no epoch, DGL GraphBolt's ``Training: 1178it [00:12, 95.2it/s]``: a pass whose epoch
        # the record after it may say)
        unsized_pass = bar is not None and bar.total is None and (epoch is None or self._epoch_passes)
        self._unplaced_epoch = isinstance(last, TrainStep) and (
            ((last.epoch is None or summed_before) and not last.ends_at_total) or unsized_pass)
        self._full_epoch = (last, bar_total) if bar_total is not None and isinstance(last, TrainStep) else None
        self._epoch_open = last if (isinstance(last, TrainStep) and not last.ends_at_total and last.epoch is not None
                                    and last.total_steps is not None and last.step < last.total_steps) else None
        if fit_closed:
            events.append(StageEnd(at=line.at, summary=f"the last epoch's bar at its total ({step}/{total}): "
                                   "Keras prints no end line after fit", said=True))

    def _validation_tick(self, line: _Line, bar: _Bar, validating: tuple[int, int], events: list[Event]) -> bool:
        """True when this main bar's line is a tick of Lightning's validation under way, its events added: Lightning 1.x's
        main bar counts the validation's batches after its training's (``Epoch 0: 92%|…| 932/1016`` beside ``Validation
        DataLoader 0: 46%|…| 73/157``: 859 training batches, then the validation's), so past its total less the
        validation's it is no training step, once the validation began where the training's share ended (the tracker's
        ``counts_evaluation`` reads the same bar a step at a time). Where no line of the epoch's training was read, the
        training is read once as done at that share, its own total, the bar's mean pace so far its time; after, the run
        is evaluating, the main bar's count past the training's share the pass's (newer than the validation bar's last
        redraw, until that bar is drawn again)."""
        batches = validating[0]
        trained = bar.total - batches if bar.total is not None else 0
        if bar.total is None or bar.step >= bar.total or trained <= 0 or bar.step <= trained:
            self._validating = None  # (the main bar full, gone back, or within its training batches: no validation now)
            return False
        epoch = _first(line.readings, Field.EPOCH)
        read = self._last is not None and self._last[1] == (epoch.value if epoch is not None else None)
        if read and self._last is not None and self._last[0] < trained:
            # (the validation began before the training's share ended: a bar that counts the training alone, Lightning
            # 2's ``val_check_interval``)
            self._validating = None
            return False
        if not read:
            # (its time the bar's mean pace so far, the validation's first batches in it: said so)
            note = f"the epoch bar's mean pace at {bar.step}/{bar.total}, {bar.step - trained} validation batches in it"
            self._validating = None
            self._step(replace(line, bar=replace(bar, step=trained, total=trained, eta=None,
                                                  seconds_note=note if bar.step_seconds is not None else None)), events)
            self._validating = validating
        # (the pass's count is the main bar's past the training's share: newer than the validation bar's last redraw;
        # the bar's own record, its time left the epoch's with its validation, is the newest of the epoch)
        self._validating = (batches, bar.step - trained)
        events.append(TrainingPause(at=line.at, reason="evaluation", batches=batches, done=bar.step - trained,
                                    bar=SharedBar(bar.step, bar.total, trained, bar.eta)))
        return True

    def _per_pass(self, count: int) -> bool:
        """True once unsized bars that name no epoch have twice failed to go past the last one's count: each is a pass
        of its own that starts again at 0 (wav2lip's ``Loss: 0.52: : 11it [00:06,  1.59it/s]``, one line a pass), not
        one bar of the whole run. (Once: tqdm draws a closed bar's last state again.)"""
        if self._unsized_last is not None and count <= self._unsized_last:
            self._unsized_restarts += 1
        self._unsized_last = count
        return self._unsized_restarts >= 2

    def _tokens(self, step: int, count: Reading | None) -> float | None:
        """The tokens since the last line, from a running count (``Trained Tokens``, ``consumed tokens``)."""
        if count is None:
            return None
        last, self._tokens_at = self._tokens_at, (step, count.value)
        if last is None or step <= last[0] or count.value <= last[1]:
            return None
        return count.value - last[1]


_SNIFFER: GenericParser | None = None


def step_line(line: str) -> bool:
    """True when this one line, on its own, is a step line to the generic reader."""
    global _SNIFFER
    if _SNIFFER is None:
        _SNIFFER = GenericParser()
    message = _SNIFFER._times.reader.read(clean(line)[:MAX_CHARS]).message
    kind, record = _SNIFFER.classify(message)
    return kind is Kind.FULL and record is not None and record.what == "step"


def _decide(line: _Line) -> _Line:
    """A step line when it has a step and a training figure; an evaluation's, a total's or nothing."""
    readings = line.readings
    has_step = line.counters is not None or _position(readings) is not None
    evaluated = any(r.field is Field.EVAL_LOSS for r in readings)
    # A step time or running clock beside the losses makes the evaluation line the run's
    # position too (a trainer that prints nothing else).
    timed = any(r.field in (Field.STEP_TIME, Field.ELAPSED) for r in readings)
    line.evaluation = evaluated and timed and _EVAL_SHAPE.match(line.text) is not None
    # (A loop that logs once an epoch prints its epoch's losses, training and validation, on one line: a step.)
    epochs = any(r.field is Field.STEP and r.name == "epoch" for r in readings)
    # A throughput or MFU beside them says a training stretch was measured: a step with its evaluation
    # (modula's ``step: 10  train loss: 3.11  test loss: 3.05  tokens/gpu/sec: 9378.40  MFU: 63.91%``).
    measured = any((r.field in _FIGURES and r.field is not Field.LOSS) or r.field in _MFU_FIELDS for r in readings)
    if evaluated and measured and not timed and any(r.field is Field.LOSS for r in readings):
        line.evaluation = True  # (its evaluation is printed at every report: the figures are this step's)
    if evaluated and not timed and not epochs and not measured and not line.train:
        line.what = "eval"  # ``step 500: train loss 5.73, val loss 5.95``: an evaluation's figures
        return line
    if has_step and any(r.field in _FIGURES for r in readings):
        if not line.parts and not any(r.field in (Field.LOSS, Field.EVAL_LOSS) for r in readings):
            # (a GAN's losses beside the step's time: dcgan.torch's ``Time: 0.127  DataTime: 0.000  Err_G: … Err_D: …``)
            line.parts = _part_losses(line.text) if _position(readings) is not None else ()
        return line
    position = _position(readings)
    losses = _part_losses(line.text) if position is not None else ()
    if position is not None and line.parts and loss_groups(line.text) is not None:
        return line  # (a network's loss with its parts in parentheses, the other's beside it: the parts, read in classify)
    if position is not None and (losses or (position.total is not None and _SEVERAL_LOSSES.search(line.text))):
        # ``[Epoch 3/10] [Batch 120/500] [D loss: 0.45] [G loss: 1.2]``, ``Epoch [3], Step [150], D1 Loss: 0.65, G Loss:
        # 2.35``: losses, none the model's; each is shown as the part it is, and no one loss is made of them
        if losses and not line.parts:
            line.parts = losses
        return line
    if has_step and _progress_only(readings):
        return line  # LLaMA-Factory's last record: no loss (null), but the step reached its total
    if position is not None and _own_figure(line):
        return line  # (a step's figures under names that are no loss's, a GAN's ``D: 0.67, G: 2.34``: lone_figures.py)
    if not has_step and any(r.field is Field.TOTAL for r in readings):
        line.what = "total"
        return line
    if not has_step and readings and (line.begun or all(r.field is Field.EPOCH for r in readings)):
        # Keras: ``Epoch 3/10`` on a line of its own, its bar on the next; kohya's ``epoch is incremented.
        # current_epoch: 4, epoch: 5`` (the last named is the epoch now begun); an epoch and the learning rate it
        # begins with (``Epoch: 8`` over ``Learning rate: 0.049932``, a ResNet trainer's, its bar after them)
        line.what = "epoch"
        return line
    line.what = "other"
    return line


# Words that make a loss-headed name some other figure: a loss's scale or weight (``loss_scale``), a best or worst one.
_NOT_LOSS_TAILS = frozenset({"scale", "scaler", "weight", "weights", "coef", "coeff", "fn", "type", "ratio", "std",
                             "var", "count", "rate", "spike", "spikes"})
_NOT_LOSS_QUALIFIERS = frozenset({"best", "least", "largest", "lowest", "highest", "smallest", "min", "max", "prev",
                                  "previous", "last", "target", "ema",
                                  # a term added to the model's loss, never the loss itself (BERT's next-sentence
                                  # loss, a mixture of experts' balancing and router losses, a regulariser)
                                  "nsp", "aux", "auxiliary", "balancing", "router", "z", "kl", "reg",
                                  "regularization", "l1", "l2", "penalty", "entropy"})


_ONE_NETWORK = re.compile(r"[a-z]\d?")


def _evaluated_step(figures: tuple[tuple[str, float], ...], readings: list[Reading],
                    last: tuple[int, float | None]) -> bool:
    """Whether a step record's own figures are all an evaluation's scores (``acc``, ``f1``; a return or a reward is the
    run's own) at a step no later than the last one logged: that step's evaluation, not a step."""
    if not all(set(normalise(name).split(" ")) & EVALUATED_WORDS for name, _ in figures):
        return False
    position = _position(readings)
    if position is not None:
        return position.value <= last[0]
    epoch = next((r for r in readings if r.field is Field.EPOCH), None)
    return epoch is not None and last[1] is not None and epoch.value <= last[1]


def _own_figure(line: _Line) -> bool:
    """True when the line's figures are kept under their own names, none the loss (lone_figures.py)."""
    return any(name.startswith(FIGURE_PART) for name, _ in line.parts)


def _headed_loss(unknown: list[tuple[str, str | None, str, str | None]]) -> Reading | None:
    """The loss of a step record that names its one loss with a qualifier no rule knows (``dataset loss: 0.14``,
    ``loss_net: 0.94``, ``recon loss 3.2``, the word glued to it and Lightning's ``_step`` after it: ``aeloss_step``):
    read by its head word, ``loss``; None when it names several (the parts of a loss, none the model's) or none."""
    found: Reading | None = None
    for raw, _paren, value_text, unit in unknown:
        if unit is not None:
            continue
        words = loss_words(normalise(raw))
        if words is None or not 2 <= len(words) <= 3:
            continue
        if words[-1] != "loss" and not (len(words) == 2 and words[0] == "loss" and words[1] not in _NOT_LOSS_TAILS):
            continue
        if set(words) & (EVAL_WORDS | _NOT_LOSS_QUALIFIERS):
            continue
        if len(words) == 2 and _ONE_NETWORK.fullmatch(words[0] if words[1] == "loss" else words[1]):
            continue  # (a GAN's ``G Loss``, ``D1 Loss``: one network's loss of several, not the model's)
        value = number(value_text)
        if value is None:
            continue
        if found is not None:
            return None
        found = Reading(Field.LOSS, " ".join(words), value)
    return found


def _grouped_losses(groups: LossGroups, unknown: list[tuple[str, str | None, str, str | None]]) -> tuple[tuple[str, float], ...]:
    """A record's losses where a network's loss prints its parts in parentheses (loss_groups.py): each group's parts, and
    every other loss the record names for its part or network (the other network's ``d_loss``), under their names as
    printed; none is the model's one loss."""
    others: list[tuple[str, float]] = []
    for raw, _paren, value_text, unit in unknown:
        words = loss_words(normalise(raw))
        value = number(value_text)
        if unit is None and words is not None and words[-1] == "loss" and not set(words) & EVAL_WORDS and value is not None:
            others.append((LOSS_PART + raw, value))
    return (*((LOSS_PART + name, value) for name, value in groups.parts), *others)


def _named_loss_parts(unknown: list[tuple[str, str | None, str, str | None]]) -> tuple[tuple[str, float], ...]:
    """A record's losses, each named for its part or its network (a GAN's ``g_loss``, ``d_loss``; taming-transformers'
    ``aeloss_step``, ``discloss_step``; latent diffusion's ``train/loss_simple_step``, ``train/loss_vlb_step``), under
    their names as printed: none is the model's one loss and no one loss is made of them. An evaluation's loss, a loss's
    scale or weight are none; nor is a loss's epoch mean (``aeloss_epoch``) beside its step's value. None when fewer
    than two."""
    named: list[tuple[str, list[str], float]] = []
    for raw, _paren, value_text, unit in unknown:
        words = loss_words(normalise(raw))
        value = number(value_text)
        if (unit is not None or words is None or value is None or set(words) & EVAL_WORDS
                or words[-1] in _NOT_LOSS_TAILS):
            continue
        named.append((raw, words, value))
    stepped = {" ".join(words) for _, words, _ in named}
    parts = tuple((LOSS_PART + raw, value) for raw, words, value in named
                  if not (words[-1] == "epoch" and " ".join(words[:-1]) in stepped))
    return parts if len(parts) >= 2 else ()


def _json_classed(line: _Line, unread: list[tuple[str, str | None, str, str | None]]) -> _Line:
    """A JSON-lines record's figures that no rule names, by their names' classes (classes.py): an RL loop's
    (``{"step": 5000, "train/return": 35.2, "episodes": 5}``) reward, environment steps and episodes so far, an
    evaluation's score, a rate. A record with its position and a reward but no loss is that position's step."""
    if (line.what == "other" and not unread and len(line.readings) == 1 and line.readings[0].field is Field.STEP
            and line.text.count('":') == 1):
        line.what = "step"  # (a record of its step alone: DreamerV3's ``{"step": 5000}``, the logger's step reached)
        return line
    if not unread or line.what not in ("step", "other") or _position(line.readings) is None:
        return line
    named = [n for n in beside("", unknown=unread) if n.kin is not Kin.TIME]
    if line.what == "other":
        if not any(n.kin is Kin.REWARD for n in named):
            return line
        line.what = "step"
    line.named = (*line.named, *named)
    return line


def _returned(line: _Line, s: str, unknown: list[tuple[str, str | None, str, str | None]]) -> _Line:
    """An RL loop's step with an episode's return and nothing else (cleanrl's ``global_step=4096,
    episodic_return=[12.]``): a step, its return beside it. cleanrl's ``global_step`` counts the
    environment's steps (every vectorised environment's), so the step is said to be theirs."""
    named = [n for n in beside(s, unknown=unknown) if n.kin is Kin.REWARD]
    if named:
        line.what, line.named = "step", tuple(named)
        position = _position(line.readings)
        if position is not None and "global" in position.name:
            line.parts = (*line.parts, (ENV_TIMESTEPS, position.value))
    return line


def _progress_only(readings: list[Reading]) -> bool:
    """A step with its total and the run's clock (elapsed, remaining, percent) but no figure: a
    record of where the run is, which the run's last one may be."""
    position = _position(readings)
    total = (position is not None and position.total is not None) or any(r.field is Field.TOTAL for r in readings)
    return total and any(r.field in (Field.ELAPSED, Field.ETA, Field.PERCENT) for r in readings)


def _even_growth(seen: list[float], places: list[float | None]) -> bool:
    """True when three readings of a bare ``time`` grow by about as much a step from the first to the second as from the
    second to the third (a clock: cellpose's 4981.4 s at epoch 5, 9074.8 s at 10, 28029.8 s at 20); a step's own time
    that happens to rise three times in a row does not (pix2pix's 0.226, 0.230, 0.354 every 100 iterations)."""
    first, second = seen[1] - seen[0], seen[2] - seen[1]
    a, b, c = places if len(places) == 3 else (None, None, None)
    if a is not None and b is not None and c is not None and a < b < c:
        first, second = first / (b - a), second / (c - b)
    return max(first, second) <= RUNNING_TIME_EVENNESS * min(first, second)


def _late_clock(seen: list[float], places: list[float | None]) -> bool:
    """True when three rising readings of a bare ``time`` are a clock far into the run: a minute or more, each rise a step
    under ``RUNNING_TIME_SMALL_RISE`` of its value (18565.61, 18566.15, 18566.68 at batches 396 to 398)."""
    a, b, c = places if len(places) == 3 else (None, None, None)
    steps = (c - a) if a is not None and b is not None and c is not None and a < b < c else 2.0
    return seen[0] >= RUNNING_TIME_MINUTE_SECONDS and (seen[2] - seen[0]) / steps <= RUNNING_TIME_SMALL_RISE * seen[0]


def _outer_read(line: _Line) -> _Line:
    """A step line whose ``a/b`` position is the epoch ``a``, then the batch ``b`` (``_own``), read so."""
    position = _position(line.readings)
    if position is not None and position.total is not None:
        batch = Reading(Field.STEP, position.name, float(position.total))
        line.readings = [batch if r is position else r for r in line.readings]
        line.readings.append(Reading(Field.EPOCH, "epoch", position.value))
    return line


def _position(readings: list[Reading]) -> Reading | None:
    """The step a line names: ``step`` over ``iter`` (litgpt prints both: iterations and steps)."""
    steps = [r for r in readings if r.field is Field.STEP]
    for r in steps:
        if r.total is not None:
            return r  # NeMo's ``iteration 10/99 | … | global_step: 10``: the one with the total
    for r in steps:
        if r.name not in ("iter", "iteration"):
            return r
    return steps[0] if steps else None


def _iterations_per_step(readings: list[Reading], step: int) -> int | None:
    """Iterations per optimizer step when a line counts both (``iter 3051000 step 610200``: 5), 1
    when it counts one; None when its two counters do not pin it down (``iter 62 step 1``).

    The step is ``n // k`` for n iterations done (litgpt steps the optimizer every k iterations,
    and prints ``iter`` counting from 0 or from 1: n is ``iter`` or ``iter + 1``), so k lies in
    ``(iter / (step + 1), (iter + 1) / step]``: early in a run that is a range, and no step time is
    better than an invented one.
    """
    iters = [r for r in readings if r.field is Field.STEP and r.name in ("iter", "iteration")]
    if not iters or step <= 0 or int(iters[0].value) == step:
        return 1
    count = int(iters[0].value)
    most, least = (count + 1) // step, count // (step + 1) + 1
    return most if most == least and most >= 1 else None


def _detectron_time(record: str) -> list[Reading]:
    """Detectron's (Caffe2) ``json_stats`` ``"time": 0.266505``: the iterations' mean time, in seconds (its
    ``utils/training_stats.py`` logs its iteration timer's ``average_time``), printed as a number or a string."""
    try:
        value = json.loads(record).get("time")
    except (ValueError, AttributeError):
        return []
    seconds = finite(number(str(value))) if isinstance(value, (int, float, str)) and not isinstance(value, bool) else None
    return [Reading(Field.STEP_TIME, "time", seconds)] if seconds is not None and seconds > 0 else []


def _running_count(count: Reading | None) -> tuple[tuple[str, float], ...]:
    """The tokens trained on so far, as printed under their name (MLX's ``Trained Tokens 20080.0``, nanotron's
    ``consumed_tokens: 634K``): a total of the run's (``total/trained tokens``)."""
    if count is None or count.value <= 0:
        return ()  # (LLaMA-Factory's ``"total_tokens": 0``: none counted)
    return ((TOTAL_PART + count.name, count.value),)


def _unitless_seconds(unknown: list[tuple[str, str | None, str, str | None]]) -> float | None:
    """A step's time a record prints with no unit under a name that says only that (``dt=0.0199``), or None."""
    for raw, paren, value_text, unit in unknown:
        if unit is None and paren is None and normalise(raw) in UNITLESS_NAMES:
            value = number(value_text)
            return value if value is not None and value > 0 else None
    return None


def _averaged_step_time(reading: Reading | None) -> bool:
    """The step time read is the average of the iterations since the line before, by its name (Paddle's
    ``avg_batch_cost``)."""
    return reading is not None and reading.name == "avg batch cost"


def _step_seconds(got: dict[Field, Reading]) -> float | None:
    if Field.STEP_TIME in got and got[Field.STEP_TIME].value > 0:
        return got[Field.STEP_TIME].value
    if Field.ITS in got and got[Field.ITS].value > 0:
        return 1.0 / got[Field.ITS].value
    return None


# Evaluation figures named as their own trainer's parser names them (nanochat.py's ``eval_name``).
_EVAL_LABELS = {"validation bpb": "val_bpb", "val bpb": "val_bpb", "train bpb": "train_bpb", "core metric": "core",
                "chatcore metric": "chatcore", CATBOOST_SET_LABEL: "test"}  # fmt: skip


def _values_first(s: str) -> str | None:
    """A record led by its step whose figures are printed before their names (tinygrad's ``2 101.78 s run,
    11.8750 loss, 0.000000000001 LR, 1454.57 GB used,  17039.35 GFLOPS``) as ``step: 2 | run: 101.78 s | loss:
    11.8750 | …``; None for any other line (a loss among the names at least: prose is not read so)."""
    m = _VALUES_FIRST_LEAD.match(s)
    if m is None:
        return None
    pieces = [_VALUE_NAME.fullmatch(piece.strip()) for piece in s[m.end() :].split(",")]
    if len(pieces) < 2 or any(p is None for p in pieces):
        return None
    named = [(p.group(3), p.group(1), p.group(2)) for p in pieces if p is not None]
    if not any(name.lower() == "loss" for name, _, _ in named):
        return None
    return f"step: {m.group(1)} | " + " | ".join(f"{name}: {value}{' ' + unit if unit else ''}" for name, value, unit in named)


# How a step's time worked out from the steps' own rate is said (the name TF Estimator prints it under).
_STEPS_RATE_NAME = "global_step/sec"


def _steps_rate(named: Named) -> bool:
    """A rate of the optimizer's steps (TF Estimator's ``global_step/sec``), not of the data."""
    return named.kin is Kin.RATE and _rate_figure(named)[0].startswith(RATE_PART) and "step" in named.name


def _named_label(named: Named, text: str = "") -> str:
    """An evaluation figure's label: ``val_acc``, ``test_acc``, a detector's ``mAP`` as it prints it (its record's
    ``text``: a split named alone there may be a score, :func:`_eval_label`)."""
    label = _eval_label(named.name, text)
    return "mAP" + label[3:] if label.startswith("map") else label


def _rate_figure(named: Named) -> tuple[str, float]:
    """A rate under its printed name: samples a second as the others' (``samples_per_second``), else ``rate/…``."""
    if "samples" in named.name or "examples" in named.name:
        return "samples_per_second", named.value
    return RATE_PART + (named.printed or named.name).removeprefix("env "), named.value


def _tagged_figures(tagged: tuple[tuple[str, str], ...], named: tuple[Named, ...]) -> list[Named]:
    """An evaluation's figures under its heading's own tag (``Vis abs_rel: 0.5546``) as evaluation figures named so,
    those already classed or read by the grammar left out."""
    seen = {n.name for n in named}
    found = []
    for printed, value_text in tagged:
        name, value = normalise(printed), number(value_text)
        if value is not None and name not in seen and lookup(name)[0] is None:
            found.append(Named(Kin.EVAL, name, value, printed))
    return found


def _eval_label(name: str, text: str = "") -> str:
    """``val: 1.05``, ``Val loss``, ``validation lm loss`` → ``val_loss``; ``test lm loss`` → ``test_loss``; a split
    named alone on a record (``text``) that scores its splits keeps its name (``Val: 0.5406`` → ``val``, ``Val: 65.75%``
    → ``val_percent``: step_source.split_scores)."""
    if name in _EVAL_LABELS:
        return _EVAL_LABELS[name]
    if text and name in EVAL_WORDS:
        scored = next((label for label, _ in split_scores(text) if label.removesuffix(PERCENT_SUFFIX) == name), None)
        if scored is not None:
            return scored
    first, _, rest = name.partition(" ")
    # Only the model's own loss is ``val_loss``: Keras' ``val_mrcnn_mask_loss`` is one of its parts.
    own = rest in ("", "loss", "lm loss")
    if first in ("val", "valid", "validation") and own:
        return "val_loss"
    if first == "test" and own:
        return "test_loss"
    return name.replace(" ", "_")


def _summary_loss(full: tuple[TrainStep, int] | None, text: str, readings: list[Reading]) -> Reading | None:
    """The loss of an epoch's own record printed after that epoch's bar filled (``full``: the last step, a full bar, and
    its total), or None. The record names the epoch the bar counted and no step of its own, and leads with that epoch
    (PyG's and DGL's examples: ``Epoch 02: 100%|…| 90941/90941`` then ``Epoch 02, Loss: 2.1863, Approx. Train: 0.4050``;
    a loop's ``Epoch 1/10: 100%|…| 852/852`` then ``Epoch 1, Loss: 0.3045``) or follows a bar that printed no loss
    (RecBole's ``Train     3: 100%|####| 17446/17446`` then ``epoch 3 training [time: 9866.71s, train loss:
    179017.2822]``). Its loss is the epoch's, at the bar's last count."""
    if full is None or any(r.field is Field.STEP for r in readings):
        return None
    epoch, loss = _first(readings, Field.EPOCH), _first(readings, Field.LOSS)
    if epoch is None or loss is None or epoch.value != full[0].epoch:
        return None
    return loss if full[0].loss is None or _EPOCH_LEADS.match(text) else None


def _first(readings: list[Reading], kind: Field) -> Reading | None:
    return next((r for r in readings if r.field is kind), None)


def _epochs_bar(m: re.Match[str], at: float | None, s: str) -> _Line:
    """The outer bar's epochs (``_EPOCHS_BAR``): those done of the run's, said as an epoch's line is."""
    return _Line("epoch", at, [Reading(Field.EPOCH, "epoch", float(m.group("n")), int(m.group("m")))], text=s[: m.end()],
                 epochs_bar=True)


def _outer_bar(m: re.Match[str], epochs: _Line, at: float | None, s: str) -> _Line:
    """Nested bars' outer bar drawn alone (``_EPOCHS_BAR``): the epochs done of the run's, at its total the run's end;
    with its own loss after its count (``Epoch:  40%|…| 4/10 [00:40<01:00, 10.00s/it, loss=0.5]``), the run's record an
    epoch, at the epochs done. Without one it is that record too while no inner bar is drawn under it (``for epoch in
    trange(epochs, desc="Epoch")`` over a loop that draws none): ``epochs.record``, its s/it the epoch's time."""
    done, planned = int(m.group("n")), int(m.group("m"))
    figures = pairs(m.group("post") or "", [])
    readings = [*epochs.readings, Reading(Field.STEP, "epoch", float(done), planned), *figures]
    drawn = _bar(m)
    if drawn.step_seconds is not None:
        readings.append(Reading(Field.STEP_TIME, "epoch time", drawn.step_seconds))
    if drawn.eta is not None:
        readings.append(Reading(Field.ETA, "remaining", drawn.eta))  # (the epochs left, at the bar's pace)
    record = _Line("step", at, readings, text=s)
    if any(r.field is Field.LOSS for r in figures):
        return record
    if done > 0:  # (at 0 no epoch is done: no record, the inner bars after it, if any, that first epoch's)
        epochs.record = record
    if done >= planned > 0:
        return _Line("end", at, text=s, before=epochs, epochs_done=True)
    return epochs


def _bar(m: re.Match[str]) -> _Bar:
    if m.group("count") is not None:
        step, total = int(m.group("count")), None
    else:
        step, total = int(m.group("n")), int(m.group("m"))
    rate = number(m.group("rate")) if m.group("rate") else None
    seconds = None
    if rate is not None and rate > 0:
        seconds = rate if m.group("unit") == "s/it" else 1.0 / rate
    remain = m.group("remain")
    elapsed = clock_seconds(m.group("elapsed"))
    if seconds is None and (remain is None or m.group("cut") is not None) and m.group("unit") is None and elapsed and step > 0:
        # A bar that prints its elapsed time alone (YOLOv5's ``1849/1849 13:15``, read as ``[13:15]``), or whose rate a
        # terminal's width cut (``5777/5777 [14:35<00:00,  6.``): its mean step
        return _Bar(step, total, elapsed / step, elapsed, clock_seconds(remain) if remain else None,
                    seconds_note=ELAPSED_MEAN_NOTE)
    return _Bar(step, total, seconds, elapsed, clock_seconds(remain) if remain else None)


def _mfu(
    printed: Reading | None, rate: Reading | None, step_seconds: float | None
) -> tuple[float | None, str | None]:
    """The MFU a step line printed, and a note when it is a placeholder: an MFU of 0 while tokens
    flow or steps take time is no measure (a trainer without the GPU's peak FLOPS prints 0.00)."""
    if printed is None:
        return None, None
    working = (rate is not None and rate.value > 0) or (step_seconds is not None and step_seconds > 0)
    if printed.value == 0 and working:
        return None, MFU_PLACEHOLDER_NOTE
    return printed.value, None


# Figures that make a record a step's or an evaluation's own, not a line of scores alone.
_RECORD_FIGURES = frozenset({Field.LOSS, Field.EVAL_LOSS, Field.STEP})
# A dated logging record glued after a bar (mmcv's ``… ETA:     0s2021-07-14 13:52:36,901 - mmcls - INFO - …``).
# (or a US date first, the transformers examples' ``09/20/2025 19:56:58 - INFO - trainer - …``)
_GLUED_RECORD = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d|\d\d/\d\d/\d{4} \d\d:\d\d:\d\d")
# Lightning's main bar starting right after the close of a bar before it (``…1.69s/it]Epoch 0:  90%|``).
_LIGHTNING_MAIN_GLUED = re.compile(r"\](?=Epoch \d{1,9}:)")
# mmcv's (1.x) ProgressBar over an evaluation's samples: ``[>>>>>>>>>] 50/50, 163.1 task/s, elapsed: 0s, ETA:     0s``.
_MMCV_BAR = re.compile(r"\[[>\s]{1,400}\] \d{1,12}/\d{1,12}, \d{1,9}(?:\.\d+)? task/s, elapsed: \d{1,9}s, ETA:\s{0,9}\d{1,9}s")


def _unglued(part: str) -> list[str]:
    """A bar and the message printed straight after it (``…7.98it/s]DLL … step_loss : 2.05``) as two."""
    if not part.strip():
        return []
    if "global step" in part:
        saved = _LIGHTNING_CHECKPOINT.search(part)
        if saved is not None and saved.start() > 0 and _BAR_HEAD.search(part[: saved.start()]) is not None:
            # (a bar cut by Lightning's checkpoint line: ``… 4.14it/s, loss=nan, v_num=Epoch 0, global step 51: …``)
            return [*_unglued(part[: saved.start()]), part[saved.start() :]]
    if "]" not in part or "[" not in part:
        return [part]
    if _LIGHTNING_VALIDATION.match(part) and (main := _LIGHTNING_MAIN_GLUED.search(part)) is not None:
        # Lightning 1.x's validation bar with its main bar's redraw written straight after it, no newline between
        # (``Validating:  14%|…| 2/14 [00:03<00:20,  1.69s/it]Epoch 0:  90%|…| 97/108 [00:10<00:01, …]``): two bars
        return [part[: main.start() + 1], *_unglued(part[main.start() + 1 :])]
    if "task/s" in part and (drawn := _MMCV_BAR.search(part)) is not None and part[drawn.end() :].strip():
        # mmcv's ProgressBar ends with no newline: the evaluation's record its logger prints next is glued on
        # (``[>>>>] 50/50, 163.1 task/s, elapsed: 0s, ETA:     0s2021-07-14 13:52:36,901 - mmcls - INFO - Epoch(val) …``)
        return [part[: drawn.end()], part[drawn.end() :]]
    last = None
    for m in _BAR.finditer(part):
        if last is not None and _GLUED_RECORD.match(part, last.end()) is not None:
            # (a bar with a logger's dated record straight after it, that record redrawn over by a bar of its own:
            # ``Epoch:   2%|…| 1/50 [07:13<5:53:58, 433.43s/it]09/20/2025 19:56:58 - INFO - … | 82/117 [04:01<…]``)
            return [part[: last.end()], *_unglued(part[last.end() :])]
        last = m
    if last is None or not part[last.end() :].strip():
        return [part]
    return [part[: last.end()], part[last.end() :]]


def _saving(s: str) -> bool:
    """A checkpoint being saved (``saving checkpoint to out``, ``Saved adapter weights to …``)."""
    low = s[:200].lower()
    return ("sav" in low or "wr" in low) and _CHECKPOINT.search(s[:200]) is not None


# A Keras bar led by the script's own counter, a loop that calls ``fit`` once for each (Keras 1's ``iteration 15
# 200285/200285 [====] - 482s - loss: 1.3745``, keras-team/keras#7375): the counter is the step, the bar its whole pass.
_LABELLED_BAR = re.compile(r"(?i)^(iteration|iter)\s(\d{1,9})\s+(?=\d{1,12}/\d{1,12} \[)")


def _labelled_bar(step: int, bar: str, s: str, at: float | None) -> _Line | None:
    """A full Keras bar under its script's own counter as that step's record: its loss, and the full bar's time printed
    (``- 482s -``) the step's; None (read as any line) where the bar is not full or says no loss."""
    keras = keras_line(bar)
    if keras is None or keras.count is None or keras.count[0] != keras.count[1]:
        return None
    readings = [Reading(Field.STEP, "iteration", float(step)),
                *(r for r in keras.readings if r.field is not Field.ETA)]
    if not any(r.field is Field.LOSS for r in readings):
        return None
    took = keras.bar_seconds
    if took is not None:
        readings.append(Reading(Field.STEP_TIME, "time", took))
    return _Line("step", at, readings, text=s)


# Where a Keras bar's figure begins, its name after `` - `` (``- loss: 0.3512 - acc: 0.8700``).
_KERAS_FIGURE_NAME = re.compile(r"(?<= - )(?=[A-Za-z_][\w.]{0,60}: )")


def _other_bar(s: str, at: float | None) -> _Line | None:
    """A Lightning rich bar or a Keras bar as a step line, or None."""
    rich = _RICH.search(s) if " • " in s else None
    if rich is not None:
        head, rest = s[: rich.start()], s[rich.end() :]
        if _EVAL_START.match(head) or not (_TRAINING.search(head) or "loss" in rest.lower()):
            return None
        rate = number(rich.group("rate")) if rich.group("rate") else None
        remain = clock_seconds(rich.group("remain"))
        bar = _Bar(int(rich.group("n")), int(rich.group("m")), 1.0 / rate if rate else None,
                   clock_seconds(rich.group("elapsed")), remain)  # fmt: skip
        return _Line("step", at, pairs(head) + pairs(rest), bar=bar, text=s)
    keras = keras_line(s)
    if keras is None:
        labelled = _LABELLED_BAR.match(s) if s[:1] in "Ii" else None
        return _labelled_bar(int(labelled.group(2)), s[labelled.end():], s, at) if labelled is not None else None
    if keras.count is None:
        return _Line("step", at, keras.readings, text=s, epoch_above=True, epoch_seconds=keras.epoch_seconds)
    eta = _first(keras.readings, Field.ETA)
    bar = _Bar(*keras.count, keras.step_seconds, None, eta.value if eta is not None else None, keras.seconds_note,
               keras.counts, unsaid=keras.step_seconds is None and keras.bar_seconds is not None)
    line = _Line("step", at, keras.readings, bar=bar, text=s, epoch_above=True)
    if _BAR_EVAL_HINT.search(keras.rest) is not None:
        line.named = tuple(n for n in beside(keras.rest) if n.kin is Kin.EVAL)  # (its ``val_accuracy: 0.9590``)
    if keras.step_seconds is None and keras.bar_seconds:
        # A full bar's epoch time with no unit time beside it (Keras 1's ``50000/50000 [====] - 708s - loss: …``): the
        # epoch's time as printed, no step's (708 s over 50000 of a count whose unit, steps or samples, is unsaid)
        line.named = (*line.named, Named(Kin.EPOCH_TIME, "epoch time", keras.bar_seconds, "epoch time"))
    return line


# An unnamed clock as a ``|``-separated record's last field: the run's time so far (TabNet's
# ``epoch 14  | loss: 0.123 | val_0_auc: 0.91 |  0:05:23s``).
_LAST_CLOCK = re.compile(r"\|\s*(\d{1,6}:\d\d:\d\d)s?\s*\|?\s*$")


def _last_clock(s: str) -> list[Reading]:
    """The elapsed time a record prints, unnamed, as its last field (none when it prints none)."""
    m = _LAST_CLOCK.search(s)
    if m is None:
        return []
    elapsed = clock_seconds(m.group(1))
    return [] if elapsed is None else [Reading(Field.ELAPSED, "elapsed", elapsed)]


def _record_rank(s: str) -> int | None:
    """The rank a record names in itself when no prefix did: ``rank 1``, ``local_rank=1``, or the one
    device it reports on (RETURNN's ``mem_usage:cuda:2 7.3GB``, each rank on its own GPU); None when
    it names none, or several devices (one process's report on all of them)."""
    if "rank" not in s and "cuda:" not in s:
        return None
    ranks = {int(a or b) for a, b in _RECORD_RANK.findall(s)}
    return ranks.pop() if len(ranks) == 1 else None


# A line that marks lines left out of an excerpt, as people write it: dots alone (``..........``, ``. . .``), an
# ellipsis in brackets (``[...]``, ``(…)``, ``[... 3000 lines ...]``), a note between runs of carets (Caffe issue authors'
# ``^^^^^ 3000 iter ^^^^^``).
_LEFT_OUT = re.compile(
    r"(?:\.\s?){3,}|…|[\[(]\s?(?:\.{3}|…)(?:[^\])]{0,60}(?:\.{3}|…))?\s?[\])]|\^{3,}[^^]{0,60}\^{3,}"
)
def _boosting_round(s: str, at: float | None) -> _Line | None:
    """A boosting round's line as a step (boosting_rounds.py): the training set's loss, the other metrics as that round's
    evaluations; None for any other line."""
    boosted = boosting_round(s)
    if boosted is None:
        return None
    readings, note = boosted
    line = _Line("step", at, readings, text=s, loss_note=note)
    line.evaluation = True  # the metrics printed beside the round are that round's
    return line


def _search_trial(s: str, at: float | None) -> _Line | None:
    """A hyperparameter search's line a trial ended (search_trials.py) as its position, said as a trial
    (TrainStep.counter), never a training step; None for any other line."""
    trial = search_trial(s)
    if trial is None:
        return None
    line = _Line("step", at, [Reading(Field.STEP, "trial", float(trial.number))], text=s)
    if trial.figures:
        line.parts = trial.figures
    return line


def _catboost_iteration(s: str, at: float | None) -> _Line | None:
    """CatBoost's iteration line as a step (catboost_iterations.py), that iteration's evaluation where it prints a
    ``test`` set's figure; None for any other line."""
    iteration = catboost_iteration(s)
    if iteration is None:
        return None
    readings, note = iteration
    line = _Line("step", at, readings, text=s, loss_note=note)
    line.evaluation = any(r.field is Field.EVAL_LOSS for r in readings)
    return line


_EPOCH_LABEL = re.compile(r"(?i)epoch:?\s?(?=\[)")  # the label before an epoch's bracket pair (DCGAN-tensorflow's)
_EPOCH_BATCH_PAIRS = re.compile(r"\[\s*(\d{1,6})\s*/\s*(\d{1,6})\s*\]\s?\[\s*(\d{1,12})\s*/\s*(\d{1,12})\s*\]\s*(?=[A-Za-z])")
_DESCRIBED_PROGRESS = re.compile(r"\[\s*(\d{1,12})\s*/\s*(\d{1,12})\s*\(\s*\d{1,3}%\)\]")
_COUNT_THEN_POSITION = re.compile(r"(\d{1,6}):\s{1,4}\[\s*(\d{1,12})\s*/\s*(\d{1,12})\s*\]\s*(?=[A-Za-z])")
# A loss named for its part, its name before or after the word (``D1 Loss``, ``Discriminator Loss``, ``Loss_D``)
# (dcgan.torch's ``Err_G: 2.5104  Err_D: 1.0969``: each network's criterion, named ``err`` and the network's letter)
_PART_LOSS = re.compile(
    rf"(?i)(?<![\w/])((?:[A-Za-z]\w{{0,15}}[ _])?loss(?:[ _][A-Za-z]\w{{0,15}})?|err[ _]?[A-Za-z]\d?"
    # a loss's word glued to its qualifier or its network's letter (taming-transformers' ``aeloss``, ``discloss``; a
    # GAN's ``lossG``, ``lossD``)
    rf"|[a-z]{{2,8}}loss(?:_step)?|(?-i:loss[A-Z]\d?)"
    # a part named in camelCase, its word run together with ``Loss`` (gluon-cv's YOLOv3: ``ObjLoss=32.955,
    # BoxCenterLoss=15.595, BoxScaleLoss=7.636, ClassLoss=21.479``)
    rf"|(?-i:[A-Z][a-z]{{1,12}}(?:[A-Z][a-z]{{1,12}}){{0,3}}Loss))\s?[:=]\s{{0,2}}({NUM})")
_BRACKET_PAIR = re.compile(r"\[\s*(\d{1,6}),\s*(\d{1,9})\]\s+(?=[A-Za-z][\w ]{0,30}:\s?-?\d)")
_BRACKET_STEP = re.compile(r"\[(\d{1,12})\]\s+(?=[A-Za-z_][\w/.-]{0,60}\s?[=:]\s?-?\d)")
# The data splits a table of figures names in its first column (Ludwig: ``train``, ``vali``, ``test``).
_SPLITS = frozenset({"train", "training", "val", "vali", "valid", "validation", "eval", "evaluation", "test", "dev"})
_TRAIN_SPLITS = frozenset({"train", "training"})
# An ASCII table's rule (``+--------------+--------------+``) and a cell of its rows that is a number (``9.41s``).
_ASCII_RULE = re.compile(r"\+(?:-{2,}\+){2,64}")
_RULED_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?:s|ms)?|nan|inf")
_EPOCH_KEYS = ("epoch", "Epoch", "train/epoch", "train_epoch")
# A record that sums up an epoch the run was counting batches of (demucs' ``Train Summary | Epoch 35 | Loss=…``,
# fairseq's ``end of epoch 23 (average epoch stats below)``): that epoch's batches are all done.
_EPOCH_SUMMARY = re.compile(r"(?i)\b(?:train(?:ing)? summary|epoch summary|end of epoch|epoch \d+ (?:complete|completed|finished|done)\b)")
# A record that opens by closing its epoch, its figures after (``| end of epoch   5 | time: 35.32s | valid loss …``).
_EPOCH_CLOSED = re.compile(r"(?i)^\W{0,4}end of epoch\s{1,6}\d{1,6}\s{0,4}(?:\||,|$)")


def _counted_as(line: _Line, step_reading: Reading | None, bar: _Bar | None, step: int) -> str | None:
    """What the line's count counts where that is no training step, in the log's own word (TrainStep.counter): an RL
    loop's ``Episode: 73``; a count of the data, its unit printed after its total (``[900/6034 images]``) or said by its
    bar (Keras' ``…us/sample``); None: steps."""
    if bar is not None:
        return bar.unit
    if line.counters is not None:
        return None
    if step_reading is not None and step_reading.name in _OWN_COUNTERS:
        return step_reading.name
    if "/" in line.text:
        for m in _COUNT_UNIT.finditer(line.text):
            if int(m.group(1)) == step:
                return _UNIT_WORDS[m.group(3).lower()]
    return None


def _in_epoch(readings: list[Reading], text: str = "") -> list[Reading]:
    """A ``batch`` counted beside its epoch (``epoch: 3 | batch: 120/500``) is the position in that
    epoch: its total, when printed, is the epoch's batches, not the run's steps."""
    if not any(r.field is Field.EPOCH for r in readings):
        return readings
    # A step or iteration counted to a total after the run's epochs counted to theirs (PyTorch's tutorials:
    # ``Epoch [1/5], Step [100/600], Loss: 0.2217``, ``total_step = len(train_loader)``) counts its epoch's batches too,
    # as one after a whole epoch that prints no total (OpenNMT's ``Epoch 2 ; Iteration 4000/77776``, its count back at
    # 1000 as epoch 2 began; flair's ``epoch 1 - iter 488/1227``; NeMo's ``Training epoch 0, iteration 125/149``;
    # TFLearn's ``epoch: 001 | … iter: 00768/55000``, the epoch's samples); after an epoch printed with its fraction
    # (torch-rnn's ``Epoch 1.06 / 50, i = 60 / 47800``) the place in the epoch is that fraction, and the count is the
    # run's.
    epochs_first = False
    fraction = "poch" in text and _FRACTION_OF_EPOCHS.search(text) is not None
    found: list[Reading] = []
    for r in readings:
        if r.field is Field.EPOCH and not fraction and (r.total is not None or r.value.is_integer()):
            epochs_first = True
        # (a batch's index beside its epoch, Paddle's ``epoch: 0, batch_id: 100``, counts that epoch's, as ``batch``)
        in_epoch = r.field is Field.STEP and (r.name in ("batch", "batch id") or (
            epochs_first and r.total is not None and r.name in ("step", "iter", "iteration")))
        found.append(Reading(Field.STEP, EPOCH_POSITION, r.value, r.total) if in_epoch else r)
    return found


def _day_clocks(s: str) -> list[Reading]:
    """The elapsed time and the mean step time of ``@ DD HH:MM:SS.mmm, mean DD HH:MM:SS.mmm``."""
    m = _DAY_CLOCKS.search(s)
    if m is None:
        return []
    elapsed, mean = clock_seconds(m.group(2).split(".")[0]), clock_seconds(m.group(4).split(".")[0])
    if elapsed is None or mean is None:
        return []
    days = (int(m.group(1)) * 86400, int(m.group(3)) * 86400)
    fractions = [float("0." + c.split(".")[1]) if "." in c else 0.0 for c in (m.group(2), m.group(4))]
    found = [Reading(Field.ELAPSED, "elapsed", days[0] + elapsed + fractions[0])]
    step = days[1] + mean + fractions[1]
    if step > 0:
        found.append(Reading(Field.STEP_TIME, "mean", step))
    return found


def _iteration_time(s: str, readings: list[Reading]) -> None:
    """mmengine's, mmcv's and torchvision's MetricLogger's ``time: 0.798``: seconds per iteration
    (their own template says so), though printed without a unit."""
    if any(r.field is Field.STEP_TIME for r in readings):
        return
    m = _ITERATION_TIME.search(s)
    value = number(m.group(1)) if m is not None else None
    if value is not None and value > 0:
        readings.append(Reading(Field.STEP_TIME, "time per iteration", value))


def _json_iteration_time(record: dict[str, object], readings: list[Reading]) -> None:
    """mmcv's and mmengine's ``.log.json`` records: ``"time": 1.43558`` beside the loader's ``"data_time"`` is the
    iteration's time in seconds, as their text lines' ``time: 1.436`` is (open-mmlab/mmdetection#4369, a maintainer's
    answer)."""
    value = record.get("time")
    if (isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 and "data_time" in record
            and _position(readings) is not None and not any(r.field is Field.STEP_TIME for r in readings)):
        readings.append(Reading(Field.STEP_TIME, "time per iteration", float(value)))


def _counted(m: re.Match[str]) -> tuple[int | None, int]:
    if m.group(2) is not None:
        return int(m.group(1)), int(m.group(2))
    return None, int(m.group(1))


# A field's value that is a number spelled without a digit: a loss gone bad (``| loss   nan | ppl      nan``).
_NOT_FINITE_END = re.compile(r"(?i)(?:^|\s)[-+]?(?:nan|inf(?:inity)?)$")


def _cut(s: str) -> bool:
    """A ``|``-separated record whose last field holds no number: a wrap cut it (``… | learning``).

    ``nan`` and ``inf`` are numbers: PyTorch's word_language_model ends its record ``| ppl      nan`` once the loss is."""
    if s.count("|") < 3:
        return False
    last = s.rstrip(" |").rsplit("|", 1)[-1]
    return not any(c.isdigit() for c in last) and _NOT_FINITE_END.search(last.strip()) is None


# A per-class evaluation table's header: its names up to the bar (``Box(P  R  mAP50  mAP50-95): 100%|…``), a group
# (``Box(``, ``Mask(``) opened before its first metric; YOLOv5's ``mAP@.5  mAP@.5:.95`` are the same two metrics.
_CLASS_NAME = re.compile(r"(?:(?P<group>[A-Za-z]{1,12})\()?(?P<name>[A-Za-z][\w@.:-]{0,20}?)\)?:?")
_CLASS_HEAD_END = re.compile(r":\s|\s\d{1,3}%")
_CLASS_COUNTS = frozenset({"Class", "Images", "Instances", "Labels", "Targets", "classes"})
_CLASS_METRICS = {"P": "precision", "R": "recall", "mAP50": "mAP50", "mAP50-95": "mAP50-95",
                  "mAP@.5": "mAP50", "mAP@.5:.95": "mAP50-95",
                  "top1_acc": "top1_acc", "top5_acc": "top5_acc"}  # fmt: skip  (ultralytics' classify validation)


def _class_metrics(header: str) -> tuple[list[str], bool]:
    """The column names of a per-class evaluation table's header, the counts' as "" and the metrics' as their
    evaluation's names (``mAP50-95``, ``mask mAP50``), empty when the header names no mAP (another table); and
    whether the header was cut at the terminal's width (YOLO's, whose lost names its fixed order gives)."""
    head, *bar = _CLASS_HEAD_END.split(header, 1)  # (up to the bar after its names)
    cells = head.split()
    whole = None if bar else whole_class_header(cells)
    names: list[str] = []
    group = ""
    for cell in whole or cells:
        m = _CLASS_NAME.fullmatch(cell)
        if m is None:
            return [], False
        if m.group("group"):
            group = "" if m.group("group").lower() == "box" else m.group("group").lower() + " "
        name = m.group("name")
        if name in _CLASS_COUNTS:
            names.append("Class" if name in ("Class", "classes") else "")
        elif name in _CLASS_METRICS:
            names.append(group + _CLASS_METRICS[name])
        else:
            names.append("")  # (a name cut at the terminal's width: ``mAP50-``)
    if not any("mAP" in n or n.startswith("top") for n in names):
        return [], False
    return names, whole is not None


# YOLOv5's and YOLOv7's older header names its losses by their part alone (``Epoch  gpu_mem  box  obj  cls  total``).
_YOLO_PARTS = frozenset({"box", "obj", "cls", "dfl", "giou"})


def _path_losses(s: str) -> tuple[tuple[str, float], ...]:
    """The losses a record names by a path through ``loss/`` (``train/loss/image: 61.08``), each as its part."""
    parts = {LOSS_PART + m.group(1): value for m in _PATH_LOSS.finditer(s) if (value := number(m.group(2))) is not None}
    return tuple(parts.items()) if len(parts) >= 2 else ()


def _path_rates(s: str) -> tuple[tuple[str, float], ...]:
    """The rates a record names by a path through ``fps`` (``fps/train: 1253.7``), under their names."""
    return tuple((RATE_PART + m.group(1), value) for m in _PATH_RATE.finditer(s)
                 if (value := number(m.group(1 + 1))) is not None)


def _slashed_pairs(body: str) -> str | None:
    """Figures printed ``name value`` and joined by `` / `` (``episode/score 0.09 / train/loss/image 61.08``) as
    ``name: value | …`` pairs; None when no piece is such a figure."""
    pieces = [_SLASHED_PAIR.fullmatch(piece.strip()) for piece in body.split(" / ")]
    pairs = [f"{m.group(1)}: {m.group(2)}" for m in pieces if m is not None]
    return " | ".join(pairs) if pairs else None


def _loss_parts(columns: list[str], values: list[str]) -> tuple[tuple[str, float], ...]:
    """A table row's losses named for their part (YOLO's ``box_loss``, ``cls_loss``, ``dfl_loss``), as printed: a
    loss in parts has no one figure that is the model's loss, so each part is kept under its own name (an older
    YOLO's ``box``, ``obj``, ``total`` under a ``gpu_mem`` column as ``box_loss``, ``obj_loss``, ``total_loss``)."""
    parts = []
    yolo = any(normalise(name) == "gpu mem" for name in columns)
    for name, value in zip(columns, values, strict=False):
        words = normalise(name).split(" ")
        if yolo and name.lower() in _YOLO_PARTS:
            name, words = f"{name}_loss", ["loss"]
        if "loss" in words and lookup(normalise(name))[0] is not Field.LOSS:
            figure = number(value)
            if figure is not None:
                parts.append((LOSS_PART + name, figure))
    return tuple(parts) if len(parts) >= 2 else ()


def _looped_line(record: SeriesRecord, at: float | None, labels: list[str]) -> _Line | None:
    """A loop's own report under its epoch that names no loss (CycleGAN's ``(epoch: 1, iters: 900, time: 0.520, data:
    0.001) D_A: 0.120 G_A: 0.814 …``, read by its series as ``epoch: 1, iter: 900, …``): a step of its epoch, each value
    no word names a loss under its name as printed, none made "the" loss. Its ``time`` is the iteration's, as printed;
    ``data`` its loading time, no loss. None when fewer than two such values (no record of a model's losses). ``labels``:
    the names the line prints, in order (the record's are normalised: ``G_L1`` is ``g l``)."""
    unknown: list[tuple[str, str | None, str, str | None]] = []
    readings = pairs(record.text, unknown)
    parts: list[tuple[str, float]] = []
    printed_names = labels if len(labels) == len(unknown) else [name for name, *_ in unknown]
    for (name, _, printed, _), label in zip(unknown, printed_names, strict=True):
        value = number(printed)
        if value is None:
            continue
        if name == "time":
            readings.append(Reading(Field.STEP_TIME, "time", value))
        elif name != "data":
            parts.append((LOSS_PART + label, value))
    if len(parts) < 2:
        return None
    return _Line("step", at, readings, text=record.text, parts=tuple(parts))


def _part_losses(s: str) -> tuple[tuple[str, float], ...]:
    """A record's losses named for their part (a GAN's ``Loss_D``, ``Loss_G``; CycleGAN's ``D1 Loss``, ``D2 Loss``,
    ``G Loss``), each under its name as printed; none when fewer than two (one is no record of parts) or when one
    of them is a loss this reader knows (``train loss``: the model's)."""
    parts: list[tuple[str, float]] = []
    for m in _PART_LOSS.finditer(s):
        name, figure = m.group(1), number(m.group(2))
        if figure is None or normalise(name) == "loss":
            continue
        if lookup(normalise(name))[0] is not None:
            return ()
        parts.append((LOSS_PART + name, figure))
    return tuple(parts) if len(parts) >= 2 else ()


def _described_position(head: str, readings: list[Reading]) -> Reading | None:
    """The position a bar's description prints in brackets with its total and percentage, beside a loss and no other
    step (``Train Epoch: 19 [512000/819200 (62%)]\tLoss: 0.011``), or None."""
    if "%)]" not in head or not any(r.field is Field.LOSS for r in readings) or any(r.field is Field.STEP for r in readings):
        return None
    progress = _DESCRIBED_PROGRESS.search(head)
    if progress is None:
        return None
    epoch_known = any(r.field is Field.EPOCH for r in readings)
    return Reading(Field.STEP, EPOCH_POSITION if epoch_known else "position", float(progress.group(1)), int(progress.group(2)))


def _split_twin_names(line: _Line) -> list[tuple[str, float]]:
    """The validation's figures a record printed under the record's own names (record_figures.split_twins), as named."""
    if not line.evaluation or not any(name.startswith(FIGURE_PART) for name, _ in line.parts):
        return []
    own = {name.removeprefix(FIGURE_PART) for name, _ in line.parts}
    return [(n.printed, n.value) for n in line.named
            if n.kin is Kin.EVAL and " " in n.printed and n.printed.split(" ", 1)[1] in own]
