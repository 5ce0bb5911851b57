package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stormlab/stormlab/experiments"
)

// lockedBuffer is a bytes.Buffer safe to write from one goroutine and read
// from another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestServeCommand starts stormlab serve on a free port, finds the page at
// the URL it prints, and stops it as Ctrl-C does.
func TestServeCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, &stdout, &stderr, []string{"serve", "-addr", "127.0.0.1:0", "../../experiments/server-60.toml"})
	}()
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	deadline := time.Now().Add(10 * time.Second)
	for url.FindString(stdout.String()) == "" {
		if time.Now().After(deadline) {
			t.Fatalf("no URL printed: %q %q", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.HasSuffix(stdout.String(), "(1 experiments; Ctrl-C stops it)\n") {
		t.Errorf("stdout: %q", stdout.String())
	}
	res, err := http.Get(url.FindString(stdout.String()) + "api/experiments")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"name":"server-60"`) {
		t.Errorf("api/experiments: %d %s", res.StatusCode, body)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("stopping: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("stormlab serve did not stop")
	}
}

// TestServeUsage: bad flags, files and addresses are bad usage or bad
// input, exit code 2, and nothing listens.
func TestServeUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"serve", "-bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"serve", "no-such-file.toml"}, "no-such-file.toml: open no-such-file.toml: no such file or directory"},
		{[]string{"serve", "-addr", "256.1.1.1:1", "../../experiments/server-60.toml"}, "-addr 256.1.1.1:1: listen tcp"},
		{[]string{"serve", "-addr", "nonsense", "../../experiments/server-60.toml"}, "-addr nonsense: listen tcp: address nonsense: missing port in address"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, c.args)
		if code := exitCode(io.Discard, err); code != 2 || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: exit %d, %v; want 2 and %q", c.args, code, err, c.says)
		}
		var le *experiments.Error
		var ue *usageError
		if !errors.As(err, &le) && !errors.As(err, &ue) {
			t.Errorf("%v: %T is neither bad usage nor bad input", c.args, err)
		}
	}
}
