"""Figures 3–5 against a running server: latency, fan-out to 32 viewers, and CPU.

The server is ``run.py --log … --port 0`` in its own process, following a log that already holds
an hour of synthetic history (the miner was running before the dashboard, as usual). A viewer
knows a snapshot "includes" an appended line by ``source.lines_read``: the i-th line appended
after the server settled is in every snapshot whose ``lines_read`` is at least base + i.
"""

from __future__ import annotations

import os
import random
import threading
import time
from pathlib import Path
from typing import Any

from bench.harness import Server, Viewer, append_line, thread_wakeups, wakeups_per_second
from bench.report import Figure, median, percentile, skipped
from bench.synth import IotaSynth

HISTORY_SECONDS = 3600.0
SETTLE_SECONDS = 0.5
LATENCY_P99_GOAL_MS = (150.0, 60.0)  # at the miner's cadence, lone appends
PUSHES_PER_SECOND_GOAL = 4
LATENCY_ROUNDS = 3
MINER_APPENDS = 260
LONE_APPENDS = 70
FANOUT_CLIENTS = 32
FANOUT_GOAL_MS = 250.0
CPU_GOALS_PERCENT = (0.3, 3.0)  # quiet, 20 lines/s
CPU_WRITER_LINES_PER_S = 20


class LiveLog:
    """A log with an hour of history, continued line by line in (about) real time."""

    def __init__(self, path: Path, *, seed: int, history_seconds: float = HISTORY_SECONDS) -> None:
        self.path = path
        start = time.time() - history_seconds - 60
        self.synth = IotaSynth(seed=seed, start=start, epoch_seconds=None, requeue_seconds=None)
        path.write_text(self.synth.text(history_seconds), encoding="utf-8")
        self._pending: list[tuple[float, bytes]] = []
        self._second = ""
        self._second_at = 0.0
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND)

    def next_lines(self, count: int) -> list[tuple[float, bytes]]:
        """The next ``count`` physical lines, each with its offset in simulated seconds from the first."""
        while len(self._pending) < count:
            at = self.synth.t
            for line in self.synth.run(10.0):
                # Each record at its own stamp; continuation lines share their record's time.
                if line.startswith("[") and len(line) > 24:
                    at = self._stamp_seconds(line[1:24])
                self._pending.append((at, line.encode("utf-8") + b"\n"))
        taken, self._pending = self._pending[:count], self._pending[count:]
        first = taken[0][0]
        return [(at - first, line) for at, line in taken]

    def _stamp_seconds(self, stamp: str) -> float:
        second = stamp[:19]
        if second != self._second:
            self._second = second
            self._second_at = time.mktime(time.strptime(second, "%Y-%m-%d %H:%M:%S"))
        return self._second_at + int(stamp[20:23]) / 1000

    def close(self) -> None:
        os.close(self.fd)


def settle(viewer: Viewer, timeout: float = 20.0) -> int:
    """Wait for the first snapshot and then until ``lines_read`` stops moving; return it."""
    viewer.wait_for(lambda n: n >= 0, timeout)
    deadline = time.monotonic() + timeout
    base = viewer.lines_read()
    while time.monotonic() < deadline:
        time.sleep(SETTLE_SECONDS)
        now = viewer.lines_read()
        if now == base:
            return base
        base = now
    raise TimeoutError("the server's lines_read kept moving on a quiet log")


