package api

import (
	"net/http"
	"strconv"
	"time"

	"paiju/domain/table"
)

// writeLegal writes a /legal answer as writeJSON would, byte for byte,
// from a pooled buffer. encoding/json finds the answer's fields by
// reflection and makes three strings a card (cards.Card's text); a /legal
// answer is a list of actions of cards, asked before every move.
func (s *server) writeLegal(w http.ResponseWriter, resp *legalResponse) {
	bp := s.buffers.Get().(*[]byte)
	defer s.buffers.Put(bp)
	b, ok := appendLegal((*bp)[:0], resp)
	if cap(b) <= maxPooledBuffer {
		*bp = b[:0] // the larger array serves the next answer
	}
	if !ok {
		// A value the appender does not write as encoding/json would (an
		// invalid card, a string to escape): encoding/json writes it.
		writeJSON(w, http.StatusOK, resp)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// maxPooledBuffer bounds the buffers kept for answers: a bounded /legal
// answer is at most 64 KiB.
const maxPooledBuffer = 64 << 10

// newBuffer is the buffers pool's New.
func newBuffer() any {
	b := make([]byte, 0, 4<<10)
	return &b
}

// appendLegal appends resp as json.Encoder encodes it (HTML escaping on, a
// newline at the end), or reports false when it holds what it does not
// write that way: an invalid card (encoding/json fails on it), a string
// with a byte encoding/json escapes or a multi-byte character, a deadline
// encoding/json refuses.
func appendLegal(b []byte, resp *legalResponse) ([]byte, bool) {
	b = append(b, `{"version":`...)
	b = strconv.AppendInt(b, int64(resp.Version), 10)
	b = append(b, `,"actions":`...)
	if resp.Actions == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range resp.Actions {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = table.AppendActionJSON(b, &resp.Actions[i]); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"complete":`...)
	b = strconv.AppendBool(b, resp.Complete)
	var ok bool
	b = append(b, `,"selected":`...)
	if b, ok = table.AppendCardsJSON(b, resp.Selected); !ok {
		return b, false
	}
	b = append(b, `,"extend":`...)
	if b, ok = table.AppendCardsJSON(b, resp.Extend); !ok {
		return b, false
	}
	if resp.Deadline != nil {
		b = append(b, `,"deadline":`...)
		if b, ok = appendTime(b, *resp.Deadline); !ok {
			return b, false
		}
	}
	if resp.Hint != nil {
		b = append(b, `,"hint":`...)
		if b, ok = table.AppendActionJSON(b, resp.Hint); !ok {
			return b, false
		}
	}
	return append(b, "}\n"...), true
}

// appendTime appends t as its MarshalJSON does (RFC 3339 with the
// nanoseconds' significant digits, quoted) without allocating, for a UTC
// offset of 0 and a four-digit year; false for any other time, which the
// caller encodes with encoding/json.
func appendTime(b []byte, t time.Time) ([]byte, bool) {
	if _, off := t.Zone(); off != 0 || t.Year() < 0 || t.Year() > 9999 {
		return b, false
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), true
}
