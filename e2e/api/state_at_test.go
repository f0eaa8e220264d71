package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"testing"

	"paiju/api/apitest"
	"paiju/domain/table"
	"paiju/games"
)

// playWholeHand plays random legal actions (never escape or delegate), by
// whichever seat has one, until hand 1 settles; it works for games where
// several seats act at once (牛牛). It returns the table's version then.
func (e *env) playWholeHand(id string, ps []player) int {
	e.t.Helper()
	for range 3000 {
		for _, ev := range e.actOnce(id, ps).Events {
			if ev.Type == "HandSettled" {
				return ev.Version
			}
		}
	}
	e.t.Fatalf("hand 1 did not settle in 3000 actions")
	return 0
}

// TestStateAtEveryVersion reads GET /state?at=N at every version of a whole
// hand of every game variant, as every seat, a spectator and the auditor:
// each answer is a 200 with a Table (validated against openapi.yaml) of
// version N (DESIGN.md, HTTP API: a seat sees only what it may — and always
// sees a table). The hand is played at table.MaxStake, so its settlement is
// also the largest stake's (rules/README.md, Stakes and settlement). It is
// one client's crawl: make test's pass without -race reads every variant,
// the race pass skips it, and -short alone reads one variant of each game.
func TestStateAtEveryVersion(t *testing.T) {
	crawlerSkipsUnderRace(t)
	t.Parallel() // one of the package's longest tests: they run side by side
	reg := games.All()
	var names []string
	for name := range reg {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		variants := reg[name].Variants()
		if testing.Short() {
			variants = variants[:1]
		}
		for _, variant := range variants {
			t.Run(name+"/"+variant, func(t *testing.T) {
				r, err := reg[name].Rules(variant, nil)
				if err != nil {
					t.Fatal(err)
				}
				e := newEnv(t, 11)
				id, ps := e.openTable(map[string]any{"game": name, "variant": variant, "stake": table.MaxStake}, r.Seats())
				settledAt := e.playWholeHand(id, ps)
				viewers := map[string]string{"spectator": e.newPlayer("spectator").Token, "auditor": auditorToken}
				for seat, p := range ps {
					viewers[fmt.Sprintf("seat %d", seat)] = p.Token
				}
				for n := 1; n <= settledAt; n++ {
					for who, token := range viewers {
						r := e.c.Do(apitest.Request{Method: "GET", Path: fmt.Sprintf("/v1/tables/%s/state?at=%d", id, n), Token: token})
						if r.Status != http.StatusOK || len(r.Body) == 0 {
							t.Fatalf("%s reads state?at=%d: %d %q, want 200 with the table", who, n, r.Status, r.Body)
						}
						var v tableView
						r.Decode(t, &v)
						if v.Version != n {
							t.Fatalf("%s reads state?at=%d: version %d, want %d", who, n, v.Version, n)
						}
					}
				}
			})
		}
	}
}
