package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
	"github.com/stormlab/stormlab/reports"
)

// The environment variables -shard auto reads. Kubernetes gives an Indexed
// Job's pods their index but not the Job's completions, so the manifest
// passes the count in shardCountEnv; Slurm gives both.
const (
	k8sIndexEnv   = "JOB_COMPLETION_INDEX"
	shardCountEnv = "STORMLAB_SHARD_COUNT"
	slurmIDEnv    = "SLURM_ARRAY_TASK_ID"
	slurmCountEnv = "SLURM_ARRAY_TASK_COUNT"
	slurmMinEnv   = "SLURM_ARRAY_TASK_MIN"
	slurmMaxEnv   = "SLURM_ARRAY_TASK_MAX"
	slurmStepEnv  = "SLURM_ARRAY_TASK_STEP"
)

// parseShardFlag reads -shard: K/N, or auto for the shard a batch engine's
// environment names. A bad value is a usage error.
func parseShardFlag(v string, getenv func(string) string) (sweep.Shard, error) {
	if v == "auto" {
		s, err := autoShard(getenv)
		if err != nil {
			return s, &usageError{"-shard auto: " + err.Error()}
		}
		return s, nil
	}
	s, err := sweep.ParseShard(v)
	if err != nil {
		return s, &usageError{"-shard " + v + ": " + err.Error()}
	}
	return s, nil
}

// autoShard finds the shard the environment names: a Kubernetes Indexed
// Job's pod (JOB_COMPLETION_INDEX, the count in STORMLAB_SHARD_COUNT) or a
// task of a Slurm job array (SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN,
// of SLURM_ARRAY_TASK_COUNT; the array must be a range with step 1).
func autoShard(getenv func(string) string) (sweep.Shard, error) {
	k8s, slurm := getenv(k8sIndexEnv), getenv(slurmIDEnv)
	switch {
	case k8s != "" && slurm != "":
		return sweep.Shard{}, fmt.Errorf("both %s and %s are set; give -shard K/N", k8sIndexEnv, slurmIDEnv)
	case k8s != "":
		n := getenv(shardCountEnv)
		if n == "" {
			return sweep.Shard{}, fmt.Errorf("%s=%s gives this pod's index, but Kubernetes does not give the number of completions: set %s to the Job's completions", k8sIndexEnv, k8s, shardCountEnv)
		}
		s, err := sweep.NewShard(k8s, n)
		if err != nil {
			return s, fmt.Errorf("%s=%s, %s=%s: %v", k8sIndexEnv, k8s, shardCountEnv, n, err)
		}
		return s, nil
	case slurm != "":
		return slurmShard(getenv)
	}
	return sweep.Shard{}, fmt.Errorf("no batch engine names a shard here: neither %s (a Kubernetes Indexed Job) nor %s (a Slurm job array) is set; give -shard K/N", k8sIndexEnv, slurmIDEnv)
}

// slurmShard is the shard of a Slurm array task: its ID counted from the
// array's first, of the array's task count.
func slurmShard(getenv func(string) string) (sweep.Shard, error) {
	id, count := getenv(slurmIDEnv), getenv(slurmCountEnv)
	if count == "" {
		return sweep.Shard{}, fmt.Errorf("%s=%s but %s is not set", slurmIDEnv, id, slurmCountEnv)
	}
	num := func(name string, def int) (int, error) {
		v := getenv(name)
		if v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("%s=%s is not a whole number", name, v)
		}
		return n, nil
	}
	i, err := num(slurmIDEnv, 0)
	if err != nil {
		return sweep.Shard{}, err
	}
	lo, err := num(slurmMinEnv, 0)
	if err != nil {
		return sweep.Shard{}, err
	}
	step, err := num(slurmStepEnv, 1)
	if err != nil {
		return sweep.Shard{}, err
	}
	n, err := strconv.Atoi(count)
	if err != nil {
		return sweep.Shard{}, fmt.Errorf("%s=%s is not a whole number", slurmCountEnv, count)
	}
	hi, err := num(slurmMaxEnv, lo+n-1)
	if err != nil {
		return sweep.Shard{}, err
	}
	if step != 1 || hi-lo+1 != n {
		return sweep.Shard{}, fmt.Errorf("the job array is not a range with step 1 (%s=%d, %s=%d, %s=%d, %s=%d): use --array=0-%d", slurmMinEnv, lo, slurmMaxEnv, hi, slurmStepEnv, step, slurmCountEnv, n, n-1)
	}
	s, err := sweep.NewShard(strconv.Itoa(i-lo), count)
	if err != nil {
		return s, fmt.Errorf("%s=%d, %s=%d, %s=%s: %v", slurmIDEnv, i, slurmMinEnv, lo, slurmCountEnv, count, err)
	}
	return s, nil
}

