package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const blip = "../../experiments/blip-30s.toml"

// stormlab runs the command in-process and returns its exit code and output.
func stormlab(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(context.Background(), &out, &errb, args)
	code = exitCode(&errb, err)
	return code, out.String(), errb.String()
}

func TestRunWritesReportsIndependentOfWorkers(t *testing.T) {
	var csvs [2][]byte
	for i, j := range []string{"1", "2"} {
		dir := t.TempDir()
		code, _, stderr := stormlab(t, "run", "-j", j, "-out", dir, blip)
		if code != 0 {
			t.Fatalf("-j %s: exit %d: %s", j, code, stderr)
		}
		for _, f := range []string{"results.csv", "series.csv", "report.md", "timeseries.png", "timeseries.svg"} {
			if _, err := os.Stat(filepath.Join(dir, "blip-30s", f)); err != nil {
				t.Errorf("-j %s: %v", j, err)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "README.md")); err != nil {
			t.Errorf("no index: %v", err)
		}
		csvs[i], _ = os.ReadFile(filepath.Join(dir, "blip-30s", "results.csv"))
	}
	if !bytes.Equal(csvs[0], csvs[1]) {
		t.Errorf("results.csv differs between -j 1 and -j 2")
	}
}

func TestCheckFindsAChangedNumber(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := stormlab(t, "run", "-out", dir, blip); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if code, out, stderr := stormlab(t, "check", "-baseline", dir, blip); code != 0 {
		t.Fatalf("check of fresh baselines: exit %d\n%s%s", code, out, stderr)
	}
	path := filepath.Join(dir, "blip-30s", "results.csv")
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	// Row 1 is "no retries"; its peak_queue is 2100.
	if !strings.Contains(lines[1], ",2100,") {
		t.Fatalf("unexpected baseline row: %s", lines[1])
	}
	lines[1] = strings.Replace(lines[1], ",2100,", ",2101,", 1)
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	code, out, _ := stormlab(t, "check", "-baseline", dir, blip)
	if code != 1 {
		t.Fatalf("check after a change: exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"policy=no retries", "peak_queue", "2101", "2100"} {
		if !strings.Contains(out, want) {
			t.Errorf("deviation table lacks %q:\n%s", want, out)
		}
	}
}

func TestBadInputExits2AndWritesNothing(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(tmp, name)
		os.WriteFile(p, []byte(src), 0o644)
		return p
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"broken toml", []string{write("broken.toml", "[scenario\nload = 1\n")}, "broken.toml:1:"},
		{"unknown key", []string{write("unknown.toml", "[scenario]\nlaod = 70\n")}, "unknown.toml:2:1: scenario.laod: unknown key"},
		{"negative capacity", []string{write("neg.toml", "[scenario]\ndependency.capacity = -100\n")}, "neg.toml:2:"},
		{"capacity over the bound", []string{write("huge.toml", "[scenario]\ndependency.capacity = 1e19\n")}, "huge.toml:2:12: scenario.dependency.capacity: must be a number from 0 to 1e+09 calls/s, got 1e+19"},
		{"calls over the bound", []string{write("calls.toml", "[scenario]\nload = 1e9\nduration = \"1000h\"\nlayer = [{ attempts = 27 }]\n")}, "calls.toml:2:1: scenario.load:"},
		{"grid over the cap", []string{write("big.toml", "[grid]\nload = { from = 1, to = 200, step = 1 }\nbudget = { from = 0, to = 1, step = 0.001 }\n")}, "max_cells"},
		{"bad -set", []string{"-set", "scenario.load=-1", blip}, "-set scenario.load"},
		{"one good, one bad", []string{blip, write("bad2.toml", "seed = -1\n")}, "bad2.toml:1:"},
		{"negative budget ratio", []string{write("ratio.toml", "[scenario]\nengine = \"stochastic\"\nbudget = { kind = \"ratio\", ratio = -0.1 }\n")}, "ratio.toml:3:"},
		{"grpc max_tokens 0", []string{write("grpc.toml", "[scenario]\nengine = \"stochastic\"\nbudget = { kind = \"grpc\", max_tokens = 0 }\n")}, "scenario.budget.max_tokens: must be a number from 0.001 to 1000 (kind = \"grpc\"), got 0"},
		{"breaker threshold 0", []string{write("breaker.toml", "[scenario]\nengine = \"stochastic\"\n[[scenario.layer]]\nbreaker = { kind = \"consecutive\", threshold = 0 }\n")}, "scenario.layer.0.breaker.threshold"},
		{"hedging without a cap", []string{write("hedge.toml", "[scenario]\nengine = \"stochastic\"\n[[scenario.layer]]\nhedge = { delay = \"50ms\", max_share = 0 }\n")}, "scenario.layer.0.hedge.max_share: hedging needs a cap"},
		{"figure axis", []string{write("figure.toml", "[grid]\nload = [1, 2]\n[[figure]]\nkind = \"phase\"\nx = \"load\"\ny = \"blip\"\n")}, "figure.toml:6:1: figure.0.y: \"blip\" is not a grid axis; the axes are load"},
		{"window past the run", []string{write("window.toml", "[scenario]\nduration = \"1m\"\n[[window]]\nfrom = \"30s\"\nto = \"2m\"\n")}, "window.toml:5:1: window.0.to: 2m is past the end of the 1m run"},
		{"band on bars", []string{write("band.toml", "[grid]\nload = [1, 2]\n[[figure]]\nkind = \"bars\"\nx = \"load\"\nband = true\n")}, "band.toml:6:1: figure.0.band: a bars figure draws no band"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(tmp, "out-"+strings.ReplaceAll(c.name, " ", "-"))
			code, _, stderr := stormlab(t, append([]string{"run", "-out", out}, c.args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q: want one line containing %q", stderr, c.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output written despite bad input")
			}
		})
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"frobnicate"}, {"run"}, {"run", "-j", "0", blip}, {"run", "-nope"}} {
		if code, _, _ := stormlab(t, args...); code != 2 {
			t.Errorf("stormlab %v: exit %d, want 2", args, code)
		}
	}
	for _, cmd := range []string{"run", "check", "validate"} {
		if code, _, stderr := stormlab(t, cmd, "-h"); code != 0 || !strings.Contains(stderr, "Usage: stormlab "+cmd) {
			t.Errorf("stormlab %s -h: exit %d, usage shown: %v", cmd, code, strings.Contains(stderr, "Usage"))
		}
	}
	if code, out, _ := stormlab(t, "validate", blip); code != 0 || !strings.Contains(out, "4 cells") {
		t.Errorf("validate: exit %d, %q", code, out)
	}
	if code, out, _ := stormlab(t, "keys"); code != 0 || !strings.Contains(out, "`dependency.capacity`") {
		t.Errorf("keys: exit %d", code)
	}
}
