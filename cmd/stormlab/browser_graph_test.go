package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserGraph opens a service graph in the explorer as a reader
// does: the fan-out experiment's gateway calling two backends, b1 and b2,
// in parallel. The page draws the graph (the users, a box per service, an
// arrow per call), hides the chain's depth, keeps the policy controls (a
// graph's are per edge: TestBrowserGraphPolicy), and offers the backends
// as a fault's target. It streams; an 8 s outage on b2 at
// 10 s outlines b2's box as hit and turns it unhealthy, and the gateway's
// with it (it needs both answers), while b1 stays healthy; the rows say the same, and each box's
// numbers are the last row's.
func TestBrowserGraph(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/fan-out.toml", "../../experiments/server-60.toml")
	defer cancel()
	console := chromedp.Console(ctx)
	eval, runTo := evaluator(t, ctx), runner(t, ctx)
	status := func() map[string]string {
		t.Helper()
		var out map[string]string
		raw := eval(`JSON.stringify(Object.fromEntries([...document.querySelectorAll('#graph-svg .svc')].map(g => [g.dataset.service, g.dataset.status])))`)
		if err := json.Unmarshal([]byte(raw), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}

	doing(t, ctx, "opening the fan-out", chromedp.Navigate(url+"/?experiment=fan-out"), pollFor(`window.stormlab.rows.length >= 1`),
		pollFor(`document.querySelectorAll('#graph-svg .svc').length === 3`))
	if got := eval(`[...document.querySelectorAll('#graph-svg .svc')].map(g => g.dataset.service + (g.classList.contains('server') ? '*' : '')).join(' ')`); got != "gateway b1* b2*" {
		t.Errorf("the boxes drawn: %q, want gateway and the backends b1, b2 with their servers", got)
	}
	if got := eval(`[...document.querySelectorAll('#graph-svg .edge')].map(e => e.dataset.edge).join(' ')`); got != "→gateway gateway→b1 gateway→b2" {
		t.Errorf("the arrows drawn: %q", got)
	}
	if got := eval(`document.querySelector('#graph-svg .users') ? 'users' : ''`); got != "users" {
		t.Error("no users' entry point drawn")
	}
	hidden := eval(`['layers-label', 'presets', 'policy-form', 'fault-target', 'graph-note'].map(id => id + ':' + (document.getElementById(id).offsetParent === null)).join(' ')`)
	if hidden != "layers-label:true presets:false policy-form:false fault-target:false graph-note:false" {
		t.Errorf("what the page shows for a graph (true: hidden): %s", hidden)
	}
	if got := eval(`[...document.getElementById('fault-service').options].map(o => o.value).join(' ')`); got != "b1 b2" {
		t.Errorf("a fault may hit %q, want the services with a server, b1 b2", got)
	}

	const at, end = 10, 14
	runTo(at)
	if s := status(); s["gateway"] != "healthy" || s["b1"] != "healthy" || s["b2"] != "healthy" {
		t.Errorf("before any fault the drawing says %v", s)
	}
	before, err := chromedp.Run(ctx, chromedp.Screenshot(`#graph`))
	if err != nil {
		t.Fatal(err)
	}
	doing(t, ctx, "an outage on b2", chromedp.SetValue(`#fault-service`, "b2"), chromedp.SetValue(`#outage-len`, "8"), chromedp.Click(`#outage-n`),
		pollFor(`window.stormlab.state.markers && window.stormlab.state.markers.length === 1`))
	if got := eval(`window.stormlab.state.markers[0].label + ' at ' + window.stormlab.state.markers[0].t`); got != "outage 8s on b2 at 10" {
		t.Errorf("the marker says %q", got)
	}
	runTo(end)
	if s := status(); s["gateway"] != "unhealthy" || s["b1"] != "healthy" || s["b2"] != "unhealthy" {
		t.Errorf("during b2's outage the drawing says %v, want b2 and the gateway unhealthy, b1 healthy", s)
	}
	if got := eval(`[...document.querySelectorAll('#graph-svg .svc.faulted')].map(g => g.dataset.service).join(' ')`); got != "b2" {
		t.Errorf("the boxes outlined as hit by a fault: %q, want b2", got)
	}
	var rows []struct {
		Services []struct {
			Calls, Failed float64
			Healthy       bool
		} `json:"services"`
	}
	if err := json.Unmarshal([]byte(eval(`JSON.stringify(window.stormlab.rows)`)), &rows); err != nil {
		t.Fatal(err)
	}
	last := rows[end-1].Services
	if len(last) != 3 || last[2].Healthy || last[2].Failed == 0 || !last[1].Healthy {
		t.Errorf("the last row's services: %+v", last)
	}
	if got, want := eval(`document.querySelector('#graph-svg .svc[data-service="b2"] .n1').textContent`),
		fmt.Sprintf("%.0f calls/s · %.0f failed/s", last[2].Calls, last[2].Failed); got != want {
		t.Errorf("b2's box says %q, want %q (the last row's numbers, per second)", got, want)
	}
	after, err := chromedp.Run(ctx, chromedp.Screenshot(`#graph`))
	if err != nil {
		t.Fatal(err)
	}
	checkShot(t, "graph-before", before)
	checkShot(t, "graph-outage", after)

	// The export names the service its fault hits, and stormlab run on it
	// writes the page's series.csv, each service's columns included.
	toml, pageCSV := saved(t, ctx, "x-toml"), saved(t, ctx, "x-csv")
	if !bytes.Contains(toml, []byte(`service = "b2"`)) {
		t.Errorf("the export does not name b2:\n%s", toml)
	}
	series, err := os.ReadFile(filepath.Join(runExport(t, "fan-out-live", toml), "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(series, pageCSV) || !bytes.Contains(series, []byte("b2.failed")) {
		t.Errorf("the page's CSV differs from stormlab run's series.csv (or has no b2.failed column):\n%.400s\nwant\n%.400s", pageCSV, series)
	}
	cancel()
	consoleClean(t, console)
}

// TestBrowserGraphPolicy changes an edge's policy in a graph's live run as
// a reader does: in the shared database (orders and accounts, both
// calling the database once, nobody retrying), the form offers the edges
// by caller → callee and the database's server. A 3 s outage of the
// database at 4 s makes no retry. At 10 s the reader picks orders → db,
// whose attempts the form shows as 1, sets 3 and applies: the marker says
// graph.edge.2.attempts = 3 and the drawing writes ×3 on that arrow. At
// 11 s a 10% ratio budget per callee (the form's kind, its ratio and
// scope) is applied,
// at 12 s the database's server starts dropping expired work (the form's
// drop expired work on the server of db), and in a second 3 s outage the
// database's tries outnumber the calls made to it. The export writes the
// changes, and stormlab run on it
// writes the page's series.csv.
func TestBrowserGraphPolicy(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/shared-database.toml")
	defer cancel()
	console := chromedp.Console(ctx)
	eval, runTo := evaluator(t, ctx), runner(t, ctx)
	outage := func(n int) {
		t.Helper()
		doing(t, ctx, "an outage on db", chromedp.SetValue(`#fault-service`, "db"), chromedp.SetValue(`#outage-len`, "3"), chromedp.Click(`#outage-n`),
			pollFor(fmt.Sprintf(`window.stormlab.state.markers && window.stormlab.state.markers.length === %d`, n)))
	}
	doing(t, ctx, "opening the shared database", chromedp.Navigate(url+"/?experiment=shared-database"), pollFor(`window.stormlab.rows.length >= 1`),
		pollFor(`document.querySelectorAll('#graph-svg .svc').length === 3`))
	if got := eval(`document.getElementById('f-layer-name').textContent + ': ' + [...document.getElementById('f-layer').options].map(o => o.text).join(', ')`); got != "edge: every edge, users → orders, users → accounts, orders → db, accounts → db" {
		t.Errorf("the form's calls: %q", got)
	}
	if got := eval(`[...document.getElementById('f-service').options].map(o => o.text).join(' ')`); got != "db" {
		t.Errorf("the form's servers: %q, want db", got)
	}
	runTo(4)
	outage(1)
	const at, end = 10, 16
	runTo(at)
	doing(t, ctx, "picking orders → db",
		chromedp.SetValue(`#f-layer`, "2"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('f-layer').dispatchEvent(new Event('change'))`))
	if got := eval(`document.querySelector('#policy-form [data-layer][data-key="attempts"]').value`); got != "1" {
		t.Errorf("orders → db's attempts in the form: %q, want 1", got)
	}
	doing(t, ctx, "3 attempts on orders → db",
		chromedp.SetValue(`#policy-form [data-layer][data-key="attempts"]`, "3"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#policy-form [data-layer][data-key="attempts"]').dispatchEvent(new Event('input', { bubbles: true }))`),
		chromedp.Click(`#apply`),
		pollFor(`window.stormlab.state.markers.length === 2`))
	if got := eval(`window.stormlab.state.markers[1].label + ' at ' + window.stormlab.state.markers[1].t`); got != "graph.edge.2.attempts = 3 at 10" {
		t.Errorf("the change's marker says %q", got)
	}
	if got := eval(`[...document.querySelectorAll('#graph-svg .attempts')].map(e => e.textContent).join(' ')`); got != "×3" {
		t.Errorf("the drawing's attempts: %q, want ×3 on orders → db", got)
	}
	runTo(at + 1)
	doing(t, ctx, "a ratio budget per callee",
		chromedp.SetValue(`#policy-form select[data-family="budget.kind"]`, "ratio"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#policy-form select[data-family="budget.kind"]').dispatchEvent(new Event('input', { bubbles: true }))`),
		chromedp.SetValue(`#policy-form [data-key="budget.ratio"]`, "0.1"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#policy-form [data-key="budget.ratio"]').dispatchEvent(new Event('input', { bubbles: true }))`),
		chromedp.SetValue(`#policy-form [data-key="budget.scope"]`, "callee"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#policy-form [data-key="budget.scope"]').dispatchEvent(new Event('input', { bubbles: true }))`),
		chromedp.Click(`#apply`),
		pollFor(`window.stormlab.state.markers.length === 3`))
	if got := eval(`window.stormlab.state.markers[2].label + ' · in force: ' + window.stormlab.state.now['budget.kind'] + ' per ' + window.stormlab.state.now['budget.scope']`); !strings.Contains(got, "budget.kind = ratio") || !strings.Contains(got, "budget.scope = callee") || !strings.HasSuffix(got, "in force: ratio per callee") {
		t.Errorf("the budget's marker and the keys in force: %q", got)
	}
	runTo(at + 2)
	drop := `#policy-form [data-server][data-key="drop_expired"]`
	if got := eval(`(() => { const f = document.querySelector('` + drop + `'); return f.type + ' ' + f.checked + ' ' + f.closest('label').hidden })()`); got != "checkbox false false" {
		t.Errorf("the database's drop expired work: %q, want a checkbox shown, unticked", got)
	}
	doing(t, ctx, "the database dropping expired work",
		chromedp.Click(drop),
		chromedp.Click(`#apply`),
		pollFor(`window.stormlab.state.markers.length === 4`))
	if got := eval(`window.stormlab.state.markers[3].label + ' at ' + window.stormlab.state.markers[3].t`); got != "graph.service.2.server.drop_expired = true at 12" {
		t.Errorf("the drop_expired change's marker says %q", got)
	}
	outage(5)
	runTo(end)
	var rows []struct {
		T        float64                          `json:"t"`
		Services []struct{ Calls, Tries float64 } `json:"services"`
	}
	if err := json.Unmarshal([]byte(eval(`JSON.stringify(window.stormlab.rows)`)), &rows); err != nil {
		t.Fatal(err)
	}
	retried := false
	for _, r := range rows {
		db := r.Services[2]
		if r.T < at && db.Tries > db.Calls {
			t.Errorf("the database's tries outnumber its calls at %gs, before the change: %+v", r.T, db)
		}
		retried = retried || r.T >= at && db.Tries > db.Calls
	}
	if !retried {
		t.Error("no retry into the database after orders' attempts went to 3")
	}
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(`#policy-panel`))
	if err != nil {
		t.Fatal(err)
	}
	drawn, err := chromedp.Run(ctx, chromedp.Screenshot(`#graph`))
	if err != nil {
		t.Fatal(err)
	}
	checkShot(t, "graph-policy-form", shot)
	checkShot(t, "graph-policy-drawn", drawn)

	toml, pageCSV := saved(t, ctx, "x-toml"), saved(t, ctx, "x-csv")
	if !bytes.Contains(toml, []byte("[[scenario.change]]")) || !bytes.Contains(toml, []byte(`"graph.edge.2.attempts" = 3`)) || !bytes.Contains(toml, []byte(`"graph.service.2.server.drop_expired" = true`)) {
		t.Errorf("the export does not write the change:\n%s", toml)
	}
	series, err := os.ReadFile(filepath.Join(runExport(t, "shared-database-live", toml), "series.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(series, pageCSV) {
		t.Errorf("the page's CSV differs from stormlab run's series.csv:\n%.400s\nwant\n%.400s", pageCSV, series)
	}
	cancel()
	consoleClean(t, console)
}

// evaluator evaluates a page's expression to a string, failing t when it
// cannot.
func evaluator(t *testing.T, ctx context.Context) func(expr string) string {
	return func(expr string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return s
	}
}

// runner runs the page's live run at full speed until it pauses at
// second at, with that many rows.
func runner(t *testing.T, ctx context.Context) func(at int) {
	return func(at int) {
		t.Helper()
		doing(t, ctx, fmt.Sprintf("running to %ds", at),
			chromedp.Click(`button[data-speed="max"]`),
			chromedp.SetValue(`#pause-at-s`, fmt.Sprint(at)), chromedp.Click(`#pause-at`),
			pollFor(fmt.Sprintf(`window.stormlab.state.paused && window.stormlab.rows.length === %d`, at)))
	}
}
