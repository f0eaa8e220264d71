package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"paiju/api/apitest"
	"paiju/audit"
	"paiju/projections"
)

// TestVerifyExportRatings: three players play three hands of 斗地主 over
// REST; paiju verify FILE --ratings, with no server and no database, rates
// the export's hands again from the ratings before them that the players'
// histories (as the API serves them, pages concatenated or one page) give,
// and finds the ratings after them equal to the histories' to the last bit.
// Without one player's history every hand is unverifiable, not a fault; one
// bit flipped in a rating after a hand is a fault naming the hand and the
// player.
func TestVerifyExportRatings(t *testing.T) {
	dir := t.TempDir()
	base, _, stop := startServer(t, dir)
	c := apitest.New(t, base)
	tv, ps := seatThree(t, c)
	rng := rand.New(rand.NewPCG(38, 39))
	const hands = 3
	settled := 0
	for step := 0; settled < hands && step < 3000; step++ {
		var v struct {
			Turn *int `json:"turn"`
		}
		c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID, Token: ps[0].Token}).Decode(t, &v)
		if v.Turn == nil {
			time.Sleep(10 * time.Millisecond) // between hands: the next deal comes
			continue
		}
		p := ps[*v.Turn]
		r := playRandomChoice(t, c, tv.ID, p.Token, rng)
		if strings.Contains(string(r.Body), `"HandSettled"`) {
			settled++
		}
	}
	if settled != hands {
		t.Fatalf("%d hands settled, want %d", settled, hands)
	}
	// The histories, once the projection has rated the three hands: ann's
	// a page of two at a time, concatenated; ben's and cat's one page.
	files := make([]string, len(ps))
	var benPage projections.PlayerRatings
	for i, p := range ps {
		var body []byte
		for try := 0; ; try++ {
			body = nil
			rows, cursor := 0, ""
			for {
				path := "/v1/players/" + p.ID + "/ratings?history=true"
				if i == 0 {
					path += "&limit=2&cursor=" + cursor
				}
				r := c.Do(apitest.Request{Method: "GET", Path: path, Token: p.Token})
				if r.Status != http.StatusOK {
					t.Fatalf("ratings of %s: %d %s", p.ID, r.Status, r.Body)
				}
				var pr projections.PlayerRatings
				r.Decode(t, &pr)
				body = append(body, r.Body...)
				rows += len(pr.History)
				if i == 1 {
					benPage = pr
				}
				if cursor = pr.Next; cursor == "" {
					break
				}
			}
			if rows == hands {
				break
			}
			if try == 2000 {
				t.Fatalf("ratings of %s: %d rated hands, want %d", p.ID, rows, hands)
			}
			time.Sleep(10 * time.Millisecond)
		}
		files[i] = filepath.Join(dir, p.ID+".json")
		if err := os.WriteFile(files[i], body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := c.Do(apitest.Request{Method: "GET", Path: "/v1/tables/" + tv.ID + "/export", Token: "audit-me"})
	if r.Status != http.StatusOK {
		t.Fatalf("export: %d %s", r.Status, r.Body)
	}
	if err := stop(); err != nil {
		t.Fatalf("serve returned %v", err)
	}
	export := filepath.Join(dir, "table.jsonl")
	if err := os.WriteFile(export, r.Body, 0o600); err != nil {
		t.Fatal(err)
	}

	out, err := runCLI("verify", export, "--ratings", strings.Join(files, ","))
	if err != nil {
		t.Fatalf("verify --ratings: %v\n%s", err, out)
	}
	t.Logf("paiju verify %s --ratings …:\n%s", filepath.Base(export), out)
	if !strings.Contains(out, "ratings ok: 3 hands checked of 3 settled (0 unverifiable), 9 rating changes equal to the histories to the last bit, players covered: 3") {
		t.Fatalf("verify --ratings said:\n%s", out)
	}

	// Without cat's history no hand can be rated again: said, not a fault.
	out, err = runCLI("verify", export, "--ratings", files[0]+","+files[1])
	if err != nil {
		t.Fatalf("verify --ratings without one history: %v\n%s", err, out)
	}
	if strings.Count(out, "unverifiable hand "+tv.ID) != hands || !strings.Contains(out, "no rating history given for "+ps[2].ID) ||
		!strings.Contains(out, "ratings ok: 0 hands checked of 3 settled (3 unverifiable)") {
		t.Fatalf("verify --ratings without cat's history said:\n%s", out)
	}

	// ann's history in pages of a hand, each a file: they join when none
	// is left out; without the second, the third does not join the first.
	annBody, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var ann []projections.RatingHistoryRow
	for dec := json.NewDecoder(bytes.NewReader(annBody)); dec.More(); {
		var pr projections.PlayerRatings
		if err := dec.Decode(&pr); err != nil {
			t.Fatal(err)
		}
		ann = append(ann, pr.History...)
	}
	pages := make([]string, len(ann))
	for i, row := range ann {
		b, err := json.Marshal(projections.PlayerRatings{PlayerID: ps[0].ID, Ratings: []projections.CurrentRating{}, History: []projections.RatingHistoryRow{row}})
		if err != nil {
			t.Fatal(err)
		}
		pages[i] = filepath.Join(dir, fmt.Sprintf("ann-%d.json", i+1))
		if err := os.WriteFile(pages[i], b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, err = runCLI("verify", export, "--ratings", strings.Join(append(slices.Clone(pages), files[1:]...), ","))
	if err != nil || !strings.Contains(out, "ratings ok: 3 hands checked of 3 settled") {
		t.Fatalf("verify --ratings with ann's history a page a hand: %v\n%s", err, out)
	}
	out, err = runCLI("verify", export, "--ratings", strings.Join(append([]string{pages[0], pages[2]}, files[1:]...), ","))
	t.Logf("a page left out:\n%v", err)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("page 2 (%s), position %d (hand %s)", pages[2], ann[2].Position, ann[2].HandID)) ||
		!strings.Contains(err.Error(), fmt.Sprintf("of page 1 (%s), position %d", pages[0], ann[0].Position)) {
		t.Fatalf("verify --ratings with ann's second page left out: %v\n%s", err, out)
	}

	// One bit of ben's rating after his second hand flipped: a fault.
	if len(benPage.History) != hands {
		t.Fatalf("ben's page has %d rows", len(benPage.History))
	}
	h := &benPage.History[1]
	h.After.Rating = math.Float64frombits(math.Float64bits(h.After.Rating) ^ 1)
	b, err := json.Marshal(benPage)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(files[1], b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err = runCLI("verify", export, "--ratings", strings.Join(files, ","))
	t.Logf("one bit off:\n%s", out)
	if !errors.Is(err, audit.ErrFault) || !strings.Contains(out, "FAULT") ||
		!strings.Contains(out, "hand "+h.HandID+", player "+ps[1].ID+": the history's rating after the hand is") {
		t.Fatalf("verify --ratings of a history one bit off: %v\n%s", err, out)
	}
}
