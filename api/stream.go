package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"paiju/domain/table"
	"paiju/service"
)

// Live tells a table's live streams that events were committed, whichever
// node committed them (natsbus.Live is one).
type Live interface {
	// Watch calls notify with the version of each event of the table
	// published from now on (possibly more than once, possibly late) until
	// stop is called. notify must not block.
	Watch(tableID string, notify func(version int)) (stop func(), err error)
}

// defaultHeartbeat is how often an idle stream sends a comment line, which
// keeps proxies from closing it and lets the server notice a gone client.
const defaultHeartbeat = 15 * time.Second

// streamEvents answers GET /v1/tables/{id}/stream with Server-Sent Events:
// every event of the table the caller may see, redacted for the caller's
// seat exactly as /events redacts it at the moment it is sent, with the event
// version as the SSE id. It resumes after Last-Event-ID (or ?after=).
//
// It subscribes to the table's live notices first, then catches up from the
// store; each notice of a version past the table it last sent (and each
// heartbeat, in case a notice was lost) loads the table again and sends the
// events past the last one sent. Sending only versions past the last keeps
// the stream free of gaps and duplicates whatever order or number of
// notices arrives. The frames sent for a version are made once for all the
// streams of the table on this node that see it alike (streamFrames).
//
// When a deal ends, a caller who may read ended deals (visibility.go) is sent
// again, without an SSE id, each earlier event of that deal that /events now
// shows differently (its DealSecret, the other hands of its HandDealt): the
// stream ends up showing what /events shows, and Last-Event-ID stays the
// highest version sent. A resumed stream does the same for the deals that
// ended after its Last-Event-ID.
//
// After the events of each new version, and once when it opens, the stream
// sends a turn message (appendTurn) naming the seats the game awaits: a
// client holding one seat learns there that it must act.
func (s *server) streamEvents(w http.ResponseWriter, r *http.Request) {
	after, ok := s.resumeAfter(w, r)
	if !ok {
		return
	}
	pushLegal, ok := s.legalWanted(w, r)
	if !ok {
		return
	}
	if s.Live == nil {
		s.writeError(w, r, problem(http.StatusServiceUnavailable, "live_unavailable", "this server has no live event feed"))
		return
	}
	id := chi.URLParam(r, "id")
	if _, err := s.load(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	key, _ := keyByCaller(r)
	release, ok := s.streams.acquire(key)
	if !ok {
		s.rateLimited(w, r, 5*time.Second, fmt.Sprintf("at most %d open streams per caller; close one or retry after the time in Retry-After", s.Quotas.StreamsPerPlayer))
		return
	}
	defer release()
	wake := make(chan struct{}, 1)
	var notified atomic.Int64 // the highest version NATS announced
	stop, err := s.Live.Watch(id, func(v int) {
		for {
			cur := notified.Load()
			if int64(v) <= cur || notified.CompareAndSwap(cur, int64(v)) {
				break
			}
		}
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	if err != nil {
		s.writeError(w, r, fmt.Errorf("watch table %s: %w", id, err))
		return
	}
	defer stop()

	// Revoking the token that opened the stream ends it: at once on this
	// node (tokenStreams), at the next heartbeat's check on any other.
	// Checking once after registering closes the gap between this
	// request's authentication and the registration.
	c := callerOf(r.Context())
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	if c.tokenID != "" {
		defer s.tokenStreams.add(c.tokenID, cancel)()
		if !s.tokenStillLive(ctx, c) {
			s.writeError(w, r, problem(http.StatusUnauthorized, "unauthorized", "the token was revoked or has expired"))
			return
		}
	}

	rc := startEventStream(w)
	s.Observer.StreamOpened()
	defer s.Observer.StreamClosed()

	// last is the table as the last send saw it: a notice of a version it
	// already holds (each event of a move is a notice) needs no send.
	var last *service.Loaded
	sent, turnSent, legalSent := after, -1, -1
	send := func(reload bool) error {
		want := int(notified.Load())
		if !reload && last != nil && last.State.Version >= want {
			return nil
		}
		l, err := s.Tables.LoadAtLeast(ctx, id, want)
		if err != nil {
			return err
		}
		last = l
		f := streamFrames(l, viewerOf(l, c), sent)
		if f.err != nil {
			return f.err
		}
		if len(f.b) > 0 {
			if _, err := w.Write(f.b); err != nil {
				return err
			}
		}
		sent = max(sent, f.upTo)
		if l.State.Version > turnSent && l.State.Waiting != nil {
			if _, err := w.Write(turnFrame(l)); err != nil {
				return err
			}
			turnSent = l.State.Version
		}
		if pushLegal && l.State.Version > legalSent {
			b, err := s.legalFrame(l, c)
			if err != nil {
				return err
			}
			if len(b) > 0 {
				if _, err := w.Write(b); err != nil {
					return err
				}
			}
			legalSent = l.State.Version
		}
		return rc.Flush()
	}
	if _, err := fmt.Fprint(w, ": paiju table stream\n\n"); err != nil {
		return
	}
	if err := send(true); err != nil {
		s.endStream(ctx, r, err)
		return
	}
	beat := time.NewTicker(s.heartbeat)
	defer beat.Stop()
	for {
		// A heartbeat loads the table whatever the notices said, in case
		// one was lost.
		reload := false
		select {
		case <-ctx.Done():
			return
		case <-s.stopped:
			return
		case <-wake:
		case <-beat.C:
			if !s.tokenStillLive(ctx, c) {
				return
			}
			if _, err := fmt.Fprint(w, ": heartbeat\n\n"); err != nil {
				return
			}
			reload = true
		}
		if err := send(reload); err != nil {
			s.endStream(ctx, r, err)
			return
		}
	}
}

func (s *server) endStream(ctx context.Context, r *http.Request, err error) {
	if ctx.Err() != nil {
		return // the client went away, or its token was revoked
	}
	s.log.WarnContext(r.Context(), "event stream ended", slog.String("request_id", middleware.GetReqID(r.Context())),
		slog.String("route", routeOf(r)), slog.Any("err", err))
}

// dealEndedSince reports whether an event of l past version after ends a
// deal or deals a new one. Only then can service.Revealed find an event to
// send again (an event is shown differently once its deal has ended), so a
// stream skips its scan of the whole table at every other move.
func dealEndedSince(l *service.Loaded, after int) bool {
	for _, r := range l.Events[min(max(after, 0), len(l.Events)):] {
		if _, dealt := r.Payload.(table.HandDealt); dealt || table.DealEnded(r.Payload) {
			return true
		}
	}
	return false
}

// shareBehind is how many versions behind the table a stream may be and
// still share its frames with the table's other streams: a stream that
// keeps up is one version behind (a few, when a move appends several
// events); one resuming from further back builds its own.
const shareBehind = 8

// frames is what a stream sends for the events of a table at one version
// past the version it has sent: each event as the viewer sees it, with its
// SSE id, then the events of deals ended since that the viewer is now shown
// differently, without one (service.Revealed).
type frames struct {
	b []byte
	// upTo is the last version the events reach (the stream's new after).
	upTo int
	err  error
}

// framesKey names the frames of a snapshot: they depend on the snapshot,
// the viewer and the version sent, and on nothing else of the caller.
type framesKey struct {
	v     viewer
	after int
}

// turnKey names a snapshot's turn message, the same for every viewer.
type turnKey struct{}

// streamFrames returns v's frames of l past after. The streams of a table
// on this node that see it alike (the streams of one seat, the watchers
// of a seat, the spectators) and have sent the same versions share them through the snapshot, so that
// the events are redacted and encoded once for all of them; the snapshot
// drops them when the table moves on.
func streamFrames(l *service.Loaded, v viewer, after int) *frames {
	if behind := l.State.Version - after; behind < 0 || behind > shareBehind {
		return buildFrames(l, v, after)
	}
	f, ok := l.Memo(framesKey{v: v, after: after}, func() any { return buildFrames(l, v, after) }).(*frames)
	if !ok {
		return buildFrames(l, v, after)
	}
	return f
}

// buildFrames is streamFrames without sharing.
func buildFrames(l *service.Loaded, v viewer, after int) *frames {
	f := &frames{upTo: l.State.Version}
	for _, r := range v.events(l, after) {
		if f.b, f.err = appendFrame(f.b, r, true); f.err != nil {
			return f
		}
	}
	if v.reads && dealEndedSince(l, after) {
		for _, r := range service.Revealed(l, v.seat, after) {
			if f.b, f.err = appendFrame(f.b, r, false); f.err != nil {
				return f
			}
		}
	}
	return f
}

// appendFrame appends r as an SSE message to b, with its version as the id
// when withID.
func appendFrame(b []byte, r service.Recorded, withID bool) ([]byte, error) {
	start := len(b)
	if withID {
		b = append(b, "id: "...)
		b = strconv.AppendInt(b, int64(r.Version), 10)
		b = append(b, '\n')
	}
	b = append(b, "event: "...)
	b = append(b, r.Type...)
	b = append(b, "\ndata: "...)
	b, err := appendEvent(b, r)
	if err != nil {
		return b[:start], fmt.Errorf("encode event %d: %w", r.Version, err)
	}
	return append(b, "\n\n"...), nil
}

// appendEvent appends r as json.Marshal encodes its eventOut, byte for
// byte. The envelope is written here and only the payload by reflection,
// into b itself: Marshal made a copy of the whole event and a string of its
// time, for every event of every stream's frames. A type or time that
// encoding/json would write otherwise than plainly goes through Marshal.
func appendEvent(b []byte, r service.Recorded) ([]byte, error) {
	start := len(b)
	b = append(b, `{"version":`...)
	b = strconv.AppendInt(b, int64(r.Version), 10)
	b = append(b, `,"position":`...)
	b = strconv.AppendInt(b, r.Position, 10)
	b = append(b, `,"type":`...)
	b, ok := table.AppendPlainString(b, r.Type)
	if ok {
		b = append(b, `,"recorded_at":`...)
		b, ok = appendTime(b, r.RecordedAt)
	}
	if !ok {
		data, err := json.Marshal(eventOut{Version: r.Version, Position: r.Position, Type: r.Type, RecordedAt: r.RecordedAt, Data: r.Payload})
		return append(b[:start], data...), err
	}
	b = append(b, `,"data":`...)
	buf := bytes.NewBuffer(b)
	if err := json.NewEncoder(buf).Encode(r.Payload); err != nil {
		return b[:start], err
	}
	b = buf.Bytes()
	b[len(b)-1] = '}' // in place of the newline Encode ends with
	return b, nil
}

// turnFrame is the turn message of l (appendTurn), made once a snapshot.
func turnFrame(l *service.Loaded) []byte {
	if b, ok := l.Memo(turnKey{}, func() any { return appendTurn(nil, l.State) }).([]byte); ok {
		return b
	}
	return appendTurn(nil, l.State)
}

// appendTurn appends the stream's turn message for st to b: the seats the
// game awaits at st's version and each one's deadline (null without a
// clock), as in the Awaited-Seats header of a command's answer. It has no
// SSE id, so Last-Event-ID stays the version of the last event sent. Every
// caller gets the same message: it repeats what every view shows (the turn,
// each seat's deadline; setAwaited says why), and it is built from the
// state the stream has just loaded to send the events, so it costs no read.
func appendTurn(b []byte, st *table.State) []byte {
	b = append(b, "event: turn\ndata: {\"version\":"...)
	b = strconv.AppendInt(b, int64(st.Version), 10)
	b = append(b, `,"awaited_seats":[`...)
	n := 0
	for seat, awaited := range st.Waiting {
		if awaited {
			if n > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(seat), 10)
			n++
		}
	}
	b = append(b, `],"deadlines":[`...)
	n = 0
	for seat, awaited := range st.Waiting {
		if !awaited {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		if dl := deadlineOf(st, seat); dl != nil {
			b = append(b, '"')
			b = dl.AppendFormat(b, time.RFC3339Nano)
			b = append(b, '"')
		} else {
			b = append(b, "null"...)
		}
	}
	return append(b, "]}\n\n"...)
}

// stopSignal closes when the server shuts down, ending every stream.
func stopSignal(ch <-chan struct{}) <-chan struct{} {
	if ch != nil {
		return ch
	}
	return make(chan struct{})
}

// resumeAfter reads where a stream resumes: the version in Last-Event-ID
// (a reconnecting EventSource) or ?after=, 0 when neither is given. On a
// bad value it answers 400 and returns false.
func (s *server) resumeAfter(w http.ResponseWriter, r *http.Request) (int, bool) {
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = r.URL.Query().Get("after")
	}
	if last == "" {
		return 0, true
	}
	n, err := strconv.Atoi(strings.TrimSpace(last))
	if err != nil || n < 0 {
		s.writeError(w, r, problem(http.StatusBadRequest, "invalid_query", "Last-Event-ID and after must be an integer ≥ 0 (an event version)"))
		return 0, false
	}
	return n, true
}

// legalWanted reads ?legal=: true asks the stream to follow each turn
// message that names the caller's seat with the seat's legal actions. On a
// bad value it answers 400 and returns false.
func (s *server) legalWanted(w http.ResponseWriter, r *http.Request) (bool, bool) {
	legal, err := boolQuery(r, "legal")
	if err != nil {
		s.writeError(w, r, err)
		return false, false
	}
	return legal, true
}

// legalFrame is the stream's legal message for the caller at l: what GET
// /legal answers the caller's seat for the empty selection, when the game
// awaits that seat; nothing otherwise. Like /legal it is computed for the
// seat the caller reads (its own, or the one it watches) and never shared
// between streams. A
// seat that must act thus needs no request to learn what it may do: a move
// costs the client one request instead of two.
func (s *server) legalFrame(l *service.Loaded, c caller) ([]byte, error) {
	seat := service.ViewerSeat(l.State, c.playerID, c.auditor)
	if seat < 0 || seat >= len(l.State.Waiting) || !l.State.Waiting[seat] || l.State.Closed {
		return nil, nil
	}
	page, err := s.Tables.LegalPage(l.State, seat, nil, legalBounds)
	if err != nil {
		return nil, fmt.Errorf("legal actions of seat %d at version %d: %w", seat, l.State.Version, err)
	}
	resp := &legalResponse{Version: l.State.Version, LegalPage: page, Deadline: deadlineOf(l.State, seat)}
	// The answer's JSON as /legal writes it, which ends in a newline.
	b, ok := appendLegal(append(make([]byte, 0, 1<<10), "event: legal\ndata: "...), resp)
	if !ok {
		data, err := json.Marshal(resp)
		if err != nil {
			return nil, fmt.Errorf("encode legal actions: %w", err)
		}
		b = append(append(append(b[:0], "event: legal\ndata: "...), data...), '\n')
	}
	return append(b, '\n'), nil
}

// startEventStream answers 200 with the headers of an event stream that no
// proxy buffers or caches.
func startEventStream(w http.ResponseWriter) *http.ResponseController {
	rc := http.NewResponseController(w)
	// The server's read timeout bounds sending a request, and this one has
	// been sent: lift the deadline so that no read of the connection can
	// fail on it while the stream lasts.
	_ = rc.SetReadDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	return rc
}
