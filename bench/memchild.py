"""The process whose memory figure 6 reads: the real pipeline (Tailer → Monitor) on one log.

Run as ``python -m bench.memchild LOG``. It follows LOG and answers each line on stdin with one
JSON line: lines read, bytes followed and the status line. The parent reads RSS from /proc.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    from app.live.monitor import Monitor

    logging.basicConfig(level=logging.ERROR)
    monitor = Monitor(Path(argv[0]))
    monitor.start()
    try:
        print(json.dumps({"ready": True}), flush=True)
        for _ in sys.stdin:
            snap = monitor.snapshot()
            print(
                json.dumps(
                    {
                        "lines_read": snap.source.lines_read,
                        "size_bytes": snap.source.size_bytes,
                        "status_line": snap.status_line,
                        "passes": snap.warmup.passes,
                        "problem": snap.source.problem,
                    }
                ),
                flush=True,
            )
    finally:
        monitor.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
