package api

import (
	"mime"
	"testing"
)

// TestEventStreamType holds eventStream to what mime.ParseMediaType reads
// of the type, which it calls only for types that might be an event
// stream.
func TestEventStreamType(t *testing.T) {
	for _, ct := range []string{
		"text/event-stream", "text/event-stream; charset=utf-8", " Text/Event-Stream ;charset=utf-8",
		"TEXT/EVENT-STREAM", "text/event-stream;", "text/event-stream; charset", "text/event-stream; a=1; a=2",
		"text/event-streams", "text/event", "application/json", "application/problem+json", "",
		"text/event-stream/x", "text/plain; x=text/event-stream", ";text/event-stream",
	} {
		mt, _, err := mime.ParseMediaType(ct)
		want := err == nil && mt == "text/event-stream"
		if got := eventStream(ct); got != want {
			t.Errorf("eventStream(%q) = %v, want %v (mime.ParseMediaType: %q, %v)", ct, got, want, mt, err)
		}
	}
}
