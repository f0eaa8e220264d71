-- Where each projection has read the log up to (global event position); it
-- is written in the transaction that applies the event at that position.
CREATE TABLE projection_checkpoints (
    name     TEXT    PRIMARY KEY,
    position INTEGER NOT NULL
);

-- Projection "hands": one record per hand with the events that made it.
CREATE TABLE hh_tables (
    stream   TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    game     TEXT NOT NULL,
    variant  TEXT NOT NULL,
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
    started_at       INTEGER NOT NULL, -- unix nanoseconds, UTC
    settled_at       INTEGER,          -- NULL while in progress
    settled_position INTEGER,
    deltas           TEXT,             -- JSON array, once settled
    UNIQUE (table_id, hand)
);
CREATE INDEX hh_hands_settled ON hh_hands (table_id, hand) WHERE settled_at IS NOT NULL;
CREATE TABLE hh_hand_events (
    hand_id     TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    type        TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    recorded_at INTEGER NOT NULL,
    PRIMARY KEY (hand_id, position)
);
CREATE TABLE hh_player_hands (
    player_id        TEXT    NOT NULL,
    settled_position INTEGER NOT NULL,
    hand_id          TEXT    NOT NULL,
    seat             INTEGER NOT NULL,
    delta            INTEGER NOT NULL,
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
    delta      INTEGER NOT NULL,
    settled_at INTEGER NOT NULL, -- unix nanoseconds, UTC
    PRIMARY KEY (hand_id, seat)
);
CREATE INDEX lb_results_board ON lb_results (game, variant, settled_at);
CREATE INDEX lb_results_player ON lb_results (player_id);
