package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stormlab/stormlab/experiments"
)

// TestBrowserLab presses "run this on the real stack" on the FIG. 1
// server with immediate retries and a 3 s outage, the page at 10× and the
// lab at the experiment's [lab] speed: the lab's series (counted in real
// gRPC servers on loopback) is drawn over the model's as it comes, and at
// its end the page gives the lab's verdict beside the model's, or says in
// words that the machine could not keep up. The picture is left in the
// temporary directory for a reader to look at (it varies with the
// machine's timing).
func TestBrowserLab(t *testing.T) {
	e, err := experiments.Load("../../experiments/server-60.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel, url := explorer(t, "../../experiments/server-60.toml")
	defer cancel()
	poll := func(expr string, d time.Duration) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(d))
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/?experiment=server-60&policy=immediate"),
		poll(`window.stormlab.state && window.stormlab.rows.length > 0`, 60*time.Second),
		chromedp.Click(`button[data-speed="10"]`),
		poll(`window.stormlab.rows.length >= 3`, 30*time.Second),
		chromedp.Click(`#outage-3`),
		poll(`window.stormlab.state.markers && window.stormlab.state.markers.length === 1`, 30*time.Second),
		chromedp.Click(`#lab-go`),
		// The lab's offered load and goodput are the traffic chart's
		// series 5 and 6, its queue the queue chart's series 4.
		poll(`window.stormlab.lab && window.stormlab.lab.rows.length >= 25 && window.stormlab.charts[0].data[5].filter((v) => v !== null).length >= 25`, 90*time.Second),
	); err != nil {
		t.Fatal(err)
	}
	drawn, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const c = window.stormlab.charts; const n = (a) => a.filter((v) => v !== null).length;
		return [n(c[0].data[5]), n(c[0].data[6]), n(c[2].data[4]), Math.max(...c[0].data[5].filter((v) => v !== null))]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if drawn[0] < 25 || drawn[1] < 25 || drawn[2] < 25 || !(drawn[3] > 0) {
		t.Errorf("the lab's series drawn: offered %v points, goodput %v, queue %v; largest offered load %v/s", drawn[0], drawn[1], drawn[2], drawn[3])
	}
	status, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('lab-status').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("running on gRPC on loopback at %v×", e.Lab.Speed); !strings.Contains(status, want) {
		t.Errorf("the lab's status while it runs: %q, want it to say %q", status, want)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(os.TempDir(), "stormlab-browser-lab.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("the page with the lab's series: %s", path)

	if err := chromedp.Do(ctx, poll(`window.stormlab.lab.stage !== 'running'`, 90*time.Second)); err != nil {
		t.Fatal(err)
	}
	end, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[window.stormlab.lab.stage, document.getElementById('lab-status').textContent]`))
	if err != nil {
		t.Fatal(err)
	}
	switch end[0] {
	case "done":
		if !strings.Contains(end[1], "the real stack's verdict") || !strings.Contains(end[1], "the model's on the same file") {
			t.Errorf("the lab's end: %q", end[1])
		}
	case "distorted":
		if !strings.Contains(end[1], "could not keep up") {
			t.Errorf("a lab run the machine could not keep up with: %q", end[1])
		}
	default:
		t.Errorf("the lab ended %s: %q", end[0], end[1])
	}
	t.Logf("the lab's end: %s: %s", end[0], end[1])
}
