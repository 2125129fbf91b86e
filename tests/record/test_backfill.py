"""First-start import of the followed log and its dated siblings, through the real parser and tracker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from app.ingest.folder import source_key_path
from app.record import backfill
from app.record.backfill import files_to_import, import_logs
from app.store import History, SourceKey
from bench.harness import HTTP_PORT
from bench.synth import IotaSynth

ROOT = Path(__file__).resolve().parents[2]

NOW = time.mktime((2026, 11, 20, 18, 0, 0, 0, 0, -1))


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Ticking(Clock):
    """A clock that moves ten minutes every time it is read: retention may prune at every write."""

    def __call__(self) -> float:
        self.now += 600
        return self.now


def dated_logs(folder: Path) -> tuple[list[Path], int, list[tuple[float, float]]]:
    """Three launches of the app on three days, each its own dated file; returns files, passes written, spans."""
    folder.mkdir(parents=True, exist_ok=True)
    files, passes, spans = [], 0, []
    for days_ago, hours in ((3, 2.0), (2, 1.5), (1, 1.0)):
        start = NOW - days_ago * 86400
        synth = IotaSynth(seed=days_ago, start=start, fetcher=False, epoch_seconds=None, requeue_seconds=None)
        text = synth.text(hours * 3600)
        path = folder / (time.strftime("%Y-%m-%d", time.localtime(start)) + "-cli.log")
        path.write_text(text, encoding="utf-8")
        os.utime(path, (synth.t, synth.t))
        files.append(path)
        passes += synth.truth.passes
        spans.append((start, synth.t))
    (folder / "notes.txt").write_text("not a log\n")
    return files, passes, spans


def test_siblings_are_the_dated_logs_of_the_folder_oldest_first(tmp_path: Path) -> None:
    files, _, _ = dated_logs(tmp_path / "logs")
    old = tmp_path / "logs" / "2026-09-01-cli.log"
    old.write_text("old\n")
    os.utime(old, (NOW - 60 * 86400, NOW - 60 * 86400))  # beyond what the 5-minute tier keeps
    assert files_to_import(tmp_path / "logs", NOW) == files
    assert files_to_import(files[-1], NOW) == files  # a dated file: its folder is the source
    assert source_key_path(files[-1]) == tmp_path / "logs"
    plain = tmp_path / "train.log"
    plain.write_text("x\n")
    assert files_to_import(plain, NOW) == [plain] and source_key_path(plain) == plain


def test_import_counts_every_pass_once_and_leaves_gaps_between_launches(tmp_path: Path) -> None:
    files, passes, spans = dated_logs(tmp_path / "logs")
    source = SourceKey("box", str(tmp_path / "logs"), "miner")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        stop = threading.Event()
        done = import_logs(files, history, source, clock=Clock(NOW), stop=stop)
        assert history.flush(60)
        assert done.files_done == 3 and done.done
        chart = history.chart(source, "7d")
        assert chart["totals"]["passes"] == passes  # the generator's own count, one per activation id
        assert chart["totals"]["since"] == pytest.approx(spans[0][0], abs=60)
        tph = {int(t): v for t, v in chart["series"]["tokens_per_hour"]}
        # Measured while each launch trained; nothing (null, not zero) between launches.
        mid = int(spans[0][0] + 3600)
        assert tph[mid - mid % 900] is not None and tph[mid - mid % 900] > 0
        gap = int(spans[0][1] + 6 * 3600)
        assert tph[gap - gap % 900] is None
        # Read again (a restart): every file is skipped or counts nothing new.
        import_logs(files, history, source, clock=Clock(NOW), stop=stop)
        with files[-1].open("a") as f:
            f.write("\n")  # the current log grew: it is read again, harmlessly
        import_logs(files, history, source, clock=Clock(NOW), stop=stop)
        assert history.flush(60)
        assert history.chart(source, "7d")["totals"]["passes"] == passes
    finally:
        history.stop()


def test_a_stopped_import_stops_at_once(tmp_path: Path) -> None:
    files, _, _ = dated_logs(tmp_path / "logs")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    stop = threading.Event()
    stop.set()
    done = import_logs(files, history, SourceKey("box", "x", "miner"), clock=Clock(NOW), stop=stop)
    assert done.files_done == 0
    history.stop()


def test_a_day_rotated_mid_bucket_loses_no_pass_even_after_pruning(tmp_path: Path) -> None:
    # One miner running across the daily rotation, three days ago: the 5-min bucket around the
    # rotation is written from two files, in two batches, on a history that has pruned already.
    folder = tmp_path / "logs"
    folder.mkdir()
    synth = IotaSynth(seed=9, start=NOW - 3 * 86400 - 7 * 3600 + 17, fetcher=False, epoch_seconds=None,
                      requeue_seconds=None)
    files = []
    for i, hours in enumerate((5.0, 3.0)):
        path = folder / f"2026-11-{17 + i:02d}-cli.log"
        path.write_text(synth.text(hours * 3600 + 101), encoding="utf-8")
        os.utime(path, (synth.t, synth.t))
        files.append(path)
    source = SourceKey("box", str(folder), "miner")
    clock = Ticking(NOW)  # time passes while importing: retention would prune between batches
    history = History(tmp_path / "data", clock=clock)
    history.start()
    try:
        from app.store import Observation, Sample

        assert history.submit(Observation(source, samples=(Sample(int(NOW) - int(NOW) % 30, None),)))
        assert history.flush(20)  # the first write prunes: anything older than 48 h is "pruned"
        import_logs(files, history, source, clock=clock, stop=threading.Event())
        assert history.flush(60)
        assert history.chart(source, "7d")["totals"]["passes"] == synth.truth.passes
    finally:
        history.stop()


# --- which files belong to the history: folder mode's rules ------------------------------------

# Electron-log lines as the Train at Home app's shell writes them to main.log: dated, no miner record.
SHELL_LINES = (
    "[{t}] [info]  Checking for update\n"
    "[{t}] [warn]  Update check failed: net::ERR_INTERNET_DISCONNECTED\n"
    "[{t}] [info]  Worker stdout attached\n"
)


def shell_log(path: Path, start: float, hours: float) -> None:
    """The app shell's main.log: a few lines every minute over ``hours`` from ``start``."""
    out = []
    t = start
    while t < start + hours * 3600:
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) + ".000"
        out.append(SHELL_LINES.format(t=stamp))
        t += 60
    path.write_text("".join(out), encoding="utf-8")
    os.utime(path, (NOW - 600, NOW - 600))  # the newest file of the folder


