package ratings

import (
	"cmp"
	"math"
	"slices"

	"paiju/domain/table"
)

// Rating is a player's skill belief: mean Mu and standard deviation Sigma.
type Rating struct{ Mu, Sigma float64 }

// Model is the Weng–Lin Plackett–Luce model with paiju's rules for inactivity,
// provisional ratings and bots (doc.go says why each value).
type Model struct {
	Mu, Sigma, Beta, Kappa float64 // Weng–Lin Plackett–Luce parameters
	Tau                    float64 // sigma growth per day of inactivity (sigma' = sqrt(sigma² + days·Tau²), at most Sigma)
	ProvisionalSigma       float64 // a rating is provisional while Sigma > ProvisionalSigma
	BotMu, BotSigma        float64 // the fixed nominal rating a bot seat plays at, never updated
}

// Default is the model the rating boards use. Changing a value changes every
// rating recomputed from the log: it is a new model, not a fix.
func Default() Model {
	return Model{
		Mu:               25,
		Sigma:            25.0 / 3,
		Beta:             25.0 / 6,
		Kappa:            0.0001,
		Tau:              0.25,
		ProvisionalSigma: 4.5,
		BotMu:            25,
		BotSigma:         25.0 / 12,
	}
}

// New is the rating of a player who has not played yet.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// Provisional reports whether r is still too uncertain to rank with
// confidence (Sigma above ProvisionalSigma).
func (m Model) Provisional(r Rating) bool { return r.Sigma > m.ProvisionalSigma }

// Idle is r after days whole days without a rated hand: sigma² grows by Tau²
// a day, up to the initial Sigma (a rating already wider stays as it is); Mu
// is unchanged. Idle(r, a+b) may differ from Idle(Idle(r, a), b) in the last
// bit, so the projection applies it once, with the days between a player's
// consecutive rated hands (docs/AUDIT.md, Ratings).
func (m Model) Idle(r Rating, days int) Rating {
	if days <= 0 || r.Sigma >= m.Sigma {
		return r
	}
	v := float64(r.Sigma*r.Sigma) + float64(float64(days)*float64(m.Tau*m.Tau))
	r.Sigma = min(math.Sqrt(v), m.Sigma)
	return r
}

// step is one player's update from one contest: the change of Mu and the
// factor (at least Kappa) that multiplies Sigma².
type step struct{ dMu, f float64 }

// Rate returns the teams' ratings after one contest; places[i] is team i's
// place (lower is better, equal places tie). Teams of fewer than two, empty
// teams and a places slice of the wrong length leave every rating as it is.
//
// The result does not depend on the order of the teams or of the players in a
// team, to the last bit: permuting them permutes the result. Every sum is
// taken in a canonical order: a team's Mu and Sigma² over its players sorted
// by (Mu, Sigma), and sums over teams in the order of (place, team Mu, team
// Sigma²); teams equal in all three contribute equal terms.
func (m Model) Rate(teams [][]Rating, places []int) [][]Rating {
	steps := m.steps(teams, places)
	out := make([][]Rating, len(teams))
	for i, team := range teams {
		out[i] = make([]Rating, len(team))
		for j, r := range team {
			if steps == nil {
				out[i][j] = r
				continue
			}
			s := steps[i][j]
			out[i][j] = Rating{Mu: r.Mu + s.dMu, Sigma: r.Sigma * math.Sqrt(s.f)}
		}
	}
	return out
}

// teamSum is a team's summed rating and place.
type teamSum struct {
	mu, sigSq float64
	place     int
}

// steps is Algorithm 4 of Weng and Lin with the Plackett–Luce model and
// OpenSkill's default gamma (sqrt(team Sigma²)/c), or nil when the contest
// rates nobody.
func (m Model) steps(teams [][]Rating, places []int) [][]step {
	if len(teams) < 2 || len(places) != len(teams) {
		return nil
	}
	sums := make([]teamSum, len(teams))
	for i, team := range teams {
		if len(team) == 0 {
			return nil
		}
		sorted := slices.Clone(team)
		slices.SortFunc(sorted, func(a, b Rating) int {
			return cmp.Or(cmp.Compare(a.Mu, b.Mu), cmp.Compare(a.Sigma, b.Sigma))
		})
		var mu, sigSq float64
		for _, r := range sorted {
			mu += r.Mu
			sigSq += float64(r.Sigma * r.Sigma)
		}
		sums[i] = teamSum{mu: mu, sigSq: sigSq, place: places[i]}
	}
	order := make([]int, len(teams))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		x, y := sums[a], sums[b]
		return cmp.Or(cmp.Compare(x.place, y.place), cmp.Compare(x.mu, y.mu), cmp.Compare(x.sigSq, y.sigSq))
	})

	betaSq := float64(m.Beta * m.Beta)
	var cSq float64
	for _, i := range order {
		cSq += sums[i].sigSq + betaSq
	}
	c := math.Sqrt(cSq)
	e := make([]float64, len(teams)) // exp(team Mu / c)
	for _, i := range order {
		e[i] = exp(sums[i].mu / c)
	}
	sumQ := make([]float64, len(teams)) // Σ e over the teams placed at or below q
	a := make([]float64, len(teams))    // how many teams share q's place
	for _, q := range order {
		for _, i := range order {
			if sums[i].place >= sums[q].place {
				sumQ[q] += e[i]
			}
			if sums[i].place == sums[q].place {
				a[q]++
			}
		}
	}

	out := make([][]step, len(teams))
	for _, i := range order {
		// A team equal to i in (place, Mu, Sigma²) is i's twin: its terms
		// equal i's own, so the self term is taken at the first of them, and
		// the sum does not depend on where i stands among its twins.
		var omega, delta float64
		self := false
		for _, q := range order {
			if sums[q].place > sums[i].place {
				continue
			}
			quot := e[i] / sumQ[q]
			if sums[q] == sums[i] && !self {
				omega += (1 - quot) / a[q]
				self = true
			} else {
				omega -= quot / a[q]
			}
			delta += float64(quot*(1-quot)) / a[q]
		}
		gamma := math.Sqrt(sums[i].sigSq) / c
		omega = omega * (sums[i].sigSq / c)
		delta = float64(delta*(sums[i].sigSq/float64(c*c))) * gamma
		out[i] = make([]step, len(teams[i]))
		for j, r := range teams[i] {
			share := float64(r.Sigma*r.Sigma) / sums[i].sigSq
			out[i][j] = step{
				dMu: float64(share * omega),
				f:   max(1-float64(share*delta), m.Kappa),
			}
		}
	}
	return out
}