class _InProcess:
    """The reference: a Monitor + the real tailer in this process, on the same file."""

    def __init__(self, path: Path) -> None:
        from app.live.monitor import Monitor

        self.monitor = Monitor(path)
        self.seen: list[tuple[float, int]] = []
        self._stop = threading.Event()
        self.monitor.start()
        self._thread = threading.Thread(target=self._run, name="reference", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        version = self.monitor.changes.version
        while not self._stop.is_set():
            version = self.monitor.changes.wait_for_change(version, 0.2)
            now = time.perf_counter()
            self.seen.append((now, self.monitor.snapshot().source.lines_read))

    def first_at_least(self, lines: int, after: float) -> float | None:
        for at, read in list(self.seen):
            if at >= after and read >= lines:
                return at
        return None

    def lines_read(self) -> int:
        return self.monitor.snapshot().source.lines_read

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.monitor.stop()


def _write_schedule(live: LiveLog, schedule: list[tuple[float, bytes]]) -> list[float]:
    """Append each line at its offset (seconds) from now; return when each write began."""
    written: list[float] = []
    start = time.perf_counter()
    for offset, line in schedule:
        delay = start + offset - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        written.append(append_line(live.fd, line))
    return written


def _latencies(written: list[float], base: int, first_at: Any, timeout: float = 5.0) -> list[float | None]:
    """Seconds from each write to the first arrival that includes it (None: never within ``timeout``)."""
    deadline = time.monotonic() + timeout
    result: list[float | None] = []
    for i, at in enumerate(written):
        while True:
            got = first_at(base + i + 1, at)
            if got is not None or time.monotonic() > deadline:
                break
            time.sleep(0.01)
        result.append(None if got is None else got - at)
    return result


def _ms(values: list[float]) -> dict[str, float]:
    return {
        "p50_ms": percentile(values, 50) * 1000,
        "p95_ms": percentile(values, 95) * 1000,
        "p99_ms": percentile(values, 99) * 1000,
        "max_ms": max(values) * 1000,
    }


def most_in_one_second(times: list[float]) -> int:
    """The most of ``times`` (seconds) that fall in any one-second window."""
    ordered = sorted(times)
    most, j = 0, 0
    for i, start in enumerate(ordered):
        while j < len(ordered) and ordered[j] < start + 1.0:
            j += 1
        most = max(most, j - i)
    return most


def _round(live: LiveLog, viewer: Viewer, reference: _InProcess, bases: list[int], *, lone: int,
           rng: random.Random) -> dict[str, Any]:
    """One round: the miner's cadence, then lone appends; ``bases`` (server, reference) move on."""
    miner = live.next_lines(MINER_APPENDS)
    started = time.perf_counter()
    written = _write_schedule(live, miner)
    lat = _latencies(written, bases[0], viewer.first_at_least)
    ref = _latencies(written, bases[1], reference.first_at_least)
    pushes = [at for at, _ in list(viewer.received) if started <= at <= time.perf_counter()]
    bases[0] += len(written)
    bases[1] += len(written)
    offsets: list[tuple[float, bytes]] = []
    at = 0.0
    for _, line in live.next_lines(lone):
        at += rng.uniform(0.3, 0.4)
        offsets.append((at, line))
    lone_written = _write_schedule(live, offsets)
    lone_lat = _latencies(lone_written, bases[0], viewer.first_at_least)
    lone_ref = _latencies(lone_written, bases[1], reference.first_at_least)
    bases[0] += len(lone_written)
    bases[1] += len(lone_written)
    return {"miner": lat, "miner_ref": ref, "lone": lone_lat, "lone_ref": lone_ref,
            "pushes_in_one_second": most_in_one_second(pushes)}


def measure_latency(workdir: Path, *, quick: bool) -> Figure:
    # One figure read top to bottom: server, reference, the rounds, the report.
    title = "3 latency p99, miner cadence"
    goal = (f"p99 <= {LATENCY_P99_GOAL_MS[0]:.0f} ms at the miner's cadence, <= {LATENCY_P99_GOAL_MS[1]:.0f} ms "
            f"lone; <= {PUSHES_PER_SECOND_GOAL} pushes/s")
    log = workdir / "latency" / "miner.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    live = LiveLog(log, seed=33)
    server = Server(log, stderr_path=workdir / "latency" / "server.err")
    reference: _InProcess | None = None
    rounds: list[dict[str, Any]] = []
    try:
        server.start()
        viewer = Viewer(server.ws_url())
        reference = _InProcess(log)
        bases = [settle(viewer), reference.lines_read()]
        rng = random.Random(3)
        # Rounds alternate the two schedules, so a neighbour's burst costs one round, not a figure.
        for _ in range(1 if quick else LATENCY_ROUNDS):
            rounds.append(_round(live, viewer, reference, bases, lone=LONE_APPENDS, rng=rng))
        viewer.close()
        alive = server.alive()
    finally:
        if reference is not None:
            reference.stop()
        server.stop()
        live.close()
        log.unlink(missing_ok=True)
    missing = sum(1 for r in rounds for key in ("miner", "lone") for v in r[key] if v is None)

    def got(key: str) -> list[float]:
        return [v for r in rounds for v in r[key] if v is not None]

    if not got("miner") or not got("miner_ref") or not got("lone"):
        return skipped("latency", title, goal, "no snapshot arrived for the appended lines")
    per_round = [
        {"miner_p99_ms": percentile([v for v in r["miner"] if v is not None], 99) * 1000,
         "lone_p99_ms": percentile([v for v in r["lone"] if v is not None], 99) * 1000,
         "pushes_in_one_second": r["pushes_in_one_second"]}
        for r in rounds
    ]
    # The figure: the median round's p99 (each round 260 miner-cadence appends, then lone ones).
    miner_p99 = median([r["miner_p99_ms"] for r in per_round])
    lone_p99 = median([r["lone_p99_ms"] for r in per_round])
    most_pushes = max(r["pushes_in_one_second"] for r in per_round)
    stats, ref_stats, lone_stats = _ms(got("miner")), _ms(got("miner_ref")), _ms(got("lone"))
    met = (miner_p99 <= LATENCY_P99_GOAL_MS[0] and lone_p99 <= LATENCY_P99_GOAL_MS[1]
           and most_pushes <= PUSHES_PER_SECOND_GOAL and missing == 0)
    return Figure(
        key="latency",
        title=title,
        value=miner_p99,
        unit="ms",
        reference="in-process tailer+monitor, same appends, p99",
        reference_value=ref_stats["p99_ms"],
        ratio=miner_p99 / ref_stats["p99_ms"] if ref_stats["p99_ms"] else None,
        ratio_label="x",
        goal=goal,
        met=met,
        note=(
            f"median of {len(rounds)} rounds' p99: miner cadence {miner_p99:.0f} ms, lone {lone_p99:.0f} ms; "
            f"all {len(got('miner'))} miner-cadence appends: p50 {stats['p50_ms']:.0f} / p95 {stats['p95_ms']:.0f} / "
            f"p99 {stats['p99_ms']:.0f} ms; all {len(got('lone'))} lone: p50 {lone_stats['p50_ms']:.0f} / "
            f"p95 {lone_stats['p95_ms']:.0f} / p99 {lone_stats['p99_ms']:.0f} ms; "
            f"most pushes in one second {most_pushes}; missing {missing}"
        ),
        details={
            "rounds": per_round,
            "miner_cadence": {"appends": len(got("miner")), **stats, "reference": ref_stats},
            "lone_appends": {"appends": len(got("lone")), **lone_stats, "reference": _ms(got("lone_ref"))},
            "most_pushes_in_one_second": most_pushes,
            "missing": missing,
            "server_alive_at_end": alive,
            "quick": quick,
        },
    )


def measure_fanout(workdir: Path, *, quick: bool) -> Figure:
    # One figure read top to bottom: server, 32 clients, the appends, the report.
    title = f"4 fan-out {FANOUT_CLIENTS} clients p95"
    goal = f"p95 <= {FANOUT_GOAL_MS:.0f} ms"
    log = workdir / "fanout" / "miner.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    live = LiveLog(log, seed=44)
    server = Server(log, stderr_path=workdir / "fanout" / "server.err")
    viewers: list[Viewer] = []
    appends = 40 if quick else 120
    try:
        server.start()
        viewers = [Viewer(server.ws_url()) for _ in range(FANOUT_CLIENTS)]
        base = settle(viewers[0])
        for v in viewers:
            v.wait_for(lambda n: n >= base, 10)
        rng = random.Random(4)
        schedule: list[tuple[float, bytes]] = []
        at = 0.0
        for _, line in live.next_lines(appends):
            at += rng.uniform(0.3, 0.45)
            schedule.append((at, line))
        written = _write_schedule(live, schedule)
        time.sleep(0.5)
        all_in: list[float] = []
        first_in: list[float] = []
        missing = 0
        for i, at in enumerate(written):
            arrivals = [v.first_at_least(base + i + 1, at) for v in viewers]
            got = [a for a in arrivals if a is not None]
            if len(got) < len(viewers):
                missing += len(viewers) - len(got)
                continue
            all_in.append(max(got) - at)
            first_in.append(min(got) - at)
        connected = sum(1 for v in viewers if not v.closed.is_set())
    finally:
        for v in viewers:
            v.close()
        server.stop()
        live.close()
        log.unlink(missing_ok=True)
    if not all_in:
        return skipped("fanout", title, goal, "no append reached every client")
    p95 = percentile(all_in, 95) * 1000
    p95_first = percentile(first_in, 95) * 1000
    return Figure(
        key="fanout",
        title=title,
        value=p95,
        unit="ms",
        reference="first of the 32 to get it, p95",
        reference_value=p95_first,
        ratio=p95 / p95_first if p95_first else None,
        ratio_label="x",
        goal=goal,
        met=p95 <= FANOUT_GOAL_MS and missing == 0,
        note=f"{appends} lone appends; all-clients p50 {median(all_in) * 1000:.0f} ms; missing arrivals {missing}",
        details={
            "clients": FANOUT_CLIENTS,
            "appends": appends,
            "all_clients_ms": _ms(all_in),
            "first_client_ms": _ms(first_in),
            "missing_arrivals": missing,
            "still_connected_at_end": connected,
        },
    )


def measure_cpu(workdir: Path, *, quick: bool) -> Figure:
    title = "5 CPU, quiet log (20 lines/s)"
    goal = f"quiet <= {CPU_GOALS_PERCENT[0]} %, 20 lines/s <= {CPU_GOALS_PERCENT[1]:.0f} % of a core"
    seconds = 10.0 if quick else 60.0
    log = workdir / "cpu" / "miner.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    live = LiveLog(log, seed=55)
    server = Server(log, stderr_path=workdir / "cpu" / "server.err")
    try:
        server.start()
        viewer = Viewer(server.ws_url())  # a page is open, as it would be
        settle(viewer)
        time.sleep(1.0)  # let start-up work (imports, backlog, first pushes) finish
        cpu0, t0, wakes0 = server.cpu_seconds(), time.perf_counter(), thread_wakeups(server.pid)
        time.sleep(seconds)
        cpu1, t1, wakes1 = server.cpu_seconds(), time.perf_counter(), thread_wakeups(server.pid)
        quiet = (cpu1 - cpu0) / (t1 - t0) * 100
        quiet_wakes = wakeups_per_second(wakes0, wakes1, t1 - t0)
        count = int(seconds * CPU_WRITER_LINES_PER_S)
        schedule = [(i / CPU_WRITER_LINES_PER_S, line) for i, (_, line) in enumerate(live.next_lines(count))]
        cpu0, t0 = server.cpu_seconds(), time.perf_counter()
        _write_schedule(live, schedule)
        time.sleep(max(0.0, t0 + seconds - time.perf_counter()))
        cpu1, t1 = server.cpu_seconds(), time.perf_counter()
        busy = (cpu1 - cpu0) / (t1 - t0) * 100
        pushes = len(viewer.received)
        rss_mb = server.rss_kb() / 1024
        viewer.close()
    finally:
        server.stop()
        live.close()
        log.unlink(missing_ok=True)
    return Figure(
        key="cpu",
        title=title,
        value=quiet,
        unit="%",
        reference="20 lines/s writer",
        reference_value=busy,
        ratio=quiet / busy if busy > 0 else None,
        ratio_label="x",
        goal=goal,
        met=quiet <= CPU_GOALS_PERCENT[0] and busy <= CPU_GOALS_PERCENT[1],
        note=(
            f"{seconds:.0f} s each, one viewer connected; quiet: {sum(quiet_wakes):.1f} wake-ups/s in all "
            f"(busiest threads {', '.join(f'{w:g}' for w in quiet_wakes[:4])}); server RSS {rss_mb:.1f} MB"
        ),
        details={
            "seconds_each": seconds,
            "quiet_percent": quiet,
            "writer_percent": busy,
            "writer_lines_per_s": CPU_WRITER_LINES_PER_S,
            "quiet_wakeups_per_s_by_thread": quiet_wakes,
            "viewer_snapshots": pushes,
            "clock_ticks_per_s": os.sysconf("SC_CLK_TCK"),
        },
    )
