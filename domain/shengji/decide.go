package shengji

import (
	"slices"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// Action types of the game, besides the table's escape.
const (
	ActionDraw    = "draw"
	ActionDeclare = "declare"
	ActionPass    = "pass"
	ActionBury    = "bury"
	ActionPlay    = "play"
)

// Decide validates an action of seat and returns the events it causes.
// Errors are *table.Error; their messages name only the caller's own cards.
func (r *Rules) Decide(s *State, seat int, a table.Action) ([]table.Payload, error) {
	if seat < 0 || seat >= seats {
		return nil, table.ErrNoSuchSeat.With("seat %d does not exist: this table has seats 0..3", seat)
	}
	switch a.Type {
	case table.ActionEscape, ActionDraw, ActionDeclare, ActionPass, ActionBury, ActionPlay:
	case ActionReinforce, ActionStick, ActionExchange, ActionSwap:
		if !s.v.jokerDeclarations {
			return nil, table.ErrUnknownAction.With("shengji/%s has no action %q (actions: draw, declare, pass, bury, play, escape)", s.v.name, a.Type)
		}
		if a.Type == ActionSwap && s.v.noKittySwap {
			return nil, table.ErrUnknownAction.With("shengji/%s has no action %q under rules %s (actions: draw, declare, reinforce, stick, pass, bury, exchange, play, escape)", s.v.name, a.Type, s.v.version)
		}
	default:
		if s.v.jokerDeclarations {
			return nil, table.ErrUnknownAction.With("shengji has no action %q (actions: draw, declare, reinforce, stick, pass, bury, exchange, swap, play, escape)", a.Type)
		}
		return nil, table.ErrUnknownAction.With("shengji has no action %q (actions: draw, declare, pass, bury, play, escape)", a.Type)
	}
	if a.Bid != nil || a.As != "" {
		return nil, table.ErrBadAction.With(`shengji actions take "type" and, for declare, bury and play, "cards"; never "bid" or "as"`)
	}
	withCards := a.Type == ActionDeclare || a.Type == ActionBury || a.Type == ActionPlay ||
		a.Type == ActionReinforce || a.Type == ActionStick || a.Type == ActionExchange || a.Type == ActionSwap
	if withCards {
		if len(a.Cards) == 0 {
			return nil, table.ErrBadAction.With(`%s takes "cards"`, a.Type)
		}
		for i, c := range a.Cards {
			if !c.Valid() {
				return nil, table.ErrBadAction.With("card %d is not a card", i+1)
			}
		}
	} else if len(a.Cards) > 0 {
		return nil, table.ErrBadAction.With(`%s takes no "cards"`, a.Type)
	}
	if s.phase == phaseWaiting {
		return nil, table.ErrWrongPhase.With("no hand is running")
	}
	switch a.Type {
	case table.ActionEscape:
		return s.escape(seat)
	case ActionDraw:
		if s.phase != phaseDrawing {
			return nil, table.ErrWrongPhase.With("every card is drawn: the hand is %s", s.phase)
		}
		drawn := make([][]cards.Card, seats)
		for i := range seats {
			drawn[i] = []cards.Card{s.dealt[i][s.round]}
		}
		return []table.Payload{CardsDrawn{Seat: seat, Round: s.round + 1, Cards: drawn}}, nil
	case ActionDeclare:
		if s.v.qiangbao {
			return s.qiangbaoDeclare(seat, a.Cards)
		}
		if s.v.jokerDeclarations {
			return s.guafengDeclare(seat, a.Cards, false)
		}
		return s.decideDeclare(seat, a.Cards)
	case ActionStick:
		return s.guafengDeclare(seat, a.Cards, true)
	case ActionReinforce:
		return s.guafengReinforce(seat, a.Cards)
	case ActionExchange:
		return s.guafengExchange(seat, a.Cards)
	case ActionSwap:
		return s.guafengSwap(seat, a.Cards)
	case ActionPass:
		if s.swapStep() {
			return s.guafengSwapPass(seat)
		}
		if s.phase != phaseWindow {
			return nil, table.ErrWrongPhase.With("pass belongs to the final declaration window; the hand is %s", s.phase)
		}
		if s.passed[seat] {
			return nil, ErrAlreadyPassed.With("you have passed already; the window closes when every seat has")
		}
		evs := []table.Payload{DeclarePassed{Seat: seat}}
		for i := range seats {
			if i != seat && !s.passed[i] {
				return evs, nil
			}
		}
		return append(evs, s.closeDeal()...), nil
	case ActionBury:
		return s.decideBury(seat, a.Cards)
	case ActionPlay:
		return s.decidePlay(seat, a.Cards)
	}
	panic("shengji: unreachable: action types are checked above")
}

// decideDeclare checks a declaration (shengji.md, The deal and trump
// declaration, ningyang): one joker and one or more pairs of one suit, made
// of cards already drawn, strictly stronger than the standing one.
func (s *State) decideDeclare(seat int, cs []cards.Card) ([]table.Payload, error) {
	if s.phase != phaseDrawing && s.phase != phaseWindow {
		return nil, table.ErrWrongPhase.With("declarations are over: the hand is %s", s.phase)
	}
	if s.passed[seat] {
		return nil, ErrAlreadyPassed.With("you passed in the final window and may not declare any more")
	}
	if missing := s.held[seat].Missing(cs); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you have not drawn %s", cards.Format(missing))
	}
	d, ok := s.order.readDeclaration(cs)
	if !ok {
		return nil, ErrNotDeclaration.With("%s is not one joker with a pair or a tractor of one suit (shengji.md, ningyang declarations)", cards.Format(cs))
	}
	if s.declarer >= 0 {
		cur := s.decls[s.declarer]
		if cur.seat == seat {
			return nil, ErrAlreadyDeclared.With("your declaration stands; an override must come from another seat (shengji.md, ningyang: 反主)")
		}
		if d.pairs <= cur.pairs {
			return nil, ErrDeclarationWeak.With("seat %d declared with %d pair(s): an override needs more pairs (shengji.md, ningyang: equal strength, the first stands)", cur.seat, cur.pairs)
		}
	}
	s.order.Sort(d.cards)
	return []table.Payload{TrumpDeclared{Seat: seat, Cards: d.cards, Suit: suitName(d.suit), Jokers: 1, Pairs: d.pairs}}, nil
}

