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
    opened_position INTEGER NOT NULL UNIQUE, -- the global position of TableOpened: the lobby's order
    created_at      INTEGER NOT NULL, -- unix nanoseconds, UTC
    updated_at      INTEGER NOT NULL  -- the table's last event, unix nanoseconds, UTC
);
CREATE INDEX td_tables_lobby ON td_tables (status, opened_position);
CREATE INDEX td_tables_kind ON td_tables (game, variant, stake, status);
CREATE TABLE td_seats (
    table_id  TEXT    NOT NULL,
    seat      INTEGER NOT NULL,
    player_id TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    bot       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX td_seats_player ON td_seats (player_id);
