package serve

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure a Server. Zero values take the defaults.
type Options struct {
	// Files are the experiment files offered, read once by New.
	Files []string
	// MaxRuns caps the live runs at once (browser tabs); default 16.
	MaxRuns int
	// MaxLength caps a run's simulated time; default 15 minutes.
	MaxLength time.Duration
	// Idle ends a run no page has been attached to for this long; default
	// one minute.
	Idle time.Duration
	// Workers is the worker pool of the phase diagrams; default the CPUs.
	Workers int
	// MaxMemory caps the live state of one simulation (model.Options);
	// default 256 MB.
	MaxMemory int64
	// MaxCalls caps the calls a live run may make over the longest it may
	// last, by the engine's bound from above (model.Cost); default 1e9,
	// some 200 times the most an offered experiment's run makes.
	MaxCalls float64
	// SimTimeout caps the wall time of simulating one stretch of a run;
	// default 20 s.
	SimTimeout time.Duration
	// AllowHosts are the host names, besides a loopback address and
	// localhost, that a request may be addressed to (stormlab serve
	// -allow-host). Any other is refused, wherever the server listens, so
	// that a web page elsewhere cannot reach it through a name it controls
	// (DNS rebinding).
	AllowHosts []string
}

// withDefaults fills in the zero values.
func (o Options) withDefaults() Options {
	if o.MaxRuns <= 0 {
		o.MaxRuns = 16
	}
	if o.MaxLength <= 0 {
		o.MaxLength = 15 * time.Minute
	}
	if o.Idle <= 0 {
		o.Idle = time.Minute
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.MaxMemory <= 0 {
		o.MaxMemory = 256 << 20
	}
	if o.MaxCalls <= 0 {
		o.MaxCalls = 1e9
	}
	if o.SimTimeout <= 0 {
		o.SimTimeout = 20 * time.Second
	}
	return o
}

// Server is the live explorer: the offered experiments, the runs of the
// pages attached, and the HTTP handler that serves them.
type Server struct {
	opt      Options
	cat      *catalog
	ctx      context.Context // ends with Close
	stop     context.CancelFunc
	diagrams chan struct{} // one phase diagram at a time
	labs     chan struct{} // one lab run at a time
	mux      *http.ServeMux
	schema   schema // the policy form's fields, from the model's registries
	// At full speed, batch rows go out every frame (maxBatch and frame;
	// the benchmark streams a row at a time, as at 10×, with no pause).
	batch int
	frame time.Duration

	mu   sync.Mutex
	runs map[string]*run
}

// New reads the experiment files and makes a server; no other file is
// read after it returns. Close ends its runs.
func New(opt Options) (*Server, error) {
	opt = opt.withDefaults()
	cat, err := newCatalog(opt.Files)
	if err != nil {
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &Server{opt: opt, cat: cat, ctx: ctx, stop: stop, diagrams: make(chan struct{}, 1), labs: make(chan struct{}, 1), runs: map[string]*run{},
		batch: maxBatch, frame: frame, schema: newSchema()}
	s.routes()
	go s.reap()
	return s, nil
}

// Experiments names the experiments offered, in the order given.
func (s *Server) Experiments() []string { return append([]string(nil), s.cat.names...) }

// bodyTimeout is how long a request's body may take to arrive.
const bodyTimeout = 5 * time.Second

// Handler serves the page, its assets and its API. A request addressed to
// a name that is neither this machine nor one of Options.AllowHosts is
// refused, and so is one a page of another site makes (its Origin is not
// this server). A request's body must arrive within bodyTimeout.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.allowedHost(r.Host) {
			fail(w, r, badInput("host %q is not this machine; open the page at the address stormlab serve printed, or allow the name with -allow-host", clip(r.Host, 80)))
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
			fail(w, r, &forbiddenError{"a page of another site (" + clip(o, 80) + ") cannot drive this server"})
			return
		}
		if r.Method == http.MethodPost {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyTimeout))
		}
		s.mux.ServeHTTP(w, r)
	})
}

// allowedHost reports whether a Host header names this machine or a name
// the server was told to answer to.
func (s *Server) allowedHost(host string) bool {
	if loopbackHost(host) {
		return true
	}
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return slices.ContainsFunc(s.opt.AllowHosts, func(a string) bool { return strings.EqualFold(a, host) })
}

// sameOrigin reports whether an Origin header names the host a request
// was sent to.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, host)
}

// loopbackHost reports whether a Host header names this machine.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Close ends every run and the diagrams under way.
func (s *Server) Close() {
	s.stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, r := range s.runs {
		r.close()
		delete(s.runs, id)
	}
}

// Runs is the number of live runs.
func (s *Server) Runs() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.runs)
}

// add registers a new run of the timeline, unless the server is full.
func (s *Server) add(tl *live) (*run, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx.Err() != nil {
		return nil, &busyError{"the server is stopping"}
	}
	if len(s.runs) >= s.opt.MaxRuns {
		return nil, &busyError{"the server is running as many live runs as it may (" + strconv.Itoa(s.opt.MaxRuns) + "); close another tab, or wait a minute for runs left behind to end"}
	}
	r := newRun(s, hex.EncodeToString(b[:]), tl)
	s.runs[r.id] = r
	return r, nil
}

// get finds a run by its id.
func (s *Server) get(id string) (*run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r, ok := s.runs[id]; ok {
		return r, nil
	}
	return nil, &goneError{"no such run (it may have ended after a minute without its page); reload the page"}
}

// remove ends a run.
func (s *Server) remove(id string) {
	s.mu.Lock()
	r, ok := s.runs[id]
	delete(s.runs, id)
	s.mu.Unlock()
	if ok {
		r.close()
	}
}

// reap ends the runs no page has been attached to for opt.Idle.
func (s *Server) reap() {
	t := time.NewTicker(max(s.opt.Idle/4, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-s.ctx.Done():
			return
		case now := <-t.C:
			var idle []string
			s.mu.Lock()
			for id, r := range s.runs {
				if r.idle(now.Add(-s.opt.Idle)) {
					idle = append(idle, id)
				}
			}
			s.mu.Unlock()
			for _, id := range idle {
				s.remove(id)
			}
		}
	}
}
