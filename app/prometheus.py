"""Prometheus metrics from the snapshot dict: what ``/metrics`` serves, on a dashboard and on the hub.

Built from :func:`app.snapshot.to_dict`'s output, never from a tracker, so the same code exports
this machine's figures and every machine a hub hears from (with a ``machine`` label). Names
follow the Prometheus conventions: the ``tokwatch_`` prefix, base units (seconds, bytes,
ratios), ``_total`` on counters, and no label that grows without bound (no queue or activation
ids; the run id is one series per run, as in ``*_info`` metrics elsewhere).

A figure tokwatch does not know (``null`` in the snapshot) is left out rather than exported as
0 or NaN, so a query or an alert sees "absent", not a made-up value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

# Every state a snapshot can be in; each gets a series (1 for the current, 0 for the others) so
# `tokwatch_state{state="idle"} == 1` works as an alert without knowing the other names.
STATES: tuple[str, ...] = (
    "waiting", "queued", "working", "measuring", "training", "stalled", "unrecognised",
    "idle", "silent", "done", "diverged", "crashed", "broken",
)
# The classic text format every Prometheus since 2.0 reads (the client's newest, 1.0.0, is newer
# than Debian's Prometheus); our names need none of the newer format's escaping.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

Labels = Mapping[str, str]
# Labels for one machine and its snapshot dict (the hub yields one pair per machine online).
SnapshotSource = Callable[[], Iterable[tuple[Labels, Mapping[str, Any]]]]


def _number(value: Any) -> float | None:
    """A finite number, else None (bools are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _get(data: Mapping[str, Any] | None, *path: str) -> Any:
    """``data[a][b]…`` or None when any step is missing or not a mapping."""
    value: Any = data
    for key in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(key)
    return value


class _Families:
    """The metric families of one scrape, filled one snapshot at a time."""

    def __init__(self, label_names: Sequence[str]) -> None:
        self.label_names = list(label_names)
        self.items: dict[str, GaugeMetricFamily | CounterMetricFamily] = {}

    def gauge(self, name: str, doc: str, extra: Sequence[str] = ()) -> GaugeMetricFamily:
        family = self.items.get(name)
        if family is None:
            family = GaugeMetricFamily(name, doc, labels=[*self.label_names, *extra])
            self.items[name] = family
        assert isinstance(family, GaugeMetricFamily)
        return family

    def counter(self, name: str, doc: str, extra: Sequence[str] = ()) -> CounterMetricFamily:
        family = self.items.get(name)
        if family is None:
            family = CounterMetricFamily(name, doc, labels=[*self.label_names, *extra])
            self.items[name] = family
        assert isinstance(family, CounterMetricFamily)
        return family


def add_snapshot(families: _Families, labels: Labels, snap: Mapping[str, Any]) -> None:
    """Add one snapshot's samples; read every field defensively (older agents lack newer ones)."""
    base = [labels[name] for name in families.label_names]

    def gauge(name: str, doc: str, value: Any) -> None:
        number = _number(value)
        if number is not None:
            families.gauge(name, doc).add_metric(base, number)

    def counter(name: str, doc: str, value: Any) -> None:
        number = _number(value)
        if number is not None and number >= 0:
            families.counter(name, doc).add_metric(base, number)

    counts = snap.get("counts")
    counter("tokwatch_passes", "Passes (steps for step trainers) counted since tokwatch began reading this log.",
            _get(counts, "passes"))
    counter("tokwatch_tokens", "Tokens processed since tokwatch began reading this log.", _get(counts, "tokens"))
    errors = _get(counts, "backend_errors")
    if isinstance(errors, Mapping):
        family = families.counter("tokwatch_backend_errors", "Backend errors in the log, by HTTP status code.",
                                  ["code"])
        for code, value in sorted(errors.items()):
            number = _number(value)
            if number is not None and number >= 0 and str(code).isdigit() and len(str(code)) == 3:
                family.add_metric([*base, str(code)], number)
    gauge("tokwatch_tokens_per_hour", "Measured tokens per hour (absent while measuring).",
          _get(snap, "rate", "tokens_per_hour"))
    gauge("tokwatch_passes_per_hour", "Measured passes (steps) per hour.", _get(snap, "rate", "passes_per_hour"))
    gauge("tokwatch_last_pass_timestamp_seconds", "Unix time of the latest pass.", _get(snap, "rate", "last_pass_at"))
    gauge("tokwatch_layer", "The miner's layer.", snap.get("layer"))
    gauge("tokwatch_queue_position", "Position in the registration queue.", _get(snap, "queue", "position"))
    gauge("tokwatch_network_bytes_per_second", "Network throughput the miner reports.",
          _get(snap, "network", "bytes_per_second"))
    gauge("tokwatch_usual_tokens_per_hour", "The usual tokens per hour at this time (from the history).",
          _get(snap, "usual", "tokens_per_hour"))
    gauge("tokwatch_today_tokens", "Tokens counted today (local day), from the history.",
          _get(snap, "today", "tokens"))
    gauge("tokwatch_state_since_timestamp_seconds", "Unix time the current state began.", snap.get("state_since"))
    gauge("tokwatch_log_last_event_timestamp_seconds", "Unix time of the newest log line with a time.",
          _get(snap, "source", "last_event_at"))
    gauge("tokwatch_gpu_memory_used_bytes", "GPU memory in use, as the log reports it.",
          _scaled(_get(snap, "gpu_memory", "used_gb"), 1e9))
    gauge("tokwatch_gpu_memory_total_bytes", "GPU memory in total, as the log reports it.",
          _scaled(_get(snap, "gpu_memory", "total_gb"), 1e9))

    state = snap.get("state")
    states = families.gauge("tokwatch_state", "1 for the current state, 0 for the others.", ["state"])
    names = STATES if state in STATES or not isinstance(state, str) else (*STATES, state)
    for name in names:
        states.add_metric([*base, name], 1.0 if name == state else 0.0)
    run_id = _get(snap, "run", "id")
    if isinstance(run_id, str) and run_id:
        families.gauge("tokwatch_run_info", "The run the miner is in (the value is always 1).",
                       ["run_id"]).add_metric([*base, run_id], 1.0)

    training = snap.get("training")
    if isinstance(training, Mapping):
        _add_training(gauge, training, _number(snap.get("as_of")))


def _scaled(value: Any, factor: float) -> float | None:
    number = _number(value)
    return None if number is None else number * factor


def _add_training(gauge: Callable[[str, str, Any], None], training: Mapping[str, Any], as_of: float | None) -> None:
    gauge("tokwatch_train_step", "The trainer's latest optimizer step.", training.get("step"))
    gauge("tokwatch_train_total_steps", "The steps the trainer plans in all.", training.get("total_steps"))
    gauge("tokwatch_train_loss", "The latest training loss, as the trainer prints it.", training.get("loss"))
    # tokwatch's own measure covers the whole run; a trainer's tok/s may be per GPU.
    per_hour = _number(training.get("tokens_per_hour"))
    per_second = per_hour / 3600 if per_hour is not None else None
    if per_second is None and training.get("tokens_per_second_scope") in (None, "total"):
        per_second = _number(training.get("tokens_per_second"))
    gauge("tokwatch_train_tokens_per_second", "Tokens per second over the whole run.", per_second)
    gauge("tokwatch_train_mfu_ratio", "Model FLOPs utilisation as a ratio (the trainer prints percent).",
          _scaled(training.get("mfu"), 0.01))
    since = _number(training.get("seconds_since_step"))
    if as_of is not None and since is not None:
        gauge("tokwatch_train_last_step_timestamp_seconds", "Unix time of the latest step.", as_of - since)
    gauge("tokwatch_train_eta_seconds", "Seconds left to the last step, by tokwatch's measure.",
          training.get("eta_seconds"))


class SnapshotCollector(Collector):
    """A prometheus_client collector over snapshot dicts, asked afresh at every scrape."""

    def __init__(self, source: SnapshotSource, label_names: Sequence[str] = (),
                 extra: Callable[[], Iterable[Metric]] | None = None) -> None:
        self.source = source
        self.label_names = tuple(label_names)
        self.extra = extra

    def collect(self) -> Iterator[Metric]:
        """Yield every family with the samples of every snapshot the source gives now."""
        families = _Families(self.label_names)
        for labels, snap in self.source():
            add_snapshot(families, labels, snap)
        yield from families.items.values()
        if self.extra is not None:
            yield from self.extra()


def registry_for(collector: Collector, *, process: bool = True) -> CollectorRegistry:
    """A registry of its own (never the global one) with the collector, and the process's own figures."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(collector)
    if process:
        from prometheus_client import ProcessCollector

        ProcessCollector(registry=registry)
    return registry


def exposition(registry: CollectorRegistry) -> bytes:
    """The registry in the Prometheus text format."""
    return generate_latest(registry)
