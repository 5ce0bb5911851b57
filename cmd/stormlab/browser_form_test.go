package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// TestBrowserPolicyForm checks the explorer's policy form against the
// model's registries, as a reader meets it: each family the form offers
// lists every registered kind, the kinds the run's engine does not model
// greyed out; picking a kind shows exactly its keys, filled with its
// defaults; and a kind picked and applied is the run's policy. On the
// 30-second blip (the queue engine), so that the engines matter.
func TestBrowserPolicyForm(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/blip-30s.toml")
	defer cancel()
	poll := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(60*time.Second))
	}
	eval := func(expr string) []string {
		t.Helper()
		out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](expr))
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return out
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/?experiment=blip-30s"),
		poll(`window.stormlab.state && window.stormlab.state.engine === 'queue' && window.stormlab.rows.length > 0`)); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	offered := eval(`[...document.querySelectorAll('#policy-form [data-family]')].filter(e => e.tagName !== 'SELECT').map(e => e.dataset.family)`)
	if len(offered) == 0 {
		t.Fatal("the form offers no family of kinds")
	}
	for _, key := range offered {
		fam, ok := model.FamilyOf(key)
		if !ok {
			t.Errorf("the form offers %s, which picks no registered kind", key)
			continue
		}
		sel := fmt.Sprintf(`#policy-form select[data-family=%q]`, key)
		if got := eval(fmt.Sprintf(`[...document.querySelector(%q).options].map(o => o.value)`, sel)); !slices.Equal(got, fam.Values()) {
			t.Errorf("%s: the form lists %v, the registry %v", key, got, fam.Values())
		}
		var lacking []string
		for _, k := range fam.Kinds {
			if !k.Engines.Has("queue") {
				lacking = append(lacking, k.Name)
			}
		}
		if got := eval(fmt.Sprintf(`[...document.querySelector(%q).options].filter(o => o.disabled).map(o => o.value)`, sel)); !slices.Equal(got, lacking) {
			t.Errorf("%s: on the queue engine the form greys out %v, want %v (the kinds it does not model)", key, got, lacking)
		}
		// Each kind in turn, picked after the first (none): its keys
		// shown, each at the kind's default,
		// or empty and required where the default is outside the kind's
		// range (a backoff's base of 0s).
		table := strings.TrimPrefix(sweep.Table(fam), "layer.N.")
		inForce := eval(fmt.Sprintf(`[document.querySelector(%q).value]`, sel))[0]
		for _, k := range sweep.KindsOf(fam) {
			if !k.Engines.Has("queue") {
				continue
			}
			shown := eval(fmt.Sprintf(`(() => { const s = document.querySelector(%q);
				for (const v of [%q, %q]) { s.value = v; s.dispatchEvent(new Event('input', { bubbles: true })); }
				return [...document.querySelectorAll('[data-family-of=%q]')].filter(l => !l.hidden)
					.map(l => l.querySelector('[data-key]')).map(f => [f.dataset.key, f.type === 'checkbox' ? String(f.checked) : f.value, String(f.required)].join(' ')); })()`,
				sel, fam.Kinds[0].Name, k.Name, key))
			var want []string
			for _, key := range k.Keys {
				p := key.Path
				if table != "" {
					p = table + "." + p
				}
				v, err := strconv.Unquote(key.Value)
				if err != nil {
					v = key.Value
				}
				required := "false"
				if outside(key) {
					v, required = "", "true"
				}
				want = append(want, p+" "+v+" "+required)
			}
			if !slices.Equal(shown, want) && len(shown)+len(want) > 0 {
				t.Errorf("%s = %s: the form shows %q, want %q", key, k.Name, shown, want)
			}
		}
		eval(fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q;
			s.dispatchEvent(new Event('input', { bubbles: true })); return []; })()`, sel, inForce))
	}

	// A budget picked and applied is the run's.
	if err := chromedp.Do(ctx,
		chromedp.SetValue(`#policy-form select[data-family="budget.kind"]`, "none"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#policy-form select[data-family="budget.kind"]').dispatchEvent(new Event('input', { bubbles: true }))`),
		chromedp.SetValue(`#policy-form select[data-family="budget.kind"]`, "token_bucket"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#policy-form select[data-family="budget.kind"]').dispatchEvent(new Event('input', { bubbles: true }))`),
		chromedp.Click(`#apply`),
		poll(`window.stormlab.state.now['budget.kind'] === 'token_bucket' && window.stormlab.state.now['budget.max_tokens'] === 10`)); err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('problem').textContent + ' | ' + document.getElementById('policy-note').textContent + ' | ' + JSON.stringify(window.stormlab.state.now)`))
		t.Fatalf("applying the token bucket picked in the form: %v\n%s", err, msg)
	}
}

// outside reports whether a key's default is outside the range its kind
// declares for it.
func outside(k sweep.Key) bool {
	x, err := strconv.ParseFloat(k.Value, 64)
	if d, derr := time.ParseDuration(k.Value); derr == nil {
		x, err = d.Seconds(), nil
	}
	if err != nil {
		return false
	}
	for _, r := range k.Ranges {
		if x < r.Min || x > r.Max {
			return true
		}
	}
	return false
}

// TestBrowserEveryLayer: a change made on "every layer" is exactly the
// key edited. In slow-dependency (timeouts of 1 s, 2 s and 5 s down the
// chain), attempts set to 1 on every layer leaves each layer's timeout as
// it was.
func TestBrowserEveryLayer(t *testing.T) {
	ctx, cancel, url := explorer(t, "../../experiments/slow-dependency.toml")
	defer cancel()
	poll := func(expr string) chromedp.Action[chromedp.Void] {
		return chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(60*time.Second))
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url+"/?experiment=slow-dependency&policy=per-hop%20timeouts"),
		poll(`window.stormlab.state && window.stormlab.rows.length > 0`)); err != nil {
		t.Fatalf("opening the page: %v", err)
	}
	timeouts := func() string {
		out, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[0, 1, 2].map(i => window.stormlab.state.now['layer.' + i + '.timeout']).join(' ')`))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	before := timeouts()
	if before != "1s 2s 5s" {
		t.Fatalf("the layers' timeouts are %q, want 1s 2s 5s", before)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetValue(`#f-layer`, "*"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('f-layer').dispatchEvent(new Event('change'))`),
		chromedp.SetValue(`#policy-form [data-key="attempts"]`, "1"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#policy-form [data-key="attempts"]').dispatchEvent(new Event('input', { bubbles: true }))`),
		chromedp.Click(`#apply`),
		poll(`window.stormlab.state.markers && window.stormlab.state.markers.length === 1`)); err != nil {
		t.Fatalf("applying attempts = 1 on every layer: %v", err)
	}
	label, err := chromedp.Run(ctx, chromedp.Evaluate[string](`window.stormlab.state.markers[0].label`))
	if err != nil {
		t.Fatal(err)
	}
	if label != "layer.*.attempts = 1" {
		t.Errorf("the change is %q, want only layer.*.attempts = 1", label)
	}
	if after := timeouts(); after != before {
		t.Errorf("after attempts = 1 on every layer the timeouts are %q, were %q", after, before)
	}
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(`#policy-panel`))
	if err != nil {
		t.Fatal(err)
	}
	checkShot(t, "every-layer", shot)
}
