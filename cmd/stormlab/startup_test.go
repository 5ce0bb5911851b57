//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
)

// BenchmarkStartup starts `stormlab help` as a new process, and a Go hello
// world for comparison, all built as `make build` builds (static, stripped).
// Nearly all of stormlab's time is the runtime starting and the packages'
// init functions; faults/op counts the page faults of one start. The floor
// is the hello world that only links what stormlab cannot do without,
// gonum/plot (whose init parses its fonts) and net/http (for stormlab
// serve), at the versions go.mod names.
//
//	go test -run '^$' -bench Startup -count 6 ./cmd/stormlab
func BenchmarkStartup(b *testing.B) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go command to build with")
	}
	dir := b.TempDir()
	modfile, err := os.ReadFile("../../go.mod")
	if err != nil {
		b.Fatal(err)
	}
	sum, err := os.ReadFile("../../go.sum")
	if err != nil {
		b.Fatal(err)
	}
	// program writes a main package that prints hello, world and links
	// the given packages, in a module that requires what stormlab's does.
	program := func(name string, links ...string) string {
		src := filepath.Join(dir, name)
		imports := "\t\"fmt\"\n"
		for _, l := range links {
			imports += "\t_ \"" + l + "\"\n"
		}
		mod := regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(modfile, []byte("module "+name))
		files := map[string][]byte{
			"go.mod":  mod,
			"go.sum":  sum,
			"main.go": []byte("package main\n\nimport (\n" + imports + ")\n\nfunc main() { fmt.Println(\"hello, world\") }\n"),
		}
		if err := os.Mkdir(src, 0o755); err != nil {
			b.Fatal(err)
		}
		for f, text := range files {
			if err := os.WriteFile(filepath.Join(src, f), text, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		return src
	}
	hello := program("hello")
	floor := program("floor", "gonum.org/v1/plot", "net/http")
	build := func(out, srcdir, pkg string) {
		cmd := exec.Command(gobin, "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
		cmd.Dir = srcdir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	build(filepath.Join(dir, "hello.bin"), hello, ".")
	build(filepath.Join(dir, "floor.bin"), floor, ".")
	build(filepath.Join(dir, "stormlab"), ".", ".")

	for _, c := range []struct {
		name string
		args []string
	}{
		{"hello", []string{filepath.Join(dir, "hello.bin")}},
		{"hello-plot-http", []string{filepath.Join(dir, "floor.bin")}},
		{"stormlab-help", []string{filepath.Join(dir, "stormlab"), "help"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var faults int64
			for b.Loop() {
				cmd := exec.Command(c.args[0], c.args[1:]...)
				if err := cmd.Run(); err != nil {
					b.Fatal(err)
				}
				if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
					faults += int64(ru.Minflt + ru.Majflt)
				}
			}
			b.ReportMetric(float64(faults)/float64(b.N), "faults/op")
		})
	}
}
