package api

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"paiju/domain/cards"
	"paiju/domain/doudizhu"
	"paiju/domain/table"
	"paiju/service"
)

// oddPayload holds what encoding/json writes in more than one way: HTML
// bytes, escapes, multi-byte characters, maps, cards (invalid ones fail).
type oddPayload struct {
	S     string         `json:"s"`
	Cards []cards.Card   `json:"cards,omitempty"`
	M     map[string]int `json:"m,omitempty"`
	P     *int           `json:"p"`
}

func (oddPayload) EventType() string { return "odd" }

// TestAppendEventMatchesMarshal: appendEvent writes what json.Marshal
// writes for the event's eventOut, byte for byte, and fails where it
// fails, for plain and odd types, times and payloads; appendFrame wraps it
// unchanged.
func TestAppendEventMatchesMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 9))
	seven := 7
	shanghai := time.FixedZone("CST", 8*3600)
	payloads := []table.Payload{
		nil,
		table.TableOpened{TableID: "t-1", Game: "doudizhu"},
		table.HandDealt{},
		doudizhu.BidMade{},
		oddPayload{S: `a<b>&"c"\ 牌局 ` + "\u2028\x01\xff", Cards: cards.Deck(1), M: map[string]int{"z": 1, "a": 2}, P: &seven},
		oddPayload{S: "plain"},
		oddPayload{Cards: []cards.Card{{Suit: 9, Rank: 1}}}, // fails
	}
	types := []string{"card_played", "bid_made", "a<b", `q"t`, "牌", "", "tab\t", "x&y"}
	times := []time.Time{
		{},
		time.Date(2026, 12, 2, 4, 5, 6, 0, time.UTC),
		time.Date(2026, 12, 2, 4, 5, 6, 120000000, time.UTC),
		time.Date(2026, 12, 2, 4, 5, 6, 123456789, time.UTC),
		time.Date(2026, 12, 2, 4, 5, 6, 1, shanghai),
		time.Date(2026, 12, 2, 4, 5, 6, 1, time.FixedZone("", 0)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600+60)),
		time.Unix(0, rng.Int64()).UTC(),
	}
	for _, p := range payloads {
		for _, typ := range types {
			for _, at := range times {
				r := service.Recorded{Version: rng.IntN(1000) - 1, Position: rng.Int64() - rng.Int64(), Type: typ, RecordedAt: at, Payload: p}
				want, werr := json.Marshal(eventOut{Version: r.Version, Position: r.Position, Type: r.Type, RecordedAt: r.RecordedAt, Data: r.Payload})
				prefix := []byte("event: x\n")
				got, gerr := appendEvent(prefix[:len(prefix):len(prefix)], r)
				if (werr != nil) != (gerr != nil) {
					t.Fatalf("%q %v %#v: error %v, Marshal's %v", typ, at, p, gerr, werr)
				}
				if werr != nil {
					continue
				}
				if string(got) != string(prefix)+string(want) {
					t.Fatalf("%q %v %#v:\ngot  %s\nwant %s%s", typ, at, p, got, prefix, want)
				}
				frame, err := appendFrame([]byte("x"), r, true)
				if err != nil {
					t.Fatal(err)
				}
				if w := "xid: " + itoa(r.Version) + "\nevent: " + typ + "\ndata: " + string(want) + "\n\n"; string(frame) != w {
					t.Fatalf("frame %q, want %q", frame, w)
				}
			}
		}
	}
}

// TestAppendFrameError: a failing event leaves b as it was.
func TestAppendFrameError(t *testing.T) {
	r := service.Recorded{Version: 3, Type: "odd", Payload: oddPayload{Cards: []cards.Card{{}}}}
	b, err := appendFrame([]byte("keep"), r, true)
	if err == nil || string(b) != "keep" {
		t.Fatalf("appendFrame = %q, %v", b, err)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
