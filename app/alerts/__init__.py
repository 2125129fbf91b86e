"""Alerts: rules over the snapshot (pure), delivery through Apprise, a dead-man heartbeat."""

from ..config.alerts import AlertSettings, SettingsError, settings_from_table
from .book import AlertBook, Transition
from .delivery import Delivery, try_each
from .heartbeat import Heartbeat
from .message import Message, compose
from .service import AlertService, alert_service, describe_alerts

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
