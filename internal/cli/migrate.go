package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"paiju/internal/app"
)

const migrateUsage = `usage: paiju migrate [flags] [up | down N | version | force V]

  up         apply every migration the databases lack (the default)
  down N     revert the newest N migrations of one database (--db)
  version    print each database's schema version
  force V    record version V (0 for none) as the database's, clean, running
             nothing: after repairing a migration that failed halfway (--db)

`

func parseMigrate(args []string, getenv func(string) string, stderr io.Writer) (app.MigrateConfig, error) {
	var c app.MigrateConfig
	fs := flagSet("migrate", stderr)
	addCommon(fs, getenv, &c.Common)
	fs.StringVar(&c.DB, "db", "", "the database: store (paiju.db, or the PostgreSQL database --store names) or projections (projections.db); up and version default to both")
	fs.Usage = func() {
		fmt.Fprint(stderr, migrateUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	// Flags may follow the verb too: parse what comes after it again.
	rest := fs.Args()
	var words []string
	for len(rest) > 0 {
		words = append(words, rest[0])
		if err := fs.Parse(rest[1:]); err != nil {
			return c, err
		}
		rest = fs.Args()
	}
	c.Verb = "up"
	if len(words) > 0 {
		c.Verb, words = words[0], words[1:]
	}
	switch c.Verb {
	case "up", "version":
		if len(words) != 0 {
			return c, fmt.Errorf("migrate %s: unexpected arguments %q", c.Verb, words)
		}
	case "down", "force":
		if len(words) != 1 {
			return c, fmt.Errorf("migrate %s: want one number, got %q", c.Verb, words)
		}
		n, err := strconv.Atoi(words[0])
		if err != nil || n < 0 || c.Verb == "down" && n == 0 {
			return c, fmt.Errorf("migrate %s: %q is not a valid number", c.Verb, words[0])
		}
		c.N = n
		if c.DB == "" {
			return c, fmt.Errorf("migrate %s: name the database with --db store or --db projections", c.Verb)
		}
	default:
		fmt.Fprint(stderr, migrateUsage)
		return c, fmt.Errorf("migrate: unknown verb %q", c.Verb)
	}
	switch c.DB {
	case "", "store", "projections":
	default:
		return c, fmt.Errorf("migrate: --db %q: want store or projections", c.DB)
	}
	return c, nil
}

// runMigrate creates, upgrades, rolls back or inspects the database schemas.
func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := parseMigrate(args, getenv, stderr)
	if err != nil {
		return err
	}
	return app.Migrate(ctx, cfg, stdout)
}
