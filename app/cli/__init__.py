"""tokwatch's command line: flags → one frozen Config → the pipeline and the servers."""

from .main import main

__all__ = ["main"]
