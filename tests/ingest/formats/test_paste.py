"""What a paste added around a log line, taken off once (paste.py) for every row and the sniffer.

Real logs (tests/data/real/, each citing its source) with a Markdown backtick glued to their line, a
terminal's escape sequences in caret notation, a test report indented as a code block; composed lines
whose readings are worked out by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats import create_parser, detect
from app.ingest.formats.detect import signature
from app.ingest.formats.paste import maybe_pasted, unescaped, unpasted
from app.stats.events import TrainStep
from tests.coldread import T0, read_cold
from tests.reallogs import body

MAXTEXT = "generic-maxtext-pr761-prose-example-line-backticked-completed-step-9-tokens-per-s-per-device-loss-0.log"
VERL = "verl-issue316-backticked-main-task-step-5-line-first-physical-part-cuda-error-not-in-lines.log"
PETALS = "hivemind-petals-issue389-server-loading-blocks-72-to-76-adapters-terminal-escape-junk-glued.log"


@pytest.mark.parametrize(
    ("pasted", "printed"),
    [
        # an inline code span around the whole line; opened on the line, closed on a later one; closed on this one
        ("`completed step: 9, seconds: 1.341, loss: 0.000`", "completed step: 9, seconds: 1.341, loss: 0.000"),
        ("`step:5 - actor/pg_loss:0.000 - actor/entro", "step:5 - actor/pg_loss:0.000 - actor/entro"),
        ("  total optimization steps / 学習ステップ数: 1520`", "  total optimization steps / 学習ステップ数: 1520"),
        ("``iter 10: loss 2.5``", "iter 10: loss 2.5"),
        # a Markdown quote, nested; never the swarm launcher's own ``>>``
        ("> iter 2920: loss 3.9883, time 1099.34ms", "iter 2920: loss 3.9883, time 1099.34ms"),
        ("> > step 3 loss 1.0", "step 3 loss 1.0"),
        (">> Shutting down trainer...", ">> Shutting down trainer..."),
        # an HTML copy's block
        ("<pre>epoch 27 | loss 8.206</pre>", "epoch 27 | loss 8.206"),
        ("<code>step 3 loss 1.0</code>", "step 3 loss 1.0"),
        # a shell prompt before a command
        ("$ python train.py --max_steps 100", "python train.py --max_steps 100"),
        ("(venv) user@box:~/nanoGPT$ python train.py", "python train.py"),
        ("root@0a1b2c:/workspace# torchrun train.py", "torchrun train.py"),
        # a function key's and a colour code's escapes pasted in caret notation
        ("^[OP^[OPJul 20 12:17:54.764 [INFO] Loaded", "Jul 20 12:17:54.764 [INFO] Loaded"),
        ("^[[32mstep 3 loss 1.0^[[0m", "step 3 loss 1.0"),
        # Markdown emphasis an author put around a figure; never Python's own ``**`` and ``__``
        ("{'loss': **4.7581**, 'epoch': 0.1}", "{'loss': 4.7581, 'epoch': 0.1}"),
        ("step 3 loss __0.52__ acc **97.5%**", "step 3 loss 0.52 acc 97.5%"),
        ("  File \"/x/__init__.py\", line 2, in f(**kwargs)", "  File \"/x/__init__.py\", line 2, in f(**kwargs)"),
        ("size = 2**10 and 3**2**", "size = 2**10 and 3**2**"),
        # spans inside the line are the line's own
        ("use `torchrun` to launch", "use `torchrun` to launch"),
        ("`Trainer.fit` stopped: `max_steps=400000` reached.", "`Trainer.fit` stopped: `max_steps=400000` reached."),
        ("step 3 loss 1.0", "step 3 loss 1.0"),
    ],
)
def test_a_paste_s_marks_come_off_and_the_line_s_own_stay(pasted: str, printed: str) -> None:
    assert unpasted(pasted) == printed
    assert maybe_pasted(pasted) or pasted == printed


def test_a_backticked_maxtext_line_is_signed_and_read_by_its_row(tmp_path: Path) -> None:
    lines = body(MAXTEXT)
    assert signature(lines[-1]) == "maxtext"
    assert detect(lines) == "maxtext"
    steps = [e for e in create_parser("maxtext").feed(lines) if isinstance(e, TrainStep)]
    # ``completed step: 9, seconds: 1.341, TFLOP/s/device: 257.929, Tokens/s/device: 36653.244, loss: 0.000``
    assert [(s.step, s.step_seconds, s.loss) for s in steps] == [(9, 1.341, 0.0)]
    assert steps[0].tokens_per_second == pytest.approx(36653.244)
    training = read_cold(tmp_path, lines, name=MAXTEXT, at=T0)["training"]
    assert (training["step"], training["step_seconds"], training["loss"]) == (9, 1.341, 0.0)


def test_a_backticked_verl_line_behind_ray_s_prefix_is_read_by_its_row(tmp_path: Path) -> None:
    lines = body(VERL)
    assert detect(lines) == "verl"
    training = read_cold(tmp_path, lines, name=VERL, at=T0)["training"]
    # ``step:5 - … - critic/score/mean:0.008 - … - val/test_score/openai/gsm8k:0.171 - …`` (cut mid-key)
    assert training["step"] == 5
    assert training["eval"]["val/test_score/openai/gsm8k"]["value"] == pytest.approx(0.171)
    assert training["step_seconds"] is None  # (the kept part prints no step time)
    assert training["crash"] is None  # (the CUDA error of the title is not in the line)


def test_caret_escapes_glued_before_a_record_s_time_leave_the_record_read(tmp_path: Path) -> None:
    lines = body(PETALS)
    assert detect(lines) == "hivemind"
    glued = next(line for line in lines if line.startswith("^[OP"))
    assert unpasted(glued).startswith("Jul 20 12:17:54.764 [INFO] Adapter")


def test_the_same_backticked_line_reads_as_the_bare_one_in_every_step_row() -> None:
    bare = "step:3 - actor/pg_loss:0.25 - critic/score/mean:0.5 - timing_s/step:12.5"
    for pasted in (f"`{bare}`", f"> {bare}", f"<pre>{bare}</pre>"):
        read = [e for e in create_parser("verl").feed([pasted]) if isinstance(e, TrainStep)]
        assert [(s.step, s.loss, s.step_seconds) for s in read] == [(3, 0.25, 12.5)]


# docker's json-file driver and an OpenTelemetry/Loki export, composed: the line each record holds, at its own time.
DOCKER = [
    '{"log":"step 10 | loss 2.5000 | dt 1000.00ms\\n","stream":"stdout","time":"2024-05-01T12:00:00.000000000Z"}',
    '{"log":"step 11 | loss 2.4000 | dt 1000.00ms\\n","stream":"stdout","time":"2024-05-01T12:00:01.000000000Z"}',
]
COLLECTED_CRASH = [
    '{"Timestamp":"2024-09-21T10:34:28.05520923Z","Body":"Traceback (most recent call last):"}',
    '{"Timestamp":"2024-09-21T10:34:28.0554467Z","Body":"  File \\"/src/launcher.py\\", line 23, in \\u003cmodule\\u003e"}',
    '{"Timestamp":"2024-09-21T10:34:28.0556Z","Body":"    launch()"}',
    '{"Timestamp":"2024-09-21T10:34:28.0558Z","Body":"RuntimeError: CUDA error: an illegal memory access was encountered"}',
]


def test_a_log_collector_s_record_is_read_as_the_line_it_holds_at_its_time() -> None:
    assert unpasted(DOCKER[0]) == "2024-05-01T12:00:00.000000000Z step 10 | loss 2.5000 | dt 1000.00ms"
    assert unpasted(COLLECTED_CRASH[1]) == '2024-09-21T10:34:28.0554467Z   File "/src/launcher.py", line 23, in <module>'
    # a trainer's own JSON (the HF Trainer's dicts, a record with no time of its own) stays as printed
    for own in ('{"loss": 2.5, "learning_rate": 1e-05, "epoch": 0.5}', '{"message": "step 3", "level": "info"}'):
        assert unpasted(own) == own


def test_steps_inside_a_collector_s_records_are_a_run_on_the_records_clock() -> None:
    steps = [e for e in create_parser("generic").feed(DOCKER) if isinstance(e, TrainStep)]
    # 2024-05-01T12:00:00Z is 1714564800 unix seconds; the next record a second later
    assert [(s.step, s.loss, s.at) for s in steps] == [(10, 2.5, 1714564800.0), (11, 2.4, 1714564801.0)]


def test_a_traceback_inside_a_collector_s_records_is_the_run_s_crash(tmp_path: Path) -> None:
    assert detect(COLLECTED_CRASH) == "generic"
    data = read_cold(tmp_path, COLLECTED_CRASH, at=T0)
    assert data["state"] == "crashed"
    assert data["training"]["crash"]["error"] == "RuntimeError: CUDA error: an illegal memory access was encountered"


# A line copied from a web page's ``<pre>``/``<code>`` block, its HTML entities as the page holds them.
LIGHTNING_ESCAPED = "generic-lightning-issue11471-pre-html-escaped-bar-epoch-80-10-of-15.log"


@pytest.mark.parametrize(
    ("copied", "printed"),
    [
        # tqdm's ``elapsed<remaining`` escaped inside a ``<pre>`` block; an HF dict's quotes as ``&#39;`` and ``&#x27;``
        ("<pre>Epoch 3:  45% 9/20 [00:09&lt;00:11, 1.02s/it, loss=0.5]",
         "Epoch 3:  45% 9/20 [00:09<00:11, 1.02s/it, loss=0.5]"),
        ("{&#39;loss&#39;: 2.5, &#x27;epoch&#x27;: 0.5}", "{'loss': 2.5, 'epoch': 0.5}"),
        ('  File &quot;train.py&quot;, line 9, in &lt;module&gt;', '  File "train.py", line 9, in <module>'),
        ("<code>step 3 | loss 1.0 &amp; lr 0.1</code>", "<code>step 3 | loss 1.0 & lr 0.1</code>"),
        # a line that prints ``<`` itself beside ``&lt;`` printed the entity too (a web server's log): left as it is
        ("GET /q?a=&lt;b HTTP/1.1 <200>", "GET /q?a=&lt;b HTTP/1.1 <200>"),
        # no entity: an ampersand of the line's own
        ("R&D: step 3 loss 1.0 &amp", "R&D: step 3 loss 1.0 &amp"),
    ],
)
def test_a_line_copied_from_a_web_page_reads_as_printed(copied: str, printed: str) -> None:
    assert unescaped(copied) == printed


def test_an_escaped_lightning_bar_reads_its_epoch_and_its_place_in_it(tmp_path: Path) -> None:
    lines = body(LIGHTNING_ESCAPED)
    assert detect(lines) == "generic"
    training = read_cold(tmp_path, lines, name=LIGHTNING_ESCAPED, at=T0)["training"]
    # ``Epoch 80:  67% 10/15 [02:53&lt;01:18, 15.76s/it, loss=0.429, v_num=l1_0, grad_2.0_norm_…``: epoch 80, batch 10
    # of the epoch's 15 (not step 80), 15.76 s a batch as printed, 01:18 left in the epoch
    assert (training["data"]["epoch"], training["step"], training["total_steps"]) == (80, 10, 15)
    assert (training["loss"], training["step_seconds"]) == (0.429, 15.76)
    assert training["trainer_eta_seconds"] == 78


def test_an_escaped_traceback_is_the_crash_it_shows(tmp_path: Path) -> None:
    # composed: a bar, then a traceback copied from a page, ``<module>`` escaped; its frame is the script's top
    lines = ["<pre>Epoch 1:  50% 5/10 [00:05&lt;00:05, 1.00s/it, loss=2.5]",
             "Traceback (most recent call last):",
             "  File &quot;train.py&quot;, line 9, in &lt;module&gt;",
             "    trainer.fit(model)",
             "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB</pre>"]
    snapshot = read_cold(tmp_path, lines, at=T0)
    assert snapshot["state"] == "crashed"
    assert snapshot["training"]["crash"]["error"].startswith("RuntimeError: CUDA out of memory.")
    assert (snapshot["training"]["data"]["epoch"], snapshot["training"]["step"]) == (1, 5)
