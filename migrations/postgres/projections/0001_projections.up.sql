-- The read model of the SQLite projections database (migrations/projections
-- 0002 to 0004) in one step. Timestamps are BIGINT unix nanoseconds in UTC,
-- deltas BIGINT (SQLite's INTEGER is 64 bits), and JSON is TEXT, as there, so that both stores give the same answers
-- byte for byte (jsonb would reorder keys and drop spaces of event data).

-- Where each projection has read the log up to (global event position) and
-- the hash of the event there ('' at 0). A row per projection always
-- exists: appliers lock it (SELECT ... FOR UPDATE) for the whole
-- transaction that applies a batch, so two nodes applying the same
-- projection take turns, and the second sees the position the first moved
-- to.
CREATE TABLE projection_checkpoints (
    name     TEXT   PRIMARY KEY,
    position BIGINT NOT NULL,
    hash     TEXT   NOT NULL DEFAULT ''
);
INSERT INTO projection_checkpoints (name, position) VALUES ('hands', 0), ('leaderboards', 0), ('directory', 0);

-- Projection "hands": one record per hand with the events that made it.
CREATE TABLE hh_tables (
    stream    TEXT    PRIMARY KEY,
    table_id  TEXT    NOT NULL,
    game      TEXT    NOT NULL,
    variant   TEXT    NOT NULL,
    open_hand INTEGER NOT NULL DEFAULT 0 -- hand in progress, 0 between hands
);
CREATE TABLE hh_seats (
    stream    TEXT    NOT NULL,
    seat      INTEGER NOT NULL,
    player_id TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    PRIMARY KEY (stream, seat)
);
CREATE TABLE hh_hands (
    hand_id          TEXT    PRIMARY KEY, -- <tableID>-<hand>
    table_id         TEXT    NOT NULL,
    hand             INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    variant          TEXT    NOT NULL,
    seats            TEXT    NOT NULL, -- JSON: who held each seat when dealt
    started_at       BIGINT  NOT NULL, -- unix nanoseconds, UTC
    settled_at       BIGINT,           -- NULL while in progress
    settled_position BIGINT,
    deltas           TEXT,             -- JSON array, once settled
    UNIQUE (table_id, hand)
);
CREATE INDEX hh_hands_settled ON hh_hands (table_id, hand) WHERE settled_at IS NOT NULL;
CREATE TABLE hh_hand_events (
    hand_id     TEXT    NOT NULL,
    position    BIGINT  NOT NULL,
    version     INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    recorded_at BIGINT  NOT NULL,
    PRIMARY KEY (hand_id, position)
);
CREATE TABLE hh_player_hands (
    player_id        TEXT    NOT NULL,
    settled_position BIGINT  NOT NULL,
    hand_id          TEXT    NOT NULL,
    seat             INTEGER NOT NULL,
    delta            BIGINT  NOT NULL,
    PRIMARY KEY (player_id, settled_position, seat)
);

-- Projection "leaderboards": one row per player per settled hand.
CREATE TABLE lb_tables (
    stream  TEXT PRIMARY KEY,
    game    TEXT NOT NULL,
    variant TEXT NOT NULL
);
CREATE TABLE lb_seats (
    stream    TEXT    NOT NULL,
    seat      INTEGER NOT NULL,
    player_id TEXT    NOT NULL,
    PRIMARY KEY (stream, seat)
);
-- Who held each seat when a hand was dealt: an escaper leaves the seat
-- before the settlement that charges them.
CREATE TABLE lb_hand_seats (
    stream    TEXT    NOT NULL,
    hand      INTEGER NOT NULL,
    seat      INTEGER NOT NULL,
    player_id TEXT    NOT NULL,
    PRIMARY KEY (stream, hand, seat)
);
CREATE TABLE lb_names (
    player_id TEXT PRIMARY KEY,
    name      TEXT NOT NULL
);
CREATE TABLE lb_results (
    hand_id    TEXT    NOT NULL,
    seat       INTEGER NOT NULL,
    player_id  TEXT    NOT NULL,
    game       TEXT    NOT NULL,
    variant    TEXT    NOT NULL,
    delta      BIGINT  NOT NULL,
    settled_at BIGINT  NOT NULL, -- unix nanoseconds, UTC
    PRIMARY KEY (hand_id, seat)
);
CREATE INDEX lb_results_board ON lb_results (game, variant, settled_at);
CREATE INDEX lb_results_player ON lb_results (player_id);

-- Projection "directory": every table with its seats as they are now, for
-- the lobby, a player's tables and quick play. Only public facts: no card,
-- kitty or seed is ever written here.
CREATE TABLE td_tables (
    table_id        TEXT    PRIMARY KEY,
    game            TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    stake           INTEGER NOT NULL,
    seats           INTEGER NOT NULL,
    options         TEXT    NOT NULL, -- compact JSON as TableOpened records it
    clock           TEXT    NOT NULL, -- compact JSON, '' for a table without a clock
    max_hands       INTEGER NOT NULL,
    rules_version   TEXT    NOT NULL,
    seated          INTEGER NOT NULL DEFAULT 0,
    hands           INTEGER NOT NULL DEFAULT 0, -- settled hands
    status          TEXT    NOT NULL, -- open, running, closed
    opened_position BIGINT  NOT NULL UNIQUE, -- the global position of TableOpened: the lobby's order
    created_at      BIGINT  NOT NULL, -- unix nanoseconds, UTC
    updated_at      BIGINT  NOT NULL  -- the table's last event, unix nanoseconds, UTC
);
CREATE INDEX td_tables_lobby ON td_tables (status, opened_position);
CREATE INDEX td_tables_kind ON td_tables (game, variant, stake, status);
CREATE TABLE td_seats (
    table_id  TEXT    NOT NULL,
    seat      INTEGER NOT NULL,
    player_id TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    bot       BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX td_seats_player ON td_seats (player_id);
