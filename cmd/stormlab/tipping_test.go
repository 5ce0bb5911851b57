package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const naive = "../../experiments/tipping-naive.toml"

// A search whose range holds no tipping point says so, in tipping.csv and
// in the report, and the run succeeds: an answer, not a silent default.
func TestTippingRangeWithoutTippingIsAFinding(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := stormlab(t, "run", "-figures=false", "-out", dir, "-set", "tipping.0.to=1s", "-set", "grid.load=[30, 90]", "-set", "grid.blip=3s", naive)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "tipping-naive", "tipping.csv"))
	md, _ := os.ReadFile(filepath.Join(dir, "tipping-naive", "report.md"))
	for _, want := range []string{"blip,30,,none in range,stable,,", "blip,90,,none in range,stable,,", "no blip length from 0s to 1s tips it"} {
		if !strings.Contains(string(csv), want) {
			t.Errorf("tipping.csv lacks %q:\n%s", want, csv)
		}
	}
	for _, want := range []string{"Stable at load 30–90", "none up to 1s"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// check compares tipping.csv with its baseline as it does results.csv.
func TestCheckComparesTipping(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(naive)
	if err != nil {
		t.Fatal(err)
	}
	// tipping-naive at two loads and one outage.
	text := strings.Replace(string(src), "load = { from = 30, to = 95, step = 5 }", "load = [30, 95]", 1)
	text = strings.Replace(text, `blip = ["3s", "5s", "30s"]`, `blip = ["3s"]`, 1)
	file := filepath.Join(dir, "tipping-naive.toml")
	os.WriteFile(file, []byte(text), 0o644)
	if code, _, stderr := stormlab(t, "run", "-figures=false", "-out", dir, file); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if code, out, stderr := stormlab(t, "check", "-baseline", dir, file); code != 0 {
		t.Fatalf("check of fresh baselines: exit %d\n%s%s", code, out, stderr)
	}
	path := filepath.Join(dir, "tipping-naive", "tipping.csv")
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), "blip,30,,found,vulnerable,5,4,5,") {
		t.Fatalf("unexpected tipping.csv:\n%s", data)
	}
	os.WriteFile(path, []byte(strings.Replace(string(data), "blip,30,,found,vulnerable,5,4,5,", "blip,30,,found,vulnerable,6,4,5,", 1)), 0o644)
	code, out, _ := stormlab(t, "check", "-baseline", dir, file)
	if code != 1 {
		t.Fatalf("check after a change: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"tipping.csv", "key=blip, load=30, blip=", "critical", "6", "1 deviations"} {
		if !strings.Contains(out, want) {
			t.Errorf("deviation table lacks %q:\n%s", want, out)
		}
	}
}

// Bad [tipping] input is exit 2, one positioned line, nothing written.
func TestTippingBadInputExits2(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	code, _, stderr := stormlab(t, "run", "-out", out, "-set", "tipping.0.to=0s", naive)
	if code != 2 || !strings.Contains(stderr, "-set tipping.0.to: equals from (0s)") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("output written despite bad input")
	}
}
