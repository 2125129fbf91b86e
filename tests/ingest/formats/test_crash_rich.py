"""rich's traceback, as accelerate, typer and scripts that install ``rich.traceback`` print it, read as Python's.

Its header is the box's top border (``╭──── Traceback (most recent call last) ────╮``, ``┌──┐`` on a console without
rounded corners), maybe glued to a progress bar's end; its frames are rows ``│ /path/train.py:261 in <module> │``
between source rows; its error line comes under the closing ``╰──╯``. A log cut inside the box is a crash, its last frame
said. A rich box that is no traceback (a table, a panel) is never a crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ingest.formats.crash import CrashWatch
from app.stats.events import RunCrashed
from tests.coldread import read_cold
from tests.reallogs import body

W = 60


def row(text: str) -> str:
    return f"│ {text:<{W - 4}} │"


TOP = "╭" + " Traceback (most recent call last) ".center(W - 2, "─") + "╮"
BOTTOM = "╰" + "─" * (W - 2) + "╯"
BOX = [row("/home/u/train.py:88 in <module>"), row(""), row("  87 │   trainer.train()"), row("❱ 88 main()"), row(""),
       row("/home/u/site-packages/transformers/trainer.py:1633 in train"), row(""), row("  1632 │   return loop("),
       BOTTOM]
ERR = "RuntimeError: Expected all tensors to be on the same device, but found at least two devices"
# Composed after the HF Trainer's bar as tqdm prints it, rich's box glued to its rate (the bar's ``]`` not printed).
BAR = "  2%|▏         | 50/2019 [24:10<16:05:58, 29.01s/it"


def said(lines: list[str]) -> list[tuple[str, bool]]:
    watch = CrashWatch()
    found = [(e.error, e.placeholder) for line in lines for e in watch.see(line) if isinstance(e, RunCrashed)]
    return found + [(e.error, e.placeholder) for e in watch.cut_traceback() if isinstance(e, RunCrashed)]


@pytest.mark.parametrize("lines", [
    [TOP, *BOX, ERR],
    [BAR + TOP, *BOX, ERR],
    [BAR + "╭", TOP[1:], *BOX, ERR],  # the border's corner on the bar's line, the rest on the next
    ["[rank0]: " + TOP, *("[rank0]: " + line for line in BOX), "[rank0]: " + ERR],
])
def test_a_rich_traceback_s_error_line_under_its_box_is_the_crash(lines: list[str]) -> None:
    assert said(lines)[-1] == (ERR, False)


def test_a_rich_box_glued_to_a_bar_is_a_crash_at_once() -> None:
    watch = CrashWatch()
    first = watch.see(BAR + TOP)
    assert [e.placeholder for e in first if isinstance(e, RunCrashed)] == [True]


def test_a_rich_traceback_cut_inside_its_box_says_its_last_frame() -> None:
    assert said([TOP, *BOX[:6]]) == [
        ("a traceback without its error line; last frame: /home/u/site-packages/transformers/trainer.py:1633 in train",
         True)]


def test_a_frame_whose_path_the_box_wrapped_is_said_whole() -> None:
    lines = [TOP, row("C:\\Users\\me\\kohya_ss\\train_netwo"), row("rk.py:974 in <module>"), row("")]
    frame = "C:\\Users\\me\\kohya_ss\\train_network.py:974 in <module>"
    assert said(lines) == [(f"a traceback without its error line; last frame: {frame}", True)]


def test_a_rich_chained_traceback_ends_in_its_last_error() -> None:
    lines = [TOP, *BOX, "KeyError: 'input_ids'", "", "The above exception was the direct cause of the following exception:",
             "", TOP, *BOX, "ValueError: bad batch"]
    assert said(lines) == [("KeyError: 'input_ids'", False), ("ValueError: bad batch", False)]


@pytest.mark.parametrize("lines", [
    # a rich table and a panel: boxes, no traceback
    ["┏━━━━━━━┳━━━━━━━━┓", "┃ step  ┃ loss   ┃", "┡━━━━━━━╇━━━━━━━━┩", "│ 10    │ 2.31   │", "└───────┴────────┘"],
    ["╭" + " Training config ".center(W - 2, "─") + "╮", row("model: /home/u/train.py:88 in <module>"),
     row("epochs: 3"), BOTTOM, "ValueError: is only a word here"],
    # a logger's record of an error the program caught, rich's box under it from a frame below the top
    ["[12/07/26 10:00:00] ERROR    batch 17 failed, skipping", TOP, row("/home/u/loop.py:12 in step"), BOTTOM,
     "ValueError: bad batch"],
])
def test_a_rich_box_that_is_no_uncaught_traceback_is_no_crash(lines: list[str]) -> None:
    assert said(lines) == []


def test_a_rich_traceback_from_the_top_under_a_logger_s_error_record_is_the_crash() -> None:
    lines = ["[12/07/26 10:00:00] ERROR    main failed", TOP, *BOX, ERR]
    assert said(lines)[-1] == (ERR, False)


def test_a_run_whose_bar_ends_in_a_rich_traceback_reads_crashed(tmp_path: Path) -> None:
    lines = ["{'loss': 1.3664, 'learning_rate': 0.00012, 'epoch': 0.06}", BAR + TOP, *BOX, ERR]
    data = read_cold(tmp_path, lines)
    assert data["state"] == "crashed" and data["training"]["crash"]["error"] == ERR


@pytest.mark.parametrize(("name", "frame"), [
    ("crash-kohya-colab-issue215-rich-traceback-accelerate-launch-cut-in-box.log",
     "/usr/local/lib/python3.10/dist-packages/accelerate/commands/accelerate_cli.py:45 in main"),
    ("crash-dolly-issue100-rich-traceback-training-main-cut-in-box.log",
     "/home/xx/tasks/dolly/dolly/training/trainer.py:339 in <module>"),
    ("crash-kohya-sd-scripts-issue1081-rich-traceback-square-box-after-bar-0-of-3200.log",
     "C:\\Users\\user\\AppData\\Roaming\\StabilityMatrix\\Packages\\kohya_ss\\train_network.py:782 in train"),
])
def test_a_real_rich_traceback_cut_inside_its_box_is_a_crash(tmp_path: Path, name: str, frame: str) -> None:
    assert said(body(name)) == [(f"a traceback without its error line; last frame: {frame}", True)]
    data = read_cold(tmp_path, body(name))
    assert data["state"] == "crashed"
