package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// --per-seat: every seat of every table is a client of its own, as a phone
// holding one seat would be. It follows its table's live stream with
// ?legal=true, which pushes the seat its legal actions whenever the game
// awaits it (event: legal), and posts its move with Prefer:
// return=minimal: one request a move. With --ask-legal it opens the
// stream without the parameter, learns from the turn messages (event:
// turn) that its seat is awaited, then asks /legal (revalidating its last
// unnarrowed answer with its ETag) and posts; when the answer's
// Awaited-Seats names its seat again it acts at once, without waiting for
// the stream to say so.

// errStale is a move the server refused after the table had moved on from
// the version its legal actions were listed at: in a window open to
// several seats (升级's declarations), another seat acted first and made
// it illegal. A lost race, not an error: the seat acts again on its next
// legal actions. (If-Match would refuse every move that another seat's
// independent move preceded, as 牛牛's arrangements.)
var errStale = errors.New("another seat acted first")

// movedOn reports whether seat's table is past version, asking /legal.
func (c *Client) movedOn(ctx context.Context, node int, t *Table, seat, version int) bool {
	var l legalAnswer
	c.requests.Add(1)
	_, _, err := c.doWith(ctx, node, "GET", "/v1/tables/"+t.id+"/legal", t.tokens[seat], "", nil, nil, &l)
	return err == nil && l.Version > version
}

// seatTurn is the data of a stream's turn message.
type seatTurn struct {
	Version int   `json:"version"`
	Awaited []int `json:"awaited_seats"`
}

// seatOutcome is what one seat client measured.
type seatOutcome struct {
	lat      []time.Duration
	errs     int
	stale    int // moves refused after another seat acted first
	firstErr string
	streams  int // streams opened, reconnections included
}

func (o *seatOutcome) fail(err error) {
	o.errs++
	if o.firstErr == "" {
		o.firstErr = err.Error()
	}
}

// playSeats runs one client per seat of tables until ctx ends and sums
// what they measured.
func (c *Client) playSeats(ctx context.Context, cfg Config, tables []*Table, record func(Ack)) seatOutcome {
	// Streams last the whole run: a client of their own, without the
	// requests' timeout or connection limit.
	streams := &http.Client{Transport: &http.Transport{}}
	defer streams.CloseIdleConnections()
	var (
		mu  sync.Mutex
		all seatOutcome
		wg  sync.WaitGroup
	)
	for i, t := range tables {
		for seat := range t.tokens {
			wg.Go(func() {
				rng := rand.New(rand.NewPCG(cfg.Seed, uint64(i)<<8|uint64(seat)))
				o := c.playSeat(ctx, streams, t, seat, rng, record)
				mu.Lock()
				all.lat = append(all.lat, o.lat...)
				all.errs += o.errs
				all.stale += o.stale
				all.streams += o.streams
				if all.firstErr == "" {
					all.firstErr = o.firstErr
				}
				mu.Unlock()
			})
		}
	}
	wg.Wait()
	return all
}

// playSeat is one seat's client: it reads its stream, and acts on each
// legal message past the last version it knows (with --ask-legal, on each
// such turn message that names its seat). A stream that ends is opened
// again after the last event it sent.
func (c *Client) playSeat(ctx context.Context, streams *http.Client, t *Table, seat int, rng *rand.Rand, record func(Ack)) seatOutcome {
	var o seatOutcome
	node := t.node + seat
	known, lastID := 0, 0 // the highest version the client has acted on or been answered, the last event id
	// act moves at version at, and again while the answer names the seat.
	// After a failed move it forgets that version and asks for the stream
	// again, which opens with the turn as it stands: the table may be
	// waiting for this seat, and no new version would come to say so.
	act := func(at int, pushed *legalAnswer) (reopen bool) {
		for ctx.Err() == nil {
			ack, awaited, err := c.seatMove(ctx, node, t, seat, rng, pushed)
			if errors.Is(err, errStale) {
				// The stream brings the seat's legal actions at the new
				// version if it is still awaited.
				o.stale++
				return false
			}
			if err != nil {
				if ctx.Err() == nil {
					o.fail(err)
				}
				known = at - 1
				return true
			}
			o.lat = append(o.lat, ack.Took)
			if record != nil {
				record(ack)
			}
			// A pushed client waits for the stream's legal message, which
			// comes for the version its answer reached when the game
			// awaits the seat again (斗地主's landlord after the last
			// bid): that version must stay unknown. The messages for the
			// versions before it were computed before this move landed
			// (another seat acted meanwhile in a window open to several,
			// as 升级's final declaration window): they are stale.
			if pushed != nil {
				known = max(known, ack.Version-1)
				return false
			}
			known = max(known, ack.Version)
			if !slices.Contains(awaited, seat) {
				return false
			}
			at = ack.Version
		}
		return false
	}
	// The seat acts on its stream's legal message, or with --ask-legal on
	// the turn message naming it.
	var onTurn func(seatTurn) bool
	var onLegal func(legalAnswer) bool
	if c.askLegal {
		onTurn = func(turn seatTurn) bool {
			if turn.Version > known && slices.Contains(turn.Awaited, seat) {
				known = turn.Version
				return act(turn.Version, nil)
			}
			return false
		}
	} else {
		onLegal = func(l legalAnswer) bool {
			if l.Version > known {
				known = l.Version
				return act(l.Version, &l)
			}
			return false
		}
	}
	for ctx.Err() == nil {
		err := c.readStream(ctx, streams, node, t, seat, lastID, func(id int) { lastID = id }, onTurn, onLegal)
		o.streams++
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			o.fail(err)
		}
		node++
		if !sleep(ctx, 50*time.Millisecond) {
			break
		}
	}
	return o
}

