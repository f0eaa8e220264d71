package api_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"paiju/api/apitest"
	"paiju/domain/table"
	"paiju/games"
)

// TestSpecTypesEveryGame keeps openapi.yaml complete: every event type and
// every action type a game registers has its schema in the document (a
// member of the Event or Action union, found by its discriminator value and
// fixing that value with const), every game has its table, options, state
// and settlement schemas, and the unions list nothing no game registers.
func TestSpecTypesEveryGame(t *testing.T) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromFile(apitest.SpecPath())
	if err != nil {
		t.Fatalf("load openapi.yaml: %v", err)
	}
	if !doc.IsOpenAPI31OrLater() {
		t.Fatalf("openapi.yaml is OpenAPI %s, want 3.1", doc.OpenAPI)
	}
	schemas := doc.Components.Schemas

	events := table.CommonEventTypes()
	actions := table.TableActionTypes()
	reg := games.All()
	for _, name := range slices.Sorted(maps.Keys(reg)) {
		g := reg[name]
		c, ok := g.(table.Catalog)
		if !ok {
			t.Errorf("game %s does not implement table.Catalog: its events and actions cannot be checked against openapi.yaml", name)
			continue
		}
		events = append(events, c.EventTypes()...)
		actions = append(actions, c.ActionTypes()...)
		checkGame(t, schemas, g)
	}
	checkUnion(t, schemas, "Event", "type", events)
	checkUnion(t, schemas, "Action", "type", actions)
}

// checkUnion checks that the discriminated union name maps each value of
// want to a schema whose property prop is that value as a const, and maps
// nothing else.
func checkUnion(t *testing.T, schemas openapi3.Schemas, name, prop string, want []string) {
	t.Helper()
	u := schemas[name]
	if u == nil || u.Value == nil || u.Value.Discriminator == nil {
		t.Errorf("openapi.yaml has no discriminated union %s", name)
		return
	}
	mapping := u.Value.Discriminator.Mapping
	if u.Value.Discriminator.PropertyName != prop {
		t.Errorf("%s is discriminated by %q, want %q", name, u.Value.Discriminator.PropertyName, prop)
	}
	members := map[string]bool{}
	for _, m := range u.Value.OneOf {
		members[m.Ref] = true
	}
	for _, v := range want {
		ref, ok := mapping[v]
		if !ok {
			t.Errorf("%s %q has no schema in openapi.yaml: add it to the %s union and its discriminator mapping", name, v, name)
			continue
		}
		if !members[ref.Ref] {
			t.Errorf("%s maps %q to %s, which is not one of its oneOf members", name, v, ref.Ref)
		}
		s := schemas[strings.TrimPrefix(ref.Ref, "#/components/schemas/")]
		if s == nil || s.Value == nil {
			t.Errorf("%s maps %q to %s, which openapi.yaml does not define", name, v, ref.Ref)
			continue
		}
		p := propertyOf(s.Value, prop)
		if p == nil || p.Const != v {
			t.Errorf("%s: property %s of the schema of %q is not const %q", name, prop, v, v)
		}
		if name == "Event" {
			if d := propertyOf(s.Value, "data"); d == nil || (d.Type == nil && d.AnyOf == nil && d.OneOf == nil && d.AllOf == nil) {
				t.Errorf("Event %q: its data has no schema", v)
			}
		}
	}
	for v := range mapping {
		if !slices.Contains(want, v) {
			t.Errorf("%s maps %q, which no game registers", name, v)
		}
	}
	if len(u.Value.OneOf) != len(mapping) {
		t.Errorf("%s has %d members and %d mapped values", name, len(u.Value.OneOf), len(mapping))
	}
}

// checkGame checks the schemas of one game: its table in the Table union,
// with its variants, and its options, state and settlement.
func checkGame(t *testing.T, schemas openapi3.Schemas, g table.Game) {
	t.Helper()
	for _, union := range []string{"Table", "OpenTable"} {
		u := schemas[union]
		if u == nil || u.Value.Discriminator == nil {
			t.Fatalf("openapi.yaml has no discriminated union %s", union)
		}
		ref, ok := u.Value.Discriminator.Mapping[g.Name()]
		if !ok {
			t.Errorf("%s has no schema for game %s", union, g.Name())
			continue
		}
		s := schemas[strings.TrimPrefix(ref.Ref, "#/components/schemas/")].Value
		if p := propertyOf(s, "game"); p == nil || p.Const != g.Name() {
			t.Errorf("%s of %s: game is not const %q", union, g.Name(), g.Name())
		}
		var variants []string
		if p := propertyOf(s, "variant"); p != nil {
			for _, v := range p.Enum {
				variants = append(variants, v.(string))
			}
		}
		if want := g.Variants(); !slices.Equal(variants, want) {
			t.Errorf("%s of %s: variants %v, want %v", union, g.Name(), variants, want)
		}
		for _, prop := range []string{"options", "game_state", "last_settlement"} {
			if union == "OpenTable" && prop != "options" {
				continue
			}
			if propertyOf(s, prop) == nil {
				t.Errorf("%s of %s: no %s", union, g.Name(), prop)
			}
		}
	}
}

// propertyOf finds a property of s, or of the schemas s is allOf.
func propertyOf(s *openapi3.Schema, name string) *openapi3.Schema {
	if p, ok := s.Properties[name]; ok && p.Value != nil {
		return p.Value
	}
	for _, a := range s.AllOf {
		if a.Value == nil {
			continue
		}
		if p := propertyOf(a.Value, name); p != nil {
			return p
		}
	}
	return nil
}
