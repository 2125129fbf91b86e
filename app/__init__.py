"""tokwatch: a small, fast local dashboard for training logs.

The packages follow the data: ``ingest`` (log bytes → lines → events), ``stats`` (events →
figures, one tracker per kind of log), ``snapshot`` (the one serializer), ``web`` (HTTP,
websocket); ``serve`` runs the process; ``cli`` is the command line.
"""

__version__ = "0.1.0"
