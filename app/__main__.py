"""``python -m tokwatch``: the same command as ``tokwatch``."""

import sys

from .cli import main

sys.exit(main())
