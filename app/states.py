"""What each state is called on the page and what it means: the words the page and alert messages share."""

from __future__ import annotations

# The short word the page shows for each state.
STATE_WORDS = {
    "waiting": "waiting",
    "queued": "queued",
    "processing": "processing",
    "confirmed": "confirmed",
    "registering": "registering",
    "failed": "registration failed",
    "initializing": "initializing",
    "working": "working",
    "measuring": "measuring",
    "training": "training",
    "evaluating": "evaluating",
    "done": "done",
    "idle": "idle",
    "stalled": "stalled",
    "silent": "log silent",
    "diverged": "diverged",
    "crashed": "crashed",
    "stopped": "stopped",
    "broken": "broken",
    "joining": "joining",
    "cannot_join": "cannot join",
    "averaging": "averaging",
    "out_of_sync": "out of sync",
    "sync_failing": "cannot sync",
    "alone": "alone",
    "unrecognised": "not recognised",
}

# A run that is over: its log has nothing more to say, so a log gone quiet is no news (the page says
# when its last line was written, not that no new one came).
OVER_STATES = frozenset({"done", "crashed", "stopped"})
# The states in which the run is doing what it should (a heartbeat pings only in these).
HEALTHY_STATES = frozenset({"training", "measuring", "evaluating"})

# What a state means and what to do about it, said once; "" where the figures say it all.
STATE_EXPLANATIONS = {
    "waiting": "Nothing read from the log yet; the figures appear with its first line.",
    "queued": "In the registration queue: the miner waits for a place before it trains. "
    "A few 503 queue_state errors are expected meanwhile; restarting the app sends it to the back.",
    "processing": "Out of the queue: the orchestrator is processing the registration. A layer "
    "assignment follows; nothing to do but wait (a restart now sends the miner to the back).",
    "confirmed": "The registration is confirmed: the miner waits for its layer assignment.",
    "registering": "The orchestrator answered the registration with a status tokwatch does not know; "
    "it is shown as written.",
    "failed": "The orchestrator answered that the registration failed: the miner is not training. "
    "It usually joins the queue again by itself; if it does not, restart the app.",
    "initializing": "The orchestrator says this miner is initializing and gives it no work. A minute after "
    "a start is normal; past 15 minutes it is a warning (miners have reported hours).",
    "working": "The log is active, but has not said yet which layer this miner trains.",
    "measuring": "",
    "training": "",
    "evaluating": "The run is evaluating: its last lines are an evaluation's pass under way (its batches so far, or "
    "its start), no result printed yet. Training goes on after it; a pass that takes far longer than the run's usual "
    "pace is called stalled.",
    "done": "The run has finished.",
    "idle": "The log is still being written, but no pass has completed for a while: the miner "
    "gets no work (its heartbeats can go on like this for hours).",
    "stalled": "No training step for longer than this run's pace allows.",
    "silent": "No new line in the log for minutes: the miner or the app may have stopped, "
    "or the computer gone to sleep.",
    "diverged": "The loss is not a number: the run has probably diverged.",
    "crashed": "The run died: the log shows an error it did not recover from (its last line is "
    "in the details). A training step printed later means it was started again.",
    "stopped": "Someone stopped the run before its end: Ctrl-C (a KeyboardInterrupt), or a signal or scheduler "
    "that ends it on purpose (SIGTERM, a cancelled job, its time limit). It did not die of an error; the details "
    "say where it stood. A training step printed later means it was started again.",
    "broken": "The run still prints numbers but learns nothing: the gradient norm is not a number, "
    "the loss sits at exactly 0, or fp16 skips every step, several logs in a row.",
    "joining": "A collaborator joining its swarm: its attempts to reach the DHT have failed so far "
    "(the details say why: a clock out of step, a closed port).",
    "cannot_join": "The collaborator cannot join its swarm: its attempts to reach the DHT keep failing, "
    "no peer reached. The details give the cause; it trains nothing meanwhile.",
    "averaging": "Training is paused on purpose: the peers average what they learned (an all-reduce round).",
    "out_of_sync": "The collaborator is behind its swarm and loads the current state from a peer before it trains on.",
    "sync_failing": "The collaborator is behind its swarm and its state downloads keep failing: it retries, "
    "and trains nothing meanwhile.",
    "alone": "No other peer to average with: it trains, but alone (its work joins the swarm's only once peers come).",
    "unrecognised": "The log is read, but its lines look like no format tokwatch knows.",
}
