package main

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows a progress bar on stderr for sweeps that take over a
// second, when stderr is a terminal; it stays quiet otherwise.
type progress struct {
	n    atomic.Int64
	quit chan struct{}
	wg   sync.WaitGroup
}

// startProgress starts watching a sweep of total cells.
func startProgress(w io.Writer, name string, total int) *progress {
	p := &progress{quit: make(chan struct{})}
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		select {
		case <-p.quit:
			return
		case <-time.After(time.Second):
		}
		bar := progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(name),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond))
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				bar.Set(int(p.n.Load()))
				bar.Finish()
				return
			case <-t.C:
				bar.Set(int(p.n.Load()))
			}
		}
	}()
	return p
}

// done counts one finished cell; safe for concurrent use.
func (p *progress) done() { p.n.Add(1) }

// stop ends the bar and waits until it is cleared.
func (p *progress) stop() {
	close(p.quit)
	p.wg.Wait()
}
