package ratings

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"paiju/domain/table"
)

// TestReferenceVectors rates the published vectors of openskill.js (see
// testdata/openskill.json for where each comes from) and wants the same
// numbers to the last bit.
func TestReferenceVectors(t *testing.T) {
	raw, err := os.ReadFile("testdata/openskill.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Name, Source string
			Tau          float64
			Teams        [][]Rating
			Places       []int
			Want         [][]Rating
			Tolerance    float64
		}
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Cases) == 0 {
		t.Fatal("no cases")
	}
	m := Default()
	for _, c := range doc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			teams := make([][]Rating, len(c.Teams))
			for i, team := range c.Teams {
				for _, r := range team {
					if c.Tau > 0 {
						r.Sigma = math.Sqrt(float64(r.Sigma*r.Sigma) + float64(c.Tau*c.Tau))
					}
					teams[i] = append(teams[i], r)
				}
			}
			got := m.Rate(teams, c.Places)
			for i := range c.Want {
				for j, w := range c.Want[i] {
					g := got[i][j]
					if math.Abs(g.Mu-w.Mu) > c.Tolerance || math.Abs(g.Sigma-w.Sigma) > c.Tolerance {
						t.Errorf("team %d player %d: got %v, want %v (%s)", i, j, g, w, c.Source)
					}
				}
			}
		})
	}
}

