package experiments

import (
	"errors"
	"strings"
	"testing"
)

// tippingBase is a small experiment with a load axis, for [tipping]
// sections to be added to.
const tippingBase = `[scenario]
layer = [{ attempts = 27 }]
fault = [{ kind = "outage", start = "60s", length = "30s" }]
[grid]
load = [50, 90]
`

// A [tipping] section reads into a search: the key's path and kind, the
// range, the tolerance (one tick for a duration by default), the scan, and
// the figure's axes (by default the grid's numeric axis).
func TestTippingSection(t *testing.T) {
	e := mustParse(t, tippingBase+"[tipping]\nkey = \"blip\"\nfrom = \"0s\"\nto = \"2m\"\n")
	if len(e.Tipping) != 1 {
		t.Fatalf("%d searches, want 1", len(e.Tipping))
	}
	tp := e.Tipping[0]
	if tp.Path != "fault.0.length" || !tp.Duration || tp.From != 0 || tp.To != 120 || tp.Tolerance != 1 || tp.Scan != DefaultScan || tp.X != "load" || tp.Unit != "s" || tp.Name != "tipping-blip" || !tp.Trigger() {
		t.Errorf("search %+v", tp)
	}
	e = mustParse(t, tippingBase+"[[tipping]]\nkey = \"blip\"\nfrom = 0\nto = 60\n[[tipping]]\nkey = \"fault.0.capacity\"\nfrom = 100\nto = 0\ntolerance = 0.5\nname = \"depth\"\n")
	if len(e.Tipping) != 2 || e.Tipping[1].From != 100 || e.Tipping[1].To != 0 || e.Tipping[1].Unit != "calls/s" || e.Tipping[1].Name != "depth" {
		t.Errorf("two searches %+v", e.Tipping)
	}
	// -set reaches a search's keys.
	e = mustParse(t, tippingBase+"[tipping]\nkey = \"blip\"\nfrom = \"0s\"\nto = \"2m\"\n", "tipping.to=5s")
	if e.Tipping[0].To != 5 {
		t.Errorf("-set tipping.to=5s gives to = %v", e.Tipping[0].To)
	}
}

// Bad input in a [tipping] section is one positioned error naming the key
// and what it allows.
func TestTippingBadInput(t *testing.T) {
	for _, c := range []struct {
		name, section string
		want          []string
	}{
		{"no key", "from = 0\nto = 1\n", []string{"x.toml:6:2: tipping: a search needs key"}},
		{"unknown key", "key = \"blib\"\nfrom = 0\nto = 1\n", []string{"x.toml:7:1: tipping.key", "unknown key", "did you mean"}},
		{"not a number", "key = \"dependency.queue\"\nfrom = 0\nto = 1\n", []string{"x.toml:7:1: tipping.key", "not a number (it holds text)"}},
		{"a whole list", "key = \"attempts\"\nfrom = 1\nto = 9\n", []string{"tipping.key", "every entry of a list"}},
		{"no range", "key = \"blip\"\nfrom = \"0s\"\n", []string{"x.toml:6:2: tipping: a search needs to"}},
		{"empty range", "key = \"blip\"\nfrom = \"2s\"\nto = \"2s\"\n", []string{"x.toml:9:1: tipping.to", "equals from (2s)"}},
		{"wide tolerance", "key = \"blip\"\nfrom = \"0s\"\nto = \"2s\"\ntolerance = \"5s\"\n", []string{"x.toml:10:1: tipping.tolerance", "wider than the range"}},
		{"part of a tick", "key = \"blip\"\nfrom = \"0s\"\nto = \"2s\"\ntolerance = \"500ms\"\n", []string{"x.toml:10:1: tipping.tolerance", "not a whole number of ticks (tick = 1s)"}},
		{"load without tolerance", "key = \"load\"\nfrom = 1\nto = 99\n", []string{"x.toml:6:2: tipping", "needs a tolerance", "requests/s"}},
		{"load as a duration", "key = \"load\"\nfrom = \"1s\"\nto = 99\ntolerance = 1\n", []string{"x.toml:8:1: tipping.from", "wants a number"}},
		{"out of the model's bounds", "key = \"load\"\nfrom = 1\nto = 2e9\ntolerance = 1e8\n", []string{"x.toml:9:1: tipping.to", "must be a number from 0 to 1e+09 requests/s, got 2e+09", "search from cell load="}},
		{"service of a chain", "key = \"blip\"\nfrom = 0\nto = 9\nservice = \"db\"\n", []string{"x.toml:10:1: tipping.service", "runs no service graph"}},
		{"x not an axis", "key = \"blip\"\nfrom = 0\nto = 9\nx = \"lode\"\n", []string{"x.toml:10:1: tipping.x", "not a grid axis"}},
		{"x the key", "key = \"load\"\nfrom = 1\nto = 9\ntolerance = 1\nx = \"load\"\n", []string{"tipping.x", "the key the search moves"}},
		{"scan of one", "key = \"blip\"\nfrom = 0\nto = 9\nscan = 1\n", []string{"x.toml:10:1: tipping.scan: must be a whole number from 2 to 1000 points, got 1"}},
		{"unknown setting", "key = \"blip\"\nfrom = 0\nto = 9\ntolerence = 1\n", []string{"x.toml:10:1: tipping.tolerence: unknown key (did you mean \"tolerance\"?)"}},
		{"points beyond the bound", "key = \"load\"\nfrom = 0\nto = 1e9\ntolerance = 1e-3\n", []string{"tipping.tolerance", "more than 1000000000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("x.toml", []byte(tippingBase+"[tipping]\n"+c.section), nil)
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("got %v (%T), want an *Error", err, err)
			}
			msg := err.Error()
			for _, w := range c.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q lacks %q", msg, w)
				}
			}
		})
	}
}
