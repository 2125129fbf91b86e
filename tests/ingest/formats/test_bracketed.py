"""A value printed in brackets after ``=`` is read as its number where it is one number (DeepSpeed's
``lr=[5e-05]``, cleanrl's ``episodic_return=[12.]``), never where it is a list (one figure a parameter
group); a figure a paste put in Markdown bold (``**4.7581**``) is read as the number it holds.

Real logs (tests/data/real/, each citing its source) and composed lines whose readings are worked out by
hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.ingest.formats.grammar import Field, pairs
from app.stats.events import TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body

DIFFUSION_PIPE = "generic-diffusion-pipe-issue410-deepspeed-log-dist-step-1-to-4-iter-time-530s.log"
NEOX = "generic-gpt-neox-issue947-llama-bf16.log"


@pytest.mark.parametrize(
    ("text", "lr"),
    [
        ("step=40, skipped=2, lr=[5e-05], mom=[[0.9, 0.999]]", 5e-05),
        ("step=1, skipped=0, lr=[1.5968e-07], mom=[0.0]", 1.5968e-07),
        ("step=3, lr=[.001]", 0.001),
        # a list is one figure a parameter group: none is the run's
        ("step=2, skipped=0, lr=[2.4e-09, 2.4e-09], mom=[[0.9, 0.95], [0.9, 0.95]]", None),
        ("step=2, lr=[1,2]", None),
    ],
)
def test_one_number_in_brackets_is_that_number(text: str, lr: float | None) -> None:
    found = [r.value for r in pairs(text) if r.field is Field.LR]
    assert found == ([] if lr is None else [lr])
    assert [r.value for r in pairs(text) if r.field is Field.STEP] == [float(text.split(",")[0][5:])]


def test_deepspeed_log_dist_lines_alone_are_steps_with_their_lr() -> None:
    # DeepSpeed's engine line behind its logging prefix and ``[Rank 0]``, composed: nothing else is printed
    lines = [
        "[2022-03-11 02:06:58,985] [INFO] [logging.py:69:log_dist] [Rank 0] step=40, skipped=2, lr=[5e-05], mom=[[0.9, 0.999]]",
        "[2022-03-11 02:07:14,130] [INFO] [logging.py:69:log_dist] [Rank 0] step=50, skipped=2, lr=[5e-05], mom=[[0.9, 0.999]]",
    ]
    assert detect(lines) == "generic"
    steps = [e for e in create_parser("generic").feed(lines) if isinstance(e, TrainStep)]
    assert [(s.step, s.lr, s.loss) for s in steps] == [(40, 5e-05, None), (50, 5e-05, None)]
    # 02:06:58.985 → 02:07:14.130: 15.145 s apart
    assert steps[1].at - steps[0].at == pytest.approx(15.145)


def test_diffusion_pipe_s_warm_up_lr_is_read_from_its_log_dist_lines(tmp_path: Path) -> None:
    lines = body(DIFFUSION_PIPE)
    assert detect(lines) == "generic"
    training = read_cold(tmp_path, lines, name=DIFFUSION_PIPE, at=T0)["training"]
    # ``[Rank 0] step=4, skipped=0, lr=[3.9872000000000007e-07], mom=[0.0]``; ``steps: 4 loss: 0.1193 iter time (s): 533.263``
    assert (training["step"], training["loss"]) == (4, pytest.approx(0.1193))
    assert training["lr"] == pytest.approx(3.9872e-07)
    assert training["step_seconds"] == pytest.approx(533.263)


def test_gpt_neox_s_lr_per_parameter_group_stays_unread_in_its_log_dist_lines() -> None:
    lines = [line for line in body(NEOX) if "log_dist" in line]
    assert lines and all("lr=[" in line and ", " in line.split("lr=[")[1].split("]")[0] for line in lines)
    steps = [e for e in create_parser("generic").feed(lines) if isinstance(e, TrainStep)]
    assert all(s.lr is None for s in steps)


def test_a_figure_in_markdown_bold_reads_as_the_number_it_holds() -> None:
    # an author's bold around a loss in a pasted Trainer dict (composed after unsloth's issue pastes)
    bare = "{'loss': 4.7581, 'grad_norm': 3.0637, 'learning_rate': 9.9114e-05, 'epoch': 0.1}"
    for pasted in ("{'loss': **4.7581**, 'grad_norm': 3.0637, 'learning_rate': 9.9114e-05, 'epoch': 0.1}",
                   "{'loss': __4.7581__, 'grad_norm': 3.0637, 'learning_rate': 9.9114e-05, 'epoch': 0.1}"):
        read = [(e.loss, e.lr) for e in create_parser("hf-trainer").feed([pasted]) if isinstance(e, TrainStep)]
        assert read == [(4.7581, 9.9114e-05)]
        assert read == [(e.loss, e.lr) for e in create_parser("hf-trainer").feed([bare]) if isinstance(e, TrainStep)]
    steps = [e for e in create_parser("generic").feed(["step 3 | loss **2.25** | lr __1e-4__"]) if isinstance(e, TrainStep)]
    assert [(s.step, s.loss, s.lr) for s in steps] == [(3, 2.25, 1e-4)]
