package api_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/games"
	"paiju/service"
)

// tournamentView mirrors the Tournament schema as far as the tests read it.
type tournamentView struct {
	ID         string  `json:"id"`
	Version    int     `json:"version"`
	Status     string  `json:"status"`
	Commitment string  `json:"commitment"`
	Seed       *string `json:"seed"`
	Winner     *string `json:"winner"`
	Rounds     []struct {
		Number int      `json:"number"`
		Field  []string `json:"field"`
		Tables []struct {
			TableID string                 `json:"table_id"`
			Players []string               `json:"players"`
			Ended   bool                   `json:"ended"`
			Hands   []tournament.HandScore `json:"hands"`
			Result  *struct {
				Hands     int                   `json:"hands"`
				Standings []tournament.Standing `json:"standings"`
			} `json:"result"`
		} `json:"tables"`
		Advanced *tournament.Advanced `json:"advanced"`
	} `json:"rounds"`
	Scores    []tournament.Score `json:"scores"`
	Standings []struct {
		PlayerID string  `json:"player_id"`
		Status   string  `json:"status"`
		TableID  *string `json:"table_id"`
	} `json:"standings"`
	YourTable  *string `json:"your_table"`
	YourStatus *string `json:"your_status"`
}

func (e *env) tournament(id, token string) tournamentView {
	e.t.Helper()
	r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments/" + id, Token: token})
	if r.Status != http.StatusOK {
		e.t.Fatalf("get tournament: %d %s", r.Status, r.Body)
	}
	var v tournamentView
	r.Decode(e.t, &v)
	return v
}

// playTournament opens an elimination tournament of n new players with
// hands hands per table, registers them all and plays every table by its
// players' legal actions over REST until the tournament ends.
func playTournament(t *testing.T, e *env, n, hands int) (tournamentView, map[string]player) {
	t.Helper()
	byID := map[string]player{}
	var ps []player
	for i := range n {
		p := e.newPlayer(fmt.Sprintf("entrant%d", i))
		ps = append(ps, p)
		byID[p.ID] = p
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ps[0].Token, Body: map[string]any{
		"game": "doudizhu", "variant": "classic", "format": "elimination", "players": n, "hands_per_table": hands, "stake": 1,
	}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open tournament: %d %s", r.Status, r.Body)
	}
	var tv tournamentView
	r.Decode(t, &tv)
	for i, p := range ps {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/join", Token: p.Token})
		if r.Status != http.StatusOK {
			t.Fatalf("join %d: %d %s", i, r.Status, r.Body)
		}
		r.Decode(t, &tv)
	}
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/join", Token: ps[0].Token})
	if r.Status != http.StatusConflict {
		t.Fatalf("a second registration: %d %s", r.Status, r.Body)
	}
	if tv.Status != "running" || len(tv.Rounds) != 1 || len(tv.Rounds[0].Tables) != n/3 {
		t.Fatalf("after %d registrations: %+v", n, tv)
	}
	// Every player finds their table in the tournament; nobody else may sit
	// at it.
	for _, p := range ps {
		v := e.tournament(tv.ID, p.Token)
		if v.YourTable == nil || *v.YourStatus != "playing" {
			t.Fatalf("%s has no table: %+v", p.ID, v)
		}
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + *v.YourTable, Token: p.Token})
		var tab struct {
			Seat       *int   `json:"seat"`
			Tournament string `json:"tournament"`
		}
		r.Decode(t, &tab)
		if tab.Tournament != tv.ID {
			t.Fatalf("table %s names the tournament %q", *v.YourTable, tab.Tournament)
		}
		if seat := tab.Seat; seat == nil {
			t.Fatalf("%s is not seated at their table %s", p.ID, *v.YourTable)
		}
	}
	outsider := e.newPlayer("outsider")
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tables/" + tv.Rounds[0].Tables[0].TableID + "/join", Token: outsider.Token})
	if r.Status != http.StatusConflict && r.Status != http.StatusForbidden {
		t.Fatalf("an outsider joining a tournament table: %d %s", r.Status, r.Body)
	}
	for range 100_000 {
		tv = e.tournament(tv.ID, ps[0].Token)
		if tv.Status == "ended" {
			return tv, byID
		}
		moved := false
		for _, tb := range tv.Rounds[len(tv.Rounds)-1].Tables {
			if tb.Result != nil {
				continue
			}
			var seated []player
			for _, id := range tb.Players {
				seated = append(seated, byID[id])
			}
			if v := e.view(tb.TableID, seated[0].Token); v.Turn == nil {
				continue
			}
			e.step(tb.TableID, seated)
			moved = true
		}
		if !moved {
			t.Fatalf("the tournament is stuck: %+v", tv)
		}
	}
	t.Fatal("the tournament did not end")
	return tv, byID
}

