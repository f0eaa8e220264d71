package groupcommit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"paiju/eventstore"
)

var events = []eventstore.NewEvent{{Type: "E", Data: []byte(`{}`)}}

// answerAll answers every request of batch with its stream's version 1.
func answerAll(batch []*Request) {
	for _, r := range batch {
		r.Answer(Response{Result: eventstore.AppendResult{Version: 1}})
	}
}

// TestBatchesHoldWhatWaits: the writer takes one append and gathers the
// appends behind it, up to MaxBatch, into the batch it commits.
func TestBatchesHoldWhatWaits(t *testing.T) {
	var mu sync.Mutex
	var sizes []int
	w := Start(Options{MaxBatch: 4, MaxBatchWait: time.Hour}, func(batch []*Request) {
		mu.Lock()
		sizes = append(sizes, len(batch))
		mu.Unlock()
		answerAll(batch)
	})
	defer w.Close()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			if _, err := w.Append(t.Context(), fmt.Sprintf("table-%d", i), 0, events); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if fmt.Sprint(sizes) != "[4 4]" {
		t.Errorf("batches of %v, want [4 4]: a batch waits for MaxBatch appends (MaxBatchWait is an hour)", sizes)
	}
}

// TestMaxBatchWaitEndsTheWait: a batch short of MaxBatch is committed once
// MaxBatchWait has passed.
func TestMaxBatchWaitEndsTheWait(t *testing.T) {
	w := Start(Options{MaxBatch: 100, MaxBatchWait: time.Millisecond}, answerAll)
	defer w.Close()
	if res, err := w.Append(t.Context(), "table-a", 0, events); err != nil || res.Version != 1 {
		t.Errorf("Append = %+v %v, want version 1", res, err)
	}
}

// blocked is a writer whose commit holds its first batch until release is
// closed; started is closed once the commit has it.
func blocked(t *testing.T) (w *Writer, started, release chan struct{}) {
	started, release = make(chan struct{}), make(chan struct{})
	first := true
	w = Start(Options{MaxBatch: 8}, func(batch []*Request) {
		if first {
			first = false
			close(started)
			<-release
		}
		answerAll(batch)
	})
	return w, started, release
}

// TestCancelledBeforeTaken: an append whose context ends while it waits for
// the writer stores nothing and says why.
func TestCancelledBeforeTaken(t *testing.T) {
	w, started, release := blocked(t)
	defer w.Close()
	done := make(chan error, 1)
	go func() {
		_, err := w.Append(context.Background(), "table-a", 0, events)
		done <- err
	}()
	<-started
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := w.Append(ctx, "table-b", 0, events); !errors.Is(err, context.Canceled) {
		t.Errorf("Append with a cancelled context while the writer commits: %v, want context.Canceled", err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Errorf("the append the writer had taken: %v, want it committed", err)
	}
}

// TestCloseFailsWaitingAppends: Close answers the batch the writer took,
// and an append still waiting fails with ErrClosed.
func TestCloseFailsWaitingAppends(t *testing.T) {
	w, started, release := blocked(t)
	taken := make(chan error, 1)
	go func() {
		_, err := w.Append(context.Background(), "table-a", 0, events)
		taken <- err
	}()
	<-started
	closed := make(chan struct{})
	go func() {
		w.Close()
		close(closed)
	}()
	<-w.closing
	if _, err := w.Append(t.Context(), "table-b", 0, events); !errors.Is(err, eventstore.ErrClosed) {
		t.Errorf("Append while the store closes: %v, want ErrClosed", err)
	}
	close(release)
	if err := <-taken; err != nil {
		t.Errorf("the append the writer had taken: %v, want it committed before Close returns", err)
	}
	<-closed
	w.Close() // again: returns at once
	if _, err := w.Append(t.Context(), "table-c", 0, events); !errors.Is(err, eventstore.ErrClosed) {
		t.Errorf("Append after Close: %v, want ErrClosed", err)
	}
}

// TestValidation: appends a store could never store fail before they
// reach the writer; with UTF8 so do the ones PostgreSQL's text refuses.
func TestValidation(t *testing.T) {
	notUTF8 := string([]byte{0xff})
	tests := []struct {
		name     string
		stream   string
		expected int
		events   []eventstore.NewEvent
		utf8Only bool // refused only with Options.UTF8
	}{
		{"empty stream id", "", 0, events, false},
		{"negative expected version", "table-a", -1, events, false},
		{"no events", "table-a", 0, nil, false},
		{"empty type", "table-a", 0, []eventstore.NewEvent{{Type: "", Data: []byte(`{}`)}}, false},
		{"data not JSON", "table-a", 0, []eventstore.NewEvent{{Type: "E", Data: []byte(`{"a":`)}}, false},
		{"nil data", "table-a", 0, []eventstore.NewEvent{{Type: "E"}}, false},
		{"stream id not UTF-8", "table-" + notUTF8, 0, events, true},
		{"type not UTF-8", "table-a", 0, []eventstore.NewEvent{{Type: notUTF8, Data: []byte(`{}`)}}, true},
		{"data not UTF-8", "table-a", 0, []eventstore.NewEvent{{Type: "E", Data: []byte(`"` + notUTF8 + `"`)}}, true},
	}
	for _, utf8 := range []bool{false, true} {
		commits := 0
		w := Start(Options{MaxBatch: 8, UTF8: utf8}, func(batch []*Request) {
			commits++
			answerAll(batch)
		})
		for _, tt := range tests {
			_, err := w.Append(t.Context(), tt.stream, tt.expected, tt.events)
			if refused := !tt.utf8Only || utf8; refused != (err != nil) {
				t.Errorf("UTF8 %v, %s: Append: %v, want refused %v", utf8, tt.name, err, refused)
			}
		}
		if _, err := w.AppendIdempotent(t.Context(), "table-a", 0, events, eventstore.IdempotencyKey{Scope: "p1"}); err == nil {
			t.Errorf("UTF8 %v: AppendIdempotent with an empty key: nil error, want one", utf8)
		}
		w.Close()
		if want := 3; !utf8 && commits != want {
			t.Errorf("UTF8 off: %d commits, want %d: only the appends that are not refused reach the writer", commits, want)
		}
	}
}

// TestCommittedCounts: Stats adds up what Committed reported, and OnCommit
// hears each.
func TestCommittedCounts(t *testing.T) {
	var heard []string
	w := Start(Options{MaxBatch: 1, OnCommit: func(events, appends int, took time.Duration) {
		heard = append(heard, fmt.Sprint(events, appends, took))
	}}, answerAll)
	defer w.Close()
	w.Committed(5, 2, time.Millisecond)
	w.Committed(1, 1, 0)
	if commits, appends := w.Stats(); commits != 2 || appends != 3 {
		t.Errorf("Stats = %d commits, %d appends; want 2, 3", commits, appends)
	}
	if fmt.Sprint(heard) != "[5 2 1ms 1 1 0s]" {
		t.Errorf("OnCommit heard %v, want [5 2 1ms 1 1 0s]", heard)
	}
}
