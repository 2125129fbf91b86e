"""From events to figures: the event vocabulary and one pure tracker per kind of log.

``iota`` tracks the IOTA miner, ``steps`` the step-based trainers; the monitor picks one by
format (``tracker_for``) and no tracker imports another. What they share is here: the
``Tracker`` protocol and the measuring rules (``tracker``), the log's own clock (``clock``),
the tok/h history (``history``) and the sliding window. Figures become words in app/text.py.
"""