// checkTournament audits an ended tournament the way an outsider would:
// the revealed seed against the commitment, every round's seating redrawn
// from the seed by the construction docs/AUDIT.md states (reimplemented
// here from SHA-256 alone), every table's result against the table, and
// the tournament and table streams re-decided.
func checkTournament(t *testing.T, e *env, tv tournamentView) {
	t.Helper()
	if tv.Seed == nil || tv.Winner == nil {
		t.Fatalf("ended without its seed or winner: %+v", tv)
	}
	seed, err := hex.DecodeString(*tv.Seed)
	if err != nil || len(seed) != 32 {
		t.Fatalf("seed %q", *tv.Seed)
	}
	if sum := sha256.Sum256(seed); hex.EncodeToString(sum[:]) != tv.Commitment {
		t.Fatal("the revealed seed does not match the commitment")
	}
	for _, rd := range tv.Rounds {
		seating := redraw(seed, rd.Number, rd.Field)
		for ti, tb := range rd.Tables {
			if !slices.Equal(tb.Players, seating[3*ti:3*ti+3]) {
				t.Fatalf("round %d table %d seats %v; the seed draws %v", rd.Number, ti, tb.Players, seating[3*ti:3*ti+3])
			}
			view := e.view(tb.TableID, auditorToken)
			for _, x := range tb.Result.Standings {
				if view.Seats[x.Seat].Total != x.Total {
					t.Fatalf("table %s seat %d: result %d, the table says %d", tb.TableID, x.Seat, x.Total, view.Seats[x.Seat].Total)
				}
			}
			evs, err := e.store.Load(context.Background(), service.StreamID(tb.TableID), 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
				t.Fatalf("table %s: %v", tb.TableID, err)
			}
		}
	}
	final := tv.Rounds[len(tv.Rounds)-1]
	if len(final.Tables) != 1 || final.Tables[0].Result.Standings[0].PlayerID != *tv.Winner {
		t.Fatalf("the winner %s is not the final table's first", *tv.Winner)
	}
	if tv.Standings[0].PlayerID != *tv.Winner || tv.Standings[0].Status != "winner" {
		t.Fatalf("standings do not lead with the winner: %+v", tv.Standings[0])
	}
	evs, err := e.store.Load(context.Background(), service.TournamentStreamID(tv.ID), 0)
	if err != nil {
		t.Fatal(err)
	}
	var ps []table.Payload
	for _, ev := range evs {
		p, err := tournament.Decode(ev.Type, ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if _, err := tournament.Redecide(ps); err != nil {
		t.Fatal(err)
	}
}

// redraw is the seating draw of round r, from the seed by SHA-256 alone.
func redraw(seed []byte, r int, field []string) []string {
	rs := sha256.Sum256(binary.BigEndian.AppendUint64(slices.Clone(seed), uint64(r)))
	var counter uint64
	var buf []byte
	next := func() uint64 {
		if len(buf) < 8 {
			b := sha256.Sum256(binary.BigEndian.AppendUint64(rs[:], counter))
			counter++
			buf = append(buf, b[:]...)
		}
		x := binary.BigEndian.Uint64(buf)
		buf = buf[8:]
		return x
	}
	below := func(n uint64) uint64 {
		m := (^uint64(0)%n + 1) % n // 2^64 mod n
		for {
			if x := next(); m == 0 || x <= ^uint64(0)-m {
				return x % n
			}
		}
	}
	out := slices.Clone(field)
	for i := len(out) - 1; i > 0; i-- {
		j := below(uint64(i + 1))
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// matchHands is the hands per table of a tournament whose shape does not
// depend on it: 5, and 1 with -short (a quick run).
func matchHands() int {
	if testing.Short() {
		return 1
	}
	return 5
}

func TestTournamentNinePlayersOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	e := newEnv(t, 901)
	tv, _ := playTournament(t, e, 9, matchHands())
	if len(tv.Rounds) != 2 || len(tv.Rounds[0].Tables) != 3 || len(tv.Rounds[0].Advanced.BroughtBack) != 0 {
		t.Fatalf("9 players: want 3 tables, their 3 winners at the final; got %+v", tv.Rounds)
	}
	checkTournament(t, e, tv)
}

func TestTournamentTwelvePlayersOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	e := newEnv(t, 1201)
	tv, _ := playTournament(t, e, 12, 2)
	shape := []int{}
	for _, rd := range tv.Rounds {
		shape = append(shape, len(rd.Tables))
	}
	if !slices.Equal(shape, []int{4, 2, 1}) {
		t.Fatalf("12 players: want 4, 2, 1 tables, got %v", shape)
	}
	if a := tv.Rounds[0].Advanced; len(a.Winners) != 4 || len(a.BroughtBack) != 2 || len(a.Eliminated) != 6 {
		t.Fatalf("round 1: %+v", a)
	}
	if a := tv.Rounds[1].Advanced; len(a.Winners) != 2 || len(a.BroughtBack) != 1 {
		t.Fatalf("round 2: %+v", a)
	}
	// The brought back are the best of the rest by points, then fewer
	// hands lost, then registration (recomputed here).
	for _, rd := range tv.Rounds[:2] {
		var rest []tournament.Standing
		for _, tb := range rd.Tables {
			for _, x := range tb.Result.Standings {
				if x.Place != 1 {
					rest = append(rest, x)
				}
			}
			if tb.Result.Hands < 2 {
				t.Fatalf("a match of %d hands", tb.Result.Hands)
			}
		}
		reg := func(id string) int { return slices.Index(tv.Rounds[0].Field, id) }
		slices.SortStableFunc(rest, func(a, b tournament.Standing) int {
			if a.Total != b.Total {
				return b.Total - a.Total
			}
			if a.HandsLost != b.HandsLost {
				return a.HandsLost - b.HandsLost
			}
			return reg(a.PlayerID) - reg(b.PlayerID)
		})
		for i, id := range rd.Advanced.BroughtBack {
			if rest[i].PlayerID != id {
				t.Fatalf("round %d brought back %v; the order of the rest is %+v", rd.Number, rd.Advanced.BroughtBack, rest)
			}
		}
	}
	checkTournament(t, e, tv)
	// The live stream replays the tournament's public events and ends
	// after TournamentEnded; the secret is not among them.
	r := e.c.Unchecked().Do(apitest.Request{Method: "GET", Path: "/v1/tournaments/" + tv.ID + "/stream", Token: auditorToken})
	if r.Status != http.StatusOK {
		t.Fatalf("stream: %d %s", r.Status, r.Body)
	}
	var types []string
	sc := bufio.NewScanner(strings.NewReader(string(r.Body)))
	for sc.Scan() {
		if typ, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			types = append(types, typ)
		}
	}
	if len(types) == 0 || types[0] != "TournamentOpened" || types[len(types)-1] != "TournamentEnded" || slices.Contains(types, "TournamentSecret") {
		t.Fatalf("stream events: %v", types)
	}
}

// TestTournamentTablesInMyTables: a player finds their tournament table in
// /v1/me/tables (the table directory), like any table they sit at.
func TestTournamentTablesInMyTables(t *testing.T) {
	p := newProjEnv(t, 33)
	var ps []player
	for i := range 3 {
		ps = append(ps, p.newPlayer(fmt.Sprintf("t%d", i)))
	}
	r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ps[0].Token, Body: map[string]any{
		"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 3,
	}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var tv tournamentView
	r.Decode(t, &tv)
	for _, pl := range ps {
		r := p.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/join", Token: pl.Token})
		if r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
		r.Decode(t, &tv)
	}
	mine := tv.YourTable
	if mine == nil {
		t.Fatalf("no table after the field filled: %+v", tv)
	}
	for _, pl := range ps {
		if got := listingIDs(p.page("/v1/me/tables", pl.Token)); !slices.Equal(got, []string{*mine}) {
			t.Fatalf("%s's tables %v, want the tournament's table %s", pl.Name, got, *mine)
		}
	}
}

// TestTournamentRefusals: bad openings, an unknown tournament, a
// conditional GET, and what a player may not do.
func TestTournamentRefusals(t *testing.T) {
	e := newEnv(t, 77)
	ann := e.newPlayer("ann")
	for _, c := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 4}, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 0}, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "format": "duplicate", "players": 3}, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 3, "hands_per_table": 0}, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 3, "stake": 0}, "invalid_option"},
		{map[string]any{"game": "doudizhu", "variant": "fourplayer", "format": "elimination", "players": 3}, "invalid_option"},
		{map[string]any{"game": "niuniu", "variant": "classic", "format": "elimination", "players": 3}, "invalid_option"},
		{map[string]any{"game": "chess", "variant": "classic", "format": "elimination", "players": 3}, "unknown_game"},
	} {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ann.Token, Body: c.body, Raw: true})
		if r.Status != http.StatusUnprocessableEntity || r.Problem(t) != c.code {
			t.Errorf("%v: %d %s, want 422 %s", c.body, r.Status, r.Body, c.code)
		}
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ann.Token, Body: `{"game":"doudizhu","variant":"classic","format":"elimination","players":3,"extra":1}`, Raw: true})
	if r.Status != http.StatusBadRequest {
		t.Errorf("an unknown field: %d %s", r.Status, r.Body)
	}
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments/NOPE", Token: ann.Token}); r.Status != http.StatusNotFound || r.Problem(t) != "tournament_not_found" {
		t.Errorf("an unknown tournament: %d %s", r.Status, r.Body)
	}
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/NOPE/join", Token: ann.Token}); r.Status != http.StatusNotFound {
		t.Errorf("joining an unknown tournament: %d %s", r.Status, r.Body)
	}
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ann.Token, Body: map[string]any{"game": "doudizhu", "variant": "classic", "format": "elimination", "players": 3}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var tv tournamentView
	r.Decode(t, &tv)
	if tv.Seed != nil || tv.Status != "registering" || len(tv.Commitment) != 64 {
		t.Fatalf("a new tournament: %+v", tv)
	}
	etag := r.Header.Get("ETag")
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tournaments/" + tv.ID, Token: ann.Token, Header: map[string]string{"If-None-Match": etag}}); r.Status != http.StatusNotModified {
		t.Errorf("a conditional GET at the same version: %d", r.Status)
	}
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/join", Token: auditorToken}); r.Status != http.StatusForbidden {
		t.Errorf("the auditor joining: %d %s", r.Status, r.Body)
	}
	if r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/join", Token: ann.Token, Header: map[string]string{"Idempotency-Key": "k1"}}); r.Status != http.StatusBadRequest || r.Problem(t) != "invalid_condition" {
		t.Errorf("a join with an Idempotency-Key: %d %s", r.Status, r.Body)
	}
	// The secret seed is in no answer before the end.
	r = e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/join", Token: ann.Token})
	if r.Status != http.StatusOK || strings.Contains(string(r.Body), "\"seed\":\"") {
		t.Errorf("join: %d %s", r.Status, r.Body)
	}
}

