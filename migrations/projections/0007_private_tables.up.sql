-- Private tables (TableOpened.private) stay in the directory, so that their
-- players find them among their tables, but the lobby and quick play never
-- offer them. Numbered after the store's 0005 and 0006.
ALTER TABLE td_tables ADD COLUMN private INTEGER NOT NULL DEFAULT 0;
