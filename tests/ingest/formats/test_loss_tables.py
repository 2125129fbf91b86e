"""A tab-separated table of losses that numbers none of its rows (loss_tables.py): composed in the shape of PGNet's
``train_log.txt`` (BADBADBADBOY/pgnet.pytorch: a header of loss names, one row a logging interval, a tab after each
cell), answers worked out by hand."""

from __future__ import annotations

import pytest

from app.ingest.formats.fields import LOSS_PART
from app.ingest.formats.loss_tables import LossTable, loss_table_header, loss_table_row

HEADER = "total loss\tscore loss\tborder loss\tdirec loss\tctc loss\t"


def test_a_header_of_losses_names_its_total_the_loss() -> None:
    table = loss_table_header(HEADER)
    assert table == LossTable(("total loss", "score loss", "border loss", "direc loss", "ctc loss"), 0)


def test_a_row_is_its_total_loss_and_the_parts_under_their_names() -> None:
    table = loss_table_header(HEADER)
    assert table is not None
    assert loss_table_row(table, "19.415306\t0.152088\t0.102675\t0.045731\t3.822962\t") == (
        19.415306, ((LOSS_PART + "score loss", 0.152088), (LOSS_PART + "border loss", 0.102675),
                    (LOSS_PART + "direc loss", 0.045731), (LOSS_PART + "ctc loss", 3.822962)))


@pytest.mark.parametrize("line", [
    "step\tloss\tlr",  # a counter column: its rows are steps, read elsewhere
    "epoch\ttrain loss\tval loss",
    "score loss\tctc loss",  # no column is the model's loss
    "loss\taccuracy",  # a column that is no loss: another kind of table
    "loss",  # one name alone
    "19.4\t0.15",  # a row, no header
])  # fmt: skip
def test_other_tab_separated_lines_begin_no_such_table(line: str) -> None:
    assert loss_table_header(line) is None


def test_a_line_that_does_not_fit_the_table_is_no_row() -> None:
    table = loss_table_header("loss\tkl loss\trecon loss")
    assert table is not None and table.loss_at == 0
    assert loss_table_row(table, "1.5\t0.5") is None
    assert loss_table_row(table, "1.5\tnan?\t1.0") is None
    assert loss_table_row(table, "1.5\t0.5\t1.0") == (1.5, ((LOSS_PART + "kl loss", 0.5), (LOSS_PART + "recon loss", 1.0)))
