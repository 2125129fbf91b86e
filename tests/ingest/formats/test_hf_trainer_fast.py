"""The HF Trainer parser's fast path for a bare bar redraw against its general reading alone: the
same events, in the same order, with the same bad-line counts, whatever surrounds the redraws
(dicts glued before or after, prefixes, evaluation bars, tracebacks, wraps) and however they are batched."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.ingest.formats import create_parser, hf_trainer
from app.stats.events import Event


def bar(n: int, total: int = 40, clock: str = "00:12<00:30", rate: str = "1.56it/s") -> str:
    pct = n * 100 // total
    return f"{pct:3d}%|{'█' * (pct // 10)}{' ' * (10 - pct // 10)}| {n}/{total} [{clock}, {rate}]"


REDRAWS = [bar(n) for n in range(0, 41, 3)] + [bar(5, 8, "00:01<00:02", "4.00s/it"), "  " + bar(7)]
PARTS = [
    *REDRAWS,
    "{'loss': 2.1234, 'grad_norm': 1.5, 'learning_rate': 4.5e-05, 'epoch': 0.25}",
    "{'eval_loss': 2.0, 'eval_runtime': 1.0, 'epoch': 0.5}",
    "{'train_runtime': 100.0, 'train_loss': 2.0, 'epoch': 1.0}",
    bar(9) + "{'loss': 2.0, 'learning_rate': 4e-05, 'epoch': 0.3}",
    "{'loss': 1.9, 'learning_rate': 3e-05, 'epoch': 0.35}" + bar(10),
    bar(12) + "12, 2.0887",
    bar(13) + "Traceback (most recent call last):",
    "10%|█         | 4/40 [00:37<30:55,  9.33s/i",
    "[rank0]: " + bar(14),
    "2024-05-01 12:00:00,123 - INFO - __main__ - " + bar(15),
    "***** Running training *****",
    "  Total optimization steps = 40",
    "***** Running Evaluation *****",
    "Saving model checkpoint to out/checkpoint-20",
    "Training completed. Do not forget to share your model on huggingface.co/models =)",
    "Traceback (most recent call last):",
    '  File "trainer.py", line 2237, in train',
    "RuntimeError: CUDA out of memory",
    "",
    "{'loss': 2.1,",
    " 'epoch': 0.4}",
]


def read(lines: list[str], batch: int, fast: bool) -> tuple[list[Event], int]:
    with pytest.MonkeyPatch.context() as patch:
        if not fast:
            patch.setattr(hf_trainer, "_bare_bar", lambda part: None)
        parser = create_parser("hf-trainer")  # with the crash watch, as every step log is read
        events: list[Event] = []
        for at in range(0, len(lines), batch):
            events.extend(parser.feed(lines[at : at + batch]))
        return events, parser.bad_lines


# A physical line: one or more parts joined by the bar's carriage returns, maybe cut where a
# terminal wrapped it.
line = st.one_of(
    st.lists(st.sampled_from(PARTS), min_size=1, max_size=6).map("\r".join),
    st.tuples(st.sampled_from(PARTS), st.integers(1, 50)).map(lambda p: p[0][: p[1]]),
)


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(line, max_size=25), batch=st.integers(1, 8))
def test_the_fast_path_reads_what_the_general_reading_reads(lines: list[str], batch: int) -> None:
    assert read(lines, batch, True) == read(lines, batch, False)


def test_bare_redraws_are_taken_and_anything_beside_a_bar_is_not() -> None:
    assert hf_trainer._bare_bar(bar(3)) is not None
    assert hf_trainer._bare_bar("  " + bar(3)) is not None
    for part in (bar(3) + "{'loss': 1.0}", bar(3) + "12, 2.0887", "Epoch 1: " + bar(3), bar(3)[:-1],
                 "[rank0]: " + bar(3), bar(3) + "Traceback (most recent call last):"):
        assert hf_trainer._bare_bar(part) is None, part
