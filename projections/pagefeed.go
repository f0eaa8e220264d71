package projections

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"paiju/eventstore"
)

// PageFeed keeps projections current from the pages of events a process's
// relay reads from the log, handed to Announce. It is for a node whose NATS
// server is embedded: no other process can reach that server, so consuming
// its stream would bring back, through JetStream and a decoding of every
// message, events this process has just held. The log stays the source:
// the feed reads it on start, after a page it could not take, and after a
// failure, and every event it is given twice changes nothing.
type PageFeed struct {
	feed   Feed
	names  []string
	log    *slog.Logger
	pages  chan []eventstore.Event
	missed atomic.Bool
	wake   chan struct{}
	// batch and linger: a batch is applied once it holds batch events, or
	// linger after its first event came, whichever is first. Each
	// transaction costs a commit and the reads of every row a batch
	// changes: at about 1,800 moves a second the server allocated 405
	// times a move with 256 events or 50 ms, 380 with 256 or 200 ms, 366
	// with 1,024 or 250 ms (docs/PERF.md, "Eighth round"). A move is
	// projected at most linger late; the NATS feed's pull waits up to a
	// second for its batch.
	batch  int
	linger time.Duration
}

// PageFeedBatch is the most events a PageFeed applies in one transaction
// (the NATS feed fetches 256 at a time).
const PageFeedBatch = 1024

// Page feed defaults.
const (
	pageFeedQueue  = 256 // pages waiting for the feed before it reads the log instead
	pageFeedLinger = 200 * time.Millisecond
	pageFeedRetry  = time.Second
)

// NewPageFeed returns a feed applying to names through f, whose Log it
// reads on start and whenever a page was missed.
func NewPageFeed(f Feed, names []string, logger *slog.Logger) *PageFeed {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &PageFeed{feed: f, names: names, log: logger,
		pages: make(chan []eventstore.Event, pageFeedQueue), wake: make(chan struct{}, 1),
		batch: PageFeedBatch, linger: pageFeedLinger}
}

// Announce hands the feed a page of committed events in position order.
// It returns at once: when the feed is that far behind, the page is
// dropped and the feed reads the log instead.
func (p *PageFeed) Announce(page []eventstore.Event) {
	if len(page) == 0 {
		return
	}
	select {
	case p.pages <- page:
	default:
		p.missed.Store(true)
		select {
		case p.wake <- struct{}{}:
		default:
		}
	}
}

// Run applies what the log holds past each projection's checkpoint, then
// every page announced, until ctx ends.
func (p *PageFeed) Run(ctx context.Context) error {
	if p.feed.Log == nil {
		return errors.New("projections: a page feed needs the log to start from")
	}
	p.missed.Store(true) // start from the log
	var pending []eventstore.Event
	for ctx.Err() == nil {
		if p.missed.Swap(false) {
			// What was queued is in the log too: read past it now.
			pending = pending[:0]
			if !p.retry(ctx, "catch up from the log", p.catchUp(ctx)) {
				continue
			}
		}
		if len(pending) == 0 {
			select {
			case <-ctx.Done():
				return nil
			case <-p.wake:
				continue
			case page := <-p.pages:
				pending = append(pending, page...)
			}
		}
		pending = p.fill(ctx, pending)
		if err := p.feed.ApplyAll(ctx, p.names, pending); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			p.retry(ctx, "apply events", err)
		}
		pending = pending[:0]
	}
	return nil
}

// fill adds the pages that come until pending holds a batch or linger has
// passed.
func (p *PageFeed) fill(ctx context.Context, pending []eventstore.Event) []eventstore.Event {
	var timeout <-chan time.Time
	for len(pending) < p.batch {
		select {
		case page := <-p.pages:
			pending = append(pending, page...)
			continue
		default:
		}
		if timeout == nil {
			t := time.NewTimer(p.linger)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case page := <-p.pages:
			pending = append(pending, page...)
		case <-timeout:
			return pending
		case <-p.wake:
			return pending
		case <-ctx.Done():
			return pending
		}
	}
	return pending
}

func (p *PageFeed) catchUp(ctx context.Context) error {
	var errs []error
	for _, n := range p.names {
		if err := p.feed.CatchUp(ctx, n); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// retry reports whether err is nil; if not, it logs it, waits, and has the
// next round read the log.
func (p *PageFeed) retry(ctx context.Context, what string, err error) bool {
	if err == nil {
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	p.log.Error("projections: "+what+"; reading the log again", "err", err, "retry_in", pageFeedRetry)
	p.missed.Store(true)
	t := time.NewTimer(pageFeedRetry)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return false
}
