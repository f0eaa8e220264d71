package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"paiju/eventstore"
	"paiju/natsbus"
)

// stallLimit is how long the JetStream checks wait without progress: a
// restarted server may still be catching up and the stream's leader
// changing, and a stream of a long run holds over 100,000 messages, so
// the checks give up on a stall, not on the length of the whole read.
const stallLimit = 60 * time.Second

// jsConn is a connection to one server of the cluster at a time: an
// answer such as "no responders" comes from the server the connection is
// on, so the checks move on to the next server when they meet one.
type jsConn struct {
	servers []string
	next    int
	conn    *nats.Conn
	js      jetstream.JetStream
	on      string
}

func (c *jsConn) connect() error {
	c.close()
	url := c.servers[c.next%len(c.servers)]
	c.next++
	conn, err := nats.Connect(url, nats.MaxReconnects(-1))
	if err != nil {
		return fmt.Errorf("connect %s: %w", url, err)
	}
	js, err := jetstream.New(conn)
	if err != nil {
		conn.Close()
		return fmt.Errorf("jetstream on %s: %w", url, err)
	}
	c.conn, c.js, c.on = conn, js, url
	return nil
}

// dialJetStream connects to the cluster's first server, for as long as
// the test runs, and names the cluster's stream.
func dialJetStream(t *testing.T, nc natsCluster) (*jsConn, natsbus.Namespace) {
	t.Helper()
	ns, err := natsbus.NewNamespace(clusterName)
	if err != nil {
		t.Fatal(err)
	}
	c := &jsConn{servers: strings.Split(nc.urls, ",")}
	t.Cleanup(c.close)
	if err := c.connect(); err != nil {
		t.Fatal(err)
	}
	return c, ns
}

func (c *jsConn) close() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
}

// checkJetStream waits for the relay to publish at least the first atLeast
// events of the store, then compares the stream with the store's log
// message by message: each message's stream sequence, Nats-Msg-Id,
// position and hash are those of the event at the same place in the
// global order. The cluster is still running (turn clocks append), so the
// stream is read first and the log after it: the stream must be a prefix
// of the log. It returns the stream's length. A failure reports what
// every server's monitoring endpoint says of the stream.
func checkJetStream(t *testing.T, nc natsCluster, atLeast int, readLog func() []eventstore.Event) int {
	t.Helper()
	ctx := t.Context()
	c, ns := dialJetStream(t, nc)
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s\n%s", fmt.Sprintf(format, args...), jszReport(nc, ns.Stream()))
	}
	deadline := time.Now().Add(stallLimit)
	var (
		n   int
		st  jetstream.Stream
		err error
	)
	for {
		if time.Now().After(deadline) {
			fail("after %s without progress the stream holds %d messages of the store's %d events (last answer, from %s: %v)", stallLimit, n, atLeast, c.on, err)
		}
		time.Sleep(250 * time.Millisecond)
		var info *jetstream.StreamInfo
		if st, err = c.js.Stream(ctx, ns.Stream()); err == nil {
			info, err = st.Info(ctx)
		}
		if err != nil {
			if errors.Is(err, nats.ErrNoResponders) {
				if cerr := c.connect(); cerr != nil {
					err = cerr
				}
			}
			continue
		}
		if int(info.State.Msgs) > n {
			deadline = time.Now().Add(stallLimit)
		}
		if n = int(info.State.Msgs); n >= atLeast {
			if info.State.FirstSeq != 1 || info.State.LastSeq != uint64(n) {
				fail("the stream holds %d messages of sequences %d..%d: not a whole prefix", n, info.State.FirstSeq, info.State.LastSeq)
			}
			break
		}
	}
	log := readLog()
	if n > len(log) {
		t.Fatalf("the stream holds %d messages, the store %d events", n, len(log))
	}
	// Where NATS fails on the way, read on from the last message that
	// compared equal, through the next server if this one has no answer.
	from, retries := 0, 0
	deadline = time.Now().Add(stallLimit)
	for {
		i, err := compareStream(ctx, st, log[:n], from)
		if err == nil {
			if retries > 0 {
				t.Logf("the stream read whole after %d interruptions", retries)
			}
			return n
		}
		var mismatch *streamMismatch
		if errors.As(err, &mismatch) {
			fail("%s", mismatch.msg)
		}
		if i > from {
			from, deadline = i, time.Now().Add(stallLimit)
		}
		if time.Now().After(deadline) {
			fail("reading the stream stalled at message %d of %d for %s (last answer, from %s: %v)", from+1, n, stallLimit, c.on, err)
		}
		retries++
		if retries <= 5 {
			t.Logf("reading the stream at message %d of %d through %s: %v; reading on", i+1, n, c.on, err)
		}
		time.Sleep(250 * time.Millisecond)
		if errors.Is(err, nats.ErrNoResponders) {
			if cerr := c.connect(); cerr != nil {
				continue
			}
			if s, serr := c.js.Stream(ctx, ns.Stream()); serr == nil {
				st = s
			}
		}
	}
}

