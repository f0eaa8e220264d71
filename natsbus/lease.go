package natsbus

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Leases hands out the roles a deployment must run exactly once (the relay,
// each projection's worker) among the processes that share its NATS. A
// lease is a key of the deployment's "leases" key-value bucket:
//
//   - it is taken with a create, which succeeds only while the key is
//     absent (never written, released, or expired);
//   - its holder refreshes it well within the bucket's TTL with an update
//     that names the revision it last wrote, so a refresh succeeds only if
//     nobody else took the key in between;
//   - a holder that fails to refresh stops the role at once, and in any case
//     before the TTL has run out since the last refresh it sent: by then
//     JetStream may have expired the key and another process taken it;
//   - a holder that stops cleanly deletes the key (revision-checked) so the
//     next one starts at once; one that dies leaves it to expire.
//
// The lease keeps two holders from working at once in the common case; it
// is not what keeps the stream exact. Two relays that overlap for a moment
// (a holder paused past its TTL) still cannot interleave: every publish
// expects the message before it (Relay).
type Leases struct {
	kv    jetstream.KeyValue
	ttl   time.Duration
	owner string
	log   *slog.Logger

	mu   sync.Mutex
	held map[string]bool
}

// LeaseOptions tunes Leases; zero fields take the defaults shown.
type LeaseOptions struct {
	// TTL is how long a lease outlives its holder's last refresh (10s),
	// when this process creates the bucket; a bucket that exists keeps the
	// TTL it was made with, and Leases follows it.
	TTL time.Duration
	// Replicas is the bucket's replication in a NATS cluster (1).
	Replicas int
	// Owner names this process in the bucket (host-pid-random).
	Owner string
}

// DefaultLeaseTTL is how long a dead holder keeps a lease by default: the
// most a deployment waits for a new relay after a node is killed.
const DefaultLeaseTTL = 10 * time.Second

// OpenLeases opens (creating if needed) the leases bucket of ns.
func OpenLeases(ctx context.Context, js jetstream.JetStream, ns Namespace, opts LeaseOptions, logger *slog.Logger) (*Leases, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if opts.TTL <= 0 {
		opts.TTL = DefaultLeaseTTL
	}
	if opts.Owner == "" {
		opts.Owner = ownerID()
	}
	kv, ttl, err := openBucket(ctx, js, jetstream.KeyValueConfig{
		Bucket:      ns.Bucket("leases"),
		Description: "paiju leases: which process runs the relay and each projection",
		TTL:         opts.TTL,
		History:     1,
		Storage:     jetstream.FileStorage,
		Replicas:    opts.Replicas,
	})
	if err != nil {
		return nil, err
	}
	if ttl <= 0 {
		return nil, fmt.Errorf("natsbus: bucket %s has no TTL: a dead holder's lease would never expire", ns.Bucket("leases"))
	}
	return &Leases{kv: kv, ttl: ttl, owner: opts.Owner, log: logger.With("component", "lease", "owner", opts.Owner), held: map[string]bool{}}, nil
}

// openBucket creates a key-value bucket, or opens it as it is when another
// process created it first, and returns it with its TTL.
func openBucket(ctx context.Context, js jetstream.JetStream, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, time.Duration, error) {
	kv, err := js.CreateKeyValue(ctx, cfg)
	if errors.Is(err, jetstream.ErrBucketExists) {
		kv, err = js.KeyValue(ctx, cfg.Bucket)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("natsbus: key-value bucket %s: %w", cfg.Bucket, err)
	}
	st, err := kv.Status(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("natsbus: key-value bucket %s: %w", cfg.Bucket, err)
	}
	return kv, st.TTL(), nil
}

// ownerID names this process: where it runs, and a random part so that a
// restarted process never mistakes its predecessor's lease for its own.
func ownerID() string {
	host, _ := os.Hostname()
	var b [4]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%s", token(host), os.Getpid(), hex.EncodeToString(b[:]))
}

// Owner is how this process names itself in the bucket.
func (l *Leases) Owner() string { return l.owner }

// TTL is the bucket's TTL, which the holders' timing follows.
func (l *Leases) TTL() time.Duration { return l.ttl }

// Held tells whether this process holds key now.
func (l *Leases) Held(key string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.held[key]
}

// Holder returns who holds key, "" when nobody does.
func (l *Leases) Holder(ctx context.Context, key string) (string, error) {
	e, err := l.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("natsbus: lease %s: %w", key, err)
	}
	return string(e.Value()), nil
}

func (l *Leases) setHeld(key string, v bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.held[key] = v
}

// timing of a holder, as fractions of the TTL: refresh every fifth, give up
// three quarters after the last refresh sent, look for a free lease every
// tenth (so a lease is taken over at most TTL plus a tenth after its holder
// died).
func (l *Leases) refreshEvery() time.Duration { return l.ttl / 5 }
func (l *Leases) validFor() time.Duration     { return l.ttl * 3 / 4 }
func (l *Leases) pollEvery() time.Duration    { return l.ttl / 10 }

