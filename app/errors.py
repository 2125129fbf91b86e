"""The error a command ends with when it cannot do its job: one line, exit status 1, no traceback.

Each room's own error (a port in use, an unwritable token file, a machine enrolled twice, a unit
file not written) is one of these, so the command line catches them all without importing the
rooms: ``tokwatch once`` starts without loading the web server.
"""

from __future__ import annotations


class CommandError(Exception):
    """A command could not do its job; the message says why, in one line."""
