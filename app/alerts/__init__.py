"""Alerts: rules over the snapshot (pure), delivery through Apprise, a dead-man heartbeat.

Delivery (and Apprise's plugin code under it) loads when a notification URL is configured, or
when its name is first asked for here: a dashboard that notifies nobody never holds it.
"""

from typing import TYPE_CHECKING, Any

from ..config.alerts import AlertSettings, SettingsError, settings_from_table
from .book import AlertBook, Transition
from .heartbeat import Heartbeat
from .message import Message, compose
from .service import AlertService, alert_service, describe_alerts

if TYPE_CHECKING:
    from .delivery import Delivery, try_each

__all__ = [
    "AlertBook",
    "AlertService",
    "AlertSettings",
    "Delivery",
    "Heartbeat",
    "Message",
    "SettingsError",
    "Transition",
    "alert_service",
    "compose",
    "describe_alerts",
    "settings_from_table",
    "try_each",
]


def __getattr__(name: str) -> Any:
    """``Delivery`` and ``try_each``, loaded on first use."""
    if name in ("Delivery", "try_each"):
        from . import delivery

        return getattr(delivery, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