// Seat is a seat's player in a rated hand; Bot seats (bots, or seats the bot
// played for the whole hand) are rated at the bot's nominal rating and never
// updated. A seat without a player counts as a bot seat.
type Seat struct {
	Player string
	Bot    bool
}

// Hand rates one settled hand: contests from table.Rated, seats by seat
// number, before = each human's rating as it stands (after Idle; a human
// missing from it is New). It returns the new ratings of the humans who are
// in a team of some contest; nobody else is in it.
//
// Every contest is rated from the hand's before ratings (a hand is one
// observation per contest, as 牛牛's bouts against the banker are: the
// banker's result against the seat-1 player says nothing about the bout with
// seat 2). A human in several contests gets the sum of their Mu changes and
// the product of their Sigma² factors (at least Kappa), each taken in
// ascending order of value, so that the result does not depend on the order
// of the contests or of the seats; in one contest it is exactly Rate's. A
// contest whose teams name no seat (or seats out of range) or fewer than two
// non-empty teams is skipped.
func (m Model) Hand(contests []table.Contest, seats []Seat, before map[string]Rating) map[string]Rating {
	type acc struct {
		start  Rating
		dMu, f []float64
	}
	accs := map[string]*acc{}
	bot := Rating{Mu: m.BotMu, Sigma: m.BotSigma}
	for _, c := range contests {
		teams := make([][]Rating, 0, len(c.Teams))
		who := make([][]string, 0, len(c.Teams)) // "" for a bot seat
		places := make([]int, 0, len(c.Teams))
		for t, seatNums := range c.Teams {
			if t >= len(c.Places) {
				break
			}
			var team []Rating
			var names []string
			for _, s := range seatNums {
				if s < 0 || s >= len(seats) {
					continue
				}
				if seats[s].Bot || seats[s].Player == "" {
					team = append(team, bot)
					names = append(names, "")
					continue
				}
				p := seats[s].Player
				r, ok := before[p]
				if !ok {
					r = m.New()
				}
				team = append(team, r)
				names = append(names, p)
			}
			if len(team) == 0 {
				continue
			}
			teams = append(teams, team)
			who = append(who, names)
			places = append(places, c.Places[t])
		}
		steps := m.steps(teams, places)
		if steps == nil {
			continue
		}
		for i, names := range who {
			for j, p := range names {
				if p == "" {
					continue
				}
				a := accs[p]
				if a == nil {
					a = &acc{start: teams[i][j]}
					accs[p] = a
				}
				a.dMu = append(a.dMu, steps[i][j].dMu)
				a.f = append(a.f, steps[i][j].f)
			}
		}
	}
	out := make(map[string]Rating, len(accs))
	for p, a := range accs {
		slices.Sort(a.dMu)
		slices.Sort(a.f)
		var dMu float64
		for _, d := range a.dMu {
			dMu += d
		}
		f := 1.0
		for _, x := range a.f {
			f = float64(f * x)
		}
		f = max(f, m.Kappa)
		out[p] = Rating{Mu: a.start.Mu + dMu, Sigma: a.start.Sigma * math.Sqrt(f)}
	}
	return out
}

// Win is the probability the model gives each team of placing first in a
// contest of teams (Plackett–Luce: exp(mu_i/c) over the sum of them). No
// rating depends on it: it is for reports and for tests that compare the
// model's expectations with results.
func (m Model) Win(teams [][]Rating) []float64 {
	var cSq float64
	mus := make([]float64, len(teams))
	for i, team := range teams {
		for _, r := range team {
			mus[i] += r.Mu
			cSq += float64(r.Sigma * r.Sigma)
		}
		cSq += float64(m.Beta * m.Beta)
	}
	c := math.Sqrt(cSq)
	out := make([]float64, len(teams))
	var sum float64
	for i := range teams {
		out[i] = exp(mus[i] / c)
		sum += out[i]
	}
	for i := range out {
		out[i] /= sum
	}
	return out
}
