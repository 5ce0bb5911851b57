package pipeline

import (
	"bytes"
	"io"
	"os"
	"sync"
	"testing"
	"time"
)

// count calls done n times from each of workers goroutines, spread over d.
func count(p *progress, workers, n int, d time.Duration) {
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range n {
				p.done()
				time.Sleep(d / time.Duration(n))
			}
		})
	}
	wg.Wait()
}

func TestProgressQuietWhenNotATerminal(t *testing.T) {
	var buf bytes.Buffer
	p := startProgress(&buf, "sweep", 80)
	count(p, 8, 10, 0)
	p.stop()
	if buf.Len() != 0 {
		t.Errorf("wrote %q to a buffer", buf.String())
	}

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	p = startProgress(w, "sweep", 80)
	count(p, 8, 10, 0)
	p.stop()
	w.Close()
	if out, _ := io.ReadAll(r); len(out) != 0 {
		t.Errorf("wrote %q to a pipe", out)
	}
}

// onTerminal runs a sweep of workers × n cells that lasts about d with a
// pseudo-terminal as its stderr and returns what reached the terminal.
func onTerminal(t *testing.T, workers, n int, d time.Duration) string {
	t.Helper()
	pty, tty := openPTY(t)
	out := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(pty) // ends with EIO once tty is closed
		out <- b
	}()
	p := startProgress(tty, "sweep", workers*n)
	count(p, workers, n, d)
	p.stop()
	tty.Close()
	return string(<-out)
}

func TestProgressOnTerminal(t *testing.T) {
	if got := onTerminal(t, 8, 10, 0); got != "" {
		t.Errorf("a sweep shorter than a second drew %q", got)
	}

	got := onTerminal(t, 8, 50, 1500*time.Millisecond)
	for _, want := range []string{"\rsweep ", "/400 [", "% ETA "} {
		if !bytes.Contains([]byte(got), []byte(want)) {
			t.Errorf("no %q in what the bar drew: %q", want, got)
		}
	}
	if want := "\r\x1b[K\r"; len(got) < len(want) || got[len(got)-len(want):] != want {
		t.Errorf("the bar does not end on a cleared line: %q", got)
	}
}
