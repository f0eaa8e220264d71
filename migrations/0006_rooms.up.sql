-- Room codes of private tables, for each table's open life: the code is
-- kept beside the log, never in it. A code is unique among the tables that
-- hold one; a closed table's code is taken over by the next table that
-- draws it, or released when a lookup finds its table closed.
CREATE TABLE rooms (
    code       TEXT    PRIMARY KEY,
    table_id   TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL -- unix nanoseconds, UTC
);
