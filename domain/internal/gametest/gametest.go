// Package gametest is what the games' tests share: a deterministic seed
// source, and the recording and replaying of golden hands. Only tests import
// it.
package gametest

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"

	"paiju/domain/cards"
	"paiju/domain/table"
)

// SeedSeq is a deterministic table.SeedSource: the k-th seed of stream ID is
// SHA-256(ID ‖ k), both 8 bytes big-endian. Golden hands record the ID their
// deals were drawn from, so this construction must never change.
type SeedSeq struct {
	ID, N uint64
}

// NewSeed returns the next seed of the stream.
func (q *SeedSeq) NewSeed() (cards.Seed, error) {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], q.ID)
	binary.BigEndian.PutUint64(b[8:], q.N)
	q.N++
	return cards.Seed(sha256.Sum256(b[:])), nil
}

// EventTypes lists the types of evs, for failure messages.
func EventTypes(evs []table.Payload) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.EventType()
	}
	return out
}

// DescribeAction writes a for failure messages: its type, then its fields.
func DescribeAction(a table.Action) string {
	var b strings.Builder
	b.WriteString(a.Type)
	if a.Bid != nil {
		fmt.Fprintf(&b, " %d", *a.Bid)
	}
	if len(a.Cards) > 0 {
		b.WriteString(" " + cards.Format(a.Cards))
	}
	if a.As != "" {
		b.WriteString(" as " + a.As)
	}
	return b.String()
}