// duplicateRound opens a duplicate 斗地主 tournament of hands hands a
// table, which six new players join: its first round's two tables are
// dealt. It answers the tournament as the last join left it, its players
// by id, and the players in the order they joined.
func (e *env) duplicateRound(hands int) (tournamentView, map[string]player, []player) {
	t := e.t
	t.Helper()
	byID := map[string]player{}
	var ps []player
	for i := range 6 {
		p := e.newPlayer(fmt.Sprintf("dup%d", i))
		ps = append(ps, p)
		byID[p.ID] = p
	}
	r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments", Token: ps[0].Token, Body: map[string]any{
		"game": "doudizhu", "variant": "classic", "format": "duplicate", "players": 6, "hands_per_table": hands,
	}})
	if r.Status != http.StatusCreated {
		t.Fatalf("open: %d %s", r.Status, r.Body)
	}
	var tv tournamentView
	r.Decode(t, &tv)
	for _, p := range ps {
		r := e.c.Do(apitest.Request{Method: "POST", Path: "/v1/tournaments/" + tv.ID + "/join", Token: p.Token})
		if r.Status != http.StatusOK {
			t.Fatalf("join: %d %s", r.Status, r.Body)
		}
		r.Decode(t, &tv)
	}
	if len(tv.Rounds) != 1 || len(tv.Rounds[0].Tables) != 2 {
		t.Fatalf("six players in duplicate: want one round of two tables, got %+v", tv.Rounds)
	}
	return tv, byID, ps
}

