"""The history file's schema, by version, and the migrations between versions.

``PRAGMA user_version`` holds the version. A file newer than this code knows is never
touched (a downgrade must not destroy what a newer tokwatch wrote).
"""

from __future__ import annotations

import sqlite3

from .losses import build_levels

# Version 1: the miner's history (samples, passes, rollups, the timeline).
_V1 = """
CREATE TABLE source (
    id INTEGER PRIMARY KEY,
    machine TEXT NOT NULL,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    first_at REAL,
    UNIQUE (machine, key)
);
-- One row per source and 30-s boundary of log time: the rate and the state at that instant.
CREATE TABLE sample (
    source_id INTEGER NOT NULL,
    t INTEGER NOT NULL,
    tokens_per_hour REAL,
    state TEXT,
    layer INTEGER,
    tokens_per_pass INTEGER,
    queue_position INTEGER,
    step INTEGER,
    PRIMARY KEY (source_id, t)
) WITHOUT ROWID;
-- A pass is keyed by its activation id, so a log read twice never counts it twice.
CREATE TABLE pass (
    source_id INTEGER NOT NULL,
    activation_id TEXT NOT NULL,
    t REAL NOT NULL,
    tokens INTEGER,
    PRIMARY KEY (source_id, activation_id)
) WITHOUT ROWID;
CREATE INDEX pass_by_time ON pass (source_id, t);
-- Buckets of `span` seconds (300, 3600, 86400) starting at t; each recomputed from the tier below.
CREATE TABLE rollup (
    source_id INTEGER NOT NULL,
    span INTEGER NOT NULL,
    t INTEGER NOT NULL,
    samples INTEGER NOT NULL,
    measured INTEGER NOT NULL,
    training INTEGER NOT NULL,
    tph_min REAL,
    tph_max REAL,
    tph_sum REAL,
    passes INTEGER NOT NULL,
    tokens REAL NOT NULL,
    layer INTEGER,
    tokens_per_pass INTEGER,
    queue_min INTEGER,
    queue_max INTEGER,
    step_max INTEGER,
    PRIMARY KEY (source_id, span, t)
) WITHOUT ROWID;
CREATE TABLE event (
    source_id INTEGER NOT NULL,
    at REAL NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (source_id, at, kind)
) WITHOUT ROWID;
CREATE TABLE imported (
    path TEXT PRIMARY KEY,
    size_bytes INTEGER NOT NULL,
    head TEXT NOT NULL
);
"""

# Version 2: step-trainer runs (a point per step seen, evaluation figures per step).
_V2 = """
CREATE TABLE step (
    source_id INTEGER NOT NULL,
    stage TEXT NOT NULL,
    step INTEGER NOT NULL,
    at REAL NOT NULL,
    loss REAL,
    tokens_per_hour REAL,
    steps_per_hour REAL,
    PRIMARY KEY (source_id, stage, step)
) WITHOUT ROWID;
CREATE TABLE eval (
    source_id INTEGER NOT NULL,
    stage TEXT NOT NULL,
    name TEXT NOT NULL,
    step INTEGER NOT NULL,
    at REAL NOT NULL,
    value REAL,
    PRIMARY KEY (source_id, stage, name, step)
) WITHOUT ROWID;
"""

# Version 3: how far back each tier has been pruned, so only data older than that is refused
# (a first import writes old days that no tier has pruned yet).
_V3 = """
CREATE TABLE pruned (
    tier INTEGER PRIMARY KEY,
    before REAL NOT NULL
);
"""

# Version 4: a source's machine is tokwatch's name for this machine (``--name``, as alerts and
# the fleet say it), no longer the host name as the OS spells it. The names this data dir's
# history was kept under are remembered: a source kept under one of them is this machine's own
# and takes the current name at its next write (app/store/write.py). Up to version 3 every name
# in the file was the host name of the machine that wrote it: all of them are this machine's.
_V4 = """
CREATE TABLE local_machine (
    name TEXT PRIMARY KEY
);
INSERT OR IGNORE INTO local_machine SELECT DISTINCT machine FROM source;
"""

