-- The append-only event log. position is the global order; AUTOINCREMENT
-- keeps a deleted tail from being reused, so a removed event leaves a gap
-- that verification sees.
CREATE TABLE events (
    position    INTEGER PRIMARY KEY AUTOINCREMENT,
    stream      TEXT    NOT NULL,
    version     INTEGER NOT NULL CHECK (version >= 1),
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    recorded_at INTEGER NOT NULL, -- unix nanoseconds, UTC
    prev_hash   TEXT    NOT NULL, -- '' for the first event
    hash        TEXT    NOT NULL,
    UNIQUE (stream, version)
);

CREATE TABLE players (
    id         TEXT    PRIMARY KEY,
    name       TEXT    NOT NULL,
    token_hash TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL -- unix nanoseconds, UTC
);

-- Read positions of the consumers of the log (the NATS relay, projections).
CREATE TABLE checkpoints (
    name     TEXT    PRIMARY KEY,
    position INTEGER NOT NULL
);

-- Idempotency keys of commands, written in the transaction of the append they
-- made. scope is the acting player id.
CREATE TABLE idempotency (
    scope         TEXT    NOT NULL,
    key           TEXT    NOT NULL,
    request_hash  TEXT    NOT NULL,
    stream        TEXT    NOT NULL,
    first_version INTEGER NOT NULL,
    last_version  INTEGER NOT NULL,
    created_at    INTEGER NOT NULL, -- unix nanoseconds, UTC
    PRIMARY KEY (scope, key)
);
