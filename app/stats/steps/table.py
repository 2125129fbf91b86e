"""Every field of a step trainer's ``training`` object as rows a person reads: label, value, unit.

The page's "All training fields" shows these rows as they are; it never formats a figure.
Figures keep the precision the trainer printed, up to six significant digits.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...snapshot import FieldRow, TrainingView, training_dict
from ...text import close_duration

# key → (label, unit); keys not here are shown under their own name, without a unit.
_FIELDS: dict[str, tuple[str, str]] = {
    "stage": ("stage", ""),
    "step": ("step", ""),
    "total_steps": ("total steps", ""),
    "outer_step": ("outer step", ""),
    "logged_records": ("logged records", ""),  # dicts logged every N steps: the log prints no step number
    "progress_percent": ("progress", "%"),
    "loss": ("loss", ""),
    "lr": ("learning rate", ""),
    "lr_multiplier": ("learning-rate multiplier", "×"),
    "grad_norm": ("gradient norm", ""),
    "step_seconds": ("step time", "s"),
    "tokens_per_second": ("throughput", "tok/s"),
    "mfu": ("MFU", "%"),
    "tokens_per_hour": ("tokens per hour", "tok/h"),
    "steps_per_hour": ("steps per hour", "steps/h"),
    "eta_seconds": ("time left (tokwatch)", ""),
    "trainer_eta_seconds": ("time left (trainer)", ""),
    "paused": ("paused for", ""),
    "seconds_since_step": ("since the last step", "s"),
    "stall_after_seconds": ("called stalled after", "s"),
    "stalled": ("stalled", ""),
    "finished": ("finished", ""),
    "broken": ("broken run", ""),
}
_DATA: dict[str, tuple[str, str]] = {
    "epoch": ("data epoch", ""),
    "parquet_index": ("data file (parquet index)", ""),
    "row_group": ("row group", ""),
    "row_groups_per_step": ("row groups per step", ""),
}
_ALL_REDUCE: dict[str, tuple[str, str]] = {
    "succeeded": ("all-reduce succeeded", ""),
    "failed": ("all-reduce failed", ""),
    "peers": ("peers in the last group", ""),
    "last_error": ("last all-reduce error", ""),
}
_COLLABORATION: dict[str, tuple[str, str]] = {
    "epoch": ("collaboration epoch", ""),
    "samples": ("collaboration samples", ""),
    "peers": ("collaboration peers", ""),
    "eta_seconds": ("next collaboration epoch in", "s"),
}
_ERRORS: dict[str, tuple[str, str]] = {
    "count": ("trainer errors", ""),
    "last_error": ("last trainer error", ""),
}
# A collaborator's swarm: its figures as rows (its rounds and peers have the page's own table and markers).
_SWARM: dict[str, tuple[str, str]] = {
    "join_failures": ("failed DHT joins in a row", ""),
    "join_cause": ("why it cannot join", ""),
    "download_failures": ("failed state downloads in a row", ""),
    "rounds_ok": ("rounds ok", ""),
    "rounds_failed": ("rounds failed", ""),
    "averaging_share_last_hour": ("share of the last hour averaging", ""),
    "samples_per_second": ("collaboration pace", "samples/s"),
    "local_samples_per_second": ("this peer's pace", "samples/s"),
    "peers_known": ("peers met in the rounds", ""),
}
_PARTS = {"data": _DATA, "all_reduce": _ALL_REDUCE, "collaboration": _COLLABORATION, "errors": _ERRORS,
          "swarm": _SWARM}
# A log whose lines are epochs: the fields that count steps count its epochs.
_EPOCH_LABELS = {"step": "epoch (a line each)", "total_steps": "total epochs", "step_seconds": "epoch time",
                 "steps_per_hour": "epochs per hour", "seconds_since_step": "since the last epoch"}
_EPOCH_UNITS = {"steps_per_hour": "epochs/h"}
# A log whose count is in a unit of its own, no step (an RL loop's ``Episode: 73``, a loop's ``[900/6034 images]``):
# its count, time and rate are that unit's, said by its word.
_COUNTER_LABELS = {"step": "{}", "total_steps": "total {}s", "step_seconds": "{} time",
                   "steps_per_hour": "{}s per hour", "seconds_since_step": "since the last {}"}
_COUNTER_UNITS = {"steps_per_hour": "{}s/h"}
# The step units that keep the steps' labels: a pass's count is where that pass is, its time still a step's.
_STEP_UNITS = frozenset({"epoch", "pass"})
# The chart's x, not a figure the log prints: the log's own count counted on where it restarts, from the log's
# first line (a log that starts mid-run, or counts samples, would show a step the run never had).
_CHART_ONLY = {"chart_x"}
# Notes that qualify another field: said beside it, not as rows of their own.
_NOTES = {"loss_note": "loss", "mfu_note": "mfu", "tokens_per_second_scope": "tokens_per_second", "step_said": "step",
          "step_seconds_note": "step_seconds"}
_DURATIONS = {"eta_seconds", "trainer_eta_seconds"}
# A trainer's own figure name's ending → its unit.
_SUFFIX_UNITS = (("_gib", "GiB"), ("_gb", "GB"), ("_percent", "%"), ("_seconds", "s"), ("tflops", "TFLOPS"))


def figure(value: Any) -> str:
    """A value as a person reads it: integers whole, other numbers to six significant digits."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 1e15 else f"{value:.6g}"
    return str(value)


