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

// TestServeBeyondLoopback: an -addr beyond this machine is listened on on
// purpose only: serve prints the address and a warning, and still refuses
// a request addressed to a name that is neither this machine's nor one
// given with -allow-host (a page elsewhere rebinding its name to it).
func TestServeBeyondLoopback(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, &stdout, &stderr, []string{"serve", "-addr", "0.0.0.0:0", "-allow-host", "lab.example", "../../experiments/server-60.toml"})
	}()
	port := regexp.MustCompile(`listening on 0\.0\.0\.0:(\d+); on this machine: http://127\.0\.0\.1:(\d+)/`)
	deadline := time.Now().Add(10 * time.Second)
	for port.FindStringSubmatch(stdout.String()) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("no address printed: %q %q", stdout.String(), stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if w := stderr.String(); !strings.Contains(w, "warning: listening on 0.0.0.0:") || !strings.Contains(w, "localhost and lab.example") {
		t.Errorf("stderr: %q, want a warning naming the hosts it answers to", w)
	}
	base := "http://127.0.0.1:" + port.FindStringSubmatch(stdout.String())[1]
	for _, c := range []struct {
		host, origin string
		code         int
	}{
		{"evil.example.com", "http://evil.example.com", 400},
		{"evil.example.com", "", 400},
		{"127.0.0.1", "http://evil.example.com", 403},
		{"lab.example:8080", "http://lab.example:8080", 201},
		{"127.0.0.1", "", 201},
	} {
		req, _ := http.NewRequest("POST", base+"/api/runs", strings.NewReader(`{"experiment":"server-60"}`))
		req.Host = c.host
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.code {
			t.Errorf("Host %s, Origin %q: %d, want %d", c.host, c.origin, res.StatusCode, c.code)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("stopping: %v", err)
	}
}
