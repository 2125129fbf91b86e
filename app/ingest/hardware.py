"""Power, temperature and throttling from the machine's own tools (opt-in: ``--hardware``).

``nvidia-smi`` on NVIDIA (``--query-gpu=power.draw,temperature.gpu,clocks_throttle_reasons.active
--format=csv,noheader,nounits``: one line per GPU; watts summed, the hottest GPU, throttled when any
is), ``macmon`` on Apple Silicon (``macmon pipe -s 1``: one JSON sample, no sudo; vladkens/macmon).
A field the tool cannot read (``[N/A]``, ``[Not Supported]``, absent) is unknown, never zero. The
tool runs every ``SAMPLE_SECONDS`` on one owned, stoppable thread, each run with a timeout; a
missing tool or one that hangs is a line in the details, never a stalled dashboard. Pure parsers,
and :class:`HardwareWatch`, the only code that runs them.
"""

from __future__ import annotations

import json
import math
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable

from ..stats.events import HardwareSample
from ..supervise import supervised
from .tools import ToolRun

SAMPLE_SECONDS = 5.0
TOOL_TIMEOUT_SECONDS = 4.0
SAMPLES_KEPT = 720  # an hour at one every 5 s: the chart's last hour
TOOLS = ("auto", "nvidia-smi", "macmon", "off")

NVIDIA_QUERY = "power.draw,temperature.gpu,clocks_throttle_reasons.active"
# nvidia-smi's clock throttle reasons (nvml.h): the ones that cost speed; idle (0x1) and the
# applications clocks setting (0x2) do not.
_THROTTLE_REASONS = {
    0x4: "power cap",
    0x8: "hardware slowdown",
    0x20: "thermal",
    0x40: "thermal",
    0x80: "power brake",
}


def _number(text: str) -> float | None:
    try:
        value = float(text.strip())
    except ValueError:  # "[N/A]", "[Not Supported]", "N/A"
        return None
    return value if math.isfinite(value) and value >= 0 else None


def parse_nvidia(output: str, at: float) -> HardwareSample | None:
    """A sample from ``nvidia-smi --query-gpu=…`` CSV lines (one per GPU); None when no line reads."""
    watts: list[float] = []
    temps: list[float] = []
    masks: list[int] = []
    lines = 0
    for line in output.splitlines():
        fields = [f.strip() for f in line.split(",")]
        if len(fields) < 2:
            continue
        lines += 1
        power, temp = _number(fields[0]), _number(fields[1])
        if power is not None:
            watts.append(power)
        if temp is not None:
            temps.append(temp)
        if len(fields) >= 3:
            try:
                masks.append(int(fields[2], 16))
            except ValueError:
                pass
    if not lines:
        return None
    reasons = tuple(dict.fromkeys(word for mask in masks for bit, word in _THROTTLE_REASONS.items() if mask & bit))
    return HardwareSample(at, sum(watts) if watts else None, max(temps) if temps else None,
                          bool(reasons) if masks else None, reasons)


def parse_macmon(output: str, at: float) -> HardwareSample | None:
    """A sample from ``macmon pipe`` (its last JSON line): system power (else CPU+GPU+ANE), the hotter of CPU and GPU."""
    for line in reversed(output.strip().splitlines()):
        try:
            data = json.loads(line)
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        watts = _field(data, "sys_power")
        if not watts:
            watts = _field(data, "all_power")
        temp = data.get("temp")
        temps = [_field(temp, key) for key in ("cpu_temp_avg", "gpu_temp_avg")] if isinstance(temp, dict) else []
        known = [t for t in temps if t]
        return HardwareSample(at, watts, max(known) if known else None, None)  # macmon says nothing of throttling
    return None


def _field(data: dict[str, object], key: str) -> float | None:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def hardware_command(
    choice: str, which: Callable[[str], str | None] = shutil.which
) -> tuple[str, list[str], Callable[[str, float], HardwareSample | None]] | None:
    """The tool ``--hardware`` names (``auto``: macmon, then nvidia-smi), how to run it and read it; None: none."""
    if choice == "off":
        return None
    if choice in ("auto", "macmon"):
        found = which("macmon")
        if found is not None:
            return "macmon", [found, "pipe", "-s", "1"], parse_macmon
    if choice in ("auto", "nvidia-smi"):
        found = which("nvidia-smi")
        if found is not None:
            return "nvidia-smi", [found, f"--query-gpu={NVIDIA_QUERY}", "--format=csv,noheader,nounits"], parse_nvidia
    return None


class HardwareWatch:
    """Samples the tool every few seconds on one owned thread; keeps the last hour of samples."""

    def __init__(self, choice: str, *, clock: Callable[[], float] = time.time,
                 on_change: Callable[[], None] | None = None,
                 which: Callable[[str], str | None] = shutil.which,
                 interval_seconds: float = SAMPLE_SECONDS, timeout_seconds: float = TOOL_TIMEOUT_SECONDS) -> None:
        self.choice = choice
        self._command = hardware_command(choice, which)
        self._clock = clock
        self._on_change = on_change
        self._interval = interval_seconds
        self._timeout = timeout_seconds
        self._lock = threading.Lock()
        self._samples: deque[HardwareSample] = deque(maxlen=SAMPLES_KEPT)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._tool = ToolRun(timeout_seconds)
        self.runs = 0
        self.problem: str | None = None if self._command is not None or choice == "off" else (
            f"{'macmon or nvidia-smi' if choice == 'auto' else choice} not found: no power figures")

    @property
    def tool(self) -> str | None:
        """The tool in use, or None."""
        return self._command[0] if self._command is not None else None

    def samples(self) -> tuple[HardwareSample, ...]:
        """The samples kept, oldest first."""
        with self._lock:
            return tuple(self._samples)

    def start(self) -> None:
        """Start sampling; nothing runs when there is no tool."""
        if self._command is None or self._thread is not None:
            return
        self._thread = threading.Thread(target=supervised("tokwatch-hardware", self._run, self._stop.is_set),
                                        name="tokwatch-hardware", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop sampling (a run in progress killed); safe to call twice."""
        self._stop.set()
        self._tool.kill()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.sample_once()
            self._stop.wait(self._interval)

    def sample_once(self) -> None:
        """Run the tool once and keep what it read."""
        if self._command is None:
            return
        name, argv, parse = self._command
        self.runs += 1
        answer = self._tool.run(argv, name)
        if answer.output is None:
            self.problem = answer.problem
            return
        sample = parse(answer.output, self._clock())
        if sample is None:
            self.problem = f"{name} gave nothing tokwatch reads" + (f" (exit status {answer.returncode})"
                                                                      if answer.returncode else "")
            return
        self.problem = None
        with self._lock:
            self._samples.append(sample)
        if self._on_change is not None:
            self._on_change()
