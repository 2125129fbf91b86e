"""The miner's delivery lines: the community watchdog's substrings (iota-2026.md §c.2) in composed lines."""

from __future__ import annotations

import pytest

from app.ingest.formats.iota import IotaParser
from app.stats.events import ForwardUndelivered, PeerStatus, RequestRetry

PREFIX = "[2026-09-30 10:22:00.000] [info]  2026-09-30 10:22:00.000 | WARNING  | miner.new_miner:_push:1412 - "


@pytest.mark.parametrize(
    ("message", "event"),
    [
        ("Failed to send forward activation act-1 to peer 12D3KooWQx9fAb7TzK: connect timeout after 5s",
         ForwardUndelivered(0, "failed", "…Ab7TzK")),
        ("Peer unreachable for forward activation act-1 (peer=12D3KooWLm3sVc8PqD)",
         ForwardUndelivered(0, "unreachable", "…Vc8PqD")),
        ("Failed to send forward activation act-1: connect timeout after 5s", ForwardUndelivered(0, "failed", None)),
        ("Broadcast peer status: 5/9 ok", PeerStatus(0, 5, 9)),
        ("Broadcast peer status:7/7 ok (2 slow)", PeerStatus(0, 7, 7)),
        ("Retrying request to endpoint /miner/submit_activation (attempt 3)", RequestRetry(0, "/miner/submit_activation")),
        ("Retrying request to endpoint /miner/heartbeat?expected_phase=training (attempt 2)",
         RequestRetry(0, "/miner/heartbeat")),
    ],
)
def test_each_delivery_line_is_one_event(message: str, event: object) -> None:
    parser = IotaParser(to_epoch=lambda *_: 0.0)
    events = [e for e in parser.feed([PREFIX + message]) if type(e) is type(event)]
    assert [e.__class__(0, *[getattr(e, f) for f in e.__slots__[1:]]) for e in events] == [event]  # type: ignore[attr-defined]
    assert parser.bad_lines == 0


def test_a_peer_status_that_cannot_be_is_a_bad_line() -> None:
    parser = IotaParser(to_epoch=lambda *_: 0.0)
    assert not [e for e in parser.feed([PREFIX + "Broadcast peer status: 9/5 ok"]) if isinstance(e, PeerStatus)]
    assert parser.bad_lines == 1
