-- The event store in PostgreSQL: the same tables as the SQLite store, so
-- that an exported log reads the same from either. Timestamps are
-- timestamptz (microseconds: the store truncates its clock to them).

-- The append-only event log. position is assigned by the writer that holds
-- the chain lock (see eventstore/postgres), never by a sequence: a sequence
-- hands out numbers outside the lock, and a rolled-back transaction would
-- leave a gap.
CREATE TABLE events (
    position    bigint      PRIMARY KEY CHECK (position >= 1),
    stream      text        NOT NULL,
    version     integer     NOT NULL CHECK (version >= 1),
    type        text        NOT NULL,
    data        text        NOT NULL, -- the JSON byte for byte: jsonb would rewrite it and break the hash
    recorded_at timestamptz NOT NULL,
    prev_hash   text        NOT NULL, -- '' for the first event
    hash        text        NOT NULL,
    UNIQUE (stream, version)
);

-- The last event of the chain, the anchor appends link to. One row, updated
-- in the transaction of every append.
CREATE TABLE chain_head (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    position bigint  NOT NULL,
    hash     text    NOT NULL
);
INSERT INTO chain_head (position, hash) VALUES (0, '');

CREATE TABLE players (
    id         text        PRIMARY KEY,
    name       text        NOT NULL,
    token_hash text        NOT NULL UNIQUE,
    created_at timestamptz NOT NULL
);

-- Read positions of the consumers of the log (the NATS relay).
CREATE TABLE checkpoints (
    name     text   PRIMARY KEY,
    position bigint NOT NULL
);

-- Idempotency keys of commands, written in the transaction of the append
-- they made. scope is the acting player id.
CREATE TABLE idempotency (
    scope         text        NOT NULL,
    key           text        NOT NULL,
    request_hash  text        NOT NULL,
    stream        text        NOT NULL,
    first_version integer     NOT NULL,
    last_version  integer     NOT NULL,
    created_at    timestamptz NOT NULL,
    PRIMARY KEY (scope, key)
);