def _own_name(key: str) -> tuple[str, str]:
    for suffix, unit in _SUFFIX_UNITS:
        if key.lower().endswith(suffix):
            label = key[: -len(suffix)] if suffix.startswith("_") else key
            return label.replace("_", " ").strip() or key, unit
    return key.replace("_", " "), ""


def _rows(training: dict[str, Any]) -> Iterator[FieldRow]:
    for key, value in training.items():
        if value is None or key in _NOTES or key in _CHART_ONLY or key == "step_unit":
            continue
        if key == "eval" and isinstance(value, dict):
            for name, result in value.items():
                if isinstance(result, dict) and result.get("value") is not None:
                    step = result.get("step")  # none beside a log of dicts: their count is no step
                    at = f" (step {figure(step)})" if step is not None else ""
                    yield FieldRow(f"eval {name}{at}", figure(result["value"]), "")
        elif key in _PARTS and isinstance(value, dict):
            names = _PARTS[key]
            for inner, inner_value in value.items():
                if key == "swarm" and inner_value == 0:
                    continue  # no failed join, no download failed: nothing to say
                if inner_value is not None and inner in names:  # (an error's time is the timeline's)
                    label, unit = names[inner]
                    yield FieldRow(label, figure(inner_value), unit)
        elif key == "crash" and isinstance(value, dict):
            yield FieldRow("crashed with", str(value.get("error")), "")
        elif key == "figures" and isinstance(value, dict):
            for name, inner_value in value.items():
                label, unit = _own_name(name)
                yield FieldRow(label, figure(inner_value), unit)
        else:
            label, unit = _FIELDS.get(key, _own_name(key))
            if training.get("step_unit") == "epoch" and key in _EPOCH_LABELS:
                label, unit = _EPOCH_LABELS[key], _EPOCH_UNITS.get(key, unit)
            elif (counter := training.get("step_unit")) not in (None, *_STEP_UNITS) and key in _COUNTER_LABELS:
                label, unit = _COUNTER_LABELS[key].format(counter), _COUNTER_UNITS.get(key, unit).format(counter)
            elif training.get("logged_steps") and key == "seconds_since_step":
                label = "since the last logged record"  # (a dict logged every N steps is no step)
            note = next((training.get(n) for n, target in _NOTES.items() if target == key), None)
            if key == "tokens_per_second" and note == "device":
                unit, note = "tok/s per GPU", None
            elif key == "tokens_per_second":
                note = None
            if note:
                label = f"{label} ({note})"
            text = close_duration(float(value)) if key in _DURATIONS else figure(value)
            yield FieldRow(label, text, "" if key in _DURATIONS else unit)


def training_table(training: TrainingView | None) -> tuple[FieldRow, ...]:
    """The rows of every known field, in the contract's order (as the JSON writes them); none for a miner's log."""
    if training is None:
        return ()
    return tuple(_rows(training_dict(training)))
