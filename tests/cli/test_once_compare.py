"""``tokwatch once --compare PATH``: both runs' headline side by side, and in ``--json`` for scripts.

The runs are the real llm.c logs of tests/web/test_compare_api.py (figures by hand there) and the
composed resume of tests/compare/resume.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from tests.compare.resume import first_run, resumed_run, text
from tests.reallogs import body


def written(folder: Path, name: str, lines: list[str]) -> Path:
    path = folder / name
    path.write_text("\n".join(lines) + "\n")
    return path


def test_once_prints_both_runs_headlines_side_by_side(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main_log = written(tmp_path, "main.log", body("llmc-main-log-no-timing.log"))
    other = written(tmp_path, "issue796.log", body("llmc-issue796-mfu-unknown-gpu.log"))
    resumed = tmp_path / "resumed.log"
    resumed.write_text(text(first_run() + resumed_run()))
    assert main(["once", "--log", str(main_log), "--compare", str(other), "--compare", str(resumed),
                 "--no-history", "--at", "end"]) == 0
    out = capsys.readouterr().out
    status, _, compared = out.partition("Compared:\n")
    assert status.startswith("step 19559")  # the status line is the followed log's, as without --compare
    rows = {line.split("  ")[1].strip(): line for line in compared.splitlines()[1:]}
    header = compared.splitlines()[0]
    assert header.index("main.log") < header.index("issue796.log") < header.index("resumed.log")
    final = [cell.strip() for cell in rows["final loss"].split("  ") if cell.strip()]
    assert final == ["final loss", "3.2217 (step 19,559)", "3.597191 (step 71)", "3.55 (step 6,000)"]
    best = [cell.strip() for cell in rows["best loss"].split("  ") if cell.strip()]
    assert best == ["best loss", "3.1838 (step 19,552)", "3.038379 (step 66)", "3.55 (step 6,000)"]
    assert "4,000–5,000" in rows["logged twice"]


def test_once_json_carries_the_comparison(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main_log = written(tmp_path, "main.log", body("llmc-main-log-no-timing.log"))
    other = written(tmp_path, "issue796.log", body("llmc-issue796-mfu-unknown-gpu.log"))
    assert main(["once", "--log", str(main_log), "--compare", str(other), "--no-history", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status_line"].startswith("step 19559")
    mine, theirs = answer["compare"]["runs"]
    assert mine["figures"]["best_loss"] == {"step": 19552, "value": 3.1838}
    assert theirs["figures"]["final_loss"] == {"step": 71, "value": 3.597191}


def test_a_compare_log_that_cannot_be_read_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main_log = written(tmp_path, "main.log", body("llmc-main-log-no-timing.log"))
    assert main(["once", "--log", str(main_log), "--compare", str(tmp_path / "gone.log"), "--no-history"]) == 2
    err = capsys.readouterr().err
    assert "--compare" in err and "gone.log: no such file" in err and "Traceback" not in err
