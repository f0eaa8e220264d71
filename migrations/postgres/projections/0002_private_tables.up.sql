-- Private tables (TableOpened.private) stay in the directory, so that their
-- players find them among their tables, but the lobby and quick play never
-- offer them.
ALTER TABLE td_tables ADD COLUMN private BOOLEAN NOT NULL DEFAULT FALSE;
