package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// repoCopy copies the named files and folders of the repository (paths
// relative to its root) into a new temporary folder, which it returns.
func repoCopy(t *testing.T, paths ...string) string {
	t.Helper()
	dst := t.TempDir()
	for _, p := range paths {
		src := filepath.Join("../..", p)
		info, err := os.Stat(src)
		if err != nil {
			t.Fatal(err)
		}
		if info.IsDir() {
			if err := os.CopyFS(filepath.Join(dst, p), os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dst, p, string(data))
	}
	return dst
}

// tree lists what lies under root: every file with a hash of its bytes,
// every folder as "folder", keyed by its slash-separated path from root.
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == root {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel] = "folder"
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		out[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// changes is what git status would show between two trees, and more:
// every file changed or gone, and every file or folder added, except
// under the folders named in ignored (such as "out").
func changes(before, after map[string]string, ignored ...string) []string {
	var out []string
	for p, h := range before {
		switch a, ok := after[p]; {
		case !ok:
			out = append(out, "removed "+p)
		case a != h:
			out = append(out, "changed "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; ok || slices.ContainsFunc(ignored, func(i string) bool { return p == i || strings.HasPrefix(p, i+"/") }) {
			continue
		}
		out = append(out, "added "+p)
	}
	slices.Sort(out)
	return out
}

// The project's README.md is not an index: run -out . refuses to write
// there, exit 2, and nothing in the folder changes.
func TestRunKeepsAREADMEItDidNotWrite(t *testing.T) {
	dir := repoCopy(t, "README.md", "experiments/blip-30s.toml")
	t.Chdir(dir)
	before := tree(t, ".")
	code, stdout, stderr := stormlab(t, "run", "-figures=false", "-out", ".", "experiments/blip-30s.toml")
	if code != 2 || !strings.Contains(stderr, "README.md: exists and stormlab did not write it (its first line is not stormlab's index marker)") {
		t.Errorf("exit %d, %q%q; want 2 naming README.md", code, stdout, stderr)
	}
	if c := changes(before, tree(t, ".")); len(c) > 0 {
		t.Errorf("the folder changed: %v", c)
	}
}

// Runs that do not regenerate a committed report whole — the README's
// own performance commands with -figures=false, and a run whose cells
// stop at the memory cap — leave reports/ as it was: they write under
// out/ and say so on stderr.
func TestPartialRunsKeepTheCommittedReports(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
		says string
	}{
		{"blip-phase", []string{"-figures=false", "-j", "1"}, 0, "-figures=false draws no figures, so this run writes under out/, never over reports/"},
		{"tipping-naive", []string{"-figures=false", "-j", "1"}, 0, "-figures=false draws no figures, so this run writes under out/, never over reports/"},
		{"server-60", []string{"-max-memory", "1KB"}, 1, "server-60: 8 cell runs stopped at the memory cap, so its report is written under out/server-60, never over reports/server-60"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := repoCopy(t, "experiments/"+c.name+".toml", "reports/"+c.name, "reports/README.md")
			t.Chdir(dir)
			before := tree(t, ".")
			args := append(append([]string{"run"}, c.args...), "experiments/"+c.name+".toml")
			code, stdout, stderr := stormlab(t, args...)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, c.code, stdout, stderr)
			}
			if !strings.Contains(stderr, c.says) {
				t.Errorf("stderr %q does not say %q", stderr, c.says)
			}
			if !strings.Contains(stdout, "→ "+filepath.Join("out", c.name)) {
				t.Errorf("stdout %q does not name out/%s", stdout, c.name)
			}
			if ch := changes(before, tree(t, "."), "out"); len(ch) > 0 {
				t.Errorf("files changed outside out/: %v", ch)
			}
			for _, f := range []string{"report.md", "results.csv", "../README.md"} {
				if _, err := os.Stat(filepath.Join("out", c.name, f)); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

// An experiment named README.md, and an empty -out, are refused before
// anything is written: exit 2, and the folder holds what it held.
func TestBadNamesWriteNothing(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "x.toml", "name = \"README.md\"\n"+tiny)
	writeFile(t, dir, "experiments/blip-30s.toml", tiny)
	t.Chdir(dir)
	before := tree(t, ".")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "-figures=false", "-out", "o", file}, `name: "README.md" cannot name an experiment's folder`},
		{[]string{"run", "-figures=false", "-out", "", "experiments/blip-30s.toml"}, "-out: give a folder (it is empty)"},
		{[]string{"merge", "-out", "", "shard"}, "-out: give a folder (it is empty)"},
		{[]string{"run", "-figures=false", "-set", "load=80\nseed=9", "experiments/blip-30s.toml"}, `-set: "load=80\nseed=9" holds a line break; a -set flag is one PATH=VALUE on one line`},
	} {
		code, _, stderr := stormlab(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, stderr, c.want)
		}
	}
	if ch := changes(before, tree(t, ".")); len(ch) > 0 {
		t.Errorf("the folder changed: %v", ch)
	}
}
