package model

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/engines.golden")

// goldenLines runs a fixed set of scenarios — random ones for both engines,
// with their series — and writes one line per run: its metrics and a hash
// of its series.
func goldenLines(t *testing.T) []string {
	var out []string
	line := func(name string, sc Scenario, seed uint64) {
		res, err := Run(sc, seed, true)
		if err != nil {
			out = append(out, fmt.Sprintf("%s: error %v", name, err))
			return
		}
		h := sha256.New()
		if res.Series != nil {
			fmt.Fprintf(h, "%#v", res.Series.Rows)
		}
		out = append(out, fmt.Sprintf("%s: %#v series %x", name, res.Metrics, h.Sum(nil)[:8]))
	}
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 400 {
		sc := randomScenario(r)
		line(fmt.Sprintf("stochastic %d", i), sc, r.Uint64())
	}
	r = rand.New(rand.NewPCG(13, 14))
	for i := range 300 {
		sc := randomQueueScenario(r)
		line(fmt.Sprintf("queue %d", i), sc, r.Uint64())
	}
	return out
}

// TestEnginesGolden compares both engines with the metrics and series they
// gave when testdata/engines.golden was written (-update rewrites it).
func TestEnginesGolden(t *testing.T) {
	long(t)
	t.Parallel()
	got := goldenLines(t)
	const path = "testdata/engines.golden"
	if *updateGolden {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	bad := 0
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			bad++
			if bad <= 20 {
				g := ""
				if i < len(got) {
					g = got[i]
				}
				t.Errorf("line %d\nwant %s\ngot  %s", i, want[i], g)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d lines differ", bad, len(want))
	}
}
