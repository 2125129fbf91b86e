"""The BERT scripts' training block names the run's total ``Num steps`` (google-research/bert's ``run_classifier.py``
and its PyTorch ports: ``***** Running training *****`` / ``Num examples`` / ``Batch size`` / ``Num steps = 804``):
read as the planned total under the training's heading only; an evaluation's block counts its own pass's steps
(ViT-pytorch's ``***** Running Validation *****`` / ``Num steps = 79``). Real: tests/data/real/hf-gpt-classification-
example-… and hf-srlgrn-…; the lines below are composed in those shapes, their answers read off them by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats import create_parser
from app.stats.events import RunInfo


def _totals(lines: list[str]) -> list[int | None]:
    return [e.total_steps for e in create_parser("hf-trainer").feed(lines) if isinstance(e, RunInfo)]


@pytest.mark.parametrize(("lines", "totals"), [
    # the training block: its Num steps is the run's total
    (["***** Running training *****", "  Num examples = 8551", "  Batch size = 32", "  Num steps = 804"], [804]),
    # absl's prefix (a TF BERT NER script): the same block
    (["INFO:absl:***** Running training *****", "INFO:absl:  Num examples = 131884", "INFO:absl:  Batch size = 64",
      "INFO:absl:  Num steps = 8242"], [8242]),
    # an evaluation's or a validation's block: its steps are the pass's, no plan of the run
    (["***** Running evaluation *****", "  Num examples = 1043", "  Batch size = 8", "  Num steps = 131"], []),
    (["***** Running Validation *****", "  Num steps = 79", "  Batch size = 64"], []),
    # the training block's total kept; a validation block after it says nothing of the run
    (["***** Running training *****", "  Num steps = 804", "***** Running Validation *****", "  Num steps = 79"], [804]),
    # "Num steps" outside any block: no heading says it is the run's
    (["  Num steps = 500"], []),
])  # fmt: skip
def test_num_steps_is_the_plan_under_the_training_heading_only(lines: list[str], totals: list[int]) -> None:
    assert [t for t in _totals(lines) if t is not None] == totals
