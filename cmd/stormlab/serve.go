package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/stormlab/stormlab/cmd/stormlab/serve"
)

const serveUsage = `Usage: stormlab serve [-addr HOST:PORT] [FILE.toml ...]

Serves the live explorer, one page: pick an experiment (default: every
experiments/*.toml) and one of its policies, watch the run second by second,
fail the dependency or change the retry policy while it runs, ask for the
phase diagram around the point you are at, and export the run as an
experiment file that stormlab run reproduces exactly. It reads only the
files given, writes nothing, and listens on this machine only unless -addr
says otherwise. Ctrl-C stops it.

Examples:
  stormlab serve
  stormlab serve experiments/server-60.toml
  stormlab serve -addr 127.0.0.1:9000 experiments/*.toml

` + manualRef + `

Flags:
`

// newServeFlags defines stormlab serve's flags; the value is -addr.
func newServeFlags(stderr io.Writer) (*flag.FlagSet, *string) {
	fs := newFlagSet(stderr, "serve", serveUsage)
	return fs, fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (a host other than 127.0.0.1, ::1 or localhost opens the page to the network)")
}

func cmdServe(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs, addr := newServeFlags(stderr)
	files, err := parse(fs, args, false)
	if err != nil {
		return err
	}
	if files, err = orAllExperiments(files); err != nil {
		return err
	}
	srv, err := serve.New(serve.Options{Files: files, Loopback: loopbackAddr(*addr)})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return &usageError{fmt.Sprintf("-addr %s: %v", *addr, err)}
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(stdout, "stormlab serve: http://%s/ (%d experiments; Ctrl-C stops it)\n", pageHost(ln.Addr()), len(srv.Experiments()))
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	srv.Close() // ends the event streams, so Shutdown need not wait for them
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// loopbackAddr reports whether addr listens on this machine only.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// pageHost is the address to open: the listener's, with an unspecified
// host (all interfaces) shown as 127.0.0.1.
func pageHost(a net.Addr) string {
	t, ok := a.(*net.TCPAddr)
	if !ok {
		return a.String()
	}
	if t.IP.IsUnspecified() {
		return net.JoinHostPort("127.0.0.1", fmt.Sprint(t.Port))
	}
	return t.String()
}
