"""A log judged at its end (``once --at end``) is judged at its last dated line, not at its file's time.

A log copied from another machine has the copy's modification time: the undated lines after its last dated
one (a crash's traceback) are placed at that line's time, so the time since the last step is the log's own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Composed: three dated step records 10 s apart, a dated shutdown warning 30 s after the last step, then the
# traceback (undated); the file's time half a year later, as a copy's.
LOG = """\
2025-03-02 10:00:00,000 INFO train.py:50: step 10/100 | loss 2.500 | lr 1.0e-04
2025-03-02 10:00:10,000 INFO train.py:50: step 20/100 | loss 2.400 | lr 1.0e-04
2025-03-02 10:00:20,000 INFO train.py:50: step 30/100 | loss 2.300 | lr 1.0e-04
2025-03-02 10:00:50,000 WARNING launcher.py:12: Received SIGTERM, shutting down workers
Traceback (most recent call last):
  File "train.py", line 90, in <module>
    main()
KeyboardInterrupt
"""


def test_the_time_since_the_last_step_is_measured_to_the_last_dated_line(tmp_path: Path) -> None:
    log = tmp_path / "copied.log"
    log.write_text(LOG)
    copied_at = 1756684800.0  # 2025-09-01
    os.utime(log, (copied_at, copied_at))
    done = subprocess.run([sys.executable, str(ROOT / "run.py"), "once", "--json", "--at", "end", "--no-history",
                           "--log", str(log)], capture_output=True, text=True, check=True, cwd=ROOT,
                          env={**os.environ, "TZ": "UTC"})
    body = json.loads(done.stdout)
    assert body["training"]["step"] == 30
    assert body["training"]["seconds_since_step"] == 30.0  # 10:00:20 -> 10:00:50, by hand
    assert body["as_of"] < copied_at