// streamMismatch is a message that is not the event at its place.
type streamMismatch struct{ msg string }

func (m *streamMismatch) Error() string { return m.msg }

// checkStreamMsg compares the stream's message at seq, its headers h,
// with the store's event that should be at log[i].
func checkStreamMsg(log []eventstore.Event, i int, seq uint64, h nats.Header) error {
	e := log[i]
	if id := h.Get(jetstream.MsgIDHeader); id != natsbus.MsgID(e.Stream, e.Version) || seq != uint64(i+1) ||
		h.Get(natsbus.HeaderPosition) != strconv.FormatInt(e.Position, 10) || h.Get(natsbus.HeaderHash) != e.Hash {
		return &streamMismatch{fmt.Sprintf("stream message %d is %s (position %s), the store's event %d is %s (position %d)",
			seq, id, h.Get(natsbus.HeaderPosition), i+1, natsbus.MsgID(e.Stream, e.Version), e.Position)}
	}
	return nil
}

// compareStream reads the stream's messages from+1..len(log) in order and
// compares each with the event at its place; it returns how many of log
// compared equal, counted from the start. It reads through an ordered
// consumer; where that stalls or fails, it reads the rest one message at
// a time from the stream's leader (STREAM.MSG.GET). An ordered consumer
// may be placed on a replica that a SIGKILL left behind: nats-server can
// stop such a replica on restart ("critical write error: last msgid
// mismatch", nats-server issue 8319 is of the same kind) while the leader
// and the other replica hold every message. What the test claims is that
// the stream, as JetStream serves it, is the store's exact prefix;
// checkReplicas holds every replica to it.
func compareStream(ctx context.Context, st jetstream.Stream, log []eventstore.Event, from int) (int, error) {
	cfg := jetstream.OrderedConsumerConfig{}
	if from > 0 {
		cfg.DeliverPolicy = jetstream.DeliverByStartSequencePolicy
		cfg.OptStartSeq = uint64(from + 1)
	}
	i := from
	var consumerErr error
	cons, err := st.OrderedConsumer(ctx, cfg)
	if err != nil {
		consumerErr = fmt.Errorf("ordered consumer: %w", err)
	}
	for consumerErr == nil && i < len(log) {
		batch, err := cons.Fetch(min(500, len(log)-i), jetstream.FetchMaxWait(5*time.Second))
		if err != nil {
			consumerErr = fmt.Errorf("fetch at message %d: %w", i+1, err)
			break
		}
		got := 0
		for m := range batch.Messages() {
			meta, err := m.Metadata()
			if err != nil {
				return i, err
			}
			if err := checkStreamMsg(log, i, meta.Sequence.Stream, m.Headers()); err != nil {
				return i, err
			}
			i++
			got++
		}
		if err := batch.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) {
			consumerErr = fmt.Errorf("fetch at message %d: %w", i+1, err)
			break
		}
		if got == 0 {
			consumerErr = fmt.Errorf("the ordered consumer stalled at message %d", i+1)
			break
		}
	}
	for ; i < len(log); i++ {
		m, err := st.GetMsg(ctx, uint64(i+1))
		if err != nil {
			return i, fmt.Errorf("%v; message %d of %d from the leader: %w", consumerErr, i+1, len(log), err)
		}
		if err := checkStreamMsg(log, i, m.Sequence, m.Header); err != nil {
			return i, err
		}
	}
	return i, nil
}

// checkReplicas makes each NATS server in turn the stream's leader and
// compares the stream it serves, read message by message from the leader,
// with the store's log: every replica, not only one, holds the store's
// first n events in order. It returns the replicas checked.
func checkReplicas(t *testing.T, nc natsCluster, n int, readLog func() []eventstore.Event) int {
	t.Helper()
	ctx := t.Context()
	c, ns := dialJetStream(t, nc)
	log := readLog()[:n]
	checked := 0
	for i := range nc.procs {
		server := fmt.Sprintf("nats-%d", i+1)
		deadline := time.Now().Add(90 * time.Second)
		from := 0
		var last error
		for {
			if time.Now().After(deadline) {
				t.Fatalf("%s never led the stream %s with every replica current, or its reads stalled at message %d (last answer, from %s: %v)\n%s",
					server, ns.Stream(), from+1, c.on, last, jszReport(nc, ns.Stream()))
			}
			st, err := c.js.Stream(ctx, ns.Stream())
			var info *jetstream.StreamInfo
			if err == nil {
				info, err = st.Info(ctx)
			}
			if err != nil || info.Cluster == nil {
				last = err
				if errors.Is(err, nats.ErrNoResponders) {
					_ = c.connect()
				}
				time.Sleep(250 * time.Millisecond)
				continue
			}
			if info.Cluster.Leader != server {
				// Ask the leader to hand over to server once every
				// replica is current.
				current := len(info.Cluster.Replicas) == len(nc.procs)-1
				for _, r := range info.Cluster.Replicas {
					current = current && r.Current && r.Lag == 0
				}
				if current {
					req, _ := json.Marshal(map[string]any{"placement": map[string]any{"preferred": server}})
					_, _ = c.conn.RequestWithContext(ctx, "$JS.API.STREAM.LEADER.STEPDOWN."+ns.Stream(), req)
				}
				time.Sleep(500 * time.Millisecond)
				continue
			}
			if int(info.State.Msgs) < n {
				t.Fatalf("%s, leading, holds %d messages of the %d relayed\n%s", server, info.State.Msgs, n, jszReport(nc, ns.Stream()))
			}
			next, err := compareByGet(ctx, st, log, from)
			if err != nil {
				if _, ok := err.(*streamMismatch); ok {
					t.Fatalf("%s's replica: %v", server, err)
				}
				last = err
				if next > from {
					from, deadline = next, time.Now().Add(90*time.Second)
				}
				time.Sleep(250 * time.Millisecond)
				continue // the leader changed under the reads: on from there once it leads again
			}
			checked++
			break
		}
	}
	return checked
}

