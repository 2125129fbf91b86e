"""tokwatch: a small, fast local dashboard for training logs."""
