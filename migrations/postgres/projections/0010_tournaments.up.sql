-- Projection "tournaments": a row per tournament and per registered player,
-- for the standings and the list of tournaments. Only what a tournament's
-- public events record: never its secret seed, nor a duplicate table's
-- hands before the scores.
CREATE TABLE tn_tournaments (
    tournament_id   TEXT    PRIMARY KEY,
    game            TEXT    NOT NULL,
    variant         TEXT    NOT NULL,
    format          TEXT    NOT NULL,
    players         INTEGER NOT NULL, -- the field's size
    registered      INTEGER NOT NULL DEFAULT 0,
    hands_per_table INTEGER NOT NULL,
    stake           INTEGER NOT NULL,
    status          TEXT    NOT NULL, -- registering, running, ended
    round           INTEGER NOT NULL DEFAULT 0,
    winner          TEXT,             -- NULL until the end
    opened_position BIGINT  NOT NULL UNIQUE, -- the global position of TournamentOpened: the list's order
    created_at      BIGINT  NOT NULL, -- unix nanoseconds, UTC
    updated_at      BIGINT  NOT NULL  -- the tournament's last event, unix nanoseconds, UTC
);
CREATE INDEX tn_tournaments_status ON tn_tournaments (status, opened_position);
CREATE TABLE tn_players (
    tournament_id    TEXT    NOT NULL,
    player_id        TEXT    NOT NULL,
    name             TEXT    NOT NULL,
    seq              INTEGER NOT NULL, -- registration order, from 0
    round            INTEGER NOT NULL DEFAULT 0,
    table_id         TEXT    NOT NULL DEFAULT '',
    table_done       BOOLEAN NOT NULL DEFAULT false,
    points           INTEGER NOT NULL DEFAULT 0,
    hands_lost       INTEGER NOT NULL DEFAULT 0,
    place            INTEGER NOT NULL DEFAULT 0,
    eliminated_round INTEGER NOT NULL DEFAULT 0,
    matchpoints      DOUBLE PRECISION NOT NULL DEFAULT 0,
    score_rank       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, player_id)
);