def stray_miner_log(path: Path, start: float, seed: int) -> int:
    """Another miner's lines under a name the app never gives its logs (a copy, another tool's sink)."""
    synth = IotaSynth(seed=seed, start=start, fetcher=False, epoch_seconds=None, requeue_seconds=None)
    path.write_text(synth.text(3600), encoding="utf-8")
    os.utime(path, (synth.t, synth.t))
    return synth.truth.passes


def test_in_the_train_at_home_folder_only_the_miners_cli_logs_are_imported(tmp_path: Path) -> None:
    folder = tmp_path / "IOTA Train at Home"
    files, passes, spans = dated_logs(folder)
    # Between the first two launches: the shell talks, and a stray copy of some miner's log.
    gap_start = spans[0][1] + 3 * 3600
    shell_log(folder / "main.log", gap_start, 6)
    stray = stray_miner_log(folder / "miner-copy.log", gap_start + 7 * 3600, seed=42)
    assert stray > 0
    assert files_to_import(folder, NOW) == files
    assert files_to_import(files[1], NOW) == files[:2]  # a dated file: itself and its older siblings
    source = SourceKey("box", str(folder), "miner")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        import_logs(files_to_import(folder, NOW), history, source, clock=Clock(NOW), stop=threading.Event(),
                    in_child=True)
        assert history.flush(60)
        chart = history.chart(source, "7d")
        assert chart["totals"]["passes"] == passes  # none of the stray log's
        tph = {int(t): v for t, v in chart["series"]["tokens_per_hour"]}
        training = chart["series"]["training_fraction"]
        for t in range(int(gap_start) + 900, int(gap_start + 8 * 3600), 900):
            bucket = t - t % 900
            assert tph[bucket] is None, f"the shell's or the stray log's lines made a figure at {bucket}"
        assert all(v is None for t, v in training if gap_start + 900 <= t < gap_start + 8 * 3600)
    finally:
        history.stop()


