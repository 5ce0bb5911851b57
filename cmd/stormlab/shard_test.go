package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/reports"
)

// workspace is a fresh folder in which experiments/ is the repository's,
// so that a command run there names its file as one run from the
// repository's root does.
func workspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src, err := filepath.Abs("../../experiments")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(src, filepath.Join(dir, "experiments")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// command is a command run in dir with env added to the environment.
func command(dir string, env []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	return cmd
}

// execute runs a command and returns its exit code and output.
func execute(t *testing.T, cmd *exec.Cmd) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, out.String(), errb.String()
}

// mustRun runs stormlab in dir and fails the test unless it exits 0.
func mustRun(t *testing.T, bin, dir string, args ...string) string {
	t.Helper()
	code, stdout, stderr := execute(t, command(dir, nil, bin, args...))
	if code != 0 {
		t.Fatalf("stormlab %s: exit %d\n%s%s", strings.Join(args, " "), code, stdout, stderr)
	}
	return stdout
}

// parallel runs the commands all at once and fails the test unless each
// exits 0.
func parallel(t *testing.T, cmds []*exec.Cmd) {
	t.Helper()
	outs := make([]bytes.Buffer, len(cmds))
	for i, c := range cmds {
		c.Stdout, c.Stderr = &outs[i], &outs[i]
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Errorf("%s: %v\n%s", strings.Join(c.Args, " "), err, outs[i].String())
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// runShards runs shards 0..n-1 of experiment name (args end with its file)
// in n processes at once in dir, writing under dir/shards, and returns the
// shard folders relative to dir.
func runShards(t *testing.T, bin, dir, name string, n int, args ...string) []string {
	t.Helper()
	var cmds []*exec.Cmd
	var folders []string
	for k := range n {
		s := sweep.Shard{K: k, N: n}
		cmds = append(cmds, command(dir, nil, bin, append([]string{"run", "-shard", s.String(), "-out", "shards"}, args...)...))
		folders = append(folders, filepath.Join("shards", reports.ShardDir(name, s)))
	}
	parallel(t, cmds)
	return folders
}

// sameTree fails the test unless the folders hold the same files (hidden
// ones included) with the same bytes.
func sameTree(t *testing.T, want, got string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		out := map[string][]byte{}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			out[rel], err = os.ReadFile(path)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	w, g := files(want), files(got)
	if len(w) == 0 {
		t.Fatalf("%s holds no files", want)
	}
	for name, b := range w {
		if gb, ok := g[name]; !ok {
			t.Errorf("%s: missing", filepath.Join(got, name))
		} else if !bytes.Equal(b, gb) {
			t.Errorf("%s differs from %s", filepath.Join(got, name), filepath.Join(want, name))
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("%s: not in %s", filepath.Join(got, name), want)
		}
	}
}

// An experiment run as shards in parallel processes and merged gives every
// file a single run gives, byte for byte: results.csv, series.csv,
// report.md (with the command that regenerates it), the figures as PNG
// and SVG, the marker and the index. blip-phase is the queue engine's
// 11,224 cells; server-60, shrunk by -set, is the stochastic engine with
// replicates, a series and bars with their spread; blip-30s runs with
// -refine; tipping-naive has boundary searches, which merge runs itself.
func TestShardsMergeToTheSingleRun(t *testing.T) {
	bin := buildStormlab(t)
	for _, c := range []struct {
		name   string
		shards int
		args   []string // flags and file for stormlab run
		out    string   // where run and merge write by default
	}{
		{"blip-phase", 3, []string{"experiments/blip-phase.toml"}, "reports"},
		{"server-60", 3, []string{"-set", "scenario.replicates=4", "-set", "scenario.duration=1m", "-set", "window.0.from=40s", "-set", "window.0.to=1m", "experiments/server-60.toml"}, "out"},
		{"blip-30s", 2, []string{"-refine", "experiments/blip-30s.toml"}, "out"},
		{"tipping-naive", 2, []string{"experiments/tipping-naive.toml"}, "reports"},
	} {
		t.Run(c.name, func(t *testing.T) {
			single, split := workspace(t), workspace(t)
			mustRun(t, bin, single, append([]string{"run"}, c.args...)...)
			folders := runShards(t, bin, split, c.name, c.shards, c.args...)
			out := mustRun(t, bin, split, append([]string{"merge"}, folders...)...)
			if !strings.Contains(out, "cells from "+strconv.Itoa(c.shards)+" shards") {
				t.Errorf("merge said %q", out)
			}
			sameTree(t, filepath.Join(single, c.out, c.name), filepath.Join(split, c.out, c.name))
			sameTree(t, filepath.Join(single, c.out, "README.md"), filepath.Join(split, c.out, "README.md"))
		})
	}
}

// Merging shards that do not make one run is exit 1 with one line naming
// the problem and the folders, and writes nothing: shards of two
// experiments, of one experiment with different -set values, a shard
// missing, a shard given twice (the same folder, or a copy), a folder that
// is not a shard, a shard whose experiment copy was edited.
func TestMergeRefusesShardsOfDifferentRuns(t *testing.T) {
	bin := buildStormlab(t)
	dir := workspace(t)
	blip := runShards(t, bin, dir, "blip-30s", 2, "experiments/blip-30s.toml")
	other := filepath.Join("other", reports.ShardDir("blip-30s", sweep.Shard{K: 1, N: 2}))
	mustRun(t, bin, dir, "run", "-shard", "1/2", "-out", "other", "-set", "seed=5", "experiments/blip-30s.toml")
	headroom := runShards(t, bin, dir, "budget-headroom", 2, "experiments/budget-headroom.toml")
	copied := filepath.Join("copy", filepath.Base(blip[1]))
	changed := filepath.Join("changed", filepath.Base(blip[1]))
	for _, c := range [][2]string{{blip[1], copied}, {blip[1], changed}} {
		if err := os.CopyFS(filepath.Join(dir, c[1]), os.DirFS(filepath.Join(dir, c[0]))); err != nil {
			t.Fatal(err)
		}
	}
	toml := filepath.Join(dir, changed, "experiment.toml")
	src, _ := os.ReadFile(toml)
	os.WriteFile(toml, bytes.Replace(src, []byte("seed = "), []byte("seed = 1"), 1), 0o644)
	for _, c := range []struct {
		name    string
		folders []string
		want    string
	}{
		{"two experiments", []string{blip[0], headroom[1]}, "shards of different experiments: " + blip[0] + " holds blip-30s (experiments/blip-30s.toml), " + headroom[1] + " holds budget-headroom"},
		{"different -set", []string{blip[0], other}, blip[0] + " was run with no -set, " + other + " with -set seed=5: shards of different -set values"},
		{"missing", blip[:1], "blip-30s: shard 1/2 is missing (blip-30s.shard-1-of-2): merge needs all 2 shards"},
		{"given twice", []string{blip[0], blip[1], blip[1]}, "shard 1/2 of blip-30s is given twice: " + blip[1]},
		{"a copy", []string{blip[0], blip[1], copied}, "shard 1/2 of blip-30s is given twice: " + blip[1] + " and " + copied},
		{"not a shard", []string{blip[0], "experiments"}, "experiments: not a shard folder"},
		{"no folder", []string{blip[0], "nowhere"}, "nowhere: no such folder"},
		{"edited", []string{blip[0], changed}, changed + ": its fingerprint"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := "merged-" + strings.ReplaceAll(c.name, " ", "-")
			code, stdout, stderr := execute(t, command(dir, nil, bin, append([]string{"merge", "-out", out}, c.folders...)...))
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 || !strings.Contains(stderr, c.want) {
				t.Errorf("stderr %q: want one line containing %q", stderr, c.want)
			}
			if stdout != "" {
				t.Errorf("stdout %q", stdout)
			}
			if _, err := os.Stat(filepath.Join(dir, out)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s written: %v", out, err)
			}
		})
	}
	if code, _, stderr := execute(t, command(dir, nil, bin, "merge")); code != 2 || !strings.Contains(stderr, "merge needs the shard folders") {
		t.Errorf("merge without folders: exit %d, %q", code, stderr)
	}
}

// A rerun skips a shard already complete with the same fingerprint,
// leaving its folder as it was; a different -set, or a damaged results
// file, runs it again.
func TestShardResumes(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "-shard", "1/2", "-out", dir, blip}
	if code, _, stderr := stormlab(t, args...); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	folder := filepath.Join(dir, reports.ShardDir("blip-30s", sweep.Shard{K: 1, N: 2}))
	before := snapshot(t, folder)
	code, stdout, _ := stormlab(t, args...)
	if code != 0 || !strings.Contains(stdout, "blip-30s: shard 1/2 already complete in "+folder+" (same fingerprint); skipped") {
		t.Errorf("rerun: exit %d, %q", code, stdout)
	}
	if after := snapshot(t, folder); !slices.Equal(before, after) {
		t.Error("a complete shard was written again")
	}
	results := filepath.Join(folder, "results.gob")
	data, _ := os.ReadFile(results)
	os.WriteFile(results, data[:len(data)-1], 0o644)
	if code, stdout, _ := stormlab(t, args...); code != 0 || strings.Contains(stdout, "skipped") {
		t.Errorf("rerun over a damaged shard: exit %d, %q", code, stdout)
	}
	if fixed, _ := os.ReadFile(results); !bytes.Equal(fixed, data) {
		t.Error("the damaged results were not computed again")
	}
	withSet := append([]string{"run", "-set", "seed=4"}, args[1:]...)
	if code, stdout, _ := stormlab(t, withSet...); code != 0 || strings.Contains(stdout, "skipped") {
		t.Errorf("rerun with another -set: exit %d, %q", code, stdout)
	}
	var info reports.ShardInfo
	manifest, _ := os.ReadFile(filepath.Join(folder, reports.ShardManifest))
	if err := json.Unmarshal(manifest, &info); err != nil || !slices.Equal(info.Sets, []string{"seed=4"}) {
		t.Errorf("manifest after the rerun: %+v, %v", info, err)
	}
}

