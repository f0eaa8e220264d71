package shengji

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"paiju/domain/internal/gametest"
)

// TestDuplicateOptionEveryHandFirst: with option duplicate every hand of a
// table is played as a first hand (doc.go, Options) — dealt at the starting
// level, no level moved and no next dealer named by its settlement, no
// match won — so that tables of a duplicate tournament play each deal under
// the same conditions; only max_hands ends such a table.
func TestDuplicateOptionEveryHandFirst(t *testing.T) {
	gametest.SkipUnderRace(t)
	for _, variant := range variants() {
		t.Run(variant, func(t *testing.T) {
			r := variantRules(t, variant, `{"duplicate":true}`)
			if !strings.Contains(string(r.Options()), `"duplicate":true`) {
				t.Fatalf("options %s", r.Options())
			}
			start := levelName(max(1, r.v.fixedLevel))
			seeds := &gametest.SeedSeq{ID: 2200}
			rng := rand.New(rand.NewPCG(2200, 1))
			players := []gametest.Player{gametest.TimeoutPlayer, gametest.RandomPlayer(rng), gametest.TimeoutPlayer, gametest.RandomPlayer(rng)}
			d := &handDriver{t: t, st: openTable(t, r, 1, seeds), seeds: seeds, players: players}
			played := 0
			for hand := 1; hand <= 6; hand++ {
				hs := d.hand()
				var res Result
				if err := json.Unmarshal(hs.Result, &res); err != nil {
					t.Fatal(err)
				}
				if res.End != endPlayedOut {
					continue
				}
				played++
				if res.NextDealer != nil || res.LevelSteps != 0 || res.MatchWinner != nil || res.MatchPoints != nil {
					t.Fatalf("hand %d carries the match on: %s", hs.Hand, hs.Result)
				}
				for _, l := range res.Levels {
					if l != start {
						t.Fatalf("hand %d moved a level: %s", hs.Hand, hs.Result)
					}
				}
				if res.Level != start {
					t.Fatalf("hand %d played at %s, not %s", hs.Hand, res.Level, start)
				}
				// The first-hand rule chose the dealer: the declarer's
				// partner (ningyang), the declarer (guafeng).
				if !r.v.qiangbao && res.Declarer != nil {
					want := *res.Declarer
					if !r.v.declarerDeals {
						want = partner(want)
					}
					if res.Dealer == nil || *res.Dealer != want {
						t.Fatalf("hand %d: dealer %v, declarer %d: not the first-hand rule", hs.Hand, res.Dealer, *res.Declarer)
					}
				}
				if d.st.Closed {
					t.Fatalf("the table closed itself after hand %d", hs.Hand)
				}
			}
			if played < 3 {
				t.Fatalf("only %d hands played out", played)
			}
		})
	}
}

// TestDuplicateOptionRecorded: duplicate is a boolean of every variant,
// recorded only when true, so that tables opened without it record their
// options as they did before it existed.
func TestDuplicateOptionRecorded(t *testing.T) {
	for _, variant := range variants() {
		for _, opts := range []string{"", `{"duplicate":false}`} {
			r := variantRules(t, variant, opts)
			if strings.Contains(string(r.Options()), "duplicate") {
				t.Errorf("%s %s: options %s", variant, opts, r.Options())
			}
		}
		if _, err := New().Rules(variant, json.RawMessage(`{"duplicate":"yes"}`)); err == nil || !strings.Contains(err.Error(), "duplicate") {
			t.Errorf("%s: a duplicate that is no boolean: %v", variant, err)
		}
	}
}
