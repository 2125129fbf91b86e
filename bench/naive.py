"""The naive baseline: every regex of the format research tried on every line.

This is the parser one writes first (``research/iota-log-format.md`` §5, "Suggested regexes"):
match the record prefix, then run each message pattern over the line whether or not it could
match. tokwatch's parser is measured against it; it shares the same input and does no tracker work.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

PREFIX = re.compile(r"^\[[^\]]+\] \[\w+\]\s+")
RECORD = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) \| \s*(\w+)\s*\| ([\w.]+):(\w+):(\d+) - (.*)$")
MESSAGE_PATTERNS = tuple(
    re.compile(p)
    for p in (
        r"\blayer=(\d+) activation=(\S+)",
        r"for layer (\d+) \| Processing activation (\S+)",
        r"^(?:Starting FORWARD pass|🚀 Starting FORWARD pass)|^Forward pass for activation (\S+) on layer (\d+)",
        r"^🔄 (?:BACKWARD pass|Starting BACKWARD pass)",
        r"torch\.Size\(\[(\d+), (\d+)(?:, (\d+))?\]\)",
        r"[Oo]ptimization step #(\d+)",
        r"GPU memory usage: ([\d.]+)GB / ([\d.]+)GB -- (.*)",
        r"(?:💾 GPU memory: |High GPU memory usage detected: )([\d.]+)GB",
        r"Successfully completed request(?: to (\S+))?; response: (.*)",
        r"'run_id': '([^']+)', 'layer': (\d+), 'epoch': (\d+), 'phase': '(\w+)'",
        r"'status': '(\w+)', 'position': (\d+)",
        r"Error making orchestrator request to endpoint (\S+): (\d{3}) - (.*)",
        r"register_set_queue_state exhausted retries \((\d+)\): POST /register/queue_state failed (\d{3}): (.*)",
        r"registered successfully in layer (\d+) on training epoch (\d+)",
        r"is new to layer (\d+) \(old: run=(\S+), layer=(\S+)\)",
        r"is in state: (?:LayerPhase\.)?(\w+)",
    )
)


def naive_parse(lines: Iterable[str]) -> int:
    """Match every pattern against every line; return the number of matches (so nothing is skipped)."""
    matched = 0
    prefix = PREFIX
    record = RECORD
    patterns = MESSAGE_PATTERNS
    for line in lines:
        body = prefix.sub("", line, count=1)
        if record.match(body) is not None:
            matched += 1
        for pattern in patterns:
            if pattern.search(body) is not None:
                matched += 1
    return matched
