-- The ratings' history in two tables: rt_hands a row a rated hand (its
-- game, variant, ID and settlement time, appended in log order), and
-- rt_history a row a player of it, keyed by player, holding only what is
-- the player's own. The history's rows were twelve values each, the game,
-- variant, hand and time repeated at every seat; writing them was the
-- largest part of the ratings' apply (docs/PERF.md).
CREATE TABLE rt_hands (
    position   INTEGER PRIMARY KEY, -- the HandSettled's global position
    game       TEXT    NOT NULL,
    variant    TEXT    NOT NULL,
    hand_id    TEXT    NOT NULL,
    settled_at INTEGER NOT NULL
);
CREATE TABLE rt_player_hands (
    player_id    TEXT    NOT NULL,
    position     INTEGER NOT NULL, -- rt_hands' position
    seat         INTEGER NOT NULL,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    idle_days    INTEGER NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL
);
-- As rt_history was: rows appended in log order, and only the narrow key
-- below written a page a player.
CREATE UNIQUE INDEX rt_player_hands_player ON rt_player_hands (player_id, position);
-- Every row of a hand holds the same game, variant, hand and time.
INSERT INTO rt_hands (position, game, variant, hand_id, settled_at)
    SELECT DISTINCT position, game, variant, hand_id, settled_at FROM rt_history;
INSERT INTO rt_player_hands (player_id, position, seat, mu_before, sigma_before, idle_days, mu_after, sigma_after)
    SELECT player_id, position, seat, mu_before, sigma_before, idle_days, mu_after, sigma_after FROM rt_history;
DROP TABLE rt_history;
