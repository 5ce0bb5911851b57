package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserErrors: each bad input a reader can give gets one sentence
// beside the field it concerns, named as the form names it, and nothing
// in the box above the charts; correcting the field takes the sentence
// away. The page with the degradation's error is compared with its golden
// screenshot.
func TestBrowserErrors(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/server-60.toml")
	defer cancel()
	poll := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(60*time.Second))
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/?experiment=server-60&policy=immediate"),
		poll(`window.stormlab.rows.length > 0`),
		chromedp.Click(`#pause`), poll(`window.stormlab.state.paused`)); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	for _, c := range []struct {
		name   string
		field  string // the field set, and the one the sentence is beside
		value  string
		button string
		says   string
	}{
		{"pause at nothing", "#pause-at-s", "", "#pause-at", "second to pause at: must be a second of the run (a number; 0 clears it), got text"},
		{"seed 1e30", "#seed", "1e30", "#start", "seed: must be a whole number from 0 to 9007199254740991, got 1e+30"},
		{"16 layers", "#layers", "16", "#start", "layers: the chain allows 6^16 ≈ 2.8e+12 attempts per request (6 on each of 16 layers)"},
		{"outage of 0 s", "#outage-len", "0", "#outage-n", "outage length: give more than 0 s and at most the"},
		{"outage of 100,000 s", "#outage-len", "100000", "#outage-n", "outage length: give more than 0 s and at most the"},
		{"degradation to 1e9/s", "#degrade-cap", "1e9", "#degrade", "capacity left: a degradation leaves the server less than its 60 calls/s: give from 0 up to below 60, got 1e+09"},
		{"spike ×1e6", "#spike-factor", "1e6", "#spike", "spike factor: at most ×4600 on this run"},
		{"capacity 0", `#policy-form [data-key="dependency.capacity"]`, "0", "#apply", "capacity (calls/s): give more than 0 calls/s"},
	} {
		set := fmt.Sprintf(`(() => { const f = document.querySelector(%q); f.value = %q; f.dispatchEvent(new Event('input', { bubbles: true })); })()`, c.field, c.value)
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](set), chromedp.Click(c.button),
			poll(`document.querySelectorAll('.field-error').length > 0 || !document.getElementById('problem').hidden`)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`(() => {
			const f = document.querySelector(%q);
			const box = f.closest('label, .group') || f.parentElement;
			const next = box.nextElementSibling;
			return [...document.querySelectorAll('.field-error')].map(e => e.textContent)
				.concat([next && next.classList.contains('field-error') ? 'beside' : 'elsewhere',
					document.getElementById('problem').hidden ? '' : 'box: ' + document.getElementById('problem').textContent]); })()`, c.field)))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || !strings.HasPrefix(got[0], c.says) || got[1] != "beside" || got[2] != "" {
			t.Errorf("%s: the page shows %q; want one sentence beside %s saying %q, nothing in the box", c.name, got, c.field, c.says)
		}
		if c.name == "degradation to 1e9/s" {
			shot, err := chromedp.Run(ctx, chromedp.Screenshot(`#faults`))
			if err != nil {
				t.Fatal(err)
			}
			checkShot(t, "error-beside-field", shot)
		}
		// Corrected, the sentence goes.
		fix := fmt.Sprintf(`(() => { const f = document.querySelector(%q); f.value = '1'; f.dispatchEvent(new Event('input', { bubbles: true })); return document.querySelectorAll('.field-error').length; })()`, c.field)
		if n, err := chromedp.Run(ctx, chromedp.Evaluate[int](fix)); err != nil || n != 0 {
			t.Errorf("%s: %d sentences left after the field was corrected (%v)", c.name, n, err)
		}
	}
}

