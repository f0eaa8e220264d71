package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"paiju/eventstore"
	"paiju/internal/pgtest"
)

// The tests of this file open several Stores on one database, as the nodes
// of a cluster do.

func openNodes(t *testing.T, n int, opts Options) []*Store {
	t.Helper()
	url := pgtest.NewDatabase(t)
	nodes := make([]*Store, n)
	for i := range nodes {
		s, err := Open(t.Context(), url, opts)
		if err != nil {
			t.Fatalf("Open node %d: %v", i, err)
		}
		t.Cleanup(func() { s.Close() })
		nodes[i] = s
	}
	return nodes
}

func ev(typ, data string) eventstore.NewEvent {
	return eventstore.NewEvent{Type: typ, Data: []byte(data)}
}

// readLog reads the whole log through s.
func readLog(t *testing.T, s *Store) []eventstore.Event {
	t.Helper()
	var all []eventstore.Event
	for {
		page, err := s.ReadAll(t.Context(), int64(len(all)), 500)
		if err != nil {
			t.Fatalf("ReadAll: %v", err)
		}
		all = append(all, page...)
		if len(page) < 500 {
			return all
		}
	}
}

// checkLog checks what every node must see: positions 1..n without a gap,
// each stream's versions 1, 2, 3, … in global order, and the chain up to
// the recorded head.
func checkLog(t *testing.T, s *Store) []eventstore.Event {
	t.Helper()
	all := readLog(t, s)
	versions := map[string]int{}
	for i, e := range all {
		if e.Position != int64(i+1) {
			t.Fatalf("event %d of the log is at position %d: a gap", i+1, e.Position)
		}
		if e.Version != versions[e.Stream]+1 {
			t.Fatalf("position %d: %s version %d follows version %d", e.Position, e.Stream, e.Version, versions[e.Stream])
		}
		versions[e.Stream] = e.Version
	}
	pos, hash, err := s.Head(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if pos != int64(len(all)) {
		t.Fatalf("head at %d, log of %d events", pos, len(all))
	}
	if err := eventstore.VerifyChain(t.Context(), s, pos, hash); err != nil {
		t.Fatalf("VerifyChain: %v", err)
	}
	return all
}

// TestNodesShareOneChain: three nodes append at once to overlapping
// streams, each command reading its stream and appending at the version it
// read, retrying on a conflict, as the service does.
func TestNodesShareOneChain(t *testing.T) {
	t.Parallel()
	nodes := openNodes(t, 3, Options{})
	const (
		writersPerNode = 4
		appendsEach    = 25
		streams        = 3 // fewer streams than writers: they contend
	)
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		conflicts int
		stored    = map[string]int{} // events stored per stream, by the writers' count
	)
	for n, s := range nodes {
		for w := range writersPerNode {
			wg.Go(func() {
				ctx := context.Background()
				for i := range appendsEach {
					stream := fmt.Sprintf("table-%d", (n+w+i)%streams)
					for {
						events, err := s.Load(ctx, stream, 0)
						if err != nil {
							t.Error(err)
							return
						}
						_, err = s.Append(ctx, stream, len(events), []eventstore.NewEvent{
							ev("E", fmt.Sprintf(`{"node":%d,"writer":%d,"i":%d}`, n, w, i)), ev("F", `{}`)})
						if errors.Is(err, eventstore.ErrConflict) {
							mu.Lock()
							conflicts++
							mu.Unlock()
							continue
						}
						if err != nil {
							t.Error(err)
							return
						}
						mu.Lock()
						stored[stream] += 2
						mu.Unlock()
						break
					}
				}
			})
		}
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	for i, s := range nodes {
		all := checkLog(t, s)
		if want := 3 * writersPerNode * appendsEach * 2; len(all) != want {
			t.Fatalf("node %d reads %d events, want %d: every acknowledged append, nothing else", i, len(all), want)
		}
		perStream := map[string]int{}
		for _, e := range all {
			perStream[e.Stream]++
		}
		if fmt.Sprint(perStream) != fmt.Sprint(stored) {
			t.Errorf("node %d: events per stream %v, acknowledged %v", i, perStream, stored)
		}
	}
	t.Logf("%d conflicts retried", conflicts)
}

// TestNodesDetectConflicts: appends from different nodes at the same
// expected version of one stream: exactly one lands each round.
func TestNodesDetectConflicts(t *testing.T) {
	t.Parallel()
	nodes := openNodes(t, 3, Options{})
	const rounds, writers = 10, 6
	for round := range rounds {
		errs := make([]error, writers)
		var wg sync.WaitGroup
		gate := make(chan struct{})
		for i := range writers {
			wg.Go(func() {
				<-gate
				_, errs[i] = nodes[i%len(nodes)].Append(context.Background(), "table-a", round, []eventstore.NewEvent{ev("E", fmt.Sprintf(`{"writer":%d}`, i))})
			})
		}
		close(gate)
		wg.Wait()
		won := 0
		for i, err := range errs {
			var ce *eventstore.ConflictError
			switch {
			case err == nil:
				won++
			case errors.As(err, &ce):
				if ce.Expected != round || ce.Actual != round+1 {
					t.Errorf("round %d, writer %d: %v, want a conflict at version %d", round, i, err, round+1)
				}
			default:
				t.Fatalf("round %d, writer %d: %v", round, i, err)
			}
		}
		if won != 1 {
			t.Fatalf("round %d: %d appends at version %d landed, want exactly 1: %v", round, won, round, errs)
		}
	}
	if all := checkLog(t, nodes[2]); len(all) != rounds {
		t.Errorf("%d events, want %d", len(all), rounds)
	}
}

// TestHeldTransaction: an append stalls inside its transaction, with its
// positions assigned and its rows written but not committed, while other
// nodes append. A reader on a third node must never see a gap, nor a later
// event before an earlier one; once the stalled append commits, everything
// is there, in commit order.
func TestHeldTransaction(t *testing.T) {
	t.Parallel()
	nodes := openNodes(t, 3, Options{})
	slow, fast, reader := nodes[0], nodes[1], nodes[2]
	ctx := t.Context()

	if _, err := fast.Append(ctx, "table-pre", 0, []eventstore.NewEvent{ev("E", `{}`)}); err != nil {
		t.Fatal(err)
	}
	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	slow.beforeCommit = func() {
		once.Do(func() {
			close(held)
			<-release
		})
	}

	// The reader follows the log as a projection does, checking every page.
	readerDone := make(chan error, 1)
	stopReading := make(chan struct{})
	seen := make(chan []eventstore.Event, 1)
	go func() {
		var (
			log  []eventstore.Event
			last eventstore.Event
		)
		for {
			// Whether to stop is decided before the read: a page read after
			// every append returned must hold all of them.
			var stopping bool
			select {
			case <-stopReading:
				stopping = true
			default:
			}
			page, err := reader.ReadAll(context.Background(), last.Position, 100)
			if err != nil {
				readerDone <- err
				return
			}
			for _, e := range page {
				if e.Position != last.Position+1 || e.PrevHash != last.Hash {
					readerDone <- fmt.Errorf("after position %d (%.8s) the reader got position %d linking to %.8s: a gap", last.Position, last.Hash, e.Position, e.PrevHash)
					return
				}
				last = e
				log = append(log, e)
			}
			if len(page) == 0 {
				time.Sleep(time.Millisecond) // a follower's poll, not a timing
			}
			if stopping && len(page) == 0 {
				seen <- log
				readerDone <- nil
				return
			}
		}
	}()

	slowRes := make(chan error, 1)
	var slowPositions []int64
	go func() {
		res, err := slow.Append(context.Background(), "table-slow", 0, []eventstore.NewEvent{ev("E", `{"n":1}`), ev("E", `{"n":2}`)})
		slowPositions = res.Positions
		slowRes <- err
	}()
	<-held

	// Other nodes' appends now wait for the chain lock.
	const fastAppends = 6
	var wg sync.WaitGroup
	fastPositions := make([][]int64, fastAppends)
	fastErrs := make([]error, fastAppends)
	for i := range fastAppends {
		s := fast
		if i%2 == 1 {
			s = reader
		}
		wg.Go(func() {
			res, err := s.Append(context.Background(), fmt.Sprintf("table-fast-%d", i), 0, []eventstore.NewEvent{ev("E", `{}`)})
			fastPositions[i], fastErrs[i] = res.Positions, err
		})
	}
	// Both nodes' writers are queued on the lock: PostgreSQL says so.
	waitForLockWaiters(t, reader, 2)

	// While the lock is held, nothing after position 1 is visible, from any
	// node; the stalled transaction's rows are not.
	for _, s := range nodes {
		pos, _, err := s.Head(ctx)
		if err != nil || pos != 1 {
			t.Errorf("head during the held transaction = %d %v, want 1", pos, err)
		}
		if page, err := s.ReadAll(ctx, 0, 100); err != nil || len(page) != 1 {
			t.Errorf("ReadAll during the held transaction: %d events %v, want 1", len(page), err)
		}
	}

	close(release)
	if err := <-slowRes; err != nil {
		t.Fatalf("the held append: %v", err)
	}
	wg.Wait()
	for i, err := range fastErrs {
		if err != nil {
			t.Fatalf("append %d behind the held one: %v", i, err)
		}
	}
	close(stopReading)
	if err := <-readerDone; err != nil {
		t.Fatal(err)
	}
	log := <-seen

	// The held append took positions 2 and 3; the appends that waited
	// follow it, in the order they committed.
	if fmt.Sprint(slowPositions) != "[2 3]" {
		t.Errorf("held append at positions %v, want [2 3]: it held the lock first", slowPositions)
	}
	var after []int64
	for _, p := range fastPositions {
		after = append(after, p...)
	}
	slices.Sort(after)
	if fmt.Sprint(after) != fmt.Sprint([]int64{4, 5, 6, 7, 8, 9}) {
		t.Errorf("appends behind the held one at positions %v, want 4..9", after)
	}
	all := checkLog(t, reader)
	if len(log) != len(all) {
		t.Errorf("the reader followed %d events, the log holds %d", len(log), len(all))
	}
}

// waitForLockWaiters polls pg_locks until n connections wait for the chain
// lock. It has no deadline of its own: the test's ends it.
func waitForLockWaiters(t *testing.T, s *Store, n int) {
	t.Helper()
	for {
		var waiting int
		err := s.pool.QueryRow(t.Context(),
			`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND objid = $2 AND objsubid = 2 AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
			uint32(ChainLock[0]), uint32(ChainLock[1])).Scan(&waiting)
		if err != nil {
			t.Fatalf("pg_locks: %v", err)
		}
		if waiting >= n {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// TestStalledNodeLosesTheLock: a node that stops inside its append
// transaction is ended by the server after IdleInTransaction; its append
// fails and stores nothing, and the other nodes' appends go on.
func TestStalledNodeLosesTheLock(t *testing.T) {
	t.Parallel()
	url := pgtest.NewDatabase(t)
	stalled, err := Open(t.Context(), url, Options{IdleInTransaction: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer stalled.Close()
	other, err := Open(t.Context(), url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	held, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	stalled.beforeCommit = func() {
		once.Do(func() {
			close(held)
			<-release
		})
	}
	stalledErr := make(chan error, 1)
	go func() {
		_, err := stalled.Append(context.Background(), "table-a", 0, []eventstore.NewEvent{ev("E", `{"stalled":true}`)})
		stalledErr <- err
	}()
	<-held
	// This append waits for the lock until the server ends the stalled
	// connection; it must then land at position 1.
	res, err := other.Append(t.Context(), "table-b", 0, []eventstore.NewEvent{ev("E", `{}`)})
	if err != nil || fmt.Sprint(res.Positions) != "[1]" {
		t.Fatalf("append behind a stalled node: %+v %v, want position 1", res, err)
	}
	close(release)
	if err := <-stalledErr; err == nil {
		t.Fatal("the stalled append returned nil after the server ended its connection")
	}
	all := checkLog(t, other)
	if len(all) != 1 || all[0].Stream != "table-b" {
		t.Errorf("log = %+v, want only table-b's event: the stalled append stored nothing", all)
	}
	// The stalled node's store still works: the pool replaces the connection.
	// Its transactions keep the 200ms limit, which a loaded machine can
	// exceed between two statements of a healthy append: the server then
	// ends that transaction too (SQLSTATE 25P03, idle in transaction). Such
	// an append is tried again; any other error, or the limit at every
	// try, fails the test.
	for try := 1; ; try++ {
		_, err := stalled.Append(t.Context(), "table-a", 0, []eventstore.NewEvent{ev("E", `{}`)})
		if err == nil {
			break
		}
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "25P03" || try == 5 {
			t.Fatalf("append on the stalled node afterwards (try %d): %v", try, err)
		}
	}
}
