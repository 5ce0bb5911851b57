//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkStartup starts `stormlab help` as a new process, and a Go hello
// world for comparison, both built as `make build` builds (static, stripped).
// Nearly all of stormlab's time is the runtime starting and the packages'
// init functions; faults/op counts the page faults of one start.
//
//	go test -run '^$' -bench Startup -count 6 ./cmd/stormlab
func BenchmarkStartup(b *testing.B) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		b.Skip("no go command to build with")
	}
	dir := b.TempDir()
	hello := filepath.Join(dir, "hello")
	if err := os.Mkdir(hello, 0o755); err != nil {
		b.Fatal(err)
	}
	files := map[string]string{
		"go.mod":  "module hello\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(hello, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	build := func(out, srcdir, pkg string) {
		cmd := exec.Command(gobin, "build", "-trimpath", "-ldflags=-s -w", "-o", out, pkg)
		cmd.Dir = srcdir
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("go build %s: %v\n%s", pkg, err, msg)
		}
	}
	build(filepath.Join(dir, "hello.bin"), hello, ".")
	build(filepath.Join(dir, "stormlab"), ".", ".")

	for _, c := range []struct {
		name string
		args []string
	}{
		{"hello", []string{filepath.Join(dir, "hello.bin")}},
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
