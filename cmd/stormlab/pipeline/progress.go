package pipeline

import (
	"bytes"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
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
	start := time.Now()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		select {
		case <-p.quit:
			return
		case <-time.After(time.Second):
		}
		c := mpb.New(mpb.WithConsoleWriter(&lineWriter{out: f}),
			mpb.WithRefreshRate(100*time.Millisecond))
		bar := c.AddBar(int64(total),
			mpb.BarRemoveOnComplete(),
			mpb.PrependDecorators(
				decor.Name(name+" "),
				decor.CountersNoUnit("%d/%d")),
			mpb.AppendDecorators(
				decor.NewPercentage("%d"),
				decor.Name(" ETA "),
				decor.NewAverageETA(decor.ET_STYLE_GO, start, nil)))
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				// Finished or not (an error, Ctrl-C), the bar goes: a
				// complete bar is removed by BarRemoveOnComplete, an
				// incomplete one by Abort(true); Wait returns after the
				// render that clears its line.
				bar.SetCurrent(p.n.Load())
				bar.Abort(true)
				c.Wait()
				return
			case <-t.C:
				bar.SetCurrent(p.n.Load())
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

// lineWriter draws mpb's frames on one terminal line: carriage return, the
// bar, erase to the end of the line, carriage return. mpb's own writer ends
// each frame with a newline and moves the cursor back up before the next;
// a "^C" the terminal echoes in between shifts that and leaves the bar on
// screen. Here whatever is echoed lands on the bar's line and the next frame
// overwrites it; the last frame, drawn after the bar is removed, is empty
// and leaves the line blank with the cursor at its start.
type lineWriter struct {
	bytes.Buffer // the frame mpb is rendering
	out          *os.File
}

func (*lineWriter) IsTerminal() bool { return true }

// GetTermSize leaves the last column free, so that no terminal wraps; a
// terminal that reports no size (a bare pty) is taken as 80 columns, and
// one line is all the bar needs.
func (w *lineWriter) GetTermSize() (width, height int, err error) {
	width, _, err = term.GetSize(int(w.out.Fd()))
	if width < 2 {
		width = 80
	}
	return width - 1, 1, err
}

func (w *lineWriter) Flush(int) error {
	line := bytes.TrimRight(w.Bytes(), "\n")
	frame := make([]byte, 0, len(line)+5)
	frame = append(frame, '\r')
	frame = append(frame, line...)
	frame = append(frame, "\x1b[K\r"...)
	w.Reset()
	_, err := w.out.Write(frame)
	return err
}
