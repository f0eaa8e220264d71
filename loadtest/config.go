package loadtest

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// Config configures a load run (paiju loadtest): see ParseFlags for what
// each field means on the command line.
type Config struct {
	// Addrs are the base URLs of the servers: one, or every node of a
	// cluster, which then get the tables and the moves in turn.
	Addrs    []string
	Duration time.Duration
	Tables   int
	Clients  int
	Game     string
	Variant  string
	Seed     uint64
	// Record names a file that receives every acknowledged move as one
	// JSON line (Ack), for checking afterwards that the store holds it.
	Record string
	// OnAck, if set, is called with every acknowledged move (tests).
	OnAck func(Ack)
	// OnOp, if set, receives every move's command as its client saw it,
	// from invocation to outcome (History), and the moves are sent with
	// If-Match naming the version their legal actions were listed at, so
	// that each table's history can be checked for linearizability
	// (loadtest/linearcheck). The tables are then opened without a turn
	// clock, so that only the clients write to them. Not with PerSeat.
	OnOp func(Op)
	// RequestTimeout bounds each HTTP attempt (30s when zero); a request
	// that times out is sent again to the next node.
	RequestTimeout time.Duration
	// OnPlaying, if set, is called once the tables are set up and the
	// clients start playing (tests start their faults there).
	OnPlaying func()
	// Full makes every move ask for the whole view in the answer, as the
	// first version of the tool did; by default a move prefers
	// return=minimal, as a client following the table would.
	Full bool
	// MetricsURL is where the server's process CPU is read before and
	// after the run; "" reads addr/metrics of each server, "-" reads none.
	MetricsURL string
	// PerSeat plays every seat as a client of its own, as a phone holding
	// one seat would: Clients is then unused.
	PerSeat bool
	// AskLegal makes a PerSeat client ask /legal when its turn comes
	// instead of taking the legal actions its stream pushes (?legal=true).
	AskLegal bool
	// Idle opens and deals the tables, with the longest turn clock (an
	// hour), and plays nothing: what a server holds for tables that wait
	// (the memory per idle table) is measured from outside while nothing
	// moves.
	Idle bool
}

// ParseFlags reads the flags of paiju loadtest from args, --addr, --record
// and --metrics also from the environment (PAIJU_ADDR, PAIJU_RECORD,
// PAIJU_METRICS) read with getenv, and writes usage and flag errors to
// stderr; -h returns flag.ErrHelp after printing the flags.
func ParseFlags(args []string, getenv func(string) string, stderr io.Writer) (Config, error) {
	var c Config
	var addrs string
	fs := flagSet("loadtest", stderr)
	str(fs, getenv, &addrs, "addr", "http://127.0.0.1:8080", "base URL of a running paiju server, or comma-separated URLs of a cluster's nodes (tables and moves go to them in turn; a node that is down is skipped)")
	str(fs, getenv, &c.Record, "record", "", "file to write every acknowledged move to, one JSON line each (table, player, idempotency key, versions, positions)")
	fs.DurationVar(&c.Duration, "duration", 10*time.Second, "how long to play")
	fs.IntVar(&c.Tables, "tables", 64, "tables to open and play on")
	fs.IntVar(&c.Clients, "clients", 16, "concurrent clients (each plays its share of the tables)")
	fs.StringVar(&c.Game, "game", "doudizhu", "game of the tables")
	fs.StringVar(&c.Variant, "variant", "classic", "variant of the tables")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the clients' random choices")
	fs.BoolVar(&c.Full, "full", false, "ask for the whole table view in every move's answer (the tool's first behaviour) instead of Prefer: return=minimal")
	fs.BoolVar(&c.PerSeat, "per-seat", false, "play every seat as a client of its own: it follows its table's live stream (?legal=true), and on the legal actions the stream pushes to its seat posts a move (--clients is unused)")
	fs.BoolVar(&c.AskLegal, "ask-legal", false, "with --per-seat: open the stream without ?legal=true and ask /legal on each turn message naming the seat")
	fs.BoolVar(&c.Idle, "idle", false, "open and deal the tables (every seat joined, a turn clock of an hour), play nothing and exit (--duration is unused)")
	str(fs, getenv, &c.MetricsURL, "metrics", "", "URL of the server's /metrics, read before and after for its CPU per move (default: /metrics of each --addr; - reads none)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	switch {
	case fs.NArg() > 0:
		return c, fmt.Errorf("loadtest: unexpected arguments %q", fs.Args())
	case c.Tables < 1 || c.Clients < 1 || c.Duration <= 0:
		return c, errors.New("loadtest: --tables, --clients and --duration must be positive")
	case c.PerSeat && c.Full:
		return c, errors.New("loadtest: --per-seat learns the turn from the stream; it cannot take --full")
	case c.AskLegal && !c.PerSeat:
		return c, errors.New("loadtest: --ask-legal is a --per-seat client's choice")
	case c.Idle && (c.PerSeat || c.Full || c.Record != ""):
		return c, errors.New("loadtest: --idle plays no move: it takes no --per-seat, --full or --record")
	}
	for _, a := range strings.Split(addrs, ",") {
		if a = strings.TrimSpace(a); a == "" {
			continue
		}
		if !strings.Contains(a, "://") {
			a = "http://" + a
		}
		c.Addrs = append(c.Addrs, strings.TrimRight(a, "/"))
	}
	if len(c.Addrs) == 0 {
		return c, errors.New("loadtest: --addr names no server")
	}
	return c, nil
}

// envName is the environment variable of a flag: --addr is PAIJU_ADDR, as
// for every command of paiju.
func envName(flagName string) string {
	return "PAIJU_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// flagSet returns a flag set that reports its errors and usage to stderr
// and returns them rather than exit.
func flagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// str adds a string flag whose default the environment may replace.
func str(fs *flag.FlagSet, getenv func(string) string, p *string, name, def, help string) {
	if v := getenv(envName(name)); v != "" {
		def = v
	}
	fs.StringVar(p, name, def, help+" (env "+envName(name)+")")
}
