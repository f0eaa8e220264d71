package eventstore

import "time"

// Room binds a private table to its room code (房间号) for the table's open
// life. The code is kept beside the log, never in it: the log and its
// exports are read by people the code is not for, and a code is reused
// once its table has closed.
type Room struct {
	Code      string
	TableID   string
	CreatedAt time.Time // UTC
}
