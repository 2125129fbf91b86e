#!/usr/bin/env python3
"""tokwatch from a checkout: ``python run.py …`` is the ``tokwatch`` command (app/cli/)."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
