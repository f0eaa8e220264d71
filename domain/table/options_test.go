package table_test

import (
	"encoding/json"
	"errors"
	"testing"

	"paiju/domain/table"
)

type houseRules struct {
	cap    int
	double bool
	mode   string
	mults  map[string]int
}

func readHouseRules(raw string) (houseRules, error) {
	h := houseRules{mode: "fixed"}
	r := table.ReadOptions("game/variant", json.RawMessage(raw))
	r.Int("cap", 3, 1_000_000, &h.cap)
	r.Bool("double", &h.double)
	r.Enum("mode", &h.mode, "fixed", "rotate")
	r.IntMap("mults", []string{"a", "b"}, 1, 20, &h.mults)
	return h, r.Done()
}

// The rules README, Table options: an unknown key, a wrong JSON type or a
// value out of range is 422 invalid_option naming the key.
func TestOptionReaderNamesTheKey(t *testing.T) {
	for raw, key := range map[string]string{
		`{"cap":2}`:                "cap",
		`{"cap":"8"}`:              "cap",
		`{"cap":8.0}`:              "cap",
		`{"double":1}`:             "double",
		`{"mode":"random"}`:        "mode",
		`{"mults":{"c":1}}`:        "mults",
		`{"mults":{"a":21}}`:       "mults",
		`{"mults":[1]}`:            "mults",
		`{"cap":8,"zebra":true}`:   "zebra",
		`{"zebra":1,"aardvark":1}`: "aardvark",
	} {
		_, err := readHouseRules(raw)
		var e *table.Error
		if !errors.As(err, &e) || !errors.Is(err, table.ErrBadOption) || e.Option != key {
			t.Errorf("%s: got %v (option %q), want invalid_option naming %q", raw, err, optionOf(e), key)
		}
	}
	if _, err := readHouseRules(`[1]`); !errors.Is(err, table.ErrBadOption) {
		t.Errorf("an array: got %v, want invalid_option", err)
	}
}

func TestOptionReaderReadsValues(t *testing.T) {
	for _, raw := range []string{``, `null`, `{}`, ` {} `} {
		h, err := readHouseRules(raw)
		if err != nil || h.cap != 0 || h.double || h.mode != "fixed" || h.mults != nil {
			t.Errorf("%q: got %+v, %v; want the defaults", raw, h, err)
		}
	}
	h, err := readHouseRules(`{"cap":8,"double":true,"mode":"rotate","mults":{"b":3}}`)
	if err != nil || h.cap != 8 || !h.double || h.mode != "rotate" || h.mults["b"] != 3 || len(h.mults) != 1 {
		t.Errorf("got %+v, %v", h, err)
	}
}

func optionOf(e *table.Error) string {
	if e == nil {
		return ""
	}
	return e.Option
}
