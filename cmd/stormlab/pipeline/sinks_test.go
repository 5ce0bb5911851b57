package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/reports"
)

// Reports writes each experiment's folder and then the index, and its
// line says what was run and where it went. The same results merged from
// shards write the same folder, and the line says how many shards.
func TestReportsSink(t *testing.T) {
	dir, merged := t.TempDir(), t.TempDir()
	exps := load(t, "a", "b")
	p, _, stdout, stderr := newPipeline(Budget{Workers: 2})
	if err := p.Run(context.Background(), mustJobs(t, exps, false), &Reports{Out: OutPlan{Dir: dir}, Stderr: stderr}); err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`^a: 2 cells in [0-9.]+s → ` + regexp.QuoteMeta(filepath.Join(dir, "a")) + "\n")
	if !line.MatchString(stdout.String()) {
		t.Errorf("stdout %q", stdout)
	}
	for _, f := range []string{"a/results.csv", "a/report.md", "a/" + reports.Marker, "b/results.csv", "README.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	index, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if !bytes.Contains(index, []byte("a/report.md")) || !bytes.Contains(index, []byte("b/report.md")) {
		t.Errorf("the index does not list both:\n%s", index)
	}

	results, err := p.Simulate(context.Background(), "a", exps[0].Grid.Cells())
	if err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	job := MergedJob(exps[0], &Merged{Results: results, Shards: 3})
	if err := p.Run(context.Background(), []*Job{job}, &Reports{Out: OutPlan{Dir: merged}, Stderr: stderr}); err != nil {
		t.Fatal(err)
	}
	if want := "a: 2 cells from 3 shards → " + filepath.Join(merged, "a") + "\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout, want)
	}
	for _, f := range []string{"results.csv", "report.md"} {
		want, err1 := os.ReadFile(filepath.Join(dir, "a", f))
		got, err2 := os.ReadFile(filepath.Join(merged, "a", f))
		if err1 != nil || err2 != nil || !bytes.Equal(want, got) {
			t.Errorf("%s differs once merged (%v, %v)", f, err1, err2)
		}
	}
}

// Shards writes a shard folder per job; a rerun with the same
// fingerprint skips it and says so; a job not narrowed to a shard is a
// mistake of the caller's.
func TestShardsSink(t *testing.T) {
	dir := t.TempDir()
	exps := load(t, "a")
	s := sweep.Shard{K: 1, N: 2}
	shardJobs := func() []*Job {
		jobs := mustJobs(t, exps, false)
		jobs[0].Narrow(s)
		return jobs
	}
	sink := func() *Shards { return &Shards{Dir: dir, Sets: []string{"seed=1"}, Version: "test build"} }
	p, _, stdout, _ := newPipeline(Budget{Workers: 1})
	if err := p.Run(context.Background(), shardJobs(), sink()); err != nil {
		t.Fatal(err)
	}
	folder := filepath.Join(dir, reports.ShardDir("a", s))
	if !regexp.MustCompile(`^a: shard 1/2, 1 of 2 cells in [0-9.]+s → ` + regexp.QuoteMeta(folder) + "\n$").MatchString(stdout.String()) {
		t.Errorf("stdout %q", stdout)
	}
	read, err := reports.ReadShard(folder)
	if err != nil || read.Version != "test build" || len(read.Sets) != 1 {
		t.Fatalf("the shard folder: %v, %+v", err, read)
	}
	stdout.Reset()
	if err := p.Run(context.Background(), shardJobs(), sink()); err != nil {
		t.Fatal(err)
	}
	if want := "a: shard 1/2 already complete in " + folder + " (same fingerprint); skipped\n"; stdout.String() != want {
		t.Errorf("rerun: stdout %q, want %q", stdout, want)
	}
	if err := p.Run(context.Background(), mustJobs(t, exps, false), sink()); err == nil || !strings.Contains(err.Error(), "narrowed to a shard") {
		t.Errorf("a whole job into shards: %v", err)
	}
}

// Baselines compares each outcome with its folder: an experiment without
// one is skipped with the command that creates it, a changed number is a
// deviation printed in the table at the end, and the verdict says which.
func TestBaselinesSink(t *testing.T) {
	dir := t.TempDir()
	exps := load(t, "a", "b")
	p, _, _, _ := newPipeline(Budget{Workers: 2})
	if err := p.Run(context.Background(), mustJobs(t, exps[:1], false), &Reports{Out: OutPlan{Dir: dir}, Stderr: &bytes.Buffer{}}); err != nil {
		t.Fatal(err)
	}
	p, _, stdout, stderr := newPipeline(Budget{Workers: 2})
	p.Quiet = true
	sink := &Baselines{Dir: dir, Stdout: stdout}
	if err := p.Run(context.Background(), mustJobs(t, exps, false), sink); err != nil {
		t.Fatal(err)
	}
	want := "a: 2 cells, ok\nb: no baseline in " + filepath.Join(dir, "b") + "; create one with `stormlab run -out " + dir + " " + exps[1].File + "` and commit " + filepath.Join(dir, "b") + "\n"
	if stdout.String() != want || stderr.Len() != 0 {
		t.Errorf("stdout %q, want %q; stderr %q", stdout, want, stderr)
	}
	if err := sink.Verdict(); err == nil || err.Error() != "1 experiment without a baseline" {
		t.Errorf("verdict %v", err)
	}

	path := filepath.Join(dir, "a", "results.csv")
	data, _ := os.ReadFile(path)
	lines := strings.Split(string(data), "\n")
	cols := strings.Split(lines[1], ",")
	for i, h := range strings.Split(lines[0], ",") {
		if h == "requests" {
			cols[i] = "1"
		}
	}
	lines[1] = strings.Join(cols, ",")
	os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
	stdout.Reset()
	sink = &Baselines{Dir: dir, Stdout: stdout}
	if err := p.Run(context.Background(), mustJobs(t, exps[:1], false), sink); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(stdout.String(), "a: 2 cells, 1 deviations\n\nexperiment") || !strings.Contains(stdout.String(), "requests") {
		t.Errorf("stdout %q", stdout)
	}
	if err := sink.Verdict(); !errors.Is(err, ErrDeviation) {
		t.Errorf("verdict %v", err)
	}
}