# Version 5: every loss a step trainer logged (not only the 30-s points of ``step``) with the
# learning rate beside it, and the lowest and highest of each 64 steps, so a million-step run's chart reads a few thousand rows.
# A loss that was not a number is kept as infinity (SQLite would store NaN as NULL).
_V5 = """
CREATE TABLE loss (
    source_id INTEGER NOT NULL,
    stage TEXT NOT NULL,
    step INTEGER NOT NULL,
    at REAL NOT NULL,
    value REAL NOT NULL,
    lr REAL,
    PRIMARY KEY (source_id, stage, step)
) WITHOUT ROWID;
CREATE TABLE loss_bucket (
    source_id INTEGER NOT NULL,
    stage TEXT NOT NULL,
    bucket INTEGER NOT NULL,
    first_at REAL NOT NULL,
    last_at REAL NOT NULL,
    n INTEGER NOT NULL,
    low_step INTEGER,
    low REAL,
    high_step INTEGER,
    high REAL,
    not_finite_step INTEGER,
    last_lr_step INTEGER,
    last_lr REAL,
    PRIMARY KEY (source_id, stage, bucket)
) WITHOUT ROWID;
"""

# Version 6: the losses' coarser levels (each bucket four of the level below, app/store/losses.py),
# made from the 64-step buckets a file already has; and the step points by time, for the latest stage.
_V6 = """
CREATE TABLE loss_level (
    source_id INTEGER NOT NULL,
    stage TEXT NOT NULL,
    level INTEGER NOT NULL,
    bucket INTEGER NOT NULL,
    first_at REAL NOT NULL,
    last_at REAL NOT NULL,
    n INTEGER NOT NULL,
    low_step INTEGER,
    low REAL,
    high_step INTEGER,
    high REAL,
    not_finite_step INTEGER,
    last_lr_step INTEGER,
    last_lr REAL,
    PRIMARY KEY (source_id, stage, level, bucket)
) WITHOUT ROWID;
CREATE INDEX step_by_time ON step (source_id, at);
"""

# Version 7: when a source's rows were last written (wall time), so a step trainer's whole runs are
# kept whatever their log dates and the store is bounded by runs, the least recently written going
# first (app/store/write.py). A file's sources count as written at the migration.
_V7 = ""  # (its fill: the column is added once, a file stamped back to an older version keeps it)


def _written_at(conn: sqlite3.Connection) -> None:
    if not any(row[1] == "written_at" for row in conn.execute("PRAGMA table_info(source)")):
        conn.execute("ALTER TABLE source ADD COLUMN written_at REAL")
    conn.execute("UPDATE source SET written_at = CAST(strftime('%s', 'now') AS REAL) WHERE written_at IS NULL")


MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7)
# What a version makes from the data already there, in the same transaction as its tables.
FILLS = {6: build_levels, 7: _written_at}
VERSION = len(MIGRATIONS)


class NewerSchemaError(Exception):
    """The file was written by a newer tokwatch; this one leaves it alone."""

    def __init__(self, found: int) -> None:
        super().__init__(f"history file has schema version {found}; this tokwatch knows up to {VERSION}")
        self.found = found


def version_of(conn: sqlite3.Connection) -> int:
    """The file's schema version (0 for a new, empty file)."""
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the file up to :data:`VERSION`, one version per transaction; return the version found."""
    found = version_of(conn)
    if found > VERSION:
        raise NewerSchemaError(found)
    for version in range(found, VERSION):
        fill = FILLS.get(version + 1)
        if fill is None:
            # executescript runs the whole step, version stamp included, in one transaction.
            conn.executescript("BEGIN;" + MIGRATIONS[version] + f"PRAGMA user_version = {version + 1};COMMIT;")
            continue
        conn.execute("BEGIN")
        try:
            for statement in MIGRATIONS[version].split(";"):
                if statement.strip():
                    conn.execute(statement)
            fill(conn)
            conn.execute(f"PRAGMA user_version = {version + 1}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return found


def empty_history() -> sqlite3.Connection:
    """An in-memory file with the schema and nothing in it: the shape of an empty history."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn)
    return conn
