package audit

import (
	"errors"
	"fmt"

	"paiju/domain/table"
	"paiju/domain/tournament"
	"paiju/eventstore"
)

// TournamentReport summarizes a verified tournament stream.
type TournamentReport struct {
	Events int
	Rounds int
	Ended  bool
}

// VerifyTournament verifies one tournament stream (its events in version
// order): every command re-decided with its recorded inputs, every round's
// seating redrawn from the seed (tournament.Redecide), and the seed's
// commitment checked where the stream reveals it.
func VerifyTournament(evs []eventstore.Event) (TournamentReport, error) {
	var rep TournamentReport
	if len(evs) == 0 {
		return rep, errors.New("audit: empty stream")
	}
	stream := evs[0].Stream
	ps := make([]table.Payload, len(evs))
	for i, e := range evs {
		if e.Version != i+1 {
			return rep, &Fault{Stream: stream, Version: i + 1, Reason: fmt.Sprintf("version %d is missing or out of place (found version %d there)", i+1, e.Version)}
		}
		p, err := tournament.Decode(e.Type, e.Data)
		if err != nil {
			return rep, &Fault{Stream: stream, Version: e.Version, Reason: fmt.Sprintf("does not decode: %v", err)}
		}
		ps[i] = p
	}
	st, err := tournament.Redecide(ps)
	var f *tournament.Fault
	if errors.As(err, &f) {
		return rep, &Fault{Stream: stream, Version: f.Index + 1, Reason: f.Reason}
	}
	if err != nil {
		return rep, err
	}
	return TournamentReport{Events: len(evs), Rounds: len(st.Rounds), Ended: st.Status == tournament.StatusEnded}, nil
}
