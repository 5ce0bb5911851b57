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

// TestREADMECommands runs every stormlab command line the README shows, in
// a code block or as inline code, and every example of the commands' usage
// texts, against the committed experiments: each must exit 0. They run as
// written, through sh from the repository root, with a stormlab built for
// the test; a run writes into a temporary folder (its -out, given or
// added), so nothing under reports/ changes, which the test checks. Merge
// lines run after the others, over the shards those wrote there (their
// out/ folders read from the temporary one), and write into a temporary
// folder too. Lines that only show a synopsis (FILE.toml, SHARD_DIR) are
// not commands; make lines are the Makefile's.
func TestREADMECommands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every experiment; not with -short")
	}
	const root = "../.."
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := commandLines(string(readme))
	for _, u := range []string{usage, runUsage, mergeUsage, checkUsage, validateUsage} {
		lines = append(lines, usageLines(u)...)
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	merges := func(l string) bool { return strings.HasPrefix(l, "stormlab merge ") }
	lines = append(slices.DeleteFunc(slices.Clone(lines), merges), slices.DeleteFunc(lines, func(l string) bool { return !merges(l) })...)
	for _, want := range []string{"stormlab run ", "stormlab merge ", "stormlab check", "stormlab validate ", "stormlab keys"} {
		if !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) }) {
			t.Errorf("no %q line found in the README or the usage texts", want)
		}
	}

	tmp := t.TempDir()
	bin := buildStormlab(t)
	before := snapshot(t, filepath.Join(root, "reports"))
	out := filepath.Join(tmp, "out")
	outFlag := regexp.MustCompile(` -out \S+`)
	shardDir := regexp.MustCompile(`(^|\s)out/`)
	for _, line := range lines {
		cmd := line
		for _, c := range []struct{ prefix, out string }{{"stormlab run ", out}, {"stormlab merge ", filepath.Join(tmp, "merged")}} {
			if !strings.HasPrefix(line, c.prefix) {
				continue
			}
			if outFlag.MatchString(cmd) {
				cmd = outFlag.ReplaceAllLiteralString(cmd, " -out "+c.out)
			} else {
				cmd = strings.Replace(cmd, c.prefix, c.prefix+"-out "+c.out+" ", 1)
			}
		}
		if merges(line) {
			cmd = shardDir.ReplaceAllString(cmd, "${1}"+out+"/")
		}
		sh := exec.Command("sh", "-c", strings.Replace(cmd, "stormlab", bin, 1))
		sh.Dir = root
		start := time.Now()
		output, err := sh.CombinedOutput()
		if err != nil {
			t.Errorf("%s\n  ran as %s\n  %v\n%s", line, cmd, err, output)
			continue
		}
		t.Logf("%s: %.1fs", line, time.Since(start).Seconds())
	}
	if after := snapshot(t, filepath.Join(root, "reports")); !slices.Equal(before, after) {
		t.Error("the commands changed files under reports/")
	}
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
	return strings.HasPrefix(s, "stormlab ") && !strings.Contains(s, "FILE.toml") && !strings.Contains(s, "SHARD_DIR")
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
