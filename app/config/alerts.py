"""What the alert rules watch for, how long a condition must hold, and how often a rule may speak.

Defaults are the documented ones; the config file's ``[alerts]`` table tunes them
(:func:`settings_from_table`). Pure: no file access here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

MINUTE = 60.0


class SettingsError(ValueError):
    """A config value the alerts cannot use, named with its key."""


@dataclass(frozen=True, slots=True)
class RuleSettings:
    """One rule: on or off, and how long its condition must hold before it speaks."""

    enabled: bool = True
    hold_seconds: float = 0.0
    # slow: the fraction of the usual rate below which the miner is slow
    below_fraction: float = 0.6
    # backend_errors: this many errors within window_seconds make a burst
    errors: int = 20
    window_seconds: float = 10 * MINUTE


# Every rule, in the order its alerts are listed. Conditions open and resolve; events are one-off.
DEFAULT_RULES: dict[str, RuleSettings] = {
    "silent": RuleSettings(hold_seconds=10 * MINUTE),
    "idle": RuleSettings(hold_seconds=10 * MINUTE),
    "queued": RuleSettings(hold_seconds=1 * MINUTE),
    "queue_reset": RuleSettings(),
    # A rising queue is movement, not a reset: said once when it has only grown for 40 min.
    "queue_growing": RuleSettings(hold_seconds=40 * MINUTE),
    "queue_restart": RuleSettings(),
    "registration_failed": RuleSettings(),
    "initializing": RuleSettings(hold_seconds=15 * MINUTE),
    "slow": RuleSettings(hold_seconds=30 * MINUTE),
    "backend_errors": RuleSettings(),
    # Forwards not delivered (the community watchdog's yellow/red, app/stats/iota/delivery.py).
    "undelivered": RuleSettings(hold_seconds=5 * MINUTE),
    "layer_change": RuleSettings(),
    "stalled": RuleSettings(),
    "diverged": RuleSettings(),
    "crashed": RuleSettings(),
    "stopped": RuleSettings(),
    "broken": RuleSettings(),
    "done": RuleSettings(),
    # a collaborator's swarm (SN38, hivemind): a peer that restarts loads the state for a minute or two, a
    # first peer waits a while for others, a round fails now and then
    "cannot_join": RuleSettings(),
    "sync_failing": RuleSettings(),
    "out_of_sync": RuleSettings(hold_seconds=10 * MINUTE),
    "alone": RuleSettings(hold_seconds=30 * MINUTE),
    "no_good_round": RuleSettings(hold_seconds=60 * MINUTE),
    "eval": RuleSettings(enabled=False),
    "spike": RuleSettings(enabled=False),
    # The hub's: a machine that missed three reports (that wait is its hold).
    "offline": RuleSettings(),
}

# Keys a rule's table may carry beyond enabled / hold_minutes.
_RULE_EXTRAS: dict[str, tuple[str, ...]] = {
    "slow": ("below_percent",),
    "backend_errors": ("errors", "window_minutes"),
}


@dataclass(frozen=True, slots=True)
class AlertSettings:
    """All rules, the flap limit and the start-up grace."""

    rules: Mapping[str, RuleSettings] = field(default_factory=lambda: dict(DEFAULT_RULES))
    # A rule opens at most one alert (or sends one event) per this many seconds.
    reopen_seconds: float = 10 * MINUTE
    # A condition already true when tokwatch starts, whose start the snapshot does not say,
    # is announced after this long rather than after its full hold time.
    startup_grace_seconds: float = 45.0

    def rule(self, name: str) -> RuleSettings:
        """The settings of rule ``name`` (a known rule)."""
        return self.rules[name]


def _number(table: Mapping[str, Any], key: str, where: str, *, low: float, high: float) -> float | None:
    if key not in table:
        return None
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise SettingsError(f"{where}.{key} must be a number from {low:g} to {high:g}, not {value!r}")
    return float(value)


def _rule_from_table(name: str, table: Any, base: RuleSettings) -> RuleSettings:
    where = f"alerts.rules.{name}"
    if not isinstance(table, Mapping):
        raise SettingsError(f"{where} must be a table, like [{where}]")
    allowed = {"enabled", "hold_minutes", *_RULE_EXTRAS.get(name, ())}
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise SettingsError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})")
    rule = base
    if "enabled" in table:
        if not isinstance(table["enabled"], bool):
            raise SettingsError(f"{where}.enabled must be true or false, not {table['enabled']!r}")
        rule = replace(rule, enabled=table["enabled"])
    hold = _number(table, "hold_minutes", where, low=0, high=7 * 24 * 60)
    if hold is not None:
        rule = replace(rule, hold_seconds=hold * MINUTE)
    below = _number(table, "below_percent", where, low=1, high=100)
    if below is not None:
        rule = replace(rule, below_fraction=below / 100)
    errors = _number(table, "errors", where, low=1, high=1_000_000)
    if errors is not None:
        rule = replace(rule, errors=int(errors))
    window = _number(table, "window_minutes", where, low=1, high=60)
    if window is not None:
        rule = replace(rule, window_seconds=window * MINUTE)
    return rule


def settings_from_table(table: Mapping[str, Any]) -> AlertSettings:
    """Build the settings from the config file's ``[alerts]`` table (notify URLs are read elsewhere)."""
    settings = AlertSettings()
    rules = dict(settings.rules)
    raw_rules = table.get("rules", {})
    if not isinstance(raw_rules, Mapping):
        raise SettingsError("alerts.rules must be a table of rules, like [alerts.rules.idle]")
    for name, rule_table in raw_rules.items():
        if name not in rules:
            raise SettingsError(f"alerts.rules: unknown rule {name!r} (known: {', '.join(DEFAULT_RULES)})")
        rules[name] = _rule_from_table(name, rule_table, rules[name])
    settings = replace(settings, rules=rules)
    reopen = _number(table, "reopen_minutes", "alerts", low=0, high=24 * 60)
    if reopen is not None:
        settings = replace(settings, reopen_seconds=reopen * MINUTE)
    return settings
