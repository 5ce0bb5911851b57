package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"iter"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stormlab/stormlab/cmd/stormlab/serve"
)

// screenshot is the picture of the explorer the README shows; the browser
// test rewrites it with -update.
const screenshot = "serve/testdata/explorer.png"

// chromium finds a Chromium to drive. Without one the browser test is
// skipped with one line, or fails when STORMLAB_BROWSER=required (as CI
// sets it, having installed Debian's chromium).
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const msg = "no chromium on PATH: the browser test of stormlab serve did not run (apt-get install -y chromium runs it)"
	if os.Getenv("STORMLAB_BROWSER") == "required" {
		t.Fatal(msg + "; STORMLAB_BROWSER=required")
	}
	t.Skip(msg)
	return ""
}

// explorer serves files as stormlab serve does and opens a tab of headless
// Chromium for it: the tab's context (four minutes at most), its cancel,
// and the server's address. Both end with the test.
func explorer(t *testing.T, files ...string) (context.Context, context.CancelFunc, string) {
	t.Helper()
	chrome := chromium(t)
	srv, err := serve.New(serve.Options{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1360, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	bctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	ctx, cancel := context.WithTimeout(bctx, 4*time.Minute)
	return ctx, cancel, hs.URL
}

// pageRow is a row of the series as the page holds it.
type pageRow struct {
	T         float64 `json:"t"`
	Requests  float64 `json:"requests"`
	Calls     float64 `json:"calls"`
	Retries   float64 `json:"retries"`
	Successes float64 `json:"successes"`
	Queue     float64 `json:"queue"`
	InFlight  float64 `json:"in_flight"`
	Capacity  float64 `json:"capacity"`
	Status    string  `json:"status"`
}

// TestBrowser drives the live explorer in headless Chromium as the FIG. 1
// article's reader drives its simulation: the server at 60/s with 40/s of
// demand and immediate retries recovers from a 1 s outage, stays
// metastable after a 3 s outage once capacity is back, and comes back
// within a few simulated seconds of a switch to the token-bucket budget.
// The page's TOML export then runs through stormlab run and gives the
// series the page showed, and the page's CSV and PNG are stormlab run's
// series.csv and figure, byte for byte.
func TestBrowser(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/server-60.toml")
	defer cancel()
	console := chromedp.Console(ctx)

	poll := pollFor
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		doing(t, ctx, what, steps...)
	}
	rows := func() []pageRow {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.stormlab.rows)`))
		if err != nil {
			t.Fatal(err)
		}
		var out []pageRow
		if err := json.Unmarshal([]byte(raw), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// marker is the second of the page's n-th marker.
	marker := func(n int) int {
		t.Helper()
		do("a marker", poll(fmt.Sprintf(`window.stormlab.state.markers && window.stormlab.state.markers.length >= %d`, n)))
		at, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`window.stormlab.state.markers[%d].t`, n-1)))
		if err != nil {
			t.Fatal(err)
		}
		return int(at)
	}
	statusShown := func() string {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('r-status').textContent`))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	expect := func(rs []pageRow, from, to int, want string, why string) {
		t.Helper()
		for _, r := range rs[from:to] {
			if r.Status != want {
				t.Errorf("at %gs (%s) the page says %s, want %s", r.T, why, r.Status, want)
			}
		}
	}
	rowsAtLeast := func(n int) chromedp.Action[chromedp.Void] {
		return poll(fmt.Sprintf(`window.stormlab.rows.length >= %d`, n))
	}

	// runTo streams at full speed (or at speed) until the run pauses at
	// second at, with every row on the page.
	runTo := func(at int, speed string) {
		t.Helper()
		do(fmt.Sprintf("running to %ds", at),
			chromedp.Click(fmt.Sprintf(`button[data-speed=%q]`, speed)),
			chromedp.SetValue(`#pause-at-s`, strconv.Itoa(at)), chromedp.Click(`#pause-at`),
			poll(fmt.Sprintf(`window.stormlab.state.paused && window.stormlab.rows.length === %d`, at)))
	}
	const t1, t3, tb, end = 10, 25, 43, 60
	do("opening the page", chromedp.Navigate(url+"/?experiment=server-60&policy=immediate"), rowsAtLeast(1))
	runTo(t1, "max")

	// A 1 s outage: overloaded while it lasts, healthy again soon after.
	do("outage 1 s", chromedp.Click(`#outage-1`))
	if at := marker(1); at != t1 {
		t.Fatalf("the outage is marked at %ds, want %ds", at, t1)
	}
	runTo(t3, "max")
	rs := rows()
	expect(rs, t1, t1+1, "overloaded", "during the 1 s outage")
	expect(rs, t1+5, t3, "healthy", "after the 1 s outage")

	// A 3 s outage under immediate retries: metastable after capacity
	// returns.
	do("outage 3 s", chromedp.Click(`#outage-3`))
	if at := marker(2); at != t3 {
		t.Fatalf("the outage is marked at %ds, want %ds", at, t3)
	}
	runTo(tb, "10")
	rs = rows()
	expect(rs, t3, t3+3, "overloaded", "during the 3 s outage")
	expect(rs, t3+5, tb, "metastable", "after capacity returned from the 3 s outage")
	if s := statusShown(); s != "metastable" {
		t.Errorf("the readout says %s, want metastable", s)
	}

	// The phase diagram around this point.
	do("around this point", chromedp.Click(`#around-go`), poll(`window.stormlab.around !== null`))
	sentence, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('around-sentence').textContent`))
	if err != nil || !strings.HasPrefix(sentence, "At 40 requests/s an outage longer than") {
		t.Errorf("around this point: %q %v", sentence, err)
	}

	// The token-bucket budget, switched on while it is stuck: healthy
	// within a few simulated seconds, and from then on.
	do("switch to the budget", chromedp.Click(`button[data-policy="token-bucket budget"]`))
	if at := marker(3); at != tb {
		t.Fatalf("the switch is marked at %ds, want %ds", at, tb)
	}
	runTo(end, "10")
	rs = rows()
	first := tb
	for first < len(rs) && rs[first].Status != "healthy" {
		first++
	}
	if first > tb+5 {
		t.Errorf("healthy again %ds after the switch to the budget, want at most 5", first-tb)
	}
	expect(rs, first, end, "healthy", "after the switch to the budget")

	// The page as it stands, and its exports.
	if s := statusShown(); s != "healthy" {
		t.Errorf("the readout says %s, want healthy", s)
	}
	charts, err := chromedp.Run(ctx, chromedp.Screenshot(`.charts`))
	if err != nil {
		t.Fatal(err)
	}
	checkShot(t, "fig1-charts", charts)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(screenshot, shot, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	toml, pageCSV, pagePNG := saved(t, ctx, "x-toml"), saved(t, ctx, "x-csv"), saved(t, ctx, "x-png")
	shown := rows()
	cancel()
	consoleClean(t, console)

	// stormlab run on the exported file: the same series.
	out := runExport(t, "server-60-live", toml)
	series, err := os.ReadFile(filepath.Join(out, "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(series, pageCSV) {
		t.Errorf("the page's CSV differs from stormlab run's series.csv")
	}
	figure, err := os.ReadFile(filepath.Join(out, "live.png"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(figure, pagePNG) {
		t.Errorf("the page's PNG differs from stormlab run's figure")
	}
	recs, err := csv.NewReader(bytes.NewReader(series)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs)-1 != len(shown) {
		t.Fatalf("stormlab run's series has %d rows, the page showed %d", len(recs)-1, len(shown))
	}
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	for i, r := range shown {
		rec := recs[i+1]
		for name, v := range map[string]float64{"t_s": r.T, "requests": r.Requests, "calls": r.Calls, "retries": r.Retries,
			"successes": r.Successes, "queue": r.Queue, "in_flight": r.InFlight, "capacity_per_s": r.Capacity} {
			got, err := strconv.ParseFloat(rec[col[name]], 64)
			if err != nil || got != v {
				t.Fatalf("row %d, %s: stormlab run %s, the page %v", i, name, rec[col[name]], v)
			}
		}
	}
	t.Logf("%d seconds streamed; outages at %ds and %ds, the budget at %ds, healthy at %ds; %s", len(shown), t1, t3, tb, first, sentence)
}

// saved is what the page's link (its id) downloads, as its reader saves it.
func saved(t *testing.T, ctx context.Context, link string) []byte {
	t.Helper()
	b64, err := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch(document.getElementById(%q).href)
		.then(r => { if (!r.ok) throw new Error(r.status); return r.arrayBuffer(); })
		.then(b => { let s = ''; for (const x of new Uint8Array(b)) s += String.fromCharCode(x); return btoa(s); })`, link), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fetching %s: %v", link, err)
	}
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// runExport runs stormlab run on toml, a page's export saved as name.toml,
// and returns the folder of its results.
func runExport(t *testing.T, name string, toml []byte) string {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, name+".toml")
	if err := os.WriteFile(file, toml, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"run", "-out", filepath.Join(dir, "out"), file}); err != nil {
		t.Fatalf("stormlab run on the export: %v\n%s\n%s", err, stderr.String(), toml)
	}
	return filepath.Join(dir, "out", name)
}

// pollFor waits until the page's expr holds, 90 s at most.
func pollFor(expr string) chromedp.Action[chromedp.Void] {
	return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(90*time.Second))
}

// doing runs steps in the tab, failing the test with what it was doing.
func doing(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// consoleClean fails the test on each exception or error the page's
// console logged; the tab must be closed first (its log then ends).
func consoleClean(t *testing.T, console iter.Seq2[chromedp.ConsoleMessage, error]) {
	t.Helper()
	for m, err := range console {
		if err != nil {
			break
		}
		if m.IsException() || m.Type == "error" {
			t.Errorf("the page's console: %s", m)
		}
	}
}