// TestTournamentDuplicateOverREST: six players at two tables play the same
// three deals. While it runs neither table may be read by the other's
// players (nor by anyone else) and no player sees the secret the deals
// derive from; at the end the test proves from the revealed seed alone that
// both tables dealt the very same cards, and recomputes the matchpoints
// from the tables' settlements.
func TestTournamentDuplicateOverREST(t *testing.T) {
	crawlerSkipsUnderRace(t)
	e := newEnv(t, 606)
	tv, byID, ps := e.duplicateRound(3)
	tabA, tabB := tv.Rounds[0].Tables[0], tv.Rounds[0].Tables[1]
	playerB := byID[tabB.Players[0]]
	outsider := e.newPlayer("kibitzer")
	sealed := func(tok string) {
		t.Helper()
		for _, path := range []string{"", "/events", "/legal", "/state?version=3"} {
			r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tabA.TableID + path, Token: tok})
			if r.Status != http.StatusForbidden || r.Problem(t) != "table_sealed" {
				t.Fatalf("GET table A%s by a non-player while the tournament runs: %d %s", path, r.Status, r.Body)
			}
		}
		// /stream loads the table the same way, and so do its tickets.
		resp, p := e.c.Stream(t.Context(), apitest.Request{Path: "/v1/tables/" + tabA.TableID + "/stream", Token: tok})
		if resp != nil {
			resp.Body.Close()
			t.Fatal("a non-player streams table A while the tournament runs")
		}
		if p.Status != http.StatusForbidden || p.Problem(t) != "table_sealed" {
			t.Fatalf("GET table A/stream by a non-player while the tournament runs: %d %s", p.Status, p.Body)
		}
		r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tabA.TableID + "/export", Token: tok})
		if r.Status != http.StatusForbidden {
			t.Fatalf("an export of table A by a non-player: %d %s", r.Status, r.Body)
		}
	}
	sealed(playerB.Token)
	sealed(outsider.Token)
	// Table A plays all its hands first, then table B: while B has deals
	// to play that A has played, B's players may not look at A, nor learn
	// from the tournament how A's hands went.
	play := func(tb string, ids []string) {
		t.Helper()
		var seated []player
		for _, id := range ids {
			seated = append(seated, byID[id])
		}
		for range 10_000 {
			v := e.view(tb, seated[0].Token)
			if v.Turn == nil {
				return
			}
			e.step(tb, seated)
			// No player ever sees the secret the deals derive from.
			if v.HandNumber != e.view(tb, seated[0].Token).HandNumber {
				for _, raw := range e.allEvents(tb, seated[0].Token) {
					if strings.Contains(string(raw), "DealsSecret") {
						t.Fatalf("a player sees the deals' secret: %s", raw)
					}
				}
			}
		}
		t.Fatalf("table %s did not end", tb)
	}
	play(tabA.TableID, tabA.Players)
	tv = e.tournament(tv.ID, playerB.Token)
	if tv.Status != "running" || !tv.Rounds[0].Tables[0].Ended || tv.Rounds[0].Tables[1].Ended {
		t.Fatalf("after table A's match: %+v", tv)
	}
	if tv.Rounds[0].Tables[0].Hands != nil || tv.Scores != nil {
		t.Fatalf("table A's hands shown while B has yet to play them: %+v", tv.Rounds[0].Tables[0])
	}
	sealed(playerB.Token)
	sealed(outsider.Token)
	// (The live stream sends what tournament.Redact leaves: a duplicate
	// result without its hands until the end; the 12-player test reads it.)
	play(tabB.TableID, tabB.Players)
	tv = e.tournament(tv.ID, ps[0].Token)
	if tv.Status != "ended" || tv.Seed == nil || tv.Winner == nil || len(tv.Scores) != 6 {
		t.Fatalf("the duplicate did not end with its seed, winner and scores: %+v", tv)
	}
	// From the revealed seed alone: the deals' secret, its commitment in each
	// table's TableOpened, and every deal's seed.
	seed, _ := hex.DecodeString(*tv.Seed)
	if sum := sha256.Sum256(seed); hex.EncodeToString(sum[:]) != tv.Commitment {
		t.Fatal("the revealed seed does not match the commitment")
	}
	secret := sha256.Sum256(binary.BigEndian.AppendUint64(slices.Clone(seed), 0))
	secretSum := sha256.Sum256(secret[:])
	dealSeed := func(hand, deal int) string {
		in := binary.BigEndian.AppendUint64(slices.Clone(secret[:]), uint64(hand))
		sum := sha256.Sum256(binary.BigEndian.AppendUint64(in, uint64(deal)))
		return hex.EncodeToString(sum[:])
	}
	type dealKey struct{ hand, deal int }
	dealt := map[dealKey]string{}  // the cards of each deal at the first table that dealt it
	deltas := map[string][][]int{} // table → hand → seat deltas
	dealOf := map[string][]int{}   // table → hand → its last deal
	for _, tb := range []string{tabA.TableID, tabB.TableID} {
		var lastDeal dealKey
		for _, ev := range e.auditorEvents(tb) {
			var d struct {
				FixedDeals string          `json:"fixed_deals"`
				Hand       int             `json:"hand"`
				Deal       int             `json:"deal"`
				Hands      json.RawMessage `json:"hands"`
				Kitty      json.RawMessage `json:"kitty"`
				Seed       string          `json:"seed"`
				Deltas     []int           `json:"deltas"`
			}
			mustUnmarshal(t, ev.Data, &d)
			switch ev.Type {
			case "TableOpened":
				if d.FixedDeals != hex.EncodeToString(secretSum[:]) {
					t.Fatalf("table %s commits to %s, not to the tournament's deals", tb, d.FixedDeals)
				}
			case "HandDealt":
				lastDeal = dealKey{d.Hand, d.Deal}
				cardsDealt := string(d.Hands) + string(d.Kitty)
				if prev, ok := dealt[lastDeal]; ok && prev != cardsDealt {
					t.Fatalf("hand %d deal %d differs between the tables", d.Hand, d.Deal)
				}
				dealt[lastDeal] = cardsDealt
			case "HandSettled", "DealVoided":
				if d.Seed != dealSeed(lastDeal.hand, lastDeal.deal) {
					t.Fatalf("table %s hand %d deal %d: seed %s is not the one the tournament's seed derives", tb, lastDeal.hand, lastDeal.deal, d.Seed)
				}
				if ev.Type == "HandSettled" {
					deltas[tb] = append(deltas[tb], d.Deltas)
					dealOf[tb] = append(dealOf[tb], lastDeal.deal)
				}
			}
		}
		if len(deltas[tb]) != 3 {
			t.Fatalf("table %s settled %d hands, want 3", tb, len(deltas[tb]))
		}
	}
	// Matchpoints, recomputed: each seat against the same seat of the other
	// table, hand by hand, where both ended the hand on the same deal.
	want := map[string]float64{}
	for _, pair := range [][2]int{{0, 1}, {1, 0}} {
		me, other := tv.Rounds[0].Tables[pair[0]], tv.Rounds[0].Tables[pair[1]]
		for h := range 3 {
			if dealOf[me.TableID][h] != dealOf[other.TableID][h] {
				continue
			}
			for seat, p := range me.Players {
				switch a, b := deltas[me.TableID][h][seat], deltas[other.TableID][h][seat]; {
				case a > b:
					want[p]++
				case a == b:
					want[p] += 0.5
				}
			}
		}
	}
	for _, sc := range tv.Scores {
		if sc.Matchpoints != want[sc.PlayerID] {
			t.Fatalf("%s has %v matchpoints, recomputed %v", sc.PlayerID, sc.Matchpoints, want[sc.PlayerID])
		}
	}
	if *tv.Winner != tv.Scores[0].PlayerID || tv.Standings[0].PlayerID != *tv.Winner {
		t.Fatalf("winner %s, scores %+v", *tv.Winner, tv.Scores)
	}
	// Once it has ended, anyone may read the tables.
	if r := e.c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tabA.TableID + "/events", Token: playerB.Token}); r.Status != http.StatusOK {
		t.Fatalf("table A after the end: %d %s", r.Status, r.Body)
	}
	for _, tb := range []string{tabA.TableID, tabB.TableID} {
		evs, err := e.store.Load(context.Background(), service.StreamID(tb), 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := audit.VerifyTable(games.All().Rules, evs); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := e.store.Load(context.Background(), service.TournamentStreamID(tv.ID), 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := audit.VerifyTournament(evs); err != nil || !rep.Ended {
		t.Fatalf("verify the tournament: %+v %v", rep, err)
	}
}
