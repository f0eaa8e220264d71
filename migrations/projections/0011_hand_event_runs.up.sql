-- A hand's events as one row a batch that applied them (a run), not one
-- row an event: a batch of 256 events inserted some 200 rows and index
-- entries into hh_hand_events, most of the hands projection's writes.
-- events is a JSON array of [position, version, type, data, recorded_at]
-- arrays in position order, data the event's JSON as a JSON string (byte
-- for byte what hh_hand_events.data held); position is the run's first.
CREATE TABLE hh_hand_event_runs (
    hand_id  TEXT    NOT NULL,
    position INTEGER NOT NULL,
    events   TEXT    NOT NULL,
    PRIMARY KEY (hand_id, position)
);
INSERT INTO hh_hand_event_runs (hand_id, position, events)
    SELECT hand_id, min(position), json_group_array(json_array(position, version, type, data, recorded_at))
    FROM (SELECT * FROM hh_hand_events ORDER BY hand_id, position)
    GROUP BY hand_id;
DROP TABLE hh_hand_events;
-- UNIQUE (table_id, hand) serves the listing of a table's settled hands
-- without a sort: this index only doubled its writes.
DROP INDEX hh_hands_settled;
-- A player's totals a game, which the player's page reads, kept by a
-- trigger as lb_results takes rows (an INSERT OR IGNORE that ignores a
-- row fires nothing): the index of lb_results by player it replaces was
-- the leaderboards' largest page writer, a page a player a batch.
CREATE TABLE lb_player_stats (
    player_id TEXT    NOT NULL,
    game      TEXT    NOT NULL,
    score     INTEGER NOT NULL, -- SUM(delta)
    hands     INTEGER NOT NULL, -- COUNT(*)
    wins      INTEGER NOT NULL, -- SUM(delta > 0)
    PRIMARY KEY (player_id, game)
) WITHOUT ROWID;
INSERT INTO lb_player_stats (player_id, game, score, hands, wins)
    SELECT player_id, game, SUM(delta), COUNT(*), SUM(delta > 0) FROM lb_results GROUP BY player_id, game;
CREATE TRIGGER lb_results_stats AFTER INSERT ON lb_results BEGIN
    INSERT INTO lb_player_stats (player_id, game, score, hands, wins)
        VALUES (NEW.player_id, NEW.game, NEW.delta, 1, NEW.delta > 0)
        ON CONFLICT (player_id, game) DO UPDATE SET
            score = score + excluded.score, hands = hands + 1, wins = wins + excluded.wins;
END;
DROP INDEX lb_results_player;
