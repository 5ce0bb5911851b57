package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestREADMECommands runs every stormlab command line the READMEs show (the
// project's and the experiment files' reference), in
// a code block or as inline code, and every example of the commands' usage
// texts and of the manual (doc.go), against the committed experiments: each must exit 0 and leave the
// checkout clean. They run as written, through sh, with a stormlab built
// for the test, one after another in a copy of the repository's tracked
// files (git ls-files), as a user would run them in a fresh clone; after
// each, no tracked file may have changed or gone, and nothing may have
// been added outside out/ and bin/, which git ignores (what git status
// shows, and new empty folders too). An -out outside the repository
// (/tmp/r) is sent to a temporary folder. Merge lines run after the
// others, over the shards those wrote under out/. Lines that only show a
// synopsis (FILE.toml, SHARD_DIR, FILE ...) are not commands; make lines are the
// Makefile's. A line make test runs as written (stormlab check, which
// regenerates the whole library) is left to make test, and is run here
// only if the Makefile's test recipe stops running it.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every experiment; not with -short")
	}
	const root = "../.."
	var lines []string
	for _, file := range []string{"README.md", "experiments/README.md"} {
		readme, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, commandLines(string(readme))...)
	}
	for _, u := range []string{usage, runUsage, mergeUsage, checkUsage, validateUsage, importUsage, manualText(t)} {
		lines = append(lines, usageLines(u)...)
	}
	// serve runs until Ctrl-C: TestServeCommand starts and stops it.
	lines = slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(l, "stormlab serve") })
	slices.Sort(lines)
	lines = slices.Compact(lines)
	merges := func(l string) bool { return strings.HasPrefix(l, "stormlab merge ") }
	lines = append(slices.DeleteFunc(slices.Clone(lines), merges), slices.DeleteFunc(lines, func(l string) bool { return !merges(l) })...)
	for _, want := range []string{"stormlab run ", "stormlab merge ", "stormlab check", "stormlab validate ", "stormlab keys", "stormlab import "} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no %q line found in the README, the usage texts or the manual", want)
		}
	}

	bin := buildStormlab(t)
	checkout := cloneTracked(t, root)
	elsewhere := t.TempDir()
	outside := regexp.MustCompile(` -out /\S+`)
	before := tree(t, checkout)
	byMake := makeTestRuns(t, filepath.Join(root, "Makefile"))
	for _, line := range lines {
		if byMake[line] {
			t.Logf("%s: run by make test (the Makefile's test recipe), not again here", line)
			continue
		}
		cmd := outside.ReplaceAllLiteralString(line, " -out "+elsewhere)
		sh := exec.Command("sh", "-c", strings.Replace(cmd, "stormlab", bin, 1))
		sh.Dir = checkout
		start := time.Now()
		output, err := sh.CombinedOutput()
		if err != nil {
			t.Errorf("%s\n  ran as %s\n  %v\n%s", line, cmd, err, output)
		}
		if c := changes(before, tree(t, checkout), "out", "bin"); len(c) > 0 {
			t.Errorf("%s left the checkout unclean: %v", line, c)
			restore(t, root, checkout, c) // the next command starts clean
		}
		t.Logf("%s: %.1fs", line, time.Since(start).Seconds())
	}
}

// makeTestRuns returns the stormlab commands the Makefile's test recipe
// runs as a user would type them: its lines that run $(BIN), with
// "stormlab" in its place.
func makeTestRuns(t *testing.T, makefile string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	runs := map[string]bool{}
	in := false
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(l, "test:"):
			in = true
		case in && strings.HasPrefix(l, "\t"):
			if cmd, ok := strings.CutPrefix(l, "\t$(BIN) "); ok {
				runs["stormlab "+strings.TrimSpace(cmd)] = true
			}
		case in:
			return runs
		}
	}
	return runs
}

// restore undoes the changes (as changes lists them) in checkout, a copy
// of root: files changed or removed are copied again, files and folders
// added are removed.
func restore(t *testing.T, root, checkout string, changed []string) {
	t.Helper()
	for _, c := range changed {
		how, p, _ := strings.Cut(c, " ")
		dst := filepath.Join(checkout, filepath.FromSlash(p))
		if how == "added" {
			os.RemoveAll(dst)
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err == nil {
			err = os.MkdirAll(filepath.Dir(dst), 0o755)
		}
		if err == nil {
			err = os.WriteFile(dst, data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// cloneTracked copies the files git tracks in the repository at root (all
// of them, less .git, bin/ and out/, where git is not at hand) into a new
// temporary folder, with their modes, and returns it.
func cloneTracked(t *testing.T, root string) string {
	t.Helper()
	var files []string
	if out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output(); err == nil {
		for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
			files = append(files, filepath.FromSlash(f))
		}
	} else {
		t.Logf("git ls-files: %v; copying the tree less .git, bin and out", err)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() && slices.Contains([]string{".git", "bin", "out"}, rel) {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	dst := t.TempDir()
	for _, f := range files {
		src := filepath.Join(root, f)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // tracked but gone from the working tree, or a link
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	if len(files) == 0 {
		t.Fatal("no files to copy")
	}
	return dst
}

// buildStormlab builds the command into a temporary folder and returns the
// binary's path.
func buildStormlab(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "stormlab")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// commandLines finds the stormlab command lines of a Markdown text: the
// lines of its code blocks and its inline code that start with
// "stormlab ", less synopses (FILE.toml).
func commandLines(md string) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); isCommand(s) {
			out = append(out, s)
		}
	}
	inBlock := false
	inline := regexp.MustCompile("`(stormlab [^`]+)`")
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			add(l)
			continue
		}
		for _, m := range inline.FindAllStringSubmatch(l, -1) {
			add(m[1])
		}
	}
	return out
}

// usageLines finds the stormlab command lines of a usage text: its
// indented lines that start with "stormlab ", less synopses (FILE.toml).
func usageLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if s := strings.TrimSpace(l); s != l && isCommand(s) {
			out = append(out, s)
		}
	}
	return out
}

// isCommand reports whether a line is a stormlab command rather than a
// synopsis.
func isCommand(s string) bool {
	return strings.HasPrefix(s, "stormlab ") && !strings.Contains(s, "FILE.toml") && !strings.Contains(s, "SHARD_DIR") && !strings.Contains(s, "FILE ...")
}

// snapshot lists the files under dir with their sizes and times.
func snapshot(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out = append(out, fmt.Sprintf("%s %d %s", path, info.Size(), info.ModTime()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMakeTestRuns reads the stormlab commands of a test recipe, and of
// no other target's.
func TestMakeTestRuns(t *testing.T) {
	mk := writeFile(t, t.TempDir(), "Makefile", "report: build\n\t$(BIN) run $(EXPERIMENTS)\n\ntest: build\n\t$(GO) vet ./...\n\t$(BIN) check\n\ncheck: build\n\t$(BIN) check -j 1\n")
	got := makeTestRuns(t, mk)
	if len(got) != 1 || !got["stormlab check"] {
		t.Errorf("makeTestRuns = %v, want only stormlab check", got)
	}
}