// noteEngine tells a run without -shard that a batch engine names a shard
// in its environment, which it leaves alone: every copy of the command then
// runs every cell.
func noteEngine(stderr io.Writer, getenv func(string) string) {
	for _, v := range []string{k8sIndexEnv, slurmIDEnv} {
		if x := getenv(v); x != "" {
			fmt.Fprintf(stderr, "stormlab: note: %s=%s is set, but without -shard auto this runs every cell\n", v, x)
			return
		}
	}
}

// buildVersion names the build of stormlab that computes results: its
// module version, the commit it was built from, the Go release and the
// platform; and when that does not pin the code (no commit recorded, as
// with -buildvcs=false, or a tree with changes), a hash of the executable
// itself. Shards merge only when they were computed by the same build,
// since the bytes of a number are only promised for one build (a compiler
// may fuse a multiply and an add on one platform and not on another).
func buildVersion() string {
	mod, rev, pinned := "(devel)", "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			mod = info.Main.Version
		}
		modified := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value[:min(len(s.Value), 12)]
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		pinned = rev != "" && !modified
		if rev != "" && modified {
			rev += "+changes"
		}
	}
	v := "stormlab " + mod
	if rev != "" {
		v += " rev " + rev
	}
	v = fmt.Sprintf("%s %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if !pinned {
		if sum, err := executableHash(); err == nil {
			v += " exe " + sum
		}
	}
	return v
}

// executableHash is the start of the SHA-256 of the running executable.
func executableHash() (string, error) {
	path, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// shardFlags are the flags of a run, other than -set, that shape its
// results or its report's command: every flag given but -j, -out and
// -shard, in name order.
func shardFlags(fs *flag.FlagSet) []reports.Flag {
	var out []reports.Flag
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "j", "out", "shard", "set":
		default:
			out = append(out, reports.Flag{Name: f.Name, Value: f.Value.String()})
		}
	})
	return out
}

// runShard runs shard s of each experiment and writes its shard folder;
// refined holds each experiment's cells at half the tick with -refine. A
// shard already complete in the output folder with the same fingerprint is
// skipped. Every folder it will write is checked before anything runs.
func runShard(ctx context.Context, stdout, stderr io.Writer, fs *flag.FlagSet, f *runFlags, s sweep.Shard, exps []*experiments.Experiment, refined [][]sweep.Cell, mem memoryBudget) error {
	out, sets := *f.out, []string(f.sets)
	version, flags := buildVersion(), shardFlags(fs)
	type job struct {
		e      *experiments.Experiment
		origin *reports.Origin
		pos    []int
		half   []sweep.Cell
	}
	var jobs []job
	var names []string
	for i, e := range exps {
		j := job{e: e, pos: sweep.Split(e.Grid.Cells(), s.N)[s.K],
			origin: &reports.Origin{Experiment: e.Name, File: e.File, Source: e.Source, Sets: sets, Flags: flags, Version: version}}
		dir := reports.ShardDir(e.Name, s)
		if done, err := reports.ReadShard(filepath.Join(out, dir)); err == nil && done.Complete(j.origin, s, j.pos) {
			fmt.Fprintf(stdout, "%s: shard %s already complete in %s (same fingerprint); skipped\n", e.Name, s, filepath.Join(out, dir))
			continue
		}
		if refined[i] != nil {
			j.half = sweep.Pick(refined[i], j.pos)
		}
		jobs = append(jobs, j)
		names = append(names, dir)
	}
	if err := reports.CheckOut(out, names); err != nil {
		return err
	}
	defer limitMemory(mem.total)()
	aborted := 0
	for _, j := range jobs {
		start := time.Now()
		label := fmt.Sprintf("%s shard %s", j.e.Name, s)
		cells := sweep.Pick(j.e.Grid.Cells(), j.pos)
		results, err := simulate(ctx, stderr, label, cells, mem)
		var half []model.Result
		if err == nil && j.half != nil {
			half, err = simulate(ctx, stderr, label+" at half the tick", j.half, mem)
		}
		if err != nil {
			return err
		}
		warn(stderr, j.e.Name, cells, results)
		if err := reports.WriteShard(out, j.origin, s, j.e.Grid, j.pos, results, half); err != nil {
			return fmt.Errorf("%s: %w", j.e.Name, err)
		}
		n := reports.CountAborted(results) + reports.CountAborted(half)
		if n > 0 {
			fmt.Fprintf(stderr, "stormlab: %s: %s\n", j.e.Name, mem.text(len(cells)))
		}
		aborted += n
		fmt.Fprintf(stdout, "%s: shard %s, %d of %d cells in %.2fs%s → %s\n", j.e.Name, s, len(cells), len(j.e.Grid.Cells()),
			time.Since(start).Seconds(), abortedText(n), filepath.Join(out, reports.ShardDir(j.e.Name, s)))
	}
	if aborted > 0 {
		return &abortedError{aborted}
	}
	return nil
}
