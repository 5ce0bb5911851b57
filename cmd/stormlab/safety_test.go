package main

import (
	"encoding/csv"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// tiny is an experiment that runs in a few milliseconds.
const tiny = "[scenario]\nduration = \"2m\"\nfault = [{ kind = \"outage\", start = \"10s\", length = \"5s\" }]\n"

// storm is the 3,000/s jittered storm: three layers of ten attempts with
// exponential backoff from 10 ms and full jitter, against a dependency of
// 3,000/s through a 30 s outage, ten minutes at 1 ms ticks. Unbounded, its
// state grows by gigabytes and it runs for minutes.
const storm = `engine = "stochastic"
[scenario]
tick = "1ms"
duration = "10m"
load = 3000
dependency.capacity = 3000
layers = 3
layer = [{ attempts = 10, backoff = { kind = "exponential", base = "10ms", factor = 2, jitter = "full" } }]
fault = [{ kind = "outage", start = "10s", length = "30s" }]
`

// writeFile writes a file under dir and returns its path.
func writeFile(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readCSV reads a whole CSV file.
func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// An experiment named .git, model or testdata, or any folder at
// -out/<name> that stormlab did not write, is refused with exit 2 and one
// line before anything runs, and nothing under -out changes.
func TestRunRefusesFoldersItDidNotWrite(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "tree")
	writeFile(t, out, "model/engine.go", "package model\n")
	writeFile(t, out, ".git/HEAD", "ref: refs/heads/main\n")
	writeFile(t, out, "testdata/results.csv.golden", "golden\n")
	before := snapshot(t, out)
	for _, c := range []struct {
		file, src, want string
	}{
		{"model.toml", tiny, "tree/model: exists and stormlab did not write it (no .stormlab file in it)"},
		{"x.toml", "name = \".git\"\n" + tiny, `name: ".git" cannot name an experiment's folder: a name is a letter or digit`},
		{"testdata.toml", tiny, `"testdata" cannot name an experiment's folder`},
		{"y.toml", "name = \"../model\"\n" + tiny, `"../model" cannot name`},
	} {
		file := writeFile(t, tmp, c.file, c.src)
		code, stdout, stderr := stormlab(t, "run", "-out", out, file)
		if code != 2 {
			t.Errorf("%s: exit %d, want 2\n%s%s", c.file, code, stdout, stderr)
		}
		if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: stderr %q: want one line containing %q", c.file, stderr, c.want)
		}
	}
	if after := snapshot(t, out); !slices.Equal(before, after) {
		t.Errorf("-out changed:\nbefore %v\nafter  %v", before, after)
	}

	// A folder stormlab wrote is replaced; -out that is a file, or below
	// one, is refused before anything runs.
	file := writeFile(t, tmp, "fresh.toml", tiny)
	for range 2 {
		if code, _, stderr := stormlab(t, "run", "-figures=false", "-out", out, file); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	plain := writeFile(t, tmp, "plain", "")
	for _, bad := range []string{plain, filepath.Join(plain, "sub")} {
		code, _, stderr := stormlab(t, "run", "-out", bad, file)
		if code != 2 || !strings.Contains(stderr, bad+": ") {
			t.Errorf("-out %s: exit %d, %q; want 2 naming it", bad, code, stderr)
		}
	}
}

// A run with -set never replaces a committed report: it writes under out/
// (or the -out given), and its report names the overrides and the command
// that regenerates it.
func TestSetRunWritesToScratch(t *testing.T) {
	tmp := t.TempDir()
	src, err := os.ReadFile(blip)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, tmp, "experiments/blip-30s.toml", string(src))
	writeFile(t, tmp, "reports/blip-30s/.stormlab", "")
	writeFile(t, tmp, "reports/blip-30s/results.csv", "committed\n")
	t.Chdir(tmp)
	before := snapshot(t, "reports")
	code, stdout, stderr := stormlab(t, "run", "-figures=false", "-set", "scenario.load=80", "-set", "grid.policy=[\"no retries\"]", "experiments/blip-30s.toml")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if after := snapshot(t, "reports"); !slices.Equal(before, after) {
		t.Errorf("a -set run changed reports/")
	}
	if !strings.Contains(stdout, filepath.Join("out", "blip-30s")) {
		t.Errorf("stdout %q does not name out/blip-30s", stdout)
	}
	report, err := os.ReadFile(filepath.Join("out", "blip-30s", "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"regenerate with `stormlab run -figures=false -set scenario.load=80 -set 'grid.policy=[\"no retries\"]' experiments/blip-30s.toml`",
		"**Overrides.** This run changes the file with `-set scenario.load=80`, `-set grid.policy=[\"no retries\"]`.",
		"| `load` | 80 | requests/s |",
	} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
	dir := filepath.Join(tmp, "elsewhere")
	if code, _, stderr := stormlab(t, "run", "-figures=false", "-out", dir, "-set", "load=80", "experiments/blip-30s.toml"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "blip-30s", "report.md")); err != nil {
		t.Errorf("-out with -set: %v", err)
	}
}

