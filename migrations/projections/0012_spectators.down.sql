ALTER TABLE td_tables DROP COLUMN spectators;
