"""Runs side by side: a log's runs (each stage or restart), a resume stitched to what it resumed,
and two or more runs' losses and evaluations on one axis with each one's final and best figures.

``runs.py`` is pure (points in file order in, runs out); ``files.py`` reads another log file into
runs through the same parsers as the live view; ``view.py`` puts runs on one axis for
``/api/compare`` and ``tokwatch once --compare``. The history's runs are read by
``app/store/runs.py``.
"""