// Ctrl-C inside one huge cell stops the process within two seconds with
// exit code 130, leaving the experiment's old folder as it was.
func TestInterruptStopsWithin2s(t *testing.T) {
	bin := buildStormlab(t)
	tmp := t.TempDir()
	file := writeFile(t, tmp, "storm.toml", storm)
	out := filepath.Join(tmp, "out")
	old := exec.Command(bin, "run", "-figures=false", "-out", out, "-set", "duration=1s", file)
	if b, err := old.CombinedOutput(); err != nil {
		t.Fatalf("first run: %v\n%s", err, b)
	}
	before := snapshot(t, filepath.Join(out, "storm"))

	cmd := exec.Command(bin, "run", "-figures=false", "-max-memory", "4GB", "-out", out, file)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // well inside the cell, which takes minutes
	sent := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 10 s after Ctrl-C")
	}
	if took := time.Since(sent); took > 2*time.Second {
		t.Errorf("stopped %v after Ctrl-C, want within 2 s", took)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Errorf("exit %v, want %d; stderr %q", err, exitInterrupted, stderr.String())
	}
	if !strings.Contains(stderr.String(), "interrupted") {
		t.Errorf("stderr %q does not say it was interrupted", stderr.String())
	}
	if after := snapshot(t, filepath.Join(out, "storm")); !slices.Equal(before, after) {
		t.Errorf("the old folder changed:\nbefore %v\nafter  %v", before, after)
	}
}

// The storm under a memory cap: its cell stops at its share of the cap (a
// third of the cap over the two cells running at once), its row says why
// with every metric empty, the other cell finishes, everything is
// written, and the exit code is 1. Two minutes are enough: the storm
// reaches the cap 13 s in.
func TestMemoryCapAbortsTheCell(t *testing.T) {
	tmp := t.TempDir()
	short := strings.Replace(storm, `duration = "10m"`, `duration = "2m"`, 1)
	file := writeFile(t, tmp, "storm.toml", short+"[grid]\nload = [3000, 10]\n")
	out := filepath.Join(tmp, "out")
	code, stdout, stderr := stormlab(t, "run", "-figures=false", "-j", "2", "-max-memory", "32MB", "-out", out, file)
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"stopped at the memory cap",
		"storm: -max-memory 32 MB: each of the 2 cells running at once may hold 5 MB of simulation state as the engines count it, its share over 3",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	rows := readCSV(t, filepath.Join(out, "storm", "results.csv"))
	head := rows[0]
	last := len(head) - 1
	if head[last] != "aborted" {
		t.Fatalf("no aborted column: %v", head)
	}
	if r := rows[1]; !strings.Contains(r[last], "over the 5 MB of state a cell may hold (its share of -max-memory)") || slices.ContainsFunc(r[1:last], func(s string) bool { return s != "" }) {
		t.Errorf("load 3000: %v; want empty metrics and the reason", r)
	}
	if r := rows[2]; r[last] != "" || r[1] == "" {
		t.Errorf("load 10: %v; want a full row", r)
	}
	report, _ := os.ReadFile(filepath.Join(out, "storm", "report.md"))
	if !strings.Contains(string(report), "- load=3000: aborted, replicate 1 stopped at") {
		t.Errorf("report.md's notes do not list the aborted cell")
	}
}

