"""A stand-in import child that is killed while writing its second batch (the OOM killer's way)."""

from __future__ import annotations

import os
import signal
import sys

if __name__ == "__main__":
    sys.stdin.read()
    sys.stdout.write('{"kind":"steps","samples":[],"passes":[],"events":[],"imported":[]}\n{"kind":"steps","samp')
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)
