-- Projection "ratings": each human's skill rating per game and variant
-- (rules versions of a variant share it), and its history, a row for each
-- rated hand. Ratings are float64 stored exactly (double precision), so that
-- PostgreSQL and SQLite (REAL) agree to the last bit.
--
-- rt_tables holds what the projection keeps of a table stream, as JSON:
-- its kind and rules, who holds each seat (bots and 托管 marked) and who
-- held it at the running hand's deal.
CREATE TABLE rt_tables (
    stream TEXT PRIMARY KEY,
    state  TEXT NOT NULL
);
CREATE TABLE rt_ratings (
    game      TEXT    NOT NULL,
    variant   TEXT    NOT NULL,
    player_id TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    mu        DOUBLE PRECISION    NOT NULL,
    sigma     DOUBLE PRECISION    NOT NULL,
    hands     INTEGER NOT NULL,
    last_at   BIGINT  NOT NULL, -- unix ns of the last rated hand's settlement
    PRIMARY KEY (game, variant, player_id)
);
CREATE INDEX rt_ratings_player ON rt_ratings (player_id);
-- One row a rated hand a player: the rating as it stood, the whole days
-- idle before the hand, and the rating after it.
CREATE TABLE rt_history (
    player_id    TEXT    NOT NULL,
    position     BIGINT  NOT NULL, -- the HandSettled's global position
    game         TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    hand_id      TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    mu_before    DOUBLE PRECISION    NOT NULL,
    sigma_before DOUBLE PRECISION    NOT NULL,
    idle_days    INTEGER NOT NULL,
    mu_after     DOUBLE PRECISION    NOT NULL,
    sigma_after  DOUBLE PRECISION    NOT NULL,
    settled_at   BIGINT  NOT NULL,
    PRIMARY KEY (player_id, position)
);

-- Bots left the point leaderboards: rebuild them from the log.
DELETE FROM lb_tables;
DELETE FROM lb_seats;
DELETE FROM lb_hand_seats;
DELETE FROM lb_names;
DELETE FROM lb_results;
UPDATE projection_checkpoints SET position = 0, hash = '' WHERE name = 'leaderboards';
