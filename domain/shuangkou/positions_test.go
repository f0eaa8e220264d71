package shuangkou

import (
	"encoding/json"
	"strings"
	"testing"

	"paiju/domain/cards"
	"paiju/domain/climb"
	"paiju/domain/internal/gametest"
	"paiju/internal/cputime"
)

// The committed benchmark sets of 双扣 positions, one a variant: setLeads
// leads and setFollows follows met by the random-hand driver
// (TestRandomHands's) at table seed 21, a hand on turn and the reading it
// must beat. The driver
// picks from Legal, so a change to Legal's order makes other games, and
// TestPositionSet then asks for the file to be rewritten (-positions).
const setLeads, setFollows = 2000, 2000

type benchPosition struct {
	hand cards.Multiset
	lead *Reading
}

func makePositions(t testing.TB, variant string) []string {
	rt := newRandomTable(t, rulesFor(t, variant), 21)
	var out []string
	leads, follows := 0, 0
	for leads < setLeads || follows < setFollows {
		rt.Step()
		g := gametest.Game[State](rt.St)
		if g.phase != phasePlaying {
			continue
		}
		hand := g.hands[g.turn].Cards()
		climb.Sort(hand)
		lead := "-"
		switch {
		case g.last == nil && leads < setLeads:
			leads++
		case g.last != nil && follows < setFollows:
			follows++
			b, err := json.Marshal(g.last.reading)
			if err != nil {
				t.Fatal(err)
			}
			lead = string(b)
		default:
			continue
		}
		out = append(out, cards.Format(hand)+"|"+lead)
	}
	return out
}

var setVariants = []string{"baibian", "classic"}

func TestPositionSet(t *testing.T) {
	for _, v := range setVariants {
		t.Run(v, func(t *testing.T) { gametest.CheckPositions(t, v, makePositions(t, v)) })
	}
}

func loadPositions(t testing.TB, variant string) []benchPosition {
	var out []benchPosition
	for _, l := range gametest.ReadPositions(t, variant) {
		hand, lead, ok := strings.Cut(l, "|")
		if !ok {
			t.Fatalf("bad position %q", l)
		}
		p := benchPosition{hand: cards.Of(cards.MustParse(hand))}
		if lead != "-" {
			p.lead = new(Reading)
			if err := json.Unmarshal([]byte(lead), p.lead); err != nil {
				t.Fatalf("bad lead in %q: %v", l, err)
			}
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkLegalSet lists Legal's plays at each position of the committed
// sets, one position an op (positions/s = 1e9 / ns/op).
func BenchmarkLegalSet(b *testing.B) {
	for _, variant := range setVariants {
		b.Run(variant, func(b *testing.B) {
			ps := loadPositions(b, variant)
			if len(ps) != setLeads+setFollows {
				b.Fatalf("%d positions", len(ps))
			}
			ct := rulesFor(b, variant).v.cardTypes()
			i, plays := 0, 0
			b.ReportAllocs()
			cpu := cputime.Now()
			for b.Loop() {
				plays += len(legalPlays(&ps[i].hand, ps[i].lead, ct))
				if i++; i == len(ps) {
					i = 0
				}
			}
			gametest.ReportCPU(b, cpu)
			b.ReportMetric(float64(plays)/float64(b.N), "plays/op")
		})
	}
}
