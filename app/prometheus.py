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

from .snapshot import Snapshot, SwarmView, TrainingView

# Every state a snapshot can be in; each gets a series (1 for the current, 0 for the others) so
# `tokwatch_state{state="idle"} == 1` works as an alert without knowing the other names.
STATES: tuple[str, ...] = (
    "waiting", "queued", "processing", "confirmed", "registering", "failed", "initializing", "working", "measuring",
    "training", "evaluating", "stalled", "unrecognised",
    "idle", "silent", "done", "diverged", "crashed", "stopped", "broken",
    "joining", "cannot_join", "averaging", "out_of_sync", "sync_failing", "alone",
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
    # The queue entry's forensics, while waiting to be placed (absent otherwise).
    gauge("tokwatch_queue_trend_positions_per_hour", "Queue positions per hour towards the front (10 min).",
          queue.trend_per_hour if queue else None)
    gauge("tokwatch_queue_resets_24h", "Queue resets to the back over the last 24 h.", queue.resets_24h if queue else None)
    gauge("tokwatch_queue_resets_7d", "Queue resets to the back over the last 7 days.", queue.resets_7d if queue else None)
    gauge("tokwatch_queue_best_position", "The best position this queue entry reached.",
          queue.best_position if queue else None)
    gauge("tokwatch_queue_positions_lost", "Positions this queue entry gave back to resets.",
          queue.positions_lost if queue else None)
    gauge("tokwatch_queue_since_timestamp_seconds", "Unix time this queue entry began (its first poll).",
          queue.since if queue else None)
    gauge("tokwatch_queue_growing_since_timestamp_seconds",
          "Unix time the queue position began to only grow (no fall, no reset); absent when it is not growing.",
          queue.growing_since if queue else None)
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

    delivery = snap.delivery
    if delivery is not None:
        gauge("tokwatch_forwards_undelivered", "Forward activations not delivered (failed or peer unreachable) in 10 min.",
              delivery.failed + delivery.unreachable)
        gauge("tokwatch_forwards_undelivered_ratio", "Share of the forwards of the last 10 min not delivered (0-1).",
              delivery.share_not_delivered)
        gauge("tokwatch_peers_ok", "Peers that answered the last broadcast (Broadcast peer status: N/M ok).",
              delivery.peers_ok)
        gauge("tokwatch_peers", "Peers the last broadcast went to.", delivery.peers_total)

    hardware = snap.hardware
    if hardware is not None:
        gauge("tokwatch_power_watts", "Power the machine's tool reads (nvidia-smi: the GPUs; macmon: the system).",
              hardware.watts)
        gauge("tokwatch_temperature_celsius", "The hottest temperature the tool reads.", hardware.temperature_c)
        gauge("tokwatch_throttled", "1 while the GPU is throttled (nvidia-smi), 0 when not; absent when unknown.",
              None if hardware.throttled is None else float(hardware.throttled))
        gauge("tokwatch_wh_per_million_tokens", "Watt-hours per million tokens over the rate's window.",
              hardware.wh_per_million_tokens)
        gauge("tokwatch_wh_per_step", "Watt-hours per step over the rate's window (step trainers).", hardware.wh_per_step)

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
        swarm = snap.training.swarm
        if swarm is not None:
            _add_swarm(gauge, counter, swarm)


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
    gauge("tokwatch_train_loss_rising", "1 while the logged loss keeps rising, still a number (rising.py), else 0.",
          None if training.loss_spikes is None else float(training.loss_rising is not None))


def _add_swarm(gauge: Callable[[str, str, Figure], None], counter: Callable[[str, str, Figure], None],
               swarm: SwarmView) -> None:
    """A collaborator's rounds and peers, aggregated: no series per peer (their number is unbounded)."""
    counter("tokwatch_swarm_rounds_ok", "Averaging rounds that succeeded since tokwatch began reading the log.",
            swarm.rounds_ok)
    counter("tokwatch_swarm_rounds_failed", "Averaging rounds that failed since tokwatch began reading the log.",
            swarm.rounds_failed)
    gauge("tokwatch_swarm_last_good_round_timestamp_seconds", "Unix time the last good averaging round ended.",
          swarm.last_good_round_at)
    gauge("tokwatch_swarm_averaging_ratio", "Share of the last hour spent averaging (training paused).",
          swarm.averaging_share_last_hour)
    ended = next((r for r in swarm.rounds if r.outcome != "running"), None)
    gauge("tokwatch_swarm_group_peers", "Peers in the last round's group.", ended.peers if ended else None)
    gauge("tokwatch_swarm_peers_known", "Peers met in the rounds (tokwatch keeps at most 256).", swarm.peers_known)
    gauge("tokwatch_swarm_peers_banned", "Peers banned in the rounds, of those shown.",
          sum(1 for p in swarm.peers if p.banned))
    gauge("tokwatch_swarm_join_failures", "Failed attempts to join the DHT in a row.", swarm.join_failures)
    gauge("tokwatch_swarm_state_download_failures", "Failed state downloads in a row.", swarm.download_failures)
    gauge("tokwatch_swarm_samples_per_second", "The collaboration's samples a second, from its progress lines.",
          swarm.samples_per_second)


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