// TestExp holds exp within 1 ulp of math.Exp over the range ratings use and
// beyond, and pins a few values so that a change of the algorithm (which
// would change recomputed ratings) cannot pass unnoticed.
func TestExp(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 1))
	for range 200000 {
		x := (rng.Float64()*2 - 1) * 700
		if rng.IntN(2) == 0 {
			x /= 100
		}
		got, want := exp(x), math.Exp(x)
		if ulps(got, want) > 2 { // each within 1 ulp of e^x
			t.Fatalf("exp(%v) = %v, math.Exp = %v: %d ulps apart", x, got, want, ulps(got, want))
		}
	}
	for _, c := range []struct{ x, want float64 }{
		{0, 1}, {1, 2.718281828459045}, {-1, 0.36787944117144233},
		{2.1213203435596424, 8.342144716476795}, {709, 8.218407461554972e+307},
		{710, math.Inf(1)}, {-746, 0},
	} {
		if got := exp(c.x); got != c.want {
			t.Errorf("exp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
	if !math.IsNaN(exp(math.NaN())) {
		t.Error("exp(NaN) is not NaN")
	}
}

func ulps(a, b float64) int64 {
	d := int64(math.Float64bits(a)) - int64(math.Float64bits(b))
	if d < 0 {
		return -d
	}
	return d
}

// randomRating is a rating a player could have.
func randomRating(rng *rand.Rand) Rating {
	return Rating{Mu: 10 + rng.Float64()*30, Sigma: 0.5 + rng.Float64()*8}
}

// TestRatePermutation: permuting the teams of a contest, and the players of a
// team, permutes the result to the last bit (the rating is symmetric in seat
// order).
func TestRatePermutation(t *testing.T) {
	m := Default()
	rng := rand.New(rand.NewPCG(38, 2))
	for n := range 5000 {
		k := 2 + rng.IntN(3)
		teams := make([][]Rating, k)
		places := make([]int, k)
		for i := range teams {
			for range 1 + rng.IntN(3) {
				teams[i] = append(teams[i], randomRating(rng))
			}
			places[i] = rng.IntN(k)
		}
		if n%7 == 0 { // equal teams, so that order among equals is exercised too
			teams[1] = slices.Clone(teams[0])
			places[1] = places[0]
		}
		got := m.Rate(teams, places)
		perm := rng.Perm(k)
		pTeams := make([][]Rating, k)
		pPlaces := make([]int, k)
		inner := make([][]int, k)
		for i, from := range perm {
			inner[i] = rng.Perm(len(teams[from]))
			for _, j := range inner[i] {
				pTeams[i] = append(pTeams[i], teams[from][j])
			}
			pPlaces[i] = places[from]
		}
		pGot := m.Rate(pTeams, pPlaces)
		for i, from := range perm {
			for jj, j := range inner[i] {
				if pGot[i][jj] != got[from][j] {
					t.Fatalf("case %d: teams %v places %v: team %d player %d is %v, permuted %v", n, teams, places, from, j, got[from][j], pGot[i][jj])
				}
			}
		}
	}
}

// TestWinnerRises: a side that always wins rises every hand and its
// opponents fall, and no sigma grows, in each shape our games have. (Sigma
// shrinks little here: a result the ratings already expect carries little
// information, which is the Plackett–Luce model's view of it.)
func TestWinnerRises(t *testing.T) {
	m := Default()
	for _, shape := range []struct {
		name  string
		sizes []int
	}{
		{"斗地主 one against two", []int{1, 2}},
		{"斗地主 two farmers win", []int{2, 1}},
		{"升级 two against two", []int{2, 2}},
		{"打盾 打独 one against three", []int{1, 3}},
		{"牛牛 bout", []int{1, 1}},
		{"three sides", []int{1, 1, 2}},
	} {
		t.Run(shape.name, func(t *testing.T) {
			teams := make([][]Rating, len(shape.sizes))
			places := make([]int, len(shape.sizes))
			for i, n := range shape.sizes {
				for range n {
					teams[i] = append(teams[i], m.New())
				}
				places[i] = i
			}
			for hand := range 300 {
				next := m.Rate(teams, places)
				for i := range teams {
					for j := range teams[i] {
						was, now := teams[i][j], next[i][j]
						if i == 0 && !(now.Mu > was.Mu) {
							t.Fatalf("hand %d: the winner went from %v to %v", hand, was, now)
						}
						if i == len(teams)-1 && !(now.Mu < was.Mu) {
							t.Fatalf("hand %d: the last went from %v to %v", hand, was, now)
						}
						if !(now.Sigma <= was.Sigma) {
							t.Fatalf("hand %d: sigma grew from %v to %v", hand, was.Sigma, now.Sigma)
						}
					}
				}
				teams = next
			}
		})
	}
}

// TestIdle: sigma grows by Tau² a day, never past the initial sigma, and a
// day-less gap changes nothing.
func TestIdle(t *testing.T) {
	m := Default()
	r := Rating{Mu: 30, Sigma: 1.5}
	if got := m.Idle(r, 0); got != r {
		t.Errorf("Idle 0 days: %v, want %v", got, r)
	}
	prev := r
	for _, days := range []int{1, 7, 30, 365, 1000, 5000} {
		got := m.Idle(r, days)
		want := math.Min(math.Sqrt(1.5*1.5+float64(days)*m.Tau*m.Tau), m.Sigma)
		if got.Mu != r.Mu || math.Abs(got.Sigma-want) > 1e-12 || got.Sigma < prev.Sigma {
			t.Errorf("Idle %d days: %v, want sigma %v", days, got, want)
		}
		prev = got
	}
	if got := m.Idle(r, 100000); got.Sigma != m.Sigma {
		t.Errorf("Idle for ever: %v, want sigma %v", got, m.Sigma)
	}
	if !m.Provisional(m.Idle(r, 300)) || m.Provisional(m.Idle(r, 250)) {
		t.Errorf("a settled player is provisional again after about ten months: Idle 250 %v, Idle 300 %v", m.Idle(r, 250), m.Idle(r, 300))
	}
	wide := Rating{Mu: 20, Sigma: m.Sigma + 1}
	if got := m.Idle(wide, 10); got != wide {
		t.Errorf("Idle of a rating wider than new: %v", got)
	}
}

// TestProvisionalAfter: a newcomer who plays hands against established
// players sees sigma shrink with every hand and leaves provisional after a
// few dozen, whatever the results.
func TestProvisionalAfter(t *testing.T) {
	m := Default()
	rng := rand.New(rand.NewPCG(38, 3))
	for _, sizes := range [][]int{{2, 2}, {1, 2}, {1, 3}} {
		newcomer := m.New()
		hands := 0
		for m.Provisional(newcomer) {
			hands++
			if hands > 100 {
				t.Fatalf("sides %v: still provisional after 100 hands: %v", sizes, newcomer)
			}
			teams := make([][]Rating, len(sizes))
			for i, n := range sizes {
				for range n {
					teams[i] = append(teams[i], Rating{Mu: 25, Sigma: 2})
				}
			}
			teams[0][0] = newcomer
			places := []int{0, 1}
			if rng.IntN(2) == 0 {
				places = []int{1, 0}
			}
			next := m.Rate(teams, places)[0][0]
			if !(next.Sigma < newcomer.Sigma) {
				t.Fatalf("sides %v, hand %d: sigma went from %v to %v, want it to shrink with play", sizes, hands, newcomer.Sigma, next.Sigma)
			}
			newcomer = next
		}
		t.Logf("sides %v: provisional for %d hands", sizes, hands)
		if hands < 10 {
			t.Errorf("sides %v: provisional for only %d hands", sizes, hands)
		}
	}
}

// TestHand: a hand's contests rate the humans only, bots at their nominal
// rating; one contest is exactly Rate; several (牛牛's bouts) are rated from
// the same before ratings and combined independently of their order.
func TestHand(t *testing.T) {
	m := Default()
	before := map[string]Rating{"ann": {Mu: 30, Sigma: 3}, "bob": {Mu: 22, Sigma: 5}, "cy": {Mu: 27, Sigma: 6}}
	seats := []Seat{{Player: "ann"}, {Player: "bob"}, {Player: "bots", Bot: true}, {Player: "dee"}}
	bot := Rating{Mu: m.BotMu, Sigma: m.BotSigma}

	t.Run("one contest is Rate", func(t *testing.T) {
		got := m.Hand([]table.Contest{{Teams: [][]int{{0, 2}, {1, 3}}, Places: []int{1, 0}}}, seats, before)
		want := m.Rate([][]Rating{{before["ann"], bot}, {before["bob"], m.New()}}, []int{1, 0})
		if len(got) != 3 || got["ann"] != want[0][0] || got["bob"] != want[1][0] || got["dee"] != want[1][1] {
			t.Errorf("got %v, want ann %v bob %v dee %v and no bot", got, want[0][0], want[1][0], want[1][1])
		}
	})
	t.Run("voided seats are not rated", func(t *testing.T) {
		got := m.Hand([]table.Contest{{Teams: [][]int{{0}, {1}}, Places: []int{0, 1}}}, seats, before)
		if _, ok := got["dee"]; ok || len(got) != 2 {
			t.Errorf("got %v: only ann and bob played", got)
		}
		if got := m.Hand([]table.Contest{{Teams: [][]int{{0}}, Places: []int{0}}}, seats, before); len(got) != 0 {
			t.Errorf("a contest of one side rated %v", got)
		}
		if got := m.Hand(nil, seats, before); len(got) != 0 {
			t.Errorf("no contests rated %v", got)
		}
	})
	t.Run("bouts", func(t *testing.T) {
		bouts := []table.Contest{
			{Teams: [][]int{{0}, {1}}, Places: []int{0, 1}},
			{Teams: [][]int{{0}, {2}}, Places: []int{1, 0}},
			{Teams: [][]int{{0}, {3}}, Places: []int{0, 0}},
		}
		got := m.Hand(bouts, seats, before)
		rev := slices.Clone(bouts)
		slices.Reverse(rev)
		if again := m.Hand(rev, seats, before); again["ann"] != got["ann"] {
			t.Errorf("the banker's rating depends on the order of the bouts: %v, reversed %v", got["ann"], again["ann"])
		}
		// Each bout alone, from the same before rating.
		var dMu float64
		f := 1.0
		for _, b := range bouts {
			one := m.Hand([]table.Contest{b}, seats, before)["ann"]
			dMu += one.Mu - before["ann"].Mu
			f *= (one.Sigma / before["ann"].Sigma) * (one.Sigma / before["ann"].Sigma)
		}
		ann := got["ann"]
		if math.Abs(ann.Mu-(before["ann"].Mu+dMu)) > 1e-12 || math.Abs(ann.Sigma-before["ann"].Sigma*math.Sqrt(f)) > 1e-12 {
			t.Errorf("banker %v, want the bouts' changes combined: mu %v sigma %v", ann, before["ann"].Mu+dMu, before["ann"].Sigma*math.Sqrt(f))
		}
		if got["bob"] != m.Hand(bouts[:1], seats, before)["bob"] {
			t.Errorf("a player's bout is rated alone: %v", got["bob"])
		}
	})
}

// TestHandPermutation: renumbering the seats of a hand (and its contests
// with them) gives every player the same rating to the last bit.
func TestHandPermutation(t *testing.T) {
	m := Default()
	rng := rand.New(rand.NewPCG(38, 4))
	names := []string{"a", "b", "c", "d"}
	for n := range 2000 {
		before := map[string]Rating{}
		seats := make([]Seat, 4)
		for s := range seats {
			seats[s] = Seat{Player: names[s], Bot: rng.IntN(5) == 0}
			before[names[s]] = randomRating(rng)
		}
		var contests []table.Contest
		switch n % 3 {
		case 0: // partnerships
			contests = []table.Contest{{Teams: [][]int{{0, 2}, {1, 3}}, Places: []int{rng.IntN(2), rng.IntN(2)}}}
		case 1: // one against three
			contests = []table.Contest{{Teams: [][]int{{1}, {0, 2, 3}}, Places: []int{rng.IntN(2), rng.IntN(2)}}}
		case 2: // bouts against a banker
			for s := 1; s < 4; s++ {
				contests = append(contests, table.Contest{Teams: [][]int{{0}, {s}}, Places: []int{rng.IntN(2), rng.IntN(2)}})
			}
		}
		got := m.Hand(contests, seats, before)
		perm := rng.Perm(4) // seat s moves to perm[s]
		pSeats := make([]Seat, 4)
		for s, to := range perm {
			pSeats[to] = seats[s]
		}
		var pContests []table.Contest
		for _, c := range contests {
			var pc table.Contest
			for _, team := range c.Teams {
				var pt []int
				for _, s := range team {
					pt = append(pt, perm[s])
				}
				pc.Teams = append(pc.Teams, pt)
			}
			pc.Places = c.Places
			pContests = append(pContests, pc)
		}
		rng.Shuffle(len(pContests), func(i, j int) { pContests[i], pContests[j] = pContests[j], pContests[i] })
		pGot := m.Hand(pContests, pSeats, before)
		if len(got) != len(pGot) {
			t.Fatalf("case %d: %v, renumbered %v", n, got, pGot)
		}
		for p, r := range got {
			if pGot[p] != r {
				t.Fatalf("case %d: %s is %v, renumbered %v", n, p, r, pGot[p])
			}
		}
	}
}
