-- Projection "ratings": each human's skill rating per game and variant
-- (rules versions of a variant share it), and its history, a row for each
-- rated hand. Ratings are float64 stored exactly (REAL is an IEEE double),
-- so that this file and PostgreSQL's agree to the last bit.
--
-- rt_tables holds what the projection keeps of a table stream, as JSON:
-- its kind and rules, who holds each seat (bots and 托管 marked) and who
-- held it at the running hand's deal.
CREATE TABLE rt_tables (
    stream TEXT PRIMARY KEY,
    state  TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE rt_ratings (
    game      TEXT    NOT NULL,
    variant   TEXT    NOT NULL,
    player_id TEXT    NOT NULL,
    name      TEXT    NOT NULL,
    mu        REAL    NOT NULL,
    sigma     REAL    NOT NULL,
    hands     INTEGER NOT NULL,
    last_at   INTEGER NOT NULL, -- unix ns of the last rated hand's settlement
    PRIMARY KEY (game, variant, player_id)
) WITHOUT ROWID;
CREATE INDEX rt_ratings_player ON rt_ratings (player_id);
-- One row a rated hand a player: the rating as it stood, the whole days
-- idle before the hand, and the rating after it.
CREATE TABLE rt_history (
    player_id    TEXT    NOT NULL,
    position     INTEGER NOT NULL, -- the HandSettled's global position
    game         TEXT    NOT NULL,
    variant      TEXT    NOT NULL,
    hand_id      TEXT    NOT NULL,
    seat         INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    idle_days    INTEGER NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    settled_at   INTEGER NOT NULL
);
-- A rowid table: rows are appended in log order, at the table's end, and
-- only the narrow key below is written a page a player. A row is written
-- once; a board's period and a player's history read it by player.
CREATE UNIQUE INDEX rt_history_player ON rt_history (player_id, position);

-- Bots left the point leaderboards: rebuild them from the log.
DELETE FROM lb_tables;
DELETE FROM lb_seats;
DELETE FROM lb_hand_seats;
DELETE FROM lb_names;
DELETE FROM lb_results;
DELETE FROM lb_player_stats;
DELETE FROM projection_checkpoints WHERE name = 'leaderboards';