// compareByGet reads the stream's messages from+1..len(log) one at a time
// from its leader and compares each with the event at its place; it
// returns how many of log compared equal, counted from the start.
func compareByGet(ctx context.Context, st jetstream.Stream, log []eventstore.Event, from int) (int, error) {
	for i := from; i < len(log); i++ {
		m, err := st.GetMsg(ctx, uint64(i+1))
		if err != nil {
			return i, err
		}
		if err := checkStreamMsg(log, i, m.Sequence, m.Header); err != nil {
			return i, err
		}
	}
	return len(log), nil
}

// jszReport is what each NATS server's monitoring endpoint says of
// JetStream and of the stream: whether JetStream runs there, the
// server's copy of the stream (messages, sequences), and whom it takes
// for the leader and the replicas, for a failure's message.
func jszReport(nc natsCluster, stream string) string {
	type peer struct {
		Name    string `json:"name"`
		Current bool   `json:"current"`
		Offline bool   `json:"offline"`
		Lag     uint64 `json:"lag"`
	}
	type jsz struct {
		Disabled bool `json:"disabled"`
		Streams  int  `json:"streams"`
		Meta     *struct {
			Leader string `json:"leader"`
		} `json:"meta_cluster"`
		Accounts []struct {
			Streams []struct {
				Name    string `json:"name"`
				Cluster *struct {
					Leader   string `json:"leader"`
					Replicas []peer `json:"replicas"`
				} `json:"cluster"`
				State struct {
					Msgs     uint64 `json:"messages"`
					FirstSeq uint64 `json:"first_seq"`
					LastSeq  uint64 `json:"last_seq"`
				} `json:"state"`
				Consumers []struct {
					Name string `json:"name"`
				} `json:"consumer_detail"`
			} `json:"stream_detail"`
		} `json:"account_details"`
	}
	client := &http.Client{Timeout: 5 * time.Second}
	var b strings.Builder
	b.WriteString("what each NATS server says (monitoring /healthz, /jsz):")
	for i, base := range nc.monitors {
		fmt.Fprintf(&b, "\n  nats-%d:", i+1)
		if resp, err := client.Get(base + "/healthz"); err != nil {
			fmt.Fprintf(&b, " healthz: %v;", err)
		} else {
			var h struct {
				Status string `json:"status"`
				Error  string `json:"error"`
			}
			_ = json.NewDecoder(resp.Body).Decode(&h)
			resp.Body.Close()
			fmt.Fprintf(&b, " healthz %d %s %s;", resp.StatusCode, h.Status, h.Error)
		}
		resp, err := client.Get(base + "/jsz?accounts=true&streams=true&consumers=true")
		if err != nil {
			fmt.Fprintf(&b, " jsz: %v", err)
			continue
		}
		var j jsz
		err = json.NewDecoder(resp.Body).Decode(&j)
		resp.Body.Close()
		if err != nil {
			fmt.Fprintf(&b, " jsz: %v", err)
			continue
		}
		meta := ""
		if j.Meta != nil {
			meta = j.Meta.Leader
		}
		fmt.Fprintf(&b, " jetstream disabled=%v, meta leader %q, %d streams", j.Disabled, meta, j.Streams)
		found := false
		for _, a := range j.Accounts {
			for _, s := range a.Streams {
				if s.Name != stream {
					continue
				}
				found = true
				fmt.Fprintf(&b, "; its copy: %d messages %d..%d, %d consumers", s.State.Msgs, s.State.FirstSeq, s.State.LastSeq, len(s.Consumers))
				if s.Cluster != nil {
					fmt.Fprintf(&b, ", leader %q, replicas", s.Cluster.Leader)
					for _, r := range s.Cluster.Replicas {
						fmt.Fprintf(&b, " %s(current=%v offline=%v lag=%d)", r.Name, r.Current, r.Offline, r.Lag)
					}
				}
			}
		}
		if !found {
			fmt.Fprintf(&b, "; no copy of %s", stream)
		}
	}
	return b.String()
}