// readDeclaration reads cs as a ningyang declaration: exactly one joker
// (either; its size never matters) and k ≥ 1 pairs of one suit; with k ≥ 2
// the pairs form a tractor of that suit with the level rank left out, and no
// level card may join them (a level card ranks above the suit's A). The
// single pair may be of any rank, the level's included.
func (o Order) readDeclaration(cs []cards.Card) (declaration, bool) {
	jokers := 0
	var rest []cards.Card
	for _, c := range cs {
		if c.IsJoker() {
			jokers++
		} else {
			rest = append(rest, c)
		}
	}
	if jokers != 1 || len(rest) < 2 || len(rest)%2 != 0 {
		return declaration{}, false
	}
	suit := rest[0].Suit
	m := cards.Of(rest)
	var ps []int
	for i, k := range m {
		if k == 0 {
			continue
		}
		c := cards.FromIndex(i)
		if k != 2 || c.Suit != suit {
			return declaration{}, false
		}
		if len(rest) > 2 && c.Rank == o.Level {
			return declaration{}, false
		}
		ps = append(ps, o.plainPos(c.Rank))
	}
	slices.Sort(ps)
	if ps[len(ps)-1]-ps[0]+1 != len(ps) {
		return declaration{}, false
	}
	return declaration{cards: slices.Clone(cs), suit: suit, pairs: len(ps)}, true
}

// closeDeal ends the deal once every seat has passed in the final window
// (shengji.md, The deal): the standing declaration fixes the trump suit, or
// the kitty is flipped; the dealer takes the kitty.
func (s *State) closeDeal() []table.Payload {
	if s.v.qiangbao {
		return s.qiangbaoClose()
	}
	var evs []table.Payload
	dealer := s.dealer
	level := s.order.Level
	var declarer *int
	if s.declarer >= 0 {
		d := s.decls[s.declarer].seat
		declarer = &d
		if dealer < 0 {
			// First hand: the declarer's partner deals (ningyang); the
			// declarer deals (guafeng).
			dealer = partner(d)
			if s.v.declarerDeals {
				dealer = d
			}
		}
	} else {
		if s.v.menPai && dealer < 0 {
			// guafeng: a first hand nobody declares is dealt again.
			return []table.Payload{table.DealVoided{Hand: s.hand, Deal: s.deal, Reason: "no_declaration", Seed: s.Seed}}
		}
		i := slices.IndexFunc(s.kitty, func(c cards.Card) bool { return !c.IsJoker() })
		if i < 0 {
			return []table.Payload{table.DealVoided{Hand: s.hand, Deal: s.deal, Reason: "kitty_all_jokers", Seed: s.Seed}}
		}
		if s.v.menPai {
			// 悶牌: the dealer side drops a level, not below the first
			// (start_level).
			side := sideOf(dealer)
			l := max(s.o.first(), s.levels[side]-1)
			level = levelRank(l)
			evs = append(evs, LevelDropped{Side: side, Level: s.o.levelName(l)})
		}
		evs = append(evs, KittyFlipped{Cards: slices.Clone(s.kitty[:i+1]), Suit: suitName(s.kitty[i].Suit)})
		if dealer < 0 {
			dealer = s.fallback
		}
	}
	kitty := slices.Clone(s.kitty)
	taken := KittyTaken{Seat: dealer, Declarer: declarer, Level: level.String(), Cards: kitty}
	if s.v.partnerBuries && declarer != nil && *declarer == dealer {
		b := partner(dealer)
		taken.Burier = &b
	}
	return append(evs, taken)
}

