package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/stormlab/stormlab/experiments/sweep"
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
