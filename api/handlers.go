package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// --- players ---

type createPlayerRequest struct {
	Name string `json:"name"`
}

type createdPlayer struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token"`
}

func (s *server) createPlayer(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(w, r, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req createPlayerRequest
	if err := decodeStrict(body, &req); err != nil {
		s.writeError(w, r, err)
		return
	}
	name, key, err := playerName(req.Name)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	token, err := newToken()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	tokenID, err := newTokenID()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	p := PlayerRecord{ID: s.NewPlayerID(), Name: name, NameKey: key, CreatedAt: s.Now().UTC()}
	first := TokenRecord{ID: tokenID, PlayerID: p.ID, Label: registrationLabel, Hash: HashToken(token), CreatedAt: p.CreatedAt}
	if err := s.Players.CreatePlayer(r.Context(), p, first); err != nil {
		s.writeError(w, r, nameTaken(name, fmt.Errorf("create player: %w", err)))
		return
	}
	w.Header().Set("Location", "/v1/players/"+p.ID)
	writeJSON(w, http.StatusCreated, createdPlayer{ID: p.ID, Name: p.Name, Token: token})
}

// --- tables ---

// nullOptions is options with JSON null read as absent (the defaults).
func nullOptions(o json.RawMessage) json.RawMessage {
	if strings.TrimSpace(string(o)) == "null" {
		return nil
	}
	return o
}

type openTableRequest struct {
	Game    string          `json:"game"`
	Variant string          `json:"variant"`
	Stake   *int            `json:"stake"`
	Options json.RawMessage `json:"options"`
	// Clock is the turn clock; absent takes the defaults.
	Clock    *clockRequest `json:"clock"`
	Bots     int           `json:"bots"`
	MaxHands int           `json:"max_hands"`
	// Private opens a table found and joined by its room code only.
	Private bool `json:"private"`
	// Spectators is the spectator policy: "public" (absent) or
	// "after_deal".
	Spectators string `json:"spectators"`
	// BroadcastDelay is refused unless 0: the delayed full broadcast it
	// asked for showed spectators the running deal (spectators replaces it).
	BroadcastDelay int `json:"broadcast_delay"`
	// WaitBetweenHands: after each hand the next deal waits until every
	// seat is ready (continue). Absent: false, the next hand is dealt at
	// once, as it was for every client written before the flag.
	WaitBetweenHands bool `json:"wait_between_hands"`
}

// errBroadcastDelay refuses a new table asking for the delayed full
// broadcast that spectators replaced.
var errBroadcastDelay = table.ErrBadOption.With(`spectators: broadcast_delay is no longer offered (it showed spectators the running deal); ask for "spectators": "after_deal" to show each deal in full once it has ended`)

// clockRequest is the turn clock of a new table; an absent field takes its
// default.
type clockRequest struct {
	TurnSeconds   *int `json:"turn_seconds"`
	DelegateAfter *int `json:"delegate_after"`
}

func (c *clockRequest) clock() *table.Clock {
	if c == nil {
		return nil
	}
	out := table.DefaultClock()
	if c.TurnSeconds != nil {
		out.TurnSeconds = *c.TurnSeconds
	}
	if c.DelegateAfter != nil {
		out.DelegateAfter = *c.DelegateAfter
	}
	return &out
}

func (s *server) player(r *http.Request) (service.Player, error) {
	c := callerOf(r.Context())
	if c.auditor {
		return service.Player{}, problem(http.StatusForbidden, "auditor_read_only", "the auditor token reads tables; it cannot act at them")
	}
	return service.Player{ID: c.playerID, Name: c.name}, nil
}

func (s *server) openTable(w http.ResponseWriter, r *http.Request) {
	var req openTableRequest
	p, cond, err := s.commandInput(w, r, false, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if cond.IfMatch >= 0 {
		s.writeError(w, r, problem(http.StatusBadRequest, "invalid_if_match", "If-Match makes no sense when opening a new table"))
		return
	}
	stake := 1
	if req.Stake != nil {
		stake = *req.Stake
	}
	req.Options = nullOptions(req.Options)
	if req.Private && s.Rooms == nil {
		s.writeError(w, r, errNoRooms)
		return
	}
	if req.BroadcastDelay != 0 {
		s.writeError(w, r, errBroadcastDelay)
		return
	}
	res, err := s.Tables.Open(r.Context(), p, service.OpenRequest{Game: req.Game, Variant: req.Variant, Stake: stake, Options: req.Options, Clock: req.Clock.clock(), Bots: req.Bots, MaxHands: req.MaxHands, Private: req.Private, Spectators: req.Spectators, WaitBetweenHands: req.WaitBetweenHands}, cond)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := viewOf(res.Table, callerOf(r.Context()))
	if res.Table.State.Private {
		// A replayed opening finds the code its first answer drew.
		if v.RoomCode, err = s.roomCodeFor(r.Context(), res.Table.State.ID); err != nil {
			s.writeError(w, r, fmt.Errorf("room code of %s: %w", res.Table.State.ID, err))
			return
		}
	}
	w.Header().Set("Location", "/v1/tables/"+v.ID)
	setETag(w, v.Version)
	writeJSON(w, http.StatusCreated, v)
}

// load loads the request's table, if the caller may read it
// (tournaments.go) and watch it (rooms.go).
func (s *server) load(r *http.Request) (*service.Loaded, error) {
	l, err := s.Tables.Load(r.Context(), chi.URLParam(r, "id"))
	if err != nil {
		return nil, err
	}
	// A sealed tournament table (tournaments.go) is refused before any
	// room code or spectator rule is looked at.
	if err := s.mayRead(r.Context(), l); err != nil {
		return l, err
	}
	return l, s.mayWatch(r, l)
}

func (s *server) getTable(w http.ResponseWriter, r *http.Request) {
	l, err := s.load(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if notModified(w, r, l.State.Version) {
		return
	}
	c := callerOf(r.Context())
	v := viewOf(l, c)
	s.rateSeats(r.Context(), l, &v)
	if l.State.Private && !l.State.Closed && (c.auditor || l.State.SeatOf(c.playerID) >= 0) && s.Rooms != nil {
		// The players of a private table see its code, to pass it on. A
		// closed table's code is free again for other tables: reading
		// the table must not draw it a new one.
		if v.RoomCode, err = s.roomCodeFor(r.Context(), l.State.ID); err != nil && !errors.Is(err, ErrNoRoom) {
			s.writeError(w, r, fmt.Errorf("room code of %s: %w", l.State.ID, err))
			return
		}
	}
	setETag(w, v.Version)
	writeJSON(w, http.StatusOK, v)
}

type joinRequest struct {
	Seat *int `json:"seat"`
	// RoomCode is a private table's room code; a public table ignores it.
	RoomCode *string `json:"room_code"`
}

func (s *server) joinTable(w http.ResponseWriter, r *http.Request) {
	var req joinRequest
	p, cond, err := s.commandInput(w, r, true, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	seat := -1
	if req.Seat != nil {
		if *req.Seat < 0 {
			s.writeError(w, r, table.ErrNoSuchSeat.With("seat must be ≥ 0, got %d", *req.Seat))
			return
		}
		seat = *req.Seat
	}
	id := chi.URLParam(r, "id")
	if req.RoomCode != nil {
		l, err := s.Tables.Load(r.Context(), id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if l.State.Private {
			if !s.checkRoomCode(w, r, id, *req.RoomCode) {
				return
			}
			res, err := s.Tables.JoinRoom(r.Context(), p, id, seat, cond)
			s.writeCommand(w, r, res, err)
			return
		}
	}
	// Without a code, the service refuses a private table
	// (room_code_required).
	res, err := s.Tables.Join(r.Context(), p, id, seat, cond)
	s.writeCommand(w, r, res, err)
}

// actionRequest is the wire form of table.Action; cards arrive as notation
// strings so that a bad token can be named with its position.
type actionRequest struct {
	Type  string   `json:"type"`
	Bid   *int     `json:"bid"`
	Cards []string `json:"cards"`
	As    string   `json:"as"`
}

func (s *server) postAction(w http.ResponseWriter, r *http.Request) {
	dry, err := dryRun(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var req actionRequest
	p, cond, err := s.commandInput(w, r, false, &req)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if req.Type == "" {
		s.writeError(w, r, problem(http.StatusBadRequest, "malformed_json", `the action needs a "type"`))
		return
	}
	cs, err := cards.ParseList(req.Cards)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a := table.Action{Type: req.Type, Bid: req.Bid, Cards: cs, As: req.As}
	if dry {
		res, err := s.Tables.DryAct(r.Context(), p, chi.URLParam(r, "id"), a, cond)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		// The version a dry run names does not exist: no ETag.
		w.Header().Set("Dry-Run", "true")
		s.writeResult(w, r, res)
		return
	}
	res, err := s.Tables.Act(r.Context(), p, chi.URLParam(r, "id"), a, cond)
	s.writeCommand(w, r, res, err)
}

// dryRun reads the dry_run query parameter: true or false (absent: false).
func dryRun(r *http.Request) (bool, error) {
	if r.URL.RawQuery == "" {
		return false, nil // the common case, without parsing a query into a map
	}
	vals, ok := r.URL.Query()["dry_run"]
	if !ok {
		return false, nil
	}
	if len(vals) == 1 {
		switch vals[0] {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, problem(http.StatusBadRequest, "invalid_query", "dry_run must be given once, as true or false")
}

// commandResponse answers a command: the table's new version, the events the
// command appended as the caller may see them, and the caller's view after it
// unless the caller preferred a minimal answer.
type commandResponse struct {
	Version int        `json:"version"`
	Events  []eventOut `json:"events"`
	Table   *tableView `json:"table,omitempty"`
}

// prefersMinimal reports whether the request carries the RFC 7240 preference
// return=minimal: the client follows the table by its events and does not
// want the view (the larger and costlier half of the answer).
func prefersMinimal(r *http.Request) bool {
	for _, h := range r.Header.Values("Prefer") {
		for pref := range strings.SplitSeq(h, ",") {
			if strings.EqualFold(strings.TrimSpace(pref), "return=minimal") {
				return true
			}
		}
	}
	return false
}

func (s *server) writeCommand(w http.ResponseWriter, r *http.Request, res *service.Result, err error) {
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	setETag(w, res.Table.State.Version)
	s.writeResult(w, r, res)
}

// writeResult writes a command's answer without its ETag.
func (s *server) writeResult(w http.ResponseWriter, r *http.Request, res *service.Result) {
	c := callerOf(r.Context())
	seat := service.ViewerSeat(res.Table.State, c.playerID, c.auditor)
	if res.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	setAwaited(w, res.Table.State)
	version := res.Table.State.Version
	resp := commandResponse{Version: version, Events: eventsOut(service.RedactAppended(res, seat))}
	if prefersMinimal(r) {
		w.Header().Set("Preference-Applied", "return=minimal")
	} else {
		v := viewOf(res.Table, c)
		resp.Table = &v
	}
	writeJSON(w, http.StatusOK, resp)
}

// setAwaited names the seats the game awaits after a command in the
// Awaited-Seats header, ascending and comma-separated (empty: none), so that
// a client that preferred a minimal answer knows who acts next without
// asking. Whom the game awaits is public: every game derives it from what
// every seat's view shows (the turn; 升级's passes in a declaration window;
// 牛牛's arranged and escaped seats), and with a turn clock each seat's
// deadline, which runs exactly while the seat is awaited.
func setAwaited(w http.ResponseWriter, st *table.State) {
	if st.Waiting == nil {
		return // a game without a turn clock does not say
	}
	var b []byte
	for seat, awaited := range st.Waiting {
		if awaited {
			if len(b) > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(seat), 10)
		}
	}
	w.Header()["Awaited-Seats"] = []string{string(b)}
}

// legalResponse is the bounded list of legal actions (service.LegalPage)
// with the table's version and the caller's deadline.
type legalResponse struct {
	Version int `json:"version"`
	service.LegalPage
	// Deadline is when the caller's time to act runs out, if it is running.
	Deadline *time.Time `json:"deadline,omitempty"`
	// Hint is the bot's choice for the caller's own seat (?hint=true).
	Hint *table.Action `json:"hint,omitempty"`
}

// legalEnvelope is what the fields legalResponse adds to a LegalPage take at
// most: "version":N, ,"deadline":"…Z" and the encoder's newline.
const legalEnvelope = 96

// legalBounds are service.DefaultBounds less the envelope, so that the whole
// answer stays within 64 KiB.
var legalBounds = service.Bounds{MaxActions: service.DefaultBounds.MaxActions, MaxBytes: service.DefaultBounds.MaxBytes - legalEnvelope}

// selection reads the selected query parameter: the cards the caller has
// picked so far, in card notation separated by commas.
func selection(r *http.Request) ([]cards.Card, error) {
	if r.URL.RawQuery == "" {
		return nil, nil
	}
	vals, ok := r.URL.Query()["selected"]
	if !ok {
		return nil, nil
	}
	if len(vals) > 1 {
		return nil, problem(http.StatusBadRequest, "invalid_query", "selected must be given once, as a comma-separated list of cards such as S3,H3")
	}
	return cards.Parse(vals[0])
}

// legalActions answers the caller's legal actions narrowed to the selected
// cards. The body is a function of the table's version, the caller's seat
// (a watcher's is the seat it watches) and the selection, and so is its
// ETag (legalETag): a client that sends it back in If-None-Match gets a 304
// before any legal action is listed, and a tag kept by one seat, or for one
// selection, never matches another's answer, whatever key a cache uses.
//
// With ?hint=true a player seated at the table also gets the game's bot's
// choice for its seat (hint), and, without a selection, the answer is
// narrowed to the hint's cards: one request shows the hint selected. A
// watcher, a spectator or the auditor gets no hint: it is the player's.
func (s *server) legalActions(w http.ResponseWriter, r *http.Request) {
	selected, err := selection(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	wantHint, err := boolQuery(r, "hint")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	l, err := s.load(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c := callerOf(r.Context())
	seat := service.ViewerSeat(l.State, c.playerID, c.auditor)
	etag := legalETag(l.State.Version, seat, selected)
	if wantHint {
		etag = etag[:len(etag)-1] + `.hint"`
	}
	// What a Timed game allows changes with the clock, not only with the
	// version, so its legal actions are always computed afresh.
	if _, timed := l.State.Rules.(table.Timed); !timed && notModifiedTag(w, r, etag) {
		return
	}
	var hint *table.Action
	if wantHint && !c.auditor && seat >= 0 && l.State.SeatOf(c.playerID) == seat {
		if a, ok := s.Tables.Hint(l.State, seat); ok {
			hint = &a
			if len(selected) == 0 {
				selected = a.Cards
			}
		}
	}
	page, err := s.Tables.LegalPage(l.State, seat, selected, legalBounds)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("ETag", etag)
	s.writeLegal(w, &legalResponse{Version: l.State.Version, LegalPage: page, Deadline: deadlineOf(l.State, seat), Hint: hint})
}

// boolQuery reads a query parameter that is "true" or "false" (absent or
// empty is false); any other value is 400 invalid_query.
func boolQuery(r *http.Request, name string) (bool, error) {
	if r.URL.RawQuery == "" {
		return false, nil
	}
	switch r.URL.Query().Get(name) {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, problem(http.StatusBadRequest, "invalid_query", name+" must be true or false")
}

type eventsResponse struct {
	Version int        `json:"version"`
	Events  []eventOut `json:"events"`
	// More: the page is full and more events follow; ask again with
	// after=Next.
	More bool `json:"more"`
	Next int  `json:"next"`
}

type eventOut struct {
	Version    int           `json:"version"`
	Position   int64         `json:"position"`
	Type       string        `json:"type"`
	RecordedAt time.Time     `json:"recorded_at"`
	Data       table.Payload `json:"data"`
}

func eventsOut(rs []service.Recorded) []eventOut {
	out := make([]eventOut, len(rs))
	for i, r := range rs {
		out[i] = eventOut{Version: r.Version, Position: r.Position, Type: r.Type, RecordedAt: r.RecordedAt, Data: r.Payload}
	}
	return out
}

func (s *server) listEvents(w http.ResponseWriter, r *http.Request) {
	after := 0
	if q := r.URL.Query().Get("after"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 {
			s.writeError(w, r, problem(http.StatusBadRequest, "invalid_query", "after must be an integer ≥ 0"))
			return
		}
		after = n
	}
	limit := s.Quotas.EventsPage
	if q := r.URL.Query().Get("limit"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > s.Quotas.EventsPage {
			s.writeError(w, r, problem(http.StatusBadRequest, "invalid_query", fmt.Sprintf("limit must be an integer from 1 to %d", s.Quotas.EventsPage)))
			return
		}
		limit = n
	}
	l, err := s.load(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	c := callerOf(r.Context())
	evs := visibleEvents(l, c, after)
	page := eventsResponse{Version: l.State.Version, Next: max(after, l.State.Version)}
	if len(evs) > limit {
		evs = evs[:limit]
		page.More, page.Next = true, evs[limit-1].Version
	}
	page.Events = eventsOut(evs)
	setETag(w, l.State.Version)
	writeJSON(w, http.StatusOK, page)
}

// --- conditions ---

// commandInput reads what every command takes: the acting player, the
// If-Match and Idempotency-Key conditions, and the strictly decoded body.
func (s *server) commandInput(w http.ResponseWriter, r *http.Request, allowEmpty bool, req any) (service.Player, service.Cond, error) {
	p, err := s.player(r)
	if err != nil {
		return p, service.NoCond, err
	}
	cond, body, err := s.conditions(w, r, allowEmpty)
	if err != nil {
		return p, cond, err
	}
	return p, cond, decodeStrict(body, req)
}

// conditions reads the body and the If-Match and Idempotency-Key headers.
func (s *server) conditions(w http.ResponseWriter, r *http.Request, allowEmpty bool) (service.Cond, []byte, error) {
	cond := service.NoCond
	body, err := readBody(w, r, allowEmpty)
	if err != nil {
		return cond, nil, err
	}
	ifMatch, err := parseIfMatch(r.Header.Values("If-Match"))
	if err != nil {
		return cond, nil, err
	}
	cond.IfMatch = ifMatch
	if keys := r.Header.Values("Idempotency-Key"); len(keys) > 0 {
		key := keys[0]
		if len(keys) > 1 || key == "" || len(key) > 255 || strings.ContainsFunc(key, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
			return cond, nil, problem(http.StatusBadRequest, "invalid_idempotency_key", "Idempotency-Key must be one value of 1 to 255 visible ASCII characters")
		}
		cond.IdempotencyKey = key
		cond.RequestHash = requestHash(r.Method, r.URL.Path, body)
	}
	return cond, body, nil
}

// parseIfMatch reads the If-Match header: absent or "*" is -1 (no
// condition); one strong version tag such as "12" is that version. Anything
// else is refused rather than read leniently: an unquoted 12, an empty
// value or a list (a table has one version, so a list is a client's mistake)
// is 400 invalid_if_match, and a weak tag W/"12" is 412, because a weak tag
// never matches for If-Match (RFC 9110, 13.1.1).
func parseIfMatch(values []string) (int, error) {
	if len(values) == 0 {
		return -1, nil
	}
	bad := problem(http.StatusBadRequest, "invalid_if_match", `If-Match must be one version ETag such as "12", or *`)
	if len(values) > 1 {
		return -1, bad
	}
	v := strings.TrimSpace(values[0])
	if v == "*" {
		return -1, nil
	}
	weak := strings.HasPrefix(v, "W/")
	n, ok := versionTag(strings.TrimPrefix(v, "W/"))
	switch {
	case !ok:
		return -1, bad
	case weak:
		return -1, problem(http.StatusPreconditionFailed, "precondition_failed", "a weak ETag never matches If-Match (RFC 9110, 13.1.1); send the version as a strong tag such as \"12\"")
	}
	return n, nil
}

// versionTag reads a quoted table version, "12".
func versionTag(tag string) (int, bool) {
	digits, ok := strings.CutPrefix(tag, `"`)
	if !ok {
		return 0, false
	}
	if digits, ok = strings.CutSuffix(digits, `"`); !ok || digits == "" || len(digits) > 9 {
		return 0, false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil
}

// notModified answers 304 Not Modified when the request's If-None-Match
// names the table's current version (RFC 9110, 13.1.2): a client polling a
// table it has already seen at that version gets no body, and the server
// builds no view and lists no legal actions for it.
func notModified(w http.ResponseWriter, r *http.Request, version int) bool {
	if r.Header.Get("If-None-Match") == "" {
		return false
	}
	return notModifiedTag(w, r, strconv.Quote(strconv.Itoa(version)))
}

// notModifiedTag is notModified for a resource whose ETag is current.
func notModifiedTag(w http.ResponseWriter, r *http.Request, current string) bool {
	inm := r.Header.Get("If-None-Match")
	if inm == "" {
		return false
	}
	for tag := range strings.SplitSeq(inm, ",") {
		tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
		if tag == current || tag == "*" {
			w.Header().Set("ETag", current)
			w.WriteHeader(http.StatusNotModified)
			return true
		}
	}
	return false
}

// legalETag is the ETag of a /legal answer: "<version>.<seat>" and, for a
// selection, ".<FNV-1a of the selected cards in the order given>" in base
// 36. A spectator's seat is negative.
func legalETag(version, seat int, selected []cards.Card) string {
	b := make([]byte, 0, 40)
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(version), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(seat), 10)
	if len(selected) > 0 {
		h := fnv.New64a()
		for _, c := range selected {
			_, _ = h.Write([]byte(c.String()))
			_, _ = h.Write([]byte{','})
		}
		b = append(b, '.')
		b = strconv.AppendUint(b, h.Sum64(), 36)
	}
	return string(append(b, '"'))
}

func setETag(w http.ResponseWriter, version int) {
	// strconv.Quote(strconv.Itoa(version)), in one string instead of two.
	var b [24]byte
	tag := append(strconv.AppendInt(append(b[:0], '"'), int64(version), 10), '"')
	w.Header().Set("ETag", string(tag))
}

// requestHash is the hash of a request stored with its Idempotency-Key: a
// retry must repeat the method, the path and the body exactly.
func requestHash(method, path string, body []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s %s\n", method, path)
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}
