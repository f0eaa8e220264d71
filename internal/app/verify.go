package app

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"paiju/audit"
	"paiju/eventstore"
	"paiju/eventstore/sqlite"
	"paiju/games"
	"paiju/natsbus"
)

// verify checks the data directory: the database file (SQLite's
// integrity_check), the hash chain against the recorded head (a store with
// events and no head file is a fault), then every table replayed and
// re-decided through its rules. Any fault is an
// error (a non-zero exit).
func Verify(ctx context.Context, vc VerifyConfig, stdout io.Writer) error {
	c := vc.Common
	kind, err := c.storeKind()
	if err != nil {
		return err
	}
	if kind == storePostgres {
		return verifyPostgres(ctx, vc, stdout)
	}
	// The store is opened without its head file: Open would refuse a log that
	// disagrees with it, where verify should say exactly where.
	store, err := sqlite.Open(ctx, c.DBPath(), sqlite.Options{Synchronous: c.Sync, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return fmt.Errorf("open store: %w", err)
	}
	defer store.Close()

	if err := store.CheckIntegrity(ctx, false); err != nil {
		return fmt.Errorf("database file: %w", err)
	}
	fmt.Fprintln(stdout, "database file ok: SQLite integrity_check")

	headPos, headHash, err := sqlite.ReadHeadFile(c.HeadPath())
	if errors.Is(err, fs.ErrNotExist) {
		last, _, herr := store.Head(ctx)
		if herr != nil {
			return herr
		}
		if last > 0 {
			// Without the head a removed tail is indistinguishable from
			// the log's real end: not a warning but a fault.
			return fmt.Errorf("chain head: %w: the log holds %d events; %s", sqlite.ErrNoHeadFile, last, recoverHint)
		}
		headPos, headHash = 0, ""
	} else if err != nil {
		return fmt.Errorf("chain head: %w", err)
	}
	if err := eventstore.VerifyChain(ctx, store, headPos, headHash); err != nil {
		return fmt.Errorf("hash chain: %w", err)
	}
	pos, _, err := store.Head(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "hash chain ok: %d events\n", pos)
	if vc.NATS.URL != "" {
		if err := verifyAnchor(ctx, vc.NATS, store, stdout); err != nil {
			return err
		}
	}
	if err := verifyTables(ctx, store, stdout); err != nil {
		return err
	}
	if vc.Ratings != "" {
		return verifyRatings(ctx, c, store, vc.Ratings, stdout)
	}
	return nil
}

// verifyTables replays every table of store and re-decides it through its
// rules.
func verifyTables(ctx context.Context, store eventstore.Log, stdout io.Writer) error {
	streams, err := store.Streams(ctx)
	if err != nil {
		return err
	}
	reg := games.All()
	var faults int
	for _, s := range streams {
		if strings.HasPrefix(s, "tournament-") {
			evs, err := store.Load(ctx, s, 0)
			if err != nil {
				return err
			}
			rep, err := audit.VerifyTournament(evs)
			if err != nil {
				faults++
				fmt.Fprintf(stdout, "FAULT %v\n", err)
				continue
			}
			fmt.Fprintf(stdout, "ok %s: %d events re-decided, %d rounds drawn from the seed (ended: %v)\n", s, rep.Events, rep.Rounds, rep.Ended)
			continue
		}
		if !strings.HasPrefix(s, "table-") {
			continue
		}
		evs, err := store.Load(ctx, s, 0)
		if err != nil {
			return err
		}
		rep, err := audit.VerifyTable(reg.Rules, evs)
		if err != nil {
			faults++
			fmt.Fprintf(stdout, "FAULT %v\n", err)
			continue
		}
		state := "finished"
		if rep.Open {
			state = "deal running"
		}
		fmt.Fprintf(stdout, "ok %s: %d events, %d commands re-decided, %d deals recomputed from their seeds (%s)\n",
			s, rep.Events, rep.Commands, rep.Deals, state)
	}
	if faults > 0 {
		return fmt.Errorf("verify: %d of %d streams have faults", faults, len(streams))
	}
	fmt.Fprintf(stdout, "verified %d tables\n", len(streams))
	return nil
}

// verifyConfig configures paiju verify of a data directory.
type VerifyConfig struct {
	Common
	// NATS, with a URL, is the deployment whose chain anchor the store must
	// contain.
	NATS NATSConfig
	// Ratings, if set, is a player whose rating history is recomputed
	// from the log and compared with the ratings projection's.
	Ratings string
}

// verifyAnchor checks the store against the chain anchor the deployment
// keeps in NATS.
func verifyAnchor(ctx context.Context, c NATSConfig, store chainStore, stdout io.Writer) error {
	nc, js, err := connectNATS(ctx, c)
	if err != nil {
		return err
	}
	defer nc.Close()
	a, ok, err := natsbus.LookupAnchor(ctx, js, c.NS)
	if err != nil {
		return fmt.Errorf("chain anchor: %w", err)
	}
	if !ok {
		fmt.Fprintf(stdout, "chain anchor: none recorded for deployment %q on %s\n", c.NS.Cluster(), natsbus.Redacted(c.URL))
		return nil
	}
	p, err := checkAnchor(ctx, store, a)
	if err != nil {
		return fmt.Errorf("chain anchor in %s: %w", a.Bucket(), err)
	}
	if p.Position == 0 {
		fmt.Fprintf(stdout, "chain anchor: none recorded in %s\n", a.Bucket())
		return nil
	}
	fmt.Fprintf(stdout, "chain anchor ok: the store holds position %d with hash %s (anchored %s in %s)\n",
		p.Position, p.Hash, p.RecordedAt.Format(time.RFC3339), a.Bucket())
	return nil
}

// verifyFile checks an exported table log with no store and no server: the
// hashes, the version sequence, the chain head line, every command re-decided
// by the rules, every deal recomputed from its revealed seed and commitment,
// and every settlement recomputed (docs/AUDIT.md). The first fault is the
// error, naming the event and the line.
//
// histories, when given, are files of players' rating histories (the body
// of GET /v1/players/{id}/ratings?history=true, one page or several one
// after the other): the export's hands they name are rated again from the
// ratings before them, and the ratings after them compared bit for bit
// (verifyExportRatings).
func VerifyFile(name string, histories []string, stdout io.Writer) error {
	var r io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	var file bytes.Buffer
	if len(histories) > 0 {
		r = io.TeeReader(r, &file)
	}
	start := time.Now()
	rep, err := audit.VerifyExport(games.All().Rules, r)
	if err != nil {
		fmt.Fprintf(stdout, "FAULT %s: %v\n", name, err)
		return fmt.Errorf("%s does not verify (%w)", name, audit.ErrFault)
	}
	took := time.Since(start)
	state := "every deal ended"
	if rep.Open {
		state = "the last deal is still running: taken as recorded, its seed not yet revealed"
	}
	fmt.Fprintf(stdout, "ok %s: %d events, %d commands re-decided, %d deals recomputed from their seeds (%s)\n",
		rep.Stream, rep.Events, rep.Commands, rep.Deals, state)
	if rep.Head != nil {
		fmt.Fprintf(stdout, "chain head at export: position %d hash %s\n", rep.Head.ChainHead.Position, rep.Head.ChainHead.Hash)
	} else {
		fmt.Fprintln(stdout, "warning: no chain head line: nothing to compare with a chain head held elsewhere")
	}
	fmt.Fprintf(stdout, "verified in %s (%.0f events/s)\n", took.Round(time.Microsecond), float64(rep.Events)/took.Seconds())
	if len(histories) > 0 {
		return verifyExportRatings(name, file.Bytes(), histories, stdout)
	}
	return nil
}
