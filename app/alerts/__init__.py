"""Alerts: rules over the snapshot (pure), delivery through Apprise, a dead-man heartbeat.

Delivery (and Apprise's plugin code under it) loads when a notification URL is configured, the
heartbeat (and urllib's client under it) when a heartbeat URL is, or either when its name is
first asked for here: a dashboard that notifies nobody never holds them.
"""

from typing import TYPE_CHECKING, Any

from ..config.alerts import AlertSettings, SettingsError, settings_from_table
from .book import AlertBook, Transition
from .message import Message, compose
from .service import AlertService, alert_service, describe_alerts

if TYPE_CHECKING:
    from .delivery import Delivery, try_each
    from .heartbeat import Heartbeat

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
    """``Delivery``, ``try_each`` and ``Heartbeat``, loaded on first use."""
    if name in ("Delivery", "try_each"):
        from . import delivery

        return getattr(delivery, name)
    if name == "Heartbeat":
        from . import heartbeat

        return heartbeat.Heartbeat
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