// readStream opens seat's stream of t on node after version after, with
// the seat's bearer token, and calls onID with each event's id, onTurn
// with each turn message and onLegal with each legal message until the
// stream or ctx ends, or onTurn or onLegal returns true. With onLegal the
// stream is opened with ?legal=true.
func (c *Client) readStream(ctx context.Context, streams *http.Client, node int, t *Table, seat, after int, onID func(int), onTurn func(seatTurn) bool, onLegal func(legalAnswer) bool) error {
	url := fmt.Sprintf("%s/v1/tables/%s/stream?after=%d", c.server(node), t.id, after)
	if onLegal != nil {
		url += "&legal=true"
	}
	req, err := http.NewRequestWithContext(ctx, "GET", url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+t.tokens[seat])
	req.Header.Set("Accept", "text/event-stream")
	resp, err := streams.Do(req)
	if err != nil {
		return fmt.Errorf("stream of %s for seat %d: %w", t.id, seat, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("stream of %s for seat %d: %s", t.id, seat, resp.Status)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64*1024), 1<<22)
	// The lines are read in the scanner's buffer; only a message's data is
	// copied, to be decoded at the blank line that ends the message.
	var event, data []byte
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			switch {
			case string(event) == "turn" && onTurn != nil:
				var turn seatTurn
				if err := json.Unmarshal(data, &turn); err != nil {
					return fmt.Errorf("turn message %q: %w", data, err)
				}
				if onTurn(turn) {
					return nil
				}
			case string(event) == "legal" && onLegal != nil:
				var l legalAnswer
				if err := json.Unmarshal(data, &l); err != nil {
					return fmt.Errorf("legal message %q: %w", data, err)
				}
				if onLegal(l) {
					return nil
				}
			}
			event, data = event[:0], data[:0]
		case bytes.HasPrefix(line, []byte("id: ")):
			if id, err := strconv.Atoi(string(line[4:])); err == nil {
				onID(id)
			}
		case bytes.HasPrefix(line, []byte("event: ")):
			event = append(event[:0], line[7:]...)
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append(data[:0], line[6:]...)
		}
	}
	if err := sc.Err(); err != nil && ctx.Err() == nil {
		return fmt.Errorf("stream of %s for seat %d: %w", t.id, seat, err)
	}
	return nil
}

// seatMove makes one random legal move of seat at t, as move does for the
// seat the client knows to be awaited, and returns the seats the answer
// names as awaited next.
func (c *Client) seatMove(ctx context.Context, node int, t *Table, seat int, rng *rand.Rand, pushed *legalAnswer) (Ack, []int, error) {
	actions, version, err := c.legalFrom(ctx, node, t, seat, rng, pushed)
	if err != nil {
		return Ack{}, nil, err
	}
	a, ok, err := pickMove(actions, rng)
	if err != nil {
		return Ack{}, nil, fmt.Errorf("table %s, seat %d: %w", t.id, seat, err)
	}
	if !ok {
		c.misses.Add(1)
		return Ack{}, nil, fmt.Errorf("table %s: seat %d was named awaited and has nothing to play", t.id, seat)
	}
	key := fmt.Sprintf("lt-%016x", rng.Uint64())
	var r struct {
		Version int `json:"version"`
		Events  []struct {
			Version  int   `json:"version"`
			Position int64 `json:"position"`
		} `json:"events"`
	}
	start := time.Now()
	c.requests.Add(1)
	rep, status, err := c.doWith(ctx, node, "POST", "/v1/tables/"+t.id+"/actions", t.tokens[seat], key, http.Header{"Prefer": {"return=minimal"}}, a, &r)
	took := time.Since(start)
	if (status == http.StatusConflict || status == http.StatusUnprocessableEntity) && c.movedOn(ctx, node, t, seat, version) {
		return Ack{}, nil, fmt.Errorf("table %s, seat %d at version %d: %w", t.id, seat, version, errStale)
	}
	if err != nil {
		return Ack{}, nil, err
	}
	ack := Ack{Table: t.id, Player: t.players[seat], Seat: seat, Key: key, Node: rep.Node, Action: a,
		Version: r.Version, Replayed: rep.Replayed, Token: t.tokens[seat], Took: took}
	for i, e := range r.Events {
		if i == 0 {
			ack.First = e.Version
		}
		ack.Versions = append(ack.Versions, e.Version)
		ack.Positions = append(ack.Positions, e.Position)
	}
	var awaited []int
	if len(rep.awaited) == 1 {
		for f := range strings.SplitSeq(rep.awaited[0], ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
				awaited = append(awaited, n)
			}
		}
	}
	return ack, awaited, nil
}