// A token-bucket case whose verdict hangs on the tick: capacity 500,
// load 480, two layers of four attempts with a 250 ms timeout, a 5 s
// outage, the FIG. 1 bucket (ratio 0.1, 10 tokens). At a 20 ms tick it
// never recovers; at 10 ms it does. -refine reports the flip.
func TestRefineReportsATickFlip(t *testing.T) {
	tmp := t.TempDir()
	file := writeFile(t, tmp, "bucket.toml", `engine = "stochastic"
[scenario]
tick = "20ms"
duration = "5m"
load = 480
dependency.capacity = 500
layers = 2
layer = [{ attempts = 4, timeout = "250ms" }]
fault = [{ kind = "outage", start = "30s", length = "5s" }]
budget = { kind = "token_bucket", ratio = 0.1, max_tokens = 10 }
`)
	out := filepath.Join(tmp, "out")
	code, stdout, stderr := stormlab(t, "run", "-refine", "-figures=false", "-out", out, file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "1 of 1 verdicts change at half the tick") {
		t.Errorf("stdout %q does not count the flip", stdout)
	}
	rows := readCSV(t, filepath.Join(out, "bucket", "results.csv"))
	col := map[string]string{}
	for i, h := range rows[0] {
		col[h] = rows[1][i]
	}
	if col["recovered"] != "false" || col["refined_recovered"] != "true" || col["tick_flip"] != "true" {
		t.Errorf("recovered %q, refined_recovered %q, tick_flip %q; want false, true, true", col["recovered"], col["refined_recovered"], col["tick_flip"])
	}
	report, _ := os.ReadFile(filepath.Join(out, "bucket", "report.md"))
	if !strings.Contains(string(report), "regenerate with `stormlab run -figures=false -out "+out+" -refine "+file+"`") {
		t.Errorf("report.md does not give the command with -refine")
	}
	if !strings.Contains(string(report), "- base: stuck at a tick of 20ms, recovers (after ") {
		t.Errorf("report.md does not list the flip:\n%s", report)
	}
	// Without -refine, the columns are not there.
	if code, _, _ := stormlab(t, "run", "-figures=false", "-out", out, file); code != 0 {
		t.Fatal("run without -refine failed")
	}
	if data, _ := os.ReadFile(filepath.Join(out, "bucket", "results.csv")); strings.Contains(string(data), "tick_flip") {
		t.Errorf("refine columns without -refine")
	}
}

// check says how to create a missing baseline, and a -baseline folder that
// does not exist is bad usage.
func TestCheckWithoutBaselines(t *testing.T) {
	tmp := t.TempDir()
	file := writeFile(t, tmp, "new-one.toml", tiny)
	code, stdout, _ := stormlab(t, "check", "-baseline", tmp, file)
	want := "new-one: no baseline in " + filepath.Join(tmp, "new-one") + "; create one with `stormlab run -out " + tmp + " " + file + "` and commit " + filepath.Join(tmp, "new-one")
	if code != 1 || !strings.Contains(stdout, want) {
		t.Errorf("exit %d, %q; want 1 and %q", code, stdout, want)
	}
	code, _, stderr := stormlab(t, "check", "-baseline", filepath.Join(tmp, "nonexistent"), file)
	if code != 2 || !strings.Contains(stderr, "nonexistent: no such folder") {
		t.Errorf("missing -baseline: exit %d, %q; want 2", code, stderr)
	}
}

// validate estimates each experiment's cost and names spans shorter than a
// few ticks, once each.
func TestValidateEstimatesCost(t *testing.T) {
	tmp := t.TempDir()
	file := writeFile(t, tmp, "storm.toml", storm+"[grid]\nload = [3000, 2000]\n")
	code, stdout, stderr := stormlab(t, "validate", file, blip)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"storm.toml: ok, 2 cells, 1,200,000 ticks to simulate, the worst cell's live state up to ",
		"(load=3000)",
		"blip-30s.toml: ok, 4 cells, 14,400 ticks to simulate",
		"  tick: the flat caller's timeout is 1 ticks of 1s: results may hang on the tick; try a tick at most a third of it (4 of 4 cells)",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("validate output lacks %q:\n%s", want, stdout)
		}
	}
}
