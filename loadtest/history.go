package loadtest

import (
	"net/http"
	"strings"
	"time"
)

// The history of a run: every move's command as a client saw it, for a
// linearizability check of each table (loadtest/linearcheck). A move is
// sent with If-Match naming the version its legal actions were listed at,
// so that the table's version is what the history constrains: a command
// is accepted only at that version and takes the table to the version its
// answer gives.

// Outcome is how a command ended for its client.
type Outcome string

const (
	// OutcomeOK: the command was accepted (first time or as a replay of
	// an earlier attempt with the same Idempotency-Key).
	OutcomeOK Outcome = "ok"
	// OutcomeStale: refused with 412, the table was not at the version
	// named in If-Match.
	OutcomeStale Outcome = "stale"
	// OutcomeRefused: refused otherwise (4xx): the command changed
	// nothing.
	OutcomeRefused Outcome = "refused"
	// OutcomeUnknown: no answer that says (a timeout, a node down, 5xx,
	// the run ended) after retrying on the other nodes: the command may
	// or may not have taken effect, now or later.
	OutcomeUnknown Outcome = "unknown"
)

// Op is one command of the history.
type Op struct {
	Table string `json:"table"`
	// Client is the load client (one goroutine) that sent it.
	Client int    `json:"client"`
	Key    string `json:"key"`
	// Expected is the version sent in If-Match.
	Expected int `json:"expected"`
	// Invoke is when the first attempt was sent, Complete when the
	// answer that decided the outcome arrived (zero when unknown).
	Invoke   time.Time `json:"invoke"`
	Complete time.Time `json:"complete,omitzero"`
	Outcome  Outcome   `json:"outcome"`
	// Version is the table's version after an accepted command.
	Version int `json:"version,omitempty"`
	// Status is the last answer's HTTP status (0 without one).
	Status int `json:"status,omitempty"`
}

// outcomeOf classifies a POST /actions that ended with status and err.
func outcomeOf(status int, err error) Outcome {
	switch {
	case err == nil:
		return OutcomeOK
	case status == http.StatusPreconditionFailed:
		return OutcomeStale
	case status == http.StatusConflict && strings.Contains(err.Error(), "request_in_progress"),
		status == http.StatusRequestTimeout:
		// Another attempt with the key was still running when the
		// client stopped retrying: it may yet commit.
		return OutcomeUnknown
	case status >= 400 && status < 500:
		return OutcomeRefused
	default:
		// No answer, 5xx, or a 2xx whose body could not be read.
		return OutcomeUnknown
	}
}
