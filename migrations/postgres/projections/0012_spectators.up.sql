-- The spectator policy of each table (TableOpened.spectators), shown in the
-- lobby and matched by quick play, which seats a player at tables of the
-- policy asked for only. Every table opened before has the default,
-- public: a table that recorded a broadcast_delay is served as public too.
ALTER TABLE td_tables ADD COLUMN spectators TEXT NOT NULL DEFAULT 'public';