// TestBrowserMarkers: six interventions within 10 s get numbered badges
// that neither overlap nor leave the plot, with their whole texts in a
// list under the chart; the header's policy follows the run's; the chart
// is compared with its golden screenshot. A reload then comes back to the
// same run, with its rows and its markers.
func TestBrowserMarkers(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/server-60.toml")
	defer cancel()
	poll := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(60*time.Second))
	}
	do := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		if err := chromedp.Do(ctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	runTo := func(at int) {
		t.Helper()
		do(fmt.Sprintf("running to %ds", at),
			chromedp.Click(`button[data-speed="max"]`),
			chromedp.SetValue(`#pause-at-s`, strconv.Itoa(at)), chromedp.Click(`#pause-at`),
			poll(fmt.Sprintf(`window.stormlab.state.paused && window.stormlab.rows.length === %d`, at)))
	}
	markers := func(n int) chromedp.Action[chromedp.Void] {
		return poll(fmt.Sprintf(`window.stormlab.state.markers && window.stormlab.state.markers.length === %d`, n))
	}
	do("opening the page", chromedp.Navigate(url+"/?experiment=server-60&policy=immediate"), poll(`window.stormlab.rows.length > 0`))
	runTo(4)
	do("three at 4 s", chromedp.Click(`#outage-1`), markers(1), chromedp.Click(`#spike`), markers(2),
		chromedp.Click(`button[data-policy="exponential backoff"]`), markers(3))
	policy, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('policy').value`))
	if err != nil || policy != "exponential backoff" {
		t.Errorf("after the switch the header's policy says %q (%v), want exponential backoff", policy, err)
	}
	runTo(5)
	do("two at 5 s", chromedp.Click(`#degrade`), markers(4), chromedp.Click(`button[data-policy="token-bucket budget"]`), markers(5))
	runTo(7)
	do("one at 7 s", chromedp.Click(`#outage-3`), markers(6))
	runTo(10)
	type badge struct{ N, X, Y, R float64 }
	var got struct {
		Plot   struct{ Left, Top, Width, Height float64 }
		Placed []badge
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify({plot: window.stormlab.badges.plot, placed: window.stormlab.badges.placed})`))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Placed) != 6 {
		t.Fatalf("%d badges drawn, want 6: %s", len(got.Placed), raw)
	}
	p := got.Plot
	for i, a := range got.Placed {
		if a.X-a.R < p.Left || a.X+a.R > p.Left+p.Width || a.Y-a.R < p.Top || a.Y+a.R > p.Top+p.Height {
			t.Errorf("badge %v leaves the plot %+v", a, p)
		}
		for _, b := range got.Placed[i+1:] {
			if math.Hypot(a.X-b.X, a.Y-b.Y) < a.R+b.R {
				t.Errorf("badges %v and %v overlap", a, b)
			}
		}
	}
	items, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#markers li')].map(li => li.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 6 || items[2] != "4 s · → exponential backoff" || !strings.HasPrefix(items[1], "4 s · spike ×2 for 10s") {
		t.Errorf("the list under the chart: %q", items)
	}
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(`.charts`))
	if err != nil {
		t.Fatal(err)
	}
	checkShot(t, "markers", shot)

	// Hovering a second shows every series' value there, on each chart
	// (the real stack's are not shown: this run has no lab run).
	values, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
		const out = [];
		for (const u of window.stormlab.charts) {
			u.setCursor({ left: u.valToPos(6, 'x'), top: 10 });
			for (const v of u.root.querySelectorAll('.u-legend .u-series .u-value')) if (v.closest('.u-series').style.display !== 'none') out.push(v.textContent);
		}
		return out; })()`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hovering at 6 s: %q", values)
	if len(values) != 5+2+4 {
		t.Errorf("hovering shows %d values, want 11 (t and every series of the three charts): %q", len(values), values)
	}
	for i, v := range values {
		if v == "--" || v == "" {
			t.Errorf("hovering at 6 s: value %d is %q: %q", i, v, values)
		}
	}

	// Nine-digit ticks: the y axis widens to hold them and, beside them,
	// its label (uPlot draws both on the canvas: measured as it draws).
	fit, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`new Promise(done => {
		const u = window.stormlab.charts[0];
		u.setData([[0, 1, 2], [0, 5e8, 9e8], [0, 1, 2], [0, 1, 2], [0, 1, 2]]);
		requestAnimationFrame(() => requestAnimationFrame(() => {
			const a = u.axes[1];
			const c = document.createElement('canvas').getContext('2d');
			c.font = a.font[0];
			const widest = Math.max(...a._values.map(v => c.measureText(String(v)).width)) / (uPlot.pxRatio || 1);
			done([a._size, widest, a.ticks.size + a.gap, a._values.length]);
		}));
	})`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(fit) != 4 || fit[3] == 0 || fit[0] < fit[1]+fit[2]+16 {
		t.Errorf("the y axis is %v px wide for ticks %v px wide (and %v px of tick marks): no room for its label beside them", fit[0], fit[1], fit[2])
	}

	// A reload comes back to the run.
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.stormlab.run`))
	if err != nil {
		t.Fatal(err)
	}
	do("reloading", chromedp.Reload(), poll(`window.stormlab && window.stormlab.state && window.stormlab.rows.length >= 10`))
	again, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.stormlab.run + ' ' + window.stormlab.state.markers.length + ' ' + window.stormlab.rows.length`))
	if err != nil || again != id+" 6 10" {
		t.Errorf("after a reload the page shows run, markers, rows %q (%v); want %s 6 10", again, err, id)
	}
}

// TestBrowserBurstLoad: chain-breaker's requests come in one burst of ten
// clients; the form does not show a load the run does not have.
func TestBrowserBurstLoad(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/chain-breaker.toml")
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/?experiment=chain-breaker"),
		chromedp.Poll[chromedp.Void](`window.stormlab.state && window.stormlab.rows.length > 0`, chromedp.WithPollingTimeout(60*time.Second))); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => { const f = document.querySelector('#policy-form [data-key="load"]'); return [f.value, f.placeholder, String(f.disabled)]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "|") != "|one burst of 10|true" {
		t.Errorf("chain-breaker's load field: value, placeholder, disabled = %q; want it empty, saying one burst of 10, disabled", got)
	}
}