// -shard auto takes the shard from a Kubernetes Indexed Job's environment
// (JOB_COMPLETION_INDEX, the count in STORMLAB_SHARD_COUNT) and only when
// asked; without a batch engine's variables it is exit 2 with one line.
func TestShardAuto(t *testing.T) {
	for _, v := range []string{k8sIndexEnv, shardCountEnv, slurmIDEnv, slurmCountEnv, slurmMinEnv, slurmMaxEnv, slurmStepEnv} {
		t.Setenv(v, "")
	}
	dir := t.TempDir()
	code, _, stderr := stormlab(t, "run", "-shard", "auto", "-out", dir, blip)
	if code != 2 || !strings.Contains(stderr, "-shard auto: no batch engine names a shard here") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("without the variables: exit %d, %q", code, stderr)
	}
	t.Setenv(k8sIndexEnv, "1")
	if code, _, stderr := stormlab(t, "run", "-shard", "auto", "-out", dir, blip); code != 2 || !strings.Contains(stderr, "set STORMLAB_SHARD_COUNT") {
		t.Errorf("without the count: exit %d, %q", code, stderr)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("written despite bad usage: %v", entries)
	}
	t.Setenv(shardCountEnv, "4")
	code, stdout, stderr := stormlab(t, "run", "-shard", "auto", "-out", dir, blip)
	if code != 0 || !strings.Contains(stdout, "blip-30s: shard 1/4, 1 of 4 cells") {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	f, err := reports.ReadShard(filepath.Join(dir, "blip-30s.shard-1-of-4"))
	if err != nil || f.Shard != 1 || f.Shards != 4 {
		t.Fatalf("shard folder: %+v, %v", f, err)
	}
	// Without -shard the variables are left alone, and a note says so.
	code, stdout, stderr = stormlab(t, "run", "-figures=false", "-out", dir, blip)
	if code != 0 || !strings.Contains(stdout, "blip-30s: 4 cells") || !strings.Contains(stderr, "JOB_COMPLETION_INDEX=1 is set, but without -shard auto this runs every cell") {
		t.Errorf("without -shard: exit %d, %q, %q", code, stdout, stderr)
	}
}

