"""Prometheus metrics from the snapshot: what ``/metrics`` serves, on a dashboard and on the hub.

Built from :class:`app.snapshot.Snapshot`, never from a tracker, so the same code exports this
machine's figures and every machine a hub hears from (their reports made typed at the hub's
intake, :func:`app.hub.report.reported_snapshot`), with a ``machine`` label. Names
follow the Prometheus conventions: the ``tokwatch_`` prefix, base units (seconds, bytes,
ratios), ``_total`` on counters, and no label that grows without bound (no queue or activation
ids; the run id is one series per run, as in ``*_info`` metrics elsewhere).

A figure tokwatch does not know (``null`` in the snapshot) is left out rather than exported as
0 or NaN, so a query or an alert sees "absent", not a made-up value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

from .snapshot import Snapshot, TrainingView

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
# Labels for one machine and its snapshot (the hub yields one pair per machine online).
SnapshotSource = Callable[[], Iterable[tuple[Labels, Snapshot]]]
Figure = float | int | None


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


def add_snapshot(families: _Families, labels: Labels, snap: Snapshot) -> None:
    """Add one snapshot's samples; a figure it does not know (None) is left out."""
    base = [labels[name] for name in families.label_names]

    def gauge(name: str, doc: str, value: Figure) -> None:
        if value is not None and math.isfinite(value):
            families.gauge(name, doc).add_metric(base, float(value))

    def counter(name: str, doc: str, value: Figure) -> None:
        if value is not None and math.isfinite(value) and value >= 0:
            families.counter(name, doc).add_metric(base, float(value))

    counts = snap.counts
    if counts is not None:
        counter("tokwatch_passes", "Passes (steps for step trainers) counted since tokwatch began reading this log.",
                counts.passes)
        counter("tokwatch_tokens", "Tokens processed since tokwatch began reading this log.", counts.tokens)
        family = families.counter("tokwatch_backend_errors", "Backend errors in the log, by HTTP status code.",
                                  ["code"])
        for code, value in sorted(counts.backend_errors.items()):
            if value >= 0:
                family.add_metric([*base, code], float(value))
    rate, queue, network, usual, today, gpu = snap.rate, snap.queue, snap.network, snap.usual, snap.today, snap.gpu_memory
    gauge("tokwatch_tokens_per_hour", "Measured tokens per hour (absent while measuring).", rate.tokens_per_hour)
    gauge("tokwatch_passes_per_hour", "Measured passes (steps) per hour.", rate.passes_per_hour)
    gauge("tokwatch_last_pass_timestamp_seconds", "Unix time of the latest pass.", rate.last_pass_at)
    gauge("tokwatch_layer", "The miner's layer.", snap.layer)
    gauge("tokwatch_queue_position", "Position in the registration queue.", queue.position if queue else None)
    gauge("tokwatch_network_bytes_per_second", "Network throughput the miner reports.",
          network.bytes_per_second if network else None)
    gauge("tokwatch_usual_tokens_per_hour", "The usual tokens per hour at this time (from the history).",
          usual.tokens_per_hour if usual else None)
    gauge("tokwatch_today_tokens", "Tokens counted today (local day), from the history.",
          today.tokens if today else None)
    gauge("tokwatch_state_since_timestamp_seconds", "Unix time the current state began.", snap.state_since)
    gauge("tokwatch_log_last_event_timestamp_seconds", "Unix time of the newest log line with a time.",
          snap.source.last_event_at)
    gauge("tokwatch_gpu_memory_used_bytes", "GPU memory in use, as the log reports it.",
          _scaled(gpu.used_gb if gpu else None, 1e9))
    gauge("tokwatch_gpu_memory_total_bytes", "GPU memory in total, as the log reports it.",
          _scaled(gpu.total_gb if gpu else None, 1e9))

    state = snap.state
    states = families.gauge("tokwatch_state", "1 for the current state, 0 for the others.", ["state"])
    names = STATES if state in STATES else (*STATES, state)
    for name in names:
        states.add_metric([*base, name], 1.0 if name == state else 0.0)
    run_id = snap.run.id if snap.run is not None else None
    if run_id:
        families.gauge("tokwatch_run_info", "The run the miner is in (the value is always 1).",
                       ["run_id"]).add_metric([*base, run_id], 1.0)

    if snap.training is not None:
        _add_training(gauge, snap.training, snap.as_of)


def _scaled(value: Figure, factor: float) -> float | None:
    return None if value is None else value * factor


def _add_training(gauge: Callable[[str, str, Figure], None], training: TrainingView, as_of: float) -> None:
    """A step trainer's figures (numbers finite or None)."""
    gauge("tokwatch_train_step", "The trainer's latest optimizer step.", training.step)
    gauge("tokwatch_train_total_steps", "The steps the trainer plans in all.", training.total_steps)
    gauge("tokwatch_train_loss", "The latest training loss, as the trainer prints it.", training.loss)
    # tokwatch's own measure covers the whole run; a trainer's tok/s may be per GPU.
    per_hour = training.tokens_per_hour
    per_second = per_hour / 3600 if per_hour is not None else None
    if per_second is None and training.tokens_per_second_scope is None:
        per_second = training.tokens_per_second
    gauge("tokwatch_train_tokens_per_second", "Tokens per second over the whole run.", per_second)
    gauge("tokwatch_train_mfu_ratio", "Model FLOPs utilisation as a ratio (the trainer prints percent).",
          _scaled(training.mfu, 0.01))
    since = training.seconds_since_step
    if since is not None:
        gauge("tokwatch_train_last_step_timestamp_seconds", "Unix time of the latest step.", as_of - since)
    gauge("tokwatch_train_eta_seconds", "Seconds left to the last step, by tokwatch's measure.", training.eta_seconds)
    gauge("tokwatch_train_loss_spikes", "Times the logged loss spiked above its recent level (spikes.py).",
          training.loss_spikes)


class SnapshotCollector(Collector):
    """A prometheus_client collector over snapshots, asked afresh at every scrape."""

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
