"""From log bytes to events: the tailer (the only code that touches the log file, on its own
thread) and ``formats``, one pure parser per log format plus detection."""
