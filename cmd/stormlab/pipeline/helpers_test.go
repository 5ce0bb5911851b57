package pipeline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stormlab/stormlab/experiments"
)

// claimed is an experiment of two cells that runs in milliseconds, with a
// finding whose claim its results do not bear out (it recovers at 50).
const claimed = `findings = [
  { text = "It never recovers at 50 ({recovery_s[50]}).", holds = ["recovered[50] == false"] },
]
[scenario]
duration = "2m"
fault = [{ kind = "outage", start = "10s", length = "5s" }]
[grid]
load = [50, 90]
`

// writeExperiment writes src as dir/name.toml and returns its path.
func writeExperiment(t *testing.T, dir, name, src string) string {
	t.Helper()
	p := filepath.Join(dir, name+".toml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// load loads experiments of the given names, each the claimed experiment,
// through the load stage.
func load(t *testing.T, names ...string) []*experiments.Experiment {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for _, n := range names {
		files = append(files, writeExperiment(t, dir, n, claimed))
	}
	exps, err := Load(files, nil)
	if err != nil {
		t.Fatal(err)
	}
	return exps
}

// mustJobs makes the jobs of the experiments, failing the test on error.
func mustJobs(t *testing.T, exps []*experiments.Experiment, refine bool) []*Job {
	t.Helper()
	jobs, err := Jobs(exps, refine)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}
