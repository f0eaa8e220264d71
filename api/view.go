package api

import (
	"cmp"
	"time"

	"paiju/domain/cards"
	"paiju/domain/table"
	"paiju/service"
)

// tableView is a table as one caller sees it.
type tableView struct {
	ID             string             `json:"id"`
	Game           string             `json:"game"`
	Variant        string             `json:"variant"`
	Stake          int                `json:"stake"`
	Options        any                `json:"options"`
	RulesVersion   string             `json:"rules_version"`
	Version        int                `json:"version"`
	Phase          string             `json:"phase"`
	Turn           *int               `json:"turn"`
	Seat           *int               `json:"seat"`
	HandNumber     int                `json:"hand_number"`
	Hand           []cards.Card       `json:"hand"`
	Seats          []seatView         `json:"seats"`
	GameState      any                `json:"game_state"`
	LastSettlement *table.HandSettled `json:"last_settlement"`
	Closed         bool               `json:"closed"`
	// Clock is the table's turn clock (null: none).
	Clock *table.Clock `json:"clock"`
	// MaxHands: the table closes after that many hands (0: when the game ends).
	MaxHands int `json:"max_hands"`
	// Tournament: the tournament that opened the table, if one did.
	Tournament string `json:"tournament,omitempty"`
	// Private: the table is found and joined by its room code only.
	Private bool `json:"private"`
	// RoomCode is a private table's code, shown to its players (and in the
	// answer that opened it); absent otherwise.
	RoomCode string `json:"room_code,omitempty"`
	// Spectators is the table's spectator policy, the default filled in
	// (a table that recorded a broadcast_delay is served as public).
	Spectators string `json:"spectators"`
	// Watchers: whether a seated player may let another player watch its
	// seat (POST /v1/tables/{id}/watchers).
	Watchers bool `json:"watchers"`
	// WaitBetweenHands: after each hand the next deal waits until every
	// seat is ready (seats[].ready).
	WaitBetweenHands bool `json:"wait_between_hands"`
	// BetweenHands: the table waits for its seats now (a hand has ended);
	// each seat not ready yet has posted no continue, and seats[].deadline
	// is when the clock makes it ready.
	BetweenHands bool `json:"between_hands"`
}

type seatView struct {
	Seat     int     `json:"seat"`
	PlayerID *string `json:"player_id"`
	Name     *string `json:"name"`
	Total    int     `json:"total"`
	// Bot: a server bot holds the seat. Delegated: the bot plays it for its
	// player (托管). Deadline: when the seat's time to act runs out.
	Bot       bool       `json:"bot"`
	Delegated bool       `json:"delegated"`
	Deadline  *time.Time `json:"deadline"`
	// Ready: between hands at a table that waits (between_hands), the
	// seat holds the next deal back no more (its player posted continue,
	// its time ran out, or the server plays it); false otherwise.
	Ready bool `json:"ready"`
	// Rating is a seated human's current rating in the table's variant,
	// read from the ratings projection by GET /v1/tables/{id} only; null
	// for a bot, an empty seat, a player not rated yet, and in every other
	// view (a command's answer, /state): those are the rules' view, which
	// /state?at= gives back exactly, and a rating is not the table's.
	Rating *seatRating `json:"rating"`
}

// Phases the table reports itself; the game reports the rest.
const (
	phaseWaiting = "waiting_for_players"
	phaseClosed  = "closed"
)

func viewOf(l *service.Loaded, c caller) tableView {
	st := l.State
	seat := service.ViewerSeat(st, c.playerID, c.auditor)
	v := tableView{
		ID: st.ID, Game: st.Game, Variant: st.Variant, Stake: st.Stake,
		Options: table.ShownOptions(st.Rules), RulesVersion: st.RulesVersion, Version: st.Version,
		HandNumber: st.Hand, LastSettlement: st.Last, Closed: st.Closed, Clock: st.Clock, MaxHands: st.MaxHands, Tournament: st.Tournament,
		Private: st.Private, Spectators: spectatorsOf(st), Watchers: true, Hand: []cards.Card{},
		WaitBetweenHands: st.WaitBetweenHands, BetweenHands: st.BetweenHands(),
	}
	if seat >= 0 {
		v.Seat = table.Seat(seat)
	}
	if st.Last != nil && seat == table.Spectator && st.Last.Seed != "" && !viewerOf(l, c).reads {
		// The seed deals the hand again (docs/AUDIT.md, Who may read what).
		last := *st.Last
		last.Seed = ""
		v.LastSettlement = &last
	}
	for i := range st.Players {
		sv := seatView{Seat: i, Total: st.Totals[i], Bot: st.Bots[i], Delegated: st.Delegated[i], Deadline: deadlineOf(st, i)}
		if st.Players[i] != "" {
			id, name := st.Players[i], st.Names[i]
			sv.PlayerID, sv.Name = &id, &name
			sv.Ready = v.BetweenHands && !st.WaitsFor(i)
		}
		v.Seats = append(v.Seats, sv)
	}
	gv := st.Rules.View(st.G, seat)
	v.GameState = gv.Game
	switch {
	case st.Closed:
		v.Phase = phaseClosed
	case !st.InDeal && !st.Full():
		v.Phase = phaseWaiting
	default:
		v.Phase, v.Turn = gv.Phase, gv.Turn
		if gv.Hand != nil {
			v.Hand = gv.Hand
		}
	}
	return v
}

// deadlineOf is seat's deadline in UTC to the millisecond, or nil.
func deadlineOf(st *table.State, seat int) *time.Time {
	dl, ok := st.Deadline(seat)
	if !ok {
		return nil
	}
	dl = dl.UTC().Truncate(time.Millisecond)
	return &dl
}

// spectatorsOf is st's spectator policy, the default filled in.
func spectatorsOf(st *table.State) string {
	return cmp.Or(st.Spectators, table.SpectatorsPublic)
}