def test_elsewhere_the_logs_of_the_followed_kind_are_imported_and_nothing_else(tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    files, passes, spans = dated_logs(folder)
    renamed = []
    for path in files:  # a folder of the headless miner's dated logs, not the app's names
        target = path.with_name(path.name.replace("-cli", ""))
        path.rename(target)
        renamed.append(target)
    gap_start = spans[0][1] + 3 * 3600
    shell_log(folder / "main.log", gap_start, 2)  # lines no format reads
    (folder / "pip.log").write_text("Collecting torch\nSuccessfully installed torch-2.5.1\n")
    nanochat = folder / "train.log"  # another kind of log (a nanochat run) beside the miner's
    nanochat.write_bytes((Path(__file__).parents[1] / "data" / "sample-nanochat.log").read_bytes())
    os.utime(nanochat, (spans[1][0], spans[1][0]))
    assert files_to_import(folder, NOW) == renamed
    assert files_to_import(nanochat, NOW) == [nanochat]  # not dated: its own history
    source = SourceKey("box", str(folder), "miner")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        import_logs(files_to_import(folder, NOW), history, source, clock=Clock(NOW), stop=threading.Event())
        assert history.flush(60)
        assert history.chart(source, "7d")["totals"]["passes"] == passes
    finally:
        history.stop()


# --- a relative --log, from the user's folder, through the real server and its import child -----


def _serve(cwd: Path, *args: str) -> tuple[subprocess.Popen[str], int]:
    process = subprocess.Popen(
        [sys.executable, "-u", str(ROOT / "run.py"), "--port", "0", *args], cwd=cwd, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, encoding="utf-8",
    )
    assert process.stdout is not None
    for line in process.stdout:
        m = HTTP_PORT.search(line)
        if m:
            threading.Thread(target=process.stdout.read, daemon=True).start()  # keep the pipe drained
            return process, int(m.group(1))
    _, stderr = process.communicate(timeout=10)  # reaps it and closes both pipes
    raise AssertionError(f"run.py printed no port; stderr: {stderr}")


def _imported_chart(port: int) -> dict:
    deadline = time.monotonic() + 40
    while True:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as r:
            history = json.loads(r.read())["history"]
        if history["mode"] == "writing" and history["importing"] is None:
            break
        assert time.monotonic() < deadline, f"the import never finished: {history}"
        time.sleep(0.2)
    deadline = time.monotonic() + 20
    while True:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/history?range=7d", timeout=10) as r:
            chart: dict = json.loads(r.read())
        if chart["totals"] and chart["totals"]["passes"] or time.monotonic() > deadline:
            return chart
        time.sleep(0.2)


@pytest.mark.parametrize("given", ["file", "folder"])
def test_a_relative_log_is_imported_from_where_tokwatch_was_started(tmp_path: Path, given: str) -> None:
    now = time.time()
    home = tmp_path / "home"
    folder = home / "IOTA Train at Home"
    folder.mkdir(parents=True)
    # Six hours of training, most of it older than the 80 minutes a cold start reads back:
    # only the import can bring those passes into the history.
    synth = IotaSynth(seed=5, start=now - 6 * 3600, fetcher=False, epoch_seconds=None, requeue_seconds=None)
    log = folder / (time.strftime("%Y-%m-%d", time.localtime(now)) + "-cli.log")
    log.write_text(synth.text(6 * 3600 - 60), encoding="utf-8")
    if given == "file":
        plain = home / "miner.log"  # not dated: a history of its own
        log.rename(plain)
        cwd, arg = home, "miner.log"
    else:
        cwd, arg = home, "IOTA Train at Home"
    process, port = _serve(cwd, "--log", arg, "--data-dir", "data")
    try:
        chart = _imported_chart(port)
        assert chart["totals"]["passes"] == synth.truth.passes
        assert chart["source"]["key"] == str(home / ("miner.log" if given == "file" else "IOTA Train at Home"))
    finally:
        process.terminate()
        _, err = process.communicate(timeout=20)
    assert "cannot read" not in err and "Traceback" not in err, err
    assert (home / "data" / "history.sqlite3").is_file()


# --- step trainers: placed in time as a cold start places them, each step once ------------------

TOKENS_PER_ITER = 491_520
ITER_SECONDS = 0.3
LINE_EVERY = 10  # nanoGPT prints every 10 iterations
STEP_END = NOW - 2 * 3600  # when the composed run's first part was last written


def nanogpt_lines(first_iter: int, last_iter: int) -> str:
    """nanoGPT's lines: a line every 10 iterations of 300 ms, the loss falling by 1e-4 an iteration."""
    out = [] if first_iter else [f"tokens per iteration will be: {TOKENS_PER_ITER:,}\n"]
    for i in range(first_iter, last_iter + 1, LINE_EVERY):
        out.append(f"iter {i}: loss {10 - i / 10_000:.4f}, time {ITER_SECONDS * 1000:.2f}ms, mfu 39.00%\n")
        if i and i % 6000 == 0:
            out.append(f"step {i}: train loss {10 - i / 10_000:.4f}, val loss {10.1 - i / 10_000:.4f}\n")
    return "".join(out)


def stored(history: History, sql: str, *args: object) -> list[tuple]:
    return history.read(lambda conn: conn.execute(sql, args).fetchall()) or []


def test_a_step_trainer_log_is_imported_each_step_once_across_restarts(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(nanogpt_lines(0, 36_000), encoding="utf-8")  # 3 hours: 3600 lines of 3 s
    os.utime(log, (STEP_END, STEP_END))
    source = SourceKey("box", str(log), "miner")  # the kind comes from what the log is
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        import_logs([log], history, source, clock=Clock(NOW), stop=threading.Event(), in_child=True)
        assert history.flush(60)
        steps = SourceKey("box", str(log), "steps")
        day = history.chart(steps, "24h")
        assert day["steps"]["stage"] == "train"
        # Each line stands for 10 iterations of 300 ms: 4,915,200 tokens in 3 s, 5.9G tok/h.
        rate = 10 * TOKENS_PER_ITER / (10 * ITER_SECONDS) * 3600
        tph = {int(t): v for t, v in day["series"]["tokens_per_hour"]}
        inside = int(STEP_END - 3600)
        assert tph[inside - inside % 300] == pytest.approx(rate, rel=0.01)
        before_start = int(STEP_END - 3 * 3600 - 900)
        assert tph[before_start - before_start % 300] is None  # before the run: a gap
        # Loss against step, as printed, and the evaluations at their steps.
        loss = dict(day["steps"]["loss"])
        assert loss and all(v == pytest.approx(10 - s / 10_000, abs=1e-4) for s, v in loss.items())
        assert max(loss) == 36_000
        assert [s for s, _ in day["steps"]["evals"]["val_loss"]] == list(range(6000, 36_001, 6000))
        first_times = {(stage, step): at for stage, step, at in stored(history, "SELECT stage, step, at FROM step")}
        assert max(first_times.values()) == pytest.approx(STEP_END, abs=1)
        samples_before = stored(history, "SELECT t, step FROM sample ORDER BY t")
        tokens_before = history.chart(steps, "7d")["totals"]["tokens"]
        assert tokens_before == pytest.approx(36_000 * TOKENS_PER_ITER, rel=0.03)

        # The run goes on for an hour after a 10-minute checkpoint the trainer does not time;
        # tokwatch starts again and reads the grown file.
        with log.open("a", encoding="utf-8") as f:
            f.write(nanogpt_lines(36_010, 48_000))
        later = STEP_END + 600 + 3600
        os.utime(log, (later, later))
        import_logs([log], history, source, clock=Clock(NOW), stop=threading.Event(), in_child=True)
        import_logs([log], history, source, clock=Clock(NOW), stop=threading.Event(), in_child=True)  # no-op
        assert history.flush(60)
        # Every step kept the time it was first given; the time series never goes back a step.
        again = {(stage, step): at for stage, step, at in stored(history, "SELECT stage, step, at FROM step")}
        assert all(again[key] == at for key, at in first_times.items())
        samples = stored(history, "SELECT t, step FROM sample ORDER BY t")
        assert [row for row in samples if row[0] <= samples_before[-1][0]] == samples_before
        known = [step for _, step in samples if step is not None]
        assert known == sorted(known), "a step was placed at two times"
        assert max(known) == 48_000
        tokens_after = history.chart(steps, "7d")["totals"]["tokens"]
        # The new hour's tokens, plus what the rate shown through the pause carries; never the
        # first three hours again.
        assert 12_000 * TOKENS_PER_ITER <= tokens_after - tokens_before < 1.2 * 12_000 * TOKENS_PER_ITER
    finally:
        history.stop()


def test_a_plain_log_brings_the_copies_its_size_rotation_renamed(tmp_path: Path) -> None:
    # The headless miner's file sink (loguru, rotation="10 MB") renames wallet.log to
    # wallet.<date>_<time>_<µs>.log and starts a new wallet.log: one log, three files.
    folder = tmp_path / "logs"
    folder.mkdir()
    synth = IotaSynth(seed=3, start=NOW - 5 * 3600, fetcher=False, epoch_seconds=None, requeue_seconds=None)
    names = ["wallet.2026-11-20_14-00-01_000001.log", "wallet.2026-11-20_16-00-00_500000.log", "wallet.log"]
    for name in names:
        path = folder / name
        path.write_text(synth.text(3600 + 600), encoding="utf-8")
        os.utime(path, (synth.t, synth.t))
    (folder / "other.2026-11-20_15-00-00_000000.log").write_text("another log's rotation\n")
    (folder / "wallet.notes.log").write_text("not a rotation\n")
    assert files_to_import(folder / "wallet.log", NOW) == [folder / n for n in names]
    source = SourceKey("box", str(folder / "wallet.log"), "miner")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        import_logs(files_to_import(folder / "wallet.log", NOW), history, source, clock=Clock(NOW),
                    stop=threading.Event())
        assert history.flush(60)
        assert history.chart(source, "7d")["totals"]["passes"] == synth.truth.passes
    finally:
        history.stop()


def test_an_import_that_fills_the_history_stops_and_is_done_again_once_there_is_room(tmp_path: Path) -> None:
    files, passes, _ = dated_logs(tmp_path / "logs")
    source = SourceKey("box", str(tmp_path / "logs"), "miner")
    # The file bound (a full disk takes the same path): room for the first launch's hours only.
    small = History(tmp_path / "data", clock=Clock(NOW), max_file_bytes=160 << 10)
    small.start()
    try:
        done = import_logs(files, small, source, clock=Clock(NOW), stop=threading.Event(), in_child=True)
        assert done.done and done.problem is not None and "writes stopped" in done.problem
        assert "reached its 160 KiB bound" in done.problem
        assert done.files_done < len(files)
        marked = [f for f in files if small.imported(str(f)) is not None]
        assert len(marked) < len(files)  # a file whose batch was lost is not marked imported
    finally:
        small.stop()
    roomy = History(tmp_path / "data", clock=Clock(NOW))  # the user made room
    roomy.start()
    try:
        done = import_logs(files, roomy, source, clock=Clock(NOW), stop=threading.Event(), in_child=True)
        assert roomy.flush(60) and done.problem is None
        assert roomy.chart(source, "7d")["totals"]["passes"] == passes
    finally:
        roomy.stop()


def test_a_trainer_s_record_beside_the_followed_log_is_not_an_older_run(tmp_path: Path) -> None:
    """The run's stdout (HF bars) and its trainer_state.json, written a minute apart: one run, one file imported."""
    from tests.reallogs import body

    folder = tmp_path / "output"
    folder.mkdir()
    log, state = folder / "train.log", folder / "trainer_state.json"
    log.write_text("\n".join(body("hf-zeehu-t5-bars-at-saves.log")) + "\n", encoding="utf-8")
    state.write_text("\n".join(body("hf-trainerstate-llm-training-done-45-of-45.trainer_state.json")) + "\n",
                     encoding="utf-8")  # fmt: skip
    os.utime(state, (NOW - 120, NOW - 120))
    os.utime(log, (NOW - 60, NOW - 60))
    assert files_to_import(folder, NOW) == [log]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_an_import_child_killed_mid_batch_is_said_in_words_and_its_file_read_again(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "train.log"
    log.write_text(nanogpt_lines(0, 100), encoding="utf-8")
    monkeypatch.setattr(backfill, "CHILD_MODULE", "tests.record.cut_child")
    history = History(tmp_path / "data", clock=Clock(NOW))
    history.start()
    try:
        with pytest.raises(RuntimeError, match=r"killed \(signal 9, often the system running out of memory\)"):
            import_logs([log], history, SourceKey("box", str(log), "steps"), clock=Clock(NOW),
                        stop=threading.Event(), in_child=True)
        assert history.flush(60)
        assert history.imported(str(log)) is None  # not marked: the next start reads it again
    finally:
        history.stop()
