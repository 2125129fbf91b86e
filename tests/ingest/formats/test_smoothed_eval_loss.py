"""An evaluation's smoothed loss beside its loss is a figure of its own, never a repeat of it.

Loops that step their scheduler on an exponential moving average of the validation loss print it beside the loss
(``Validation Loss: …, Smoothed Validation Loss: …``): its first value is the loss itself, later ones lag it. It is
shown under its own name at that epoch, even where the two print the same number.
"""

from __future__ import annotations

from app.ingest.formats.generic import GenericParser
from app.stats.events import EvalResult

# composed: the EMA at 0.5 of 0.0080 then 0.0070 is 0.0080, then 0.5 * 0.0080 + 0.5 * 0.0070 = 0.0075
COMPOSED = [
    "Epoch [1/10], Train Loss: 0.0100, Train L1: 0.5000",
    "Epoch [1/10], Validation Loss: 0.0080, Validation L1: 0.6000, Smoothed Validation Loss: 0.0080",
    "Epoch [2/10], Train Loss: 0.0090, Train L1: 0.4500",
    "Epoch [2/10], Validation Loss: 0.0070, Validation L1: 0.5500, Smoothed Validation Loss: 0.0075",
]


def evals(lines: list[str]) -> list[tuple[str, float, int | None]]:
    return [(e.name, e.value, e.step) for e in GenericParser().feed(lines) if isinstance(e, EvalResult)]


def test_the_smoothed_validation_loss_is_shown_beside_the_loss_at_its_epoch() -> None:
    assert evals(COMPOSED) == [
        ("val_loss", 0.008, 1), ("validation_l1", 0.6, 1), ("smoothed_validation_loss", 0.008, 1),
        ("val_loss", 0.007, 2), ("validation_l1", 0.55, 2), ("smoothed_validation_loss", 0.0075, 2),
    ]


def test_an_evaluation_s_loss_under_a_name_the_grammar_does_not_know_is_still_no_figure_of_its_own() -> None:
    # composed: ``val_loss valid`` repeats the evaluation's loss (as before)
    got = evals(["Epoch [1/10], Validation Loss: 0.0080, Validation L1: 0.6000, val_loss valid: 0.0080"])
    assert [name for name, _, _ in got] == ["val_loss", "validation_l1"]
