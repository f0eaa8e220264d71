package eventstore

import (
	"context"
	"errors"
	"fmt"
)

// ChainError reports the first event at which a store's log stops being the
// log it committed to. Position is that event's global position (or, for a
// missing event, the position where it should have been).
type ChainError struct {
	Position int64
	Reason   string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("eventstore: chain broken at position %d: %s", e.Position, e.Reason)
}

// ErrChainBroken matches any *ChainError with errors.Is.
var ErrChainBroken = errors.New("eventstore: chain broken")

// Is makes errors.Is(err, ErrChainBroken) true.
func (e *ChainError) Is(target error) bool { return target == ErrChainBroken }

// verifyPage is how many events VerifyChain reads per ReadAll call: enough to
// amortize the query, small enough to keep memory flat on a large log.
const verifyPage = 1000

// VerifyChain reads the whole log of s in global order and checks that
//   - positions run 1, 2, 3, … without gaps,
//   - each event's PrevHash is the Hash of the event before it ("" for the first),
//   - each event's Hash is Hash(PrevHash, Stream, Version, Type, Data),
//   - each stream's versions run 1, 2, 3, … in global order,
//   - if headPos > 0, the event at headPos exists and has hash headHash, so
//     that a rewritten log or a removed tail is caught by a head kept outside
//     the store.
//
// It returns nil, a *ChainError naming the first bad position, or the error of
// a read. Events appended while it runs are checked too if it reaches them.
func VerifyChain(ctx context.Context, s Log, headPos int64, headHash string) error {
	var (
		prevHash string
		last     int64 // position of the last event checked
		versions = make(map[string]int)
	)
	for {
		page, err := s.ReadAll(ctx, last, verifyPage)
		if err != nil {
			return fmt.Errorf("verify chain after position %d: %w", last, err)
		}
		for _, e := range page {
			if err := checkEvent(e, last, prevHash, versions); err != nil {
				return err
			}
			if e.Position == headPos && e.Hash != headHash {
				return &ChainError{Position: e.Position, Reason: fmt.Sprintf("hash %s differs from the recorded head %s", e.Hash, headHash)}
			}
			versions[e.Stream] = e.Version
			prevHash = e.Hash
			last = e.Position
		}
		if len(page) < verifyPage {
			break
		}
	}
	if last < headPos {
		return &ChainError{Position: last + 1, Reason: fmt.Sprintf("log ends at position %d but the recorded head is at %d", last, headPos)}
	}
	return nil
}

func checkEvent(e Event, last int64, prevHash string, versions map[string]int) error {
	if e.Position != last+1 {
		return &ChainError{Position: last + 1, Reason: fmt.Sprintf("missing: the next stored event is at position %d", e.Position)}
	}
	if e.PrevHash != prevHash {
		return &ChainError{Position: e.Position, Reason: fmt.Sprintf("previous hash %s, want %s (the hash of position %d)", e.PrevHash, prevHash, last)}
	}
	if want := Hash(e.PrevHash, e.Stream, e.Version, e.Type, e.Data); e.Hash != want {
		return &ChainError{Position: e.Position, Reason: fmt.Sprintf("stored hash %s, recomputed %s", e.Hash, want)}
	}
	if want := versions[e.Stream] + 1; e.Version != want {
		return &ChainError{Position: e.Position, Reason: fmt.Sprintf("stream %s at version %d, want %d", e.Stream, e.Version, want)}
	}
	return nil
}
