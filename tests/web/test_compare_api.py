"""``/api/runs`` and ``/api/compare`` on a real server: runs read from real logs and from the history,
figures checked against values worked out by hand from the files, and the rule of which logs a
page may open.

The two real runs (tests/data/real/, each file's header names its source): llm.c's own main.log of
the modded-nanogpt llm.c record (``lr:0.000001`` … warm-up, then ``lr:0.000000`` at the end) and
the llm.c issue #796 paste (``lr 3.00e-04`` on every line). By hand from the lines:

* main.log: losses at steps 0–10 and 19,549–19,559; final 3.2217 at 19,559; lowest 3.1838 at
  19,552; val (``tel``) 11.0092 at 0 and 3.2722 at 19,560: final and best 3.2722 at 19,560.
* issue #796: losses at steps 61–71; final 3.597191 at 71; lowest 3.038379 at 66; no evaluation.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from app.config import Config
from app.live.monitor import Monitor
from app.record.recorder import Recorder
from app.serve.process import Dashboard
from app.store import History
from tests.compare.resume import first_run, resumed_run, text
from tests.compare.weeks import miner_dashboard, two_weeks
from tests.reallogs import body

MAIN_LOG = "llmc-main-log-no-timing.log"
ISSUE_796 = "llmc-issue796-mfu-unknown-gpu.log"


@dataclass
class Server:
    url: str
    recorder: Recorder
    folder: Path

    def get(self, path: str, **params: object) -> requests.Response:
        return requests.get(self.url + path, params=params, timeout=30)  # type: ignore[arg-type]


def serve(tmp_path: Path, log_name: str, log_text: str, compare: tuple[Path, ...] = ()) -> Iterator[Server]:
    """A dashboard following ``folder/log_name``, its history imported, with ``compare`` given at start."""
    folder = tmp_path / "runs"
    folder.mkdir(exist_ok=True)
    log_path = folder / log_name
    log_path.write_text(log_text)
    config = Config(log_path=log_path, port=0, config_dir=tmp_path / "config", compare_paths=compare)
    recorder = Recorder(History(tmp_path / "data"), log_path, machine="trainer-test")
    dashboard = Dashboard(config, Monitor(log_path), recorder=recorder)
    started = dashboard.start()
    deadline = time.monotonic() + 120
    while (recorder.progress is None or not recorder.progress.done) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert recorder.progress is not None and recorder.progress.done and recorder.history.flush(20)
    yield Server(f"http://127.0.0.1:{started.port}", recorder, folder)
    dashboard.stop()


def real(tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(body(name)) + "\n")
    return path


@pytest.fixture
def llmc_server(tmp_path: Path) -> Iterator[Server]:
    other = real(tmp_path, ISSUE_796)
    yield from serve(tmp_path, "main.log", "\n".join(body(MAIN_LOG)) + "\n", compare=(other,))


def test_two_real_runs_with_different_learning_rates_overlay_with_their_figures(llmc_server: Server) -> None:
    listing = llmc_server.get("/api/runs").json()
    live = listing["live"]
    assert live.startswith("h:")  # the followed log's run, from the history
    [given] = listing["files"]
    [other] = given["runs"]
    answer = llmc_server.get("/api/compare", run=[live, other["id"]]).json()
    assert answer["x"] == "step"
    main, issue = answer["runs"]
    assert main["figures"]["final_loss"] == {"step": 19559, "value": 3.2217}
    assert main["figures"]["best_loss"] == {"step": 19552, "value": 3.1838}
    assert main["figures"]["evals"]["val_loss"] == {"final": {"step": 19560, "value": 3.2722},
                                                    "best": {"step": 19560, "value": 3.2722}}
    assert [p[0] for p in main["loss"]] == [*range(11), *range(19549, 19560)]
    assert issue["figures"]["final_loss"] == {"step": 71, "value": 3.597191}
    assert issue["figures"]["best_loss"] == {"step": 66, "value": 3.038379}
    assert issue["figures"]["evals"] == {}
    assert issue["loss"][:2] == [[61, 3.208939], [62, 3.464926]]
    assert "loss 3.2217 (step 19,559) · best 3.1838 (step 19,552)" in main["headline"]
    assert main["name"] != issue["name"] and ISSUE_796 in issue["name"]


def test_on_the_time_axis_each_run_counts_seconds_from_its_own_start(llmc_server: Server) -> None:
    listing = llmc_server.get("/api/runs").json()
    other = listing["files"][0]["runs"][0]["id"]
    issue = llmc_server.get("/api/compare", run=other, x="time").json()["runs"][0]
    # Placed back from the file's end by the printed step times (44.57 ms, 44.57 ms, 44.58 ms …):
    # step 61 at 0 s, step 62 at 44.57 ms later, the last at their sum.
    assert issue["loss"][0] == [0.0, 3.208939]
    assert issue["loss"][1][0] == pytest.approx(0.04457, abs=2e-3)
    assert issue["loss"][-1][0] == pytest.approx(sum([44.57, 44.58, 44.57, 44.55, 44.58, 44.57, 44.58, 44.60, 44.59,
                                                      44.58]) / 1000, abs=5e-3)


@pytest.fixture
def resume_server(tmp_path: Path) -> Iterator[Server]:
    yield from serve(tmp_path, "resumed.log", text(first_run() + resumed_run()))


def test_a_run_and_its_resume_from_step_4000_are_one_run_with_the_overlap_marked(resume_server: Server) -> None:
    folder = resume_server.folder
    (folder / "first.log").write_text(text(first_run()))
    (folder / "second.log").write_text(text(resumed_run()))
    one = resume_server.get("/api/compare", run="file:resumed.log").json()["runs"]
    assert len(one) == 1
    [run] = one
    steps = [p[0] for p in run["loss"]]
    assert steps == [*range(0, 4000, 100), *range(4000, 6001, 100)] and len(steps) == 61
    assert run["overlaps"] == [{"first": 4000, "last": 5000,
                                "replaced": [[s, round(4 - s / 10000, 4)] for s in range(4000, 5001, 100)]}]
    assert run["figures"]["final_loss"] == {"step": 6000, "value": 3.55}
    assert run["figures"]["best_loss"] == {"step": 6000, "value": 3.55}  # not the replaced 3.5000 at 5,000
    val = dict(map(tuple, run["evals"]["val_loss"]))
    assert val == {0: 4.1, 2000: 3.85, 4000: 3.7, 6000: 3.6}
    assert run["figures"]["evals"]["val_loss"]["best"] == {"step": 6000, "value": 3.6}
    assert run["pieces"] == 2 and "steps 4,000–5,000 logged twice" in run["headline"]
    # The history keeps the followed log stitched too: one run, the resume's losses from 4,000 on.
    history = resume_server.get("/api/compare", run="live").json()["runs"][0]
    assert [p[0] for p in history["loss"]] == steps
    assert history["figures"]["best_loss"] == {"step": 6000, "value": 3.55}


def test_a_page_opens_only_the_history_the_given_logs_and_the_followed_folder(
        resume_server: Server, tmp_path: Path) -> None:
    outside = real(tmp_path, ISSUE_796)
    for refused in (f"file:{outside}", "file:../" + outside.name, "file:/etc/passwd"):
        answer = resume_server.get("/api/compare", run=refused)
        assert answer.status_code == 403, refused
        assert "can be opened" in answer.json()["error"]
    link = resume_server.folder / "link.log"
    link.symlink_to(outside)  # a link inside the folder to a file outside it is outside
    assert resume_server.get("/api/compare", run="file:link.log").status_code == 403
    assert resume_server.get("/api/compare", run="file:missing.log").status_code == 404
    assert resume_server.get("/api/compare", run="h:99:train").status_code == 404
    assert resume_server.get("/api/compare", run="file:resumed.log", x="epoch").status_code == 400
    assert resume_server.get("/api/compare").status_code == 400


def test_on_the_lan_the_api_wants_the_token(tmp_path: Path) -> None:
    log_path = tmp_path / "train.log"
    log_path.write_text(text(first_run()))
    config = Config(log_path=log_path, host="0.0.0.0", port=0, token="s3cret-token", config_dir=tmp_path / "config")
    dashboard = Dashboard(config, Monitor(log_path), recorder=Recorder(History(None), log_path, machine="t"))
    started = dashboard.start()
    try:
        url = f"http://127.0.0.1:{started.port}"
        assert requests.get(url + "/api/runs", timeout=10).status_code == 401
        assert requests.get(url + "/api/compare", params={"run": "file:train.log"}, timeout=10).status_code == 401
        answer = requests.get(url + "/api/compare", params={"run": "file:train.log"},
                              headers={"Authorization": "Bearer s3cret-token"}, timeout=10)
        assert answer.status_code == 200
        assert answer.json()["runs"][0]["figures"]["final_loss"] == {"step": 5000, "value": 3.5}
    finally:
        dashboard.stop()


def test_a_miners_two_weeks_through_the_api(tmp_path: Path) -> None:
    """The route over a real server: the same composition as tests/store/test_spans.py, medians by hand there."""
    log_path = tmp_path / "miner.log"
    log_path.write_text("")
    weeks = two_weeks(time.time())
    dashboard = miner_dashboard(tmp_path, log_path, weeks)
    last_week, hour = weeks[0][0], 3600
    started = dashboard.start()
    try:
        url = f"http://127.0.0.1:{started.port}"
        answer = requests.get(url + "/api/compare/spans", timeout=30).json()
        this, last = answer["spans"]
        assert (this["label"], last["label"]) == ("this week", "last week")
        assert this["layers"]["1"]["median"] == 350_000 and this["layers"]["2"]["median"] == 200_000
        assert last["layers"] == {"1": {"median": 300_000, "basis_hours": 14.0}}
        assert answer["lines"][0].startswith("L1 · this week 350k tok/h")
        # Any two spans: last week's first 10 hours against its last 4.
        a, b = f"{last_week},{last_week + 10 * hour}", f"{last_week + 11 * hour},{last_week + 15 * hour}"
        answer = requests.get(url + "/api/compare/spans", params={"a": a, "b": b}, timeout=30).json()
        assert [span["layers"]["1"]["median"] for span in answer["spans"]] == [300_000, 320_000]
        assert requests.get(url + "/api/compare/spans", params={"a": "later"}, timeout=30).status_code == 400
    finally:
        dashboard.stop()


def test_the_listing_offers_a_restart_in_the_followed_log_and_the_folders_logs(tmp_path: Path) -> None:
    """A log that restarted from scratch (tests/compare/resume.py's first run twice): two runs, which
    the history keys as one; the other logs of the folder by name; nothing outside it."""
    gen = serve(tmp_path, "twice.log", text(first_run() + first_run()))
    server = next(gen)
    try:
        (server.folder / "older.log").write_text(text(resumed_run()))
        (server.folder / "notes.md").write_text("not a log")
        listing = server.get("/api/runs").json()
        assert [(run["first_step"], run["last_step"]) for run in listing["followed"]] == [(0, 5000), (0, 5000)]
        assert [run["id"] for run in listing["followed"]] == [f"file:{server.folder / 'twice.log'}#1",
                                                             f"file:{server.folder / 'twice.log'}#2"]
        assert listing["folder_logs"] == ["older.log"]
        first = server.get("/api/compare", run=listing["followed"][0]["id"]).json()["runs"][0]
        assert first["figures"]["final_loss"] == {"step": 5000, "value": 3.5} and first["name"].startswith("twice.log run 1")
        # The history's run on the time axis: seconds since its first loss, each 100 iterations 290 ms apart.
        timed = server.get("/api/compare", run="live", x="time").json()["runs"][0]
        assert timed["loss"][0][0] == 0.0
        assert all(b[0] > a[0] for a, b in zip(timed["loss"], timed["loss"][1:]))
    finally:
        next(gen, None)
