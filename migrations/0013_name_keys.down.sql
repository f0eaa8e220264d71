DROP INDEX players_by_name_key;
ALTER TABLE players DROP COLUMN name_key;
