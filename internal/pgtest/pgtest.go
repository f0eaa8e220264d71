// Package pgtest gives a test a PostgreSQL database of its own: created
// empty on the server that PAIJU_TEST_POSTGRES names (by default the local
// server, postgres://postgres@127.0.0.1:5432/postgres) and dropped when the
// test ends.
//
// Where no server answers, the test is skipped, unless CI or
// PAIJU_REQUIRE_POSTGRES is set: there a missing server fails the test, so
// that a CI run never passes by skipping the PostgreSQL suite.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultServer is the server used when PAIJU_TEST_POSTGRES is unset.
const DefaultServer = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// Server is the administrative URL of the test server.
func Server() string {
	if u := os.Getenv("PAIJU_TEST_POSTGRES"); u != "" {
		return u
	}
	return DefaultServer
}

// required says whether a missing server fails the test rather than skips it.
func required() bool {
	return os.Getenv("CI") != "" || os.Getenv("PAIJU_REQUIRE_POSTGRES") != ""
}

// NewDatabase creates an empty database for t and returns its URL. The
// database is dropped (with the connections still open to it) when t ends.
func NewDatabase(t testing.TB) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := pgx.Connect(ctx, Server())
	if err != nil {
		if required() {
			t.Fatalf("pgtest: PostgreSQL at %s: %v (CI needs it: start the server, see README)", redact(Server()), err)
		}
		t.Skipf("pgtest: no PostgreSQL at %s (%v); set PAIJU_TEST_POSTGRES or start one", redact(Server()), err)
	}
	defer admin.Close(context.Background())

	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	name := "paiju_test_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, Server())
		if err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	u, err := url.Parse(Server())
	if err != nil {
		t.Fatalf("pgtest: PAIJU_TEST_POSTGRES: %v", err)
	}
	u.Path = "/" + name
	return u.String()
}

// redact hides a password in a server URL for messages.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "the configured server"
	}
	return u.Redacted()
}

// String describes the server for logs.
func String() string { return fmt.Sprintf("PostgreSQL at %s", redact(Server())) }