// Run runs fn whenever this process holds the lease key, until ctx ends:
// it waits for the key to be free and takes it, runs fn with a context
// that ends as soon as the lease is lost (a refresh failed, or its time ran
// out), waits for fn to return, and starts waiting again. On ctx's end it
// stops fn, releases the lease and returns nil. If fn returns on its own
// the lease is released and taken again (a role that ends by itself is
// restarted like after a failure).
func (l *Leases) Run(ctx context.Context, key string, fn func(context.Context)) error {
	log := l.log.With("lease", key)
	for failures := 0; ; failures++ {
		rev, sent, err := l.acquire(ctx, key, log)
		if err != nil {
			return nil // ctx ended
		}
		log.Info("lease taken", "revision", rev)
		l.setHeld(key, true)
		fctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			fn(fctx)
		}()
		rev = l.hold(fctx, key, rev, sent, done, log)
		ended := false
		select {
		case <-done:
			ended = true
		default:
		}
		cancel()
		<-done
		l.setHeld(key, false)
		// Logged before the release: once the key is deleted another
		// process may log "lease taken" before this one could log
		// "lease released", and the log would then show two holders
		// where the role never ran twice.
		log.Info("lease role stopped")
		if ctx.Err() != nil {
			l.release(ctx, key, rev, log)
			return nil
		}
		if ended {
			// fn ended on its own: let another process have a go.
			l.release(ctx, key, rev, log)
			if !sleep(ctx, min(time.Duration(failures+1)*l.pollEvery(), l.ttl)) {
				return nil
			}
		}
	}
}

// acquire waits until this process holds key and returns the revision it
// wrote and when it sent that write; an error means ctx ended.
func (l *Leases) acquire(ctx context.Context, key string, log *slog.Logger) (uint64, time.Time, error) {
	waitingFor, failing := "", ""
	// warn logs a failure once until it changes, so that a NATS outage
	// does not log every poll.
	warn := func(msg string, err error) {
		if ctx.Err() == nil && err.Error() != failing {
			failing = err.Error()
			log.Warn(msg, "err", err)
		}
	}
	for {
		sent := time.Now()
		e, err := l.kv.Get(ctx, key)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			// Absent, released or expired: whoever creates it first has it.
			rev, err := l.kv.Create(ctx, key, []byte(l.owner))
			if err == nil {
				return rev, sent, nil
			}
			if !errors.Is(err, jetstream.ErrKeyExists) {
				warn("take lease", err)
			}
		case err != nil:
			warn("read lease", err)
		case string(e.Value()) == l.owner:
			// Still ours after a refresh that failed (a timeout, a
			// reconnect): only this process writes its name, and the
			// revision check fails if anyone wrote since the read.
			if rev, err := l.kv.Update(ctx, key, []byte(l.owner), e.Revision()); err == nil {
				return rev, sent, nil
			}
		default:
			if h := string(e.Value()); h != waitingFor {
				waitingFor = h
				log.Info("lease held elsewhere; standing by", "holder", h)
			}
		}
		if !sleep(ctx, l.pollEvery()) {
			return 0, time.Time{}, ctx.Err()
		}
	}
}

// hold refreshes key (at revision rev, last written at sent) until ctx
// ends, fn is done, or a refresh fails. It returns the revision it last
// wrote, or 0 if the lease is known to be someone else's.
// (Resuming after a failed refresh is acquire's business.)
func (l *Leases) hold(ctx context.Context, key string, rev uint64, sent time.Time, done <-chan struct{}, log *slog.Logger) uint64 {
	t := time.NewTicker(l.refreshEvery())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return rev
		case <-done:
			return rev
		case <-t.C:
		}
		// A refresh that cannot succeed before the lease runs out is a
		// lost lease: the deadline stops fn in time even if NATS hangs.
		now := time.Now()
		rctx, cancel := context.WithDeadline(ctx, sent.Add(l.validFor()))
		nrev, err := l.kv.Update(rctx, key, []byte(l.owner), rev)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return rev
			}
			if isWrongLast(err) {
				log.Warn("lease lost: another process holds it; stopping", "err", err)
				return 0
			}
			log.Warn("lease refresh failed; stopping until it is held again", "err", err)
			return rev
		}
		rev, sent = nrev, now
	}
}

// release deletes key if this process still holds it at rev, so that the
// next holder need not wait for the TTL.
func (l *Leases) release(ctx context.Context, key string, rev uint64, log *slog.Logger) {
	if rev == 0 {
		return
	}
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	if err := l.kv.Delete(rctx, key, jetstream.LastRevision(rev)); err != nil {
		log.Warn("release lease; it expires on its own", "err", err)
		return
	}
	log.Info("lease released")
}