// decideBury: the dealer buries any 4 of their 30 cards (扣底, no limits).
func (s *State) decideBury(seat int, cs []cards.Card) ([]table.Payload, error) {
	if s.phase != phaseBurying {
		return nil, table.ErrWrongPhase.With("nothing to bury: the hand is %s", s.phase)
	}
	if seat != s.burier {
		if s.burier != s.dealer {
			return nil, ErrNotDealer.With("seat %d, the dealer's partner, buries the kitty (shengji.md, Kitty, guafeng)", s.burier)
		}
		return nil, ErrNotDealer.With("seat %d, the dealer, buries the kitty", s.dealer)
	}
	if s.v.qiangbao {
		return s.qiangbaoBury(seat, cs)
	}
	if len(cs) != kittyLen {
		return nil, ErrBuryFour.With("bury exactly %d cards, not %d (shengji.md, Kitty)", kittyLen, len(cs))
	}
	if missing := s.held[seat].Missing(cs); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", cards.Format(missing))
	}
	if s.v.partnerBuries {
		if err := s.guafengCheckBury(seat, cs); err != nil {
			return nil, err
		}
	}
	buried := slices.Clone(cs)
	s.order.Sort(buried)
	evs := []table.Payload{KittyBuried{Seat: seat, Cards: buried}}
	if s.declarer >= 0 {
		d := s.decls[s.declarer]
		evs = append(evs, TrumpRevealed{Seat: d.seat, Cards: slices.Clone(d.cards), Suit: suitName(d.suit)})
		if len(d.stuck) > 0 {
			evs = append(evs, s.take(d.seat, d.stuck[0]))
		}
	}
	return evs, nil
}

// decidePlay checks a lead or a follow (shengji.md, Plays) and, with the
// trick's fourth play, the trick's winner and, after the last trick (hands
// empty), the settlement.
func (s *State) decidePlay(seat int, cs []cards.Card) ([]table.Payload, error) {
	if s.phase != phasePlaying {
		return nil, table.ErrWrongPhase.With("no trick is being played: the hand is %s", s.phase)
	}
	if seat != s.turn {
		return nil, table.ErrNotYourTurn.With("it is seat %d's turn", s.turn)
	}
	if missing := s.held[seat].Missing(cs); len(missing) > 0 {
		return nil, table.ErrCardNotInHand.With("you do not hold %s", cards.Format(missing))
	}
	play := slices.Clone(cs)
	s.order.Sort(play)
	rd, ok := s.order.read(play)
	if len(s.trick) == 0 {
		if !ok {
			return nil, table.ErrInvalidCombo.With("%s is not a single, a pair or a tractor of one suit-class; no throws (shengji.md, Plays, ningyang)", cards.Format(play))
		}
	} else if err := s.order.checkFollow(s.held[seat], s.trick[0].cards, play); err != nil {
		return nil, err
	}
	shape := "mixed"
	if ok {
		shape = rd.shape.String()
	}
	evs := []table.Payload{CardsPlayed{Seat: seat, Cards: play, Shape: shape}}
	if len(s.trick) < seats-1 {
		return evs, nil
	}
	plays := append(slices.Clone(s.trick), trickPlay{seat: seat, cards: play})
	win, winShape, winTrump := s.order.trickWinner(plays)
	pts := 0
	for _, p := range plays {
		pts += points(p.cards)
	}
	def := s.defPts
	if s.isDefender(win) {
		def += pts
	}
	evs = append(evs, TrickWon{Trick: s.tricks + 1, Seat: win, Points: pts, Defenders: def})
	// Every seat holds as many cards as the others: the hand ends when the
	// last player of a trick has played out.
	if s.held[seat].Len() == len(play) {
		settled, err := s.settlePlayedOut(win, winShape, winTrump, def)
		if err != nil {
			return nil, err
		}
		evs = append(evs, settled...)
	}
	return evs, nil
}

// trickWinner is the seat whose play wins the trick, the lead's shape and
// whether the winning play is trumps (shengji.md, Plays: the highest play of
// the lead's shape; a ruff wins only with the lead's shape; equal plays go
// to the first).
func (o Order) trickWinner(plays []trickPlay) (int, Shape, bool) {
	lead, _ := o.read(plays[0].cards)
	best, win := lead, plays[0].seat
	for _, p := range plays[1:] {
		r, ok := o.read(p.cards)
		if beats(r, ok, best, lead.class) {
			best, win = r, p.seat
		}
	}
	return win, lead.shape, best.class == trumpClass
}
