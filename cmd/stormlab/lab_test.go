package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A scenario the lab cannot run on the real stack (the queue engine's
// flattened chain) is refused before anything runs: exit 2, one line
// naming the file, the cell and what is missing, nothing written.
func TestLabRefusesWhatItCannotRun(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := stormlab(t, "lab", "-out", dir, blip)
	if code != 2 || !strings.Contains(stderr, "blip-30s.toml: cell") || !strings.Contains(stderr, "the lab cannot run the queue engine") {
		t.Errorf("exit %d, %q%q; want 2 and what the lab cannot run", code, out, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("wrote %v", entries)
	}
}

// A run the machine cannot keep up with is not reported: two million
// requests a second of real time (2,000/s at speed 1000) leave the load
// generator behind, and the lab says so, writes nothing and exits 1.
func TestLabThatCannotKeepUpExits1(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, t.TempDir(), "flood.toml", `engine = "stochastic"
[scenario]
tick = "10ms"
duration = "5s"
load = 2000
arrivals = "poisson"
dependency.capacity = 2000
layer = [{ attempts = 2, timeout = "500ms" }]
`)
	code, out, stderr := stormlab(t, "lab", "-speed", "1000", "-out", dir, file)
	if code != 1 || !strings.Contains(stderr, "fell behind") || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("exit %d, %q%q; want 1 and why the run is not reported", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "flood")); !os.IsNotExist(err) {
		t.Errorf("wrote %s: %v", filepath.Join(dir, "flood"), err)
	}
}

// A lab run writes DIR/<name>/lab/ beside whatever run wrote there: the
// model's result columns measured on the real stack, its series, the
// overlaid figures and the side-by-side report.
func TestLabWritesItsFolder(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := stormlab(t, "lab", "-out", dir, "../../experiments/one-hop.toml")
	if code != 0 || !strings.Contains(out, "one-hop: 11 cells on the real stack at speed 0.05") {
		t.Fatalf("exit %d, %q%q", code, out, stderr)
	}
	for _, f := range []string{"lab.csv", "series.csv", "report.md", "cell-1.png", "cell-1.svg", ".stormlab"} {
		if _, err := os.Stat(filepath.Join(dir, "one-hop", "lab", f)); err != nil {
			t.Error(err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "one-hop", "lab", "report.md"))
	for _, want := range []string{"| `calls` | 150 | 150 | yes |", "gRPC's retry throttling runs in grpc-go's own retries"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "one-hop", "lab", "lab.csv"))
	if !strings.HasPrefix(string(csv), "cell,origin,configuration,recovered,verdict,") {
		t.Errorf("lab.csv starts %.60q", csv)
	}
}
