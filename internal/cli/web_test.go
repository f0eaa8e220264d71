package cli

import (
	"strings"
	"testing"
)

// TestWebFlag: the web app is on by default; --web=false or PAIJU_WEB=false
// turns it off, the flag winning over the environment; a PAIJU_WEB that is
// not a boolean is refused.
func TestWebFlag(t *testing.T) {
	var stderr strings.Builder
	for _, c := range []struct {
		args []string
		env  string
		want bool
	}{
		{nil, "", true},
		{[]string{"--web=false"}, "", false},
		{nil, "false", false},
		{nil, "0", false},
		{[]string{"--web"}, "false", true},
		{[]string{"--web=true"}, "false", true},
	} {
		cfg, err := parseServe(c.args, func(k string) string {
			if k == "PAIJU_WEB" {
				return c.env
			}
			return ""
		}, &stderr)
		if err != nil {
			t.Fatalf("%q PAIJU_WEB=%q: %v", c.args, c.env, err)
		}
		if cfg.Web != c.want {
			t.Errorf("%q PAIJU_WEB=%q: web %v, want %v", c.args, c.env, cfg.Web, c.want)
		}
	}
	if _, err := parseServe(nil, func(k string) string {
		if k == "PAIJU_WEB" {
			return "maybe"
		}
		return ""
	}, &stderr); err == nil {
		t.Error("PAIJU_WEB=maybe accepted")
	}
}
