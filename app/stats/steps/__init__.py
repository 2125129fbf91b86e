"""The step trainers' tracker, in parts: timing (undated lines placed in time), stage (what
is kept), progress (events applied), rules (stall, pause, ETA), text and payload (what is shown)."""