// autoShard reads the variables Kubernetes and Slurm set, and refuses
// what does not name one shard.
func TestAutoShardEnvironment(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string // the shard, or a piece of the error
	}{
		{map[string]string{k8sIndexEnv: "3", shardCountEnv: "4"}, "3/4"},
		{map[string]string{k8sIndexEnv: "4", shardCountEnv: "4"}, "shard 4 of 4 does not exist"},
		{map[string]string{k8sIndexEnv: "0"}, "set STORMLAB_SHARD_COUNT to the Job's completions"},
		{map[string]string{slurmIDEnv: "2", slurmCountEnv: "3", slurmMinEnv: "0", slurmMaxEnv: "2", slurmStepEnv: "1"}, "2/3"},
		{map[string]string{slurmIDEnv: "1", slurmCountEnv: "3", slurmMinEnv: "1", slurmMaxEnv: "3"}, "0/3"},
		{map[string]string{slurmIDEnv: "4", slurmCountEnv: "3", slurmMinEnv: "0", slurmMaxEnv: "4", slurmStepEnv: "2"}, "not a range with step 1"},
		{map[string]string{slurmIDEnv: "1"}, "SLURM_ARRAY_TASK_COUNT is not set"},
		{map[string]string{slurmIDEnv: "x", slurmCountEnv: "3"}, "SLURM_ARRAY_TASK_ID=x is not a whole number"},
		{map[string]string{k8sIndexEnv: "1", slurmIDEnv: "1"}, "both"},
		{map[string]string{}, "no batch engine names a shard here"},
	} {
		s, err := autoShard(func(k string) string { return c.env[k] })
		got := s.String()
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%v: got %q, want %q", c.env, got, c.want)
		}
	}
}

// Bad -shard values and flags a shard cannot honour are exit 2 before
// anything runs.
func TestShardUsage(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-shard", "4/4"}, "-shard 4/4: shard 4 of 4 does not exist: shards are numbered 0 to 3"},
		{[]string{"-shard", "two"}, "-shard two: want K/N"},
		{[]string{"-shard", "0/2", "-figures=false"}, "-figures: a shard writes no figures"},
	} {
		code, _, stderr := stormlab(t, append(append([]string{"run", "-out", dir}, c.args...), blip)...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q", c.args, code, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("written despite bad usage: %v", entries)
	}
}
