package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/stormlab/stormlab/cmd/stormlab/serve"
)

const serveUsage = `Usage: stormlab serve [-addr HOST:PORT] [-allow-host NAME,...] [FILE.toml ...]

Serves the live explorer, one page: pick an experiment (default: every
experiments/*.toml) and one of its policies, watch the run second by second,
fail the dependency or change the retry policy while it runs, ask for the
phase diagram around the point you are at, and export the run as an
experiment file that stormlab run reproduces exactly. It reads only the
files given, writes nothing, and listens on this machine only unless -addr
says otherwise; wherever it listens, it answers only requests addressed to
this machine's loopback names or to a name given with -allow-host. Ctrl-C
stops it.

Examples:
  stormlab serve
  stormlab serve experiments/server-60.toml
  stormlab serve -addr 127.0.0.1:9000 experiments/*.toml

` + manualRef + `

Flags:
`

// serveFlags are stormlab serve's flags.
type serveFlags struct {
	addr  *string
	hosts *string
}

// newServeFlags defines stormlab serve's flags.
func newServeFlags(stderr io.Writer) (*flag.FlagSet, serveFlags) {
	fs := newFlagSet(stderr, "serve", serveUsage)
	return fs, serveFlags{
		addr:  fs.String("addr", "127.0.0.1:8080", "listen on `HOST:PORT` (a host other than 127.0.0.1, ::1 or localhost opens the page to the network, with a warning)"),
		hosts: fs.String("allow-host", "", "answer requests addressed to these `NAMES` too (comma-separated), besides 127.0.0.1, ::1 and localhost: the names other machines reach this one by"),
	}
}

func cmdServe(ctx context.Context, stdout, stderr io.Writer, args []string) error {
	fs, fl := newServeFlags(stderr)
	files, err := parse(fs, args, false)
	if err != nil {
		return err
	}
	if files, err = orAllExperiments(files); err != nil {
		return err
	}
	var hosts []string
	for _, h := range strings.Split(*fl.hosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	srv, err := serve.New(serve.Options{Files: files, AllowHosts: hosts})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *fl.addr)
	if err != nil {
		return &usageError{fmt.Sprintf("-addr %s: %v", *fl.addr, err)}
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: time.Minute}
	if !loopbackAddr(*fl.addr) {
		allowed := "no other name (-allow-host)"
		if len(hosts) > 0 {
			allowed = strings.Join(hosts, ", ")
		}
		at := listenAddr(*fl.addr, ln.Addr())
		fmt.Fprintf(stderr, "stormlab serve: warning: listening on %s, beyond this machine: whoever reaches it can run simulations here. It answers requests addressed to 127.0.0.1, ::1, localhost and %s.\n", at, allowed)
		fmt.Fprintf(stdout, "stormlab serve: listening on %s; on this machine: http://%s/ (%d experiments; Ctrl-C stops it)\n", at, pageHost(ln.Addr()), len(srv.Experiments()))
	} else {
		fmt.Fprintf(stdout, "stormlab serve: http://%s/ (%d experiments; Ctrl-C stops it)\n", pageHost(ln.Addr()), len(srv.Experiments()))
	}
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

// listenAddr is the address listened on as -addr gave it, with the port
// the listener got (Go reports 0.0.0.0 as [::], its dual-stack socket).
func listenAddr(flag string, a net.Addr) string {
	host, _, _ := net.SplitHostPort(flag)
	_, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if host == "" {
		host = "::"
	}
	return net.JoinHostPort(host, port)
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
