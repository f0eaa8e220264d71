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
