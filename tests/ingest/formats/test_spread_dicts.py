"""A dict of figures printed one key a line is the one record it prints (spread_dicts.py): joined when it is bounded and
exact (an opening ``{``, key lines, its closing ``}``), every line as printed otherwise.

Real: google/rax's example output (``json.dumps(indent=2)`` of each epoch's metrics, tests/data/real/generic-rax-…, its
header); a training script's settings printed so, one dict inside another (ShannonAI/mrc-for-flat-nested-ner issue #21);
AllenNLP's final metrics pasted with trailing spaces and cut before their closing brace (himkt/allennlp-NER pull request #5).
Composed: Detectron's ``json_stats`` record (facebookresearch/Detectron issue #610's, as printed on one line) spread one key a
line as a paste breaks it; the cases that must leave every line alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.ingest.formats import create_parser
from app.ingest.formats.pipeline import StepRun
from app.ingest.formats.spread_dicts import MAX_DICT_LINES, joined_dicts
from tests.coldread import read_cold
from tests.reallogs import body

RAX = "generic-rax-flax-example-json-dumps-indent-2-epochs-1-3-loss-ranking-metrics.log"

# ShannonAI/mrc-for-flat-nested-ner issue #21 (https://github.com/ShannonAI/mrc-for-flat-nested-ner/issues/21), comment by
# yhcc: the training script prints its settings with json.dumps(indent=2), BERT's own settings a dict inside, then its
# banner (complete lines of the stored window; the cut last line dropped).
MRC_SETTINGS = """{
  "bert_frozen": "false",
  "hidden_size": 768,
  "hidden_dropout_prob": 0.2,
  "classifier_sign": "multi_nonlinear",
  "clip_grad": 1,
  "bert_config": {
    "attention_probs_dropout_prob": 0.1,
    "hidden_act": "gelu",
    "hidden_dropout_prob": 0.1,
    "hidden_size": 768,
    "initializer_range": 0.02,
    "intermediate_size": 3072,
    "max_position_embeddings": 512,
    "num_attention_heads": 12,
    "num_hidden_layers": 12,
    "type_vocab_size": 2,
    "vocab_size": 28996
  },
  "config_path": "/path/to/mrc_for_flat_nested_ner/config/en_bert_base_cased.json",
  "data_dir": "/home/ubuntu/exps/TransformerNER/data/conll2003/",
  "bert_model": "/path/to/bert-base-uncased/",
  "task_name": null,
  "max_seq_length": 150,
  "train_batch_size": 16,
  "dev_batch_size": 32,
  "test_batch_size": 32,
  "checkpoint": 600,
  "learning_rate": 3e-05,
  "num_train_epochs": 6,
  "warmup_proportion": -1.0,
  "local_rank": -1,
  "gradient_accumulation_steps": 2,
  "seed": 2333,
  "export_model": false,
  "output_dir": ".",
  "data_sign": "conll03",
  "weight_start": 1.0,
  "weight_end": 1.0,
  "weight_span": 1.0,
  "entity_sign": "flat",
  "n_gpu": 1,
  "dropout": 0.2,
  "entity_threshold": 0.5,
  "data_cache": false
}
-*--*--*--*--*--*--*--*--*--*-
current data_sign: conll03
=*==*==*==*==*==*==*==*==*==*=
loading train data ... ...
56164""".splitlines()

# himkt/allennlp-NER pull request #5 (https://github.com/himkt/allennlp-NER/pull/5), description by himkt: AllenNLP's metrics
# dict pasted with each line padded by spaces, the stored window cut before its closing brace (complete lines only).
ALLENNLP_CUT = [
    "{",
    '  "best_epoch": 149,                                              ',
    '  "peak_cpu_memory_MB": 5133.188,                                 ',
    '  "peak_gpu_0_memory_MB": 13798,                                  ',
    '  "training_duration": "16:08:45.017616",                         ',
    '  "training_start_epoch": 0,                                      ',
    '  "training_epochs": 149,                                         ',
    '  "epoch": 149,                                                   ',
    '  "training_loss": 0.056736886374042554,                          ',
]

# Detectron's json_stats record (facebookresearch/Detectron issue #610, printed on one line there), its keys one a line.
DETECTRON_KEYS = ['"accuracy_cls": 1.000000', '"eta": "0:21:51"', '"iter": 55080', '"loss": 0.024404',
                  '"loss_bbox": 0.000645', '"loss_cls": 0.001896', '"loss_mask": 0.020639', '"lr": 0.000025',
                  '"mb_qsize": 64', '"mem": 3084', '"time": 0.266505']


def test_a_dict_an_epoch_printed_with_indent_is_one_record_each() -> None:
    out = list(joined_dicts(body(RAX)))
    assert out[0] == "[" and out[-1] == "]" and len(out) == 5
    assert [json.loads(text)["epoch"] for text in out[1:4]] == [1, 2, 3]
    assert json.loads(out[3])["loss"] == 370.13616943359375


def test_a_dict_inside_a_dict_is_joined_with_it() -> None:
    out = list(joined_dicts(MRC_SETTINGS))
    assert json.loads(out[0])["bert_config"]["vocab_size"] == 28996
    assert out[1:] == MRC_SETTINGS[-5:]


def test_a_dict_of_settings_so_printed_is_no_record_of_the_run(tmp_path: Path) -> None:
    data = read_cold(tmp_path, MRC_SETTINGS)
    assert data["step"] is None and data["state"] == "unrecognised"


def test_a_dict_cut_before_its_closing_brace_stays_as_printed() -> None:
    assert list(joined_dicts(ALLENNLP_CUT)) == ALLENNLP_CUT
    assert list(joined_dicts([*ALLENNLP_CUT, "2020-06-02 10:00:00 - INFO - done"])) == [
        *ALLENNLP_CUT, "2020-06-02 10:00:00 - INFO - done"]


@pytest.mark.parametrize("lead", ["json_stats: {", "{"])
def test_detectron_s_record_spread_over_lines_reads_as_on_one(tmp_path: Path, lead: str) -> None:
    # a paste keeps the first key on the brace's line and a space after some commas (Detectron's own records); the same
    # record without its ``json_stats: `` lead is Detectron's by its ``mb_qsize``
    first, *rest = DETECTRON_KEYS
    lines = [f"{lead}{first}, ", *(f"  {key}, " for key in rest[:-1]), f"  {rest[-1]}}}"]
    data = read_cold(tmp_path, lines)
    training = data["training"]
    assert (training["step"], training["loss"], training["step_seconds"]) == (55080, 0.024404, 0.266505)
    assert training["eval"] is None and data["status_line"].startswith("step 55080 ")


def test_pprint_s_dict_closes_on_its_last_key() -> None:
    lines = ["{'epoch': 2,", " 'loss': 0.5123,", " 'lr': 0.001}"]
    assert list(joined_dicts(lines)) == ["{'epoch': 2, 'loss': 0.5123, 'lr': 0.001}"]


def test_a_logger_s_message_may_open_the_dict() -> None:
    lines = ["2019-07-25 22:43:12,423 - INFO - allennlp.common.util - Metrics: {", '  "epoch": 15,', '  "loss": 6.65', "}"]
    assert list(joined_dicts(lines)) == [
        '2019-07-25 22:43:12,423 - INFO - allennlp.common.util - Metrics: { "epoch": 15, "loss": 6.65 }']


@pytest.mark.parametrize("between", [
    "",  # a blank line
    "Epoch 3 done",  # free text
    "2024-05-01 12:00:00 - INFO - step 5 loss 0.1",  # a log line of its own
    '  "loss": 0.5',  # a key line without its comma, then another key
    "  23,",  # the rest of a cut line
])
def test_anything_but_a_key_line_leaves_every_line_as_printed(between: str) -> None:
    lines = ["{", '  "epoch": 3,', between, '  "lr": 0.1', "}"]
    assert list(joined_dicts(lines)) == lines


def test_a_dict_longer_than_the_bound_is_left_as_printed() -> None:
    lines = ["{", *(f'  "k{i}": {i},' for i in range(MAX_DICT_LINES)), '  "last": 0', "}"]
    assert list(joined_dicts(lines)) == lines


def test_the_items_of_a_document_s_keyed_list_stay_as_written() -> None:
    # the HF Trainer's trainer_state.json: its log_history's entries are the document's, read whole by its own reader
    lines = ["{", '  "global_step": 45,', '  "log_history": [', "    {", '      "loss": 8.3368,', '      "step": 10',
             "    },", "    {", '      "loss": 0.427,', '      "step": 40', "    }", "  ],", '  "max_steps": 45', "}"]
    assert list(joined_dicts(lines)) == lines


def test_a_dict_read_in_bulk_is_the_dict_read_line_by_line() -> None:
    lines = ["starting", "{'epoch': 1,", " 'loss': 0.9,", " 'lr': 0.01}", "{'epoch': 2,", " 'loss': 0.7,", " 'lr': 0.01}"]
    bulk = [item for item in create_parser("generic").feed_runs(lines) if not isinstance(item, StepRun)]  # type: ignore[attr-defined]
    assert bulk == create_parser("generic").feed(lines)
