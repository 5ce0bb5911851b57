package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// The recipes for batch engines (recipes/) are tested by what makes them
// work, and run here as far as a machine without the engines can: each
// engine's shard command with the variables that engine sets, then the
// merge step, whose folder must equal a single run's byte for byte.

const recipes = "recipes"

// k8sObject is the part of a Kubernetes object the recipe's checks read.
type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		AccessModes    []string `yaml:"accessModes"`
		CompletionMode string   `yaml:"completionMode"`
		Completions    *int     `yaml:"completions"`
		Parallelism    *int     `yaml:"parallelism"`
		Template       struct {
			Spec podSpec `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type podSpec struct {
	RestartPolicy string `yaml:"restartPolicy"`
	Containers    []struct {
		WorkingDir string   `yaml:"workingDir"`
		Command    []string `yaml:"command"`
		Args       []string `yaml:"args"`
		Env        []struct {
			Name  string `yaml:"name"`
			Value string `yaml:"value"`
		} `yaml:"env"`
		VolumeMounts []struct {
			Name      string `yaml:"name"`
			MountPath string `yaml:"mountPath"`
		} `yaml:"volumeMounts"`
	} `yaml:"containers"`
	Volumes []struct {
		Name                  string `yaml:"name"`
		PersistentVolumeClaim *struct {
			ClaimName string `yaml:"claimName"`
		} `yaml:"persistentVolumeClaim"`
		ConfigMap *struct {
			Name string `yaml:"name"`
		} `yaml:"configMap"`
	} `yaml:"volumes"`
}

// readObjects decodes every document of a manifest.
func readObjects(t *testing.T, file string) []k8sObject {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(recipes, file))
	if err != nil {
		t.Fatal(err)
	}
	var out []k8sObject
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var o k8sObject
		if err := dec.Decode(&o); err != nil {
			if err.Error() == "EOF" {
				return out
			}
			t.Fatalf("%s: %v", file, err)
		}
		out = append(out, o)
	}
}

// volumeAt is the volume mounted at dir in the pod's first container.
func volumeAt(pod *podSpec, dir string) (claim, configMap string) {
	for _, m := range pod.Containers[0].VolumeMounts {
		if m.MountPath != dir {
			continue
		}
		for _, v := range pod.Volumes {
			switch {
			case v.Name != m.Name:
			case v.PersistentVolumeClaim != nil:
				return v.PersistentVolumeClaim.ClaimName, ""
			case v.ConfigMap != nil:
				return "", v.ConfigMap.Name
			}
		}
	}
	return "", ""
}

// The Kubernetes recipe: an Indexed Job whose pods run stormlab run -shard
// auto with STORMLAB_SHARD_COUNT equal to its completions, writing to a
// ReadWriteMany claim, and a merge Job over the same claim that names the
// shards of that many completions. Each pod's command then runs here with
// the index Kubernetes gives it, and the merge after them.
func TestRecipeKubernetes(t *testing.T) {
	objs := readObjects(t, "kubernetes.yaml")
	var job *k8sObject
	claims := map[string]bool{}
	for i := range objs {
		switch o := &objs[i]; o.Kind {
		case "Job":
			job = o
		case "PersistentVolumeClaim":
			claims[o.Metadata.Name] = slices.Contains(o.Spec.AccessModes, "ReadWriteMany")
		}
	}
	if job == nil {
		t.Fatal("kubernetes.yaml has no Job")
	}
	spec := &job.Spec
	if spec.CompletionMode != "Indexed" || spec.Completions == nil || *spec.Completions < 2 {
		t.Fatalf("the Job is not Indexed with completions ≥ 2: completionMode %q, completions %v", spec.CompletionMode, spec.Completions)
	}
	n := *spec.Completions
	if spec.Parallelism == nil || *spec.Parallelism < 1 || *spec.Parallelism > n {
		t.Errorf("parallelism %v, want 1..%d", spec.Parallelism, n)
	}
	pod := &spec.Template.Spec
	if pod.RestartPolicy != "Never" && pod.RestartPolicy != "OnFailure" || len(pod.Containers) != 1 {
		t.Fatalf("restartPolicy %q, %d containers", pod.RestartPolicy, len(pod.Containers))
	}
	c := pod.Containers[0]
	argv := append(slices.Clone(c.Command), c.Args...)
	if len(argv) < 2 || argv[0] != "stormlab" || argv[1] != "run" {
		t.Fatalf("the pod runs %q, not stormlab run", argv)
	}
	fs, f := newRunFlags(&bytes.Buffer{})
	files, err := parse(fs, argv[2:], true)
	if err != nil || *f.shard != "auto" || len(files) != 1 {
		t.Fatalf("the pod's command %q: -shard %q, files %q, %v; want -shard auto and one file", argv, *f.shard, files, err)
	}
	env := []string{k8sIndexEnv + "="} // set by Kubernetes, per pod
	count := ""
	for _, e := range c.Env {
		env = append(env, e.Name+"="+e.Value)
		if e.Name == shardCountEnv {
			count = e.Value
		}
	}
	if count != strconv.Itoa(n) {
		t.Errorf("%s is %q, the Job's completions %d", shardCountEnv, count, n)
	}
	shards := *f.out
	claim, _ := volumeAt(pod, shards)
	if !claims[claim] {
		t.Fatalf("-out %s is not on a ReadWriteMany claim of the manifest (claim %q)", shards, claim)
	}
	if _, cm := volumeAt(pod, path.Join(c.WorkingDir, "experiments")); !strings.HasPrefix(files[0], "experiments/") || cm == "" {
		t.Errorf("the experiment %s is not read from a ConfigMap mounted at %s", files[0], path.Join(c.WorkingDir, "experiments"))
	}
	if _, err := os.Stat(filepath.Join("../..", files[0])); err != nil {
		t.Errorf("the recipe's experiment: %v", err)
	}

	merges := readObjects(t, "kubernetes-merge.yaml")
	if len(merges) != 1 || merges[0].Kind != "Job" || merges[0].Spec.CompletionMode == "Indexed" {
		t.Fatalf("kubernetes-merge.yaml is not one plain Job")
	}
	mpod := &merges[0].Spec.Template.Spec
	if mclaim, _ := volumeAt(mpod, shards); mclaim != claim {
		t.Errorf("the merge Job does not mount claim %s at %s", claim, shards)
	}
	mc := mpod.Containers[0]
	script := strings.Join(append(slices.Clone(mc.Command), mc.Args...), " ")
	name := strings.TrimSuffix(path.Base(files[0]), ".toml")
	glob := path.Join(shards, name) + ".shard-*-of-" + strconv.Itoa(n)
	if !strings.HasPrefix(script, "sh -c stormlab merge ") || !strings.HasSuffix(script, " "+glob) {
		t.Fatalf("the merge Job runs %q; want sh -c \"stormlab merge ... %s\"", script, glob)
	}

	// Run it: each pod with its index, the shared volume a folder here.
	bin := buildStormlab(t)
	dir, vol := workspace(t), t.TempDir()
	onVolume := func(s string) string { return strings.ReplaceAll(s, shards, vol) }
	var pods []*exec.Cmd
	for k := range n {
		args := make([]string, len(argv)-1)
		for i, a := range argv[1:] {
			args[i] = onVolume(a)
		}
		env[0] = k8sIndexEnv + "=" + strconv.Itoa(k)
		pods = append(pods, command(dir, slices.Clone(env), bin, args...))
	}
	parallel(t, pods)
	mergeScript := strings.Replace(onVolume(strings.TrimPrefix(script, "sh -c ")), "stormlab", bin, 1)
	want := singleRunAs(t, bin, mergeScript, files[0])
	if code, stdout, stderr := execute(t, command(dir, nil, "sh", "-c", mergeScript)); code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
	}
	sameTree(t, want, filepath.Join(outOf(t, mergeScript), name))
}

// outOf is the -out folder of a merge command line.
func outOf(t *testing.T, line string) string {
	t.Helper()
	m := regexp.MustCompile(` -out (\S+)`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("%q gives no -out", line)
	}
	return m[1]
}

// singleRunAs runs file as one stormlab run into the -out folder of the
// merge command line mergeLine (an absolute folder, so that the report's
// regenerate command is the same), moves the experiment's folder aside and
// returns where it is.
func singleRunAs(t *testing.T, bin, mergeLine, file string) string {
	t.Helper()
	out := outOf(t, mergeLine)
	if !filepath.IsAbs(out) {
		t.Fatalf("-out %s is not absolute", out)
	}
	mustRun(t, bin, workspace(t), "run", "-out", out, file)
	name := strings.TrimSuffix(filepath.Base(file), ".toml")
	aside := filepath.Join(t.TempDir(), name)
	if err := os.Rename(filepath.Join(out, name), aside); err != nil {
		t.Fatal(err)
	}
	return aside
}

// sbatchOptions reads a batch script's #SBATCH options.
func sbatchOptions(t *testing.T, file string) (script []byte, opts map[string]string) {
	t.Helper()
	script, err := os.ReadFile(filepath.Join(recipes, file))
	if err != nil {
		t.Fatal(err)
	}
	opts = map[string]string{}
	for _, l := range strings.Split(string(script), "\n") {
		if rest, ok := strings.CutPrefix(l, "#SBATCH --"); ok {
			k, v, _ := strings.Cut(rest, "=")
			opts[k] = v
		}
	}
	return script, opts
}

// The Slurm recipe: every task of the array runs the shard script with the
// variables Slurm sets for it, then the merge script runs as the dependent
// job, and its report equals a single run's.
func TestRecipeSlurm(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the batch scripts")
	}
	_, opts := sbatchOptions(t, "slurm-shards.sbatch")
	m := regexp.MustCompile(`^(\d+)-(\d+)(%\d+)?$`).FindStringSubmatch(opts["array"])
	if m == nil {
		t.Fatalf("--array=%s is not one range", opts["array"])
	}
	lo, _ := strconv.Atoi(m[1])
	hi, _ := strconv.Atoi(m[2])
	n := hi - lo + 1
	if n < 2 || opts["cpus-per-task"] == "" {
		t.Fatalf("--array=%s, --cpus-per-task=%s", opts["array"], opts["cpus-per-task"])
	}
	if _, mopts := sbatchOptions(t, "slurm-merge.sbatch"); mopts["array"] != "" {
		t.Error("the merge script is an array")
	}
	bin := buildStormlab(t)
	path := filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH")
	script, _ := filepath.Abs(filepath.Join(recipes, "slurm-shards.sbatch"))
	merge, _ := filepath.Abs(filepath.Join(recipes, "slurm-merge.sbatch"))
	dir := workspace(t)
	var tasks []*exec.Cmd
	for id := lo; id <= hi; id++ {
		tasks = append(tasks, command(dir, []string{
			"PATH=" + path, "SLURM_JOB_ID=" + strconv.Itoa(1000+id), "SLURM_ARRAY_JOB_ID=1000",
			slurmIDEnv + "=" + strconv.Itoa(id), slurmCountEnv + "=" + strconv.Itoa(n),
			slurmMinEnv + "=" + m[1], slurmMaxEnv + "=" + m[2], slurmStepEnv + "=1",
			"SLURM_CPUS_PER_TASK=" + opts["cpus-per-task"],
		}, bash, script))
	}
	parallel(t, tasks)
	shards, _ := filepath.Glob(filepath.Join(dir, "shards", "*.shard-*"))
	if len(shards) != n {
		t.Fatalf("%d shard folders after %d tasks: %v", len(shards), n, shards)
	}
	if code, stdout, stderr := execute(t, command(dir, []string{"PATH=" + path, "SLURM_JOB_ID=2000"}, bash, merge)); code != 0 {
		t.Fatalf("merge: exit %d\n%s%s", code, stdout, stderr)
	}
	name := strings.Split(filepath.Base(shards[0]), ".shard-")[0]
	single := workspace(t)
	mustRun(t, bin, single, "run", "-out", "reports", "experiments/"+name+".toml")
	sameTree(t, filepath.Join(single, "reports", name), filepath.Join(dir, "reports", name))
}

// workflow is the part of a GitHub Actions workflow the emulation reads.
type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Needs    any `yaml:"needs"`
		Strategy struct {
			Matrix map[string][]any `yaml:"matrix"`
		} `yaml:"strategy"`
		Steps []struct {
			Uses string            `yaml:"uses"`
			Run  string            `yaml:"run"`
			With map[string]string `yaml:"with"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// The GitHub Actions recipe: a matrix job per shard, with the values
// GitHub gives strategy.job-index and strategy.job-total, each on a fresh
// runner (a fresh folder), its artifact uploaded; then the merge job on
// another, with the artifacts downloaded as the download action does.
func TestRecipeGitHubActions(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash to run the workflow's steps")
	}
	data, err := os.ReadFile(filepath.Join(recipes, "github-sweep.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	shard, ok := wf.Jobs["shard"]
	merge, ok2 := wf.Jobs["merge"]
	if !ok || !ok2 || fmt.Sprint(merge.Needs) != "shard" {
		t.Fatalf("want a shard job and a merge job that needs it; jobs %v, needs %v", len(wf.Jobs), merge.Needs)
	}
	n := 1
	for _, vs := range shard.Strategy.Matrix {
		n *= len(vs)
	}
	if n < 2 {
		t.Fatalf("a matrix of %d jobs", n)
	}
	bin := buildStormlab(t)
	artifacts := map[string]string{} // name → folder
	expr := regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)
	// runJob runs a job's steps in a fresh folder with the expressions'
	// values given, and returns the folder.
	runJob := func(job string, values map[string]string) string {
		dir := workspace(t)
		subst := func(s string) string {
			return expr.ReplaceAllStringFunc(s, func(e string) string {
				key := expr.FindStringSubmatch(e)[1]
				v, ok := values[key]
				if !ok {
					t.Fatalf("%s: the emulation does not know ${{ %s }}", job, key)
				}
				return v
			})
		}
		built := false
		for _, st := range wf.Jobs[job].Steps {
			with := map[string]string{}
			for k, v := range st.With {
				with[k] = subst(v)
			}
			switch action, _, _ := strings.Cut(st.Uses, "@"); {
			case action == "actions/checkout" || action == "actions/setup-go":
				// the workspace is the checkout; the binary is built for the test
			case action == "actions/upload-artifact":
				store := t.TempDir()
				copyTree(t, filepath.Join(dir, with["path"]), store, with["include-hidden-files"] == "true")
				artifacts[with["name"]] = store
			case action == "actions/download-artifact":
				var names []string
				for name, store := range artifacts {
					if ok, _ := path.Match(with["pattern"], name); ok {
						names = append(names, name)
						copyTree(t, store, filepath.Join(dir, with["path"]), true)
					}
				}
				if len(names) != n || with["merge-multiple"] != "true" {
					t.Fatalf("%s: downloads %d artifacts (%v), merge-multiple %q", job, len(names), names, with["merge-multiple"])
				}
			case st.Uses != "":
				t.Fatalf("%s: the emulation does not know %s", job, st.Uses)
			case strings.TrimSpace(st.Run) == "make build":
				if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(bin, filepath.Join(dir, "bin", "stormlab")); err != nil {
					t.Fatal(err)
				}
				built = true
			default:
				if strings.Contains(st.Run, "bin/stormlab") && !built {
					t.Fatalf("%s runs bin/stormlab before make build", job)
				}
				var env []string
				for _, m := range []map[string]string{wf.Env, st.Env} {
					for k, v := range m {
						env = append(env, k+"="+subst(v))
					}
				}
				cmd := command(dir, env, bash, "--noprofile", "--norc", "-eo", "pipefail", "-c", subst(st.Run))
				if code, stdout, stderr := execute(t, cmd); code != 0 {
					t.Fatalf("%s: %s: exit %d\n%s%s", job, st.Run, code, stdout, stderr)
				}
			}
		}
		return dir
	}
	keys := make([]string, 0, len(shard.Strategy.Matrix))
	for k := range shard.Strategy.Matrix {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i := range n {
		values := map[string]string{"strategy.job-index": strconv.Itoa(i), "strategy.job-total": strconv.Itoa(n)}
		r := i // the matrix's entries, the last key varying fastest
		for j := len(keys) - 1; j >= 0; j-- {
			vs := shard.Strategy.Matrix[keys[j]]
			values["matrix."+keys[j]] = fmt.Sprint(vs[r%len(vs)])
			r /= len(vs)
		}
		runJob("shard", values)
	}
	merged := runJob("merge", nil)
	file := wf.Env["EXPERIMENT"]
	name := strings.TrimSuffix(filepath.Base(file), ".toml")
	single := workspace(t)
	mustRun(t, bin, single, "run", "-out", "merged", file)
	sameTree(t, filepath.Join(single, "merged"), filepath.Join(merged, "merged"))
	if _, err := os.Stat(filepath.Join(merged, "merged", name, "report.md")); err != nil {
		t.Error(err)
	}
	var shardArtifacts []string
	for name := range artifacts {
		if k, ok := strings.CutPrefix(name, "shard-"); ok {
			shardArtifacts = append(shardArtifacts, name)
			if _, err := sweep.ParseShard(k + "/" + strconv.Itoa(n)); err != nil {
				t.Errorf("artifact %s: %v", name, err)
			}
		}
	}
	if len(shardArtifacts) != n {
		t.Errorf("%d shard artifacts for %d jobs: %v", len(shardArtifacts), n, shardArtifacts)
	}
}

// copyTree copies the files under src into dst, leaving out hidden files
// and folders unless hidden is set, as the artifact actions do.
func copyTree(t *testing.T, src, dst string, hidden bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if !hidden && rel != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
