-- Each player's name gets a comparison key (the PRECIS Nickname profile's,
-- RFC 8266, derived by the api), unique among the players that hold one,
-- so that two players cannot take one name spelled two ways ("玩家1" and
-- "玩家１", "Alice" and "alice"). Players registered before keep their
-- names as they are, duplicates included, and hold no key (NULL, which the
-- index lets any number share) until they rename themselves. Numbered
-- after the SQLite store's migration of the same change.
ALTER TABLE players ADD COLUMN name_key text;
CREATE UNIQUE INDEX players_by_name_key ON players (name_key);
