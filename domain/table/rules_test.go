package table_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"paiju/domain/table"
)

// toyV2 is toy after a rules change: a new version, the old one kept.
type toyV2 struct{ toy }

func (toyV2) Version() string { return "toy/2" }

// toyGame is a Game whose current rules are toy/2; with keep it still
// replays toy/1 (table.Versioned).
type toyGame struct{}

func (toyGame) Name() string       { return "toy" }
func (toyGame) Variants() []string { return []string{"plain"} }
func (toyGame) Rules(variant string, _ json.RawMessage) (table.Rules, error) {
	if variant != "plain" {
		return nil, fmt.Errorf("no variant %q", variant)
	}
	return table.Adapt[*toyState](toyV2{}), nil
}

type keepingToyGame struct{ toyGame }

func (keepingToyGame) RulesAt(version, variant string, _ json.RawMessage) (table.Rules, error) {
	if version == "toy/1" && variant == "plain" {
		return table.Adapt[*toyState](toy{}), nil
	}
	return nil, fmt.Errorf("%w: toy keeps toy/1 only", table.ErrRulesVersion)
}

// TestRegistryReplaysRecordedRulesVersion: a table replays under the rules
// version it was opened with (DESIGN.md, The aggregate: a table always
// replays with the rules it was opened under); a version the game does not
// keep is refused, naming both versions.
func TestRegistryReplaysRecordedRulesVersion(t *testing.T) {
	for _, tt := range []struct {
		name     string
		game     table.Game
		recorded string
		want     string // the version replayed, "" for a refusal
	}{
		{"current version", toyGame{}, "toy/2", "toy/2"},
		{"current version, game keeps old ones", keepingToyGame{}, "toy/2", "toy/2"},
		{"older version kept", keepingToyGame{}, "toy/1", "toy/1"},
		{"older version, game keeps none", toyGame{}, "toy/1", ""},
		{"version the game never had", keepingToyGame{}, "toy/0", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			reg := table.Registry{"toy": tt.game}
			r, err := reg.Rules(table.TableOpened{Game: "toy", Variant: "plain", RulesVersion: tt.recorded})
			if tt.want == "" {
				if !errors.Is(err, table.ErrRulesVersion) {
					t.Fatalf("rules for a table opened under %s: %v, want ErrRulesVersion", tt.recorded, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("rules for a table opened under %s: %v", tt.recorded, err)
			}
			if r.Version() != tt.want {
				t.Fatalf("a table opened under %s replays under %s, want %s", tt.recorded, r.Version(), tt.want)
			}
		})
	}
}
