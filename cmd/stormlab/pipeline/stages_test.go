package pipeline

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/stormlab/stormlab/experiments/tipping"
)

// Search runs an experiment's [tipping] searches, counting each on the
// meter, and is nil without any; Simulate counts each cell.
func TestStagesSearchAndSimulate(t *testing.T) {
	src := claimed + "\n[[tipping]]\nkey = \"load\"\nfrom = 1\nto = 99\ntolerance = 1\n"
	e, err := Parse("searched.toml", []byte(src), []string{"grid.load=[50]", "scenario.fault.0.length=30s"})
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	st := Stages{Budget: Budget{Workers: 2}, Meter: Calls(func() { n.Add(1) })}
	o, err := st.Search(context.Background(), "searches", e.Grid, e.Tipping)
	if err != nil {
		t.Fatal(err)
	}
	if o == nil || o.Count() != tipping.Count(e.Grid, e.Tipping) || n.Load() != int64(o.Count()) {
		t.Fatalf("outcome %+v, %d counted", o, n.Load())
	}
	if s := o.Searches[0][0]; s.Status != tipping.Found {
		t.Errorf("the search at an outage of 30 s: %s", s.Status)
	}
	if o, err := st.Search(context.Background(), "none", e.Grid, nil); o != nil || err != nil {
		t.Errorf("no searches: %v, %v", o, err)
	}
	n.Store(0)
	results, err := st.Simulate(context.Background(), "cells", e.Grid.Cells())
	if err != nil || len(results) != 1 || n.Load() != 1 {
		t.Errorf("simulate: %v, %d results, %d counted", err, len(results), n.Load())
	}
	if Calls(nil) == nil {
		t.Error("Calls(nil) is no meter")
	}
	done, stop := Calls(nil)("x", 3)
	done()
	stop()
}

// A budget shares its total among the cells running at once, or caps
// each cell alike (Cell), whatever the total.
func TestBudgetCell(t *testing.T) {
	b := Budget{Total: 600 << 20, Workers: 4, Cell: 7}
	for _, cells := range []int{1, 4, 100} {
		if got := b.Pool(cells); got.MaxMemory != 7 || got.Workers != 4 {
			t.Errorf("%d cells: %+v", cells, got)
		}
	}
}

// parseBytes reads the sizes -max-memory takes and refuses the rest;
// memTotal reads /proc/meminfo's MemTotal.
func TestParseBytes(t *testing.T) {
	for s, want := range map[string]int64{"0": 0, "500MB": 500 << 20, "1.5GB": 3 << 29, "2g": 2 << 30, "64KiB": 64 << 10, " 3 M ": 3 << 20, "100B": 100, "1TB": 1 << 40} {
		if got, err := parseBytes(s); err != nil || got != want {
			t.Errorf("%q: %d, %v; want %d", s, got, err, want)
		}
	}
	for _, s := range []string{"", "MB", "-1MB", "1e30GB", "five", "1XB"} {
		if _, err := parseBytes(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if kb, ok := memTotal([]byte("MemFree:  10 kB\nMemTotal:       16314208 kB\n")); !ok || kb != 16314208 {
		t.Errorf("MemTotal: %d, %v", kb, ok)
	}
	if _, ok := memTotal([]byte("MemFree: 10 kB\n")); ok {
		t.Error("MemTotal found where there is none")
	}
	var f MemoryFlag
	if err := f.Set("250MB"); err != nil || f.Total() != 250<<20 || f.String() != "250MB" {
		t.Errorf("-max-memory 250MB: %v, %d, %q", err, f.Total(), f.String())
	}
	if err := f.Set("lots"); err == nil {
		t.Error("-max-memory lots accepted")
	}
	if (&MemoryFlag{}).Total() != DefaultMemory() {
		t.Error("unset, the cap is not the default")
	}
}

// The commands a message shows run in sh as shown.
func TestShellQuote(t *testing.T) {
	for s, want := range map[string]string{
		"experiments/blip-30s.toml": "experiments/blip-30s.toml",
		"grid.budget=[0, 0.1]":      "'grid.budget=[0, 0.1]'",
		"it's":                      `'it'\''s'`,
		"":                          "''",
	} {
		if got := ShellQuote(s); got != want {
			t.Errorf("%q: %s, want %s", s, got, want)
		}
	}
	if got := createCommand("reports/", "x.toml"); got != "stormlab run x.toml" {
		t.Errorf("into reports: %s", got)
	}
	if got := createCommand("my dir", "x.toml"); got != "stormlab run -out 'my dir' x.toml" {
		t.Errorf("elsewhere: %s", got)
	}
}
