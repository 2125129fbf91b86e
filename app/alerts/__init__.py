"""Alerts: rules over the snapshot (pure), delivery through Apprise, a dead-man heartbeat."""

from app.alerts.book import AlertBook, Transition
from app.alerts.delivery import Delivery, try_each
from app.alerts.heartbeat import Heartbeat
from app.alerts.message import Message, compose
from app.alerts.service import AlertService, alert_service, describe_alerts
from app.alerts.settings import AlertSettings, SettingsError, settings_from_table

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
