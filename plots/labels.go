package plots

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// This file names axes, values and metrics in words, with their units, for
// axis labels, legends, titles and captions.

// axisLabel names an axis with its unit: "load (requests/s)", "blip length (s)".
func (t *Table) axisLabel(name string) string {
	label, unit := t.axisUnit(name)
	if unit != "" {
		label += " (" + unit + ")"
	}
	return label
}

// placedLabel is axisLabel for an axis placed as p. An axis placed by
// index says it is not to scale, and drops the unit when its ticks write
// durations with theirs: "backoff base (not to scale)", "capacity
// (calls/s, not to scale)".
func (t *Table) placedLabel(name string, p placement) string {
	if !p.index {
		return t.axisLabel(name)
	}
	label, unit := t.axisUnit(name)
	if ax, ok := t.axis(name); ok && !slices.ContainsFunc(ax.Values, func(v Value) bool { return !isDuration(v) }) {
		unit = ""
	}
	if unit != "" {
		return label + " (" + unit + ", not to scale)"
	}
	return label + " (not to scale)"
}

// axisUnit is an axis's name in words and its unit ("" if none).
func (t *Table) axisUnit(name string) (label, unit string) {
	ax, ok := t.axis(name)
	if !ok || name == "policy" {
		return name, ""
	}
	return axisName(name), ax.Unit
}

// axisName names an axis in words: "blip length", "capacity".
func axisName(name string) string {
	switch name {
	case "blip":
		return "blip length"
	case "budget":
		return "retry budget ratio"
	case "attempts":
		return "attempts per call"
	}
	return pathLabel(name)
}

// pathLabel names a scenario key for an axis: "dependency.capacity" is
// "capacity", "fault.0.length" is "fault length", "dependency.queue_limit"
// is "queue limit".
func pathLabel(path string) string {
	segs := strings.Split(path, ".")
	if segs[0] == "dependency" && len(segs) > 1 {
		segs = segs[1:]
	}
	if where := graphPart(segs); where != "" {
		return pathLabel(strings.Join(segs[len(segs)-1:], ".")) + " (" + where + ")"
	}
	var words []string
	for _, s := range segs {
		if _, err := strconv.Atoi(s); err == nil || s == "*" {
			continue
		}
		words = append(words, strings.ReplaceAll(s, "_", " "))
	}
	return strings.Join(words, " ")
}

// graphPart names the part of a service graph a key's segments belong
// to, for pathLabel: "every service's server" for
// graph.service.*.server.capacity, "service 2" for
// graph.service.2.quorum, "every edge" for graph.edge.*.attempts; "" for
// a key outside a graph, or the graph's own table of a kind
// (graph.edge.0.budget.ratio names its budget instead).
func graphPart(segs []string) string {
	if len(segs) < 4 || segs[0] != "graph" || (segs[1] != "service" && segs[1] != "edge") {
		return ""
	}
	which := segs[1] + " " + segs[2]
	if segs[2] == "*" {
		which = "every " + segs[1]
	}
	switch {
	case len(segs) == 4:
		return which
	case len(segs) == 5 && segs[1] == "service" && segs[3] == "server":
		if segs[2] == "*" {
			return "every service's server"
		}
		return "the server of " + which
	}
	return ""
}

// isDuration reports whether an axis value is a duration: a number written
// with a unit ("30s", "1m").
func isDuration(v Value) bool {
	if !v.IsNum {
		return false
	}
	_, err := strconv.ParseFloat(v.Text, 64)
	return err != nil
}

// metricLabels name the metrics of model.MetricList with their units, for
// an axis or a colour bar. Counts are per run (a mean per run over
// replicates).
var metricLabels = map[string]string{
	"recovered":             "recovered (1 = yes)",
	"verdict":               "how the run ended",
	"drain_rate_per_s":      "backlog falling at the end (calls/s)",
	"drain_left_s":          "time still to drain after the run (s)",
	"recovery_s":            "recovery time after the fault (s)",
	"collapse_s":            "time to collapse (s from the start)",
	"drain_s":               "time to drain (s after the fault)",
	"after_change_s":        "recovery after the change (s)",
	"collapse_load":         "load when it tipped (requests/s)",
	"recovery_load":         "load when it came back (requests/s)",
	"requests":              "user requests (per run)",
	"calls":                 "calls at the dependency (per run)",
	"calls_per_s":           "mean call rate at the dependency (calls/s)",
	"attempts_allowed":      "attempts allowed (calls per request)",
	"amplification":         "amplification (calls per request)",
	"failed_share":          "share of answered requests that failed",
	"peak_calls":            "peak calls in one tick (calls/tick)",
	"peak_load_x":           "peak load at the dependency (× arrivals)",
	"window_calls_per_s":    "calls during the fault (calls/s)",
	"window_calls_per_tick": "calls during the fault (calls/tick)",
	"window_rate_x":         "call rate during the fault (× arrivals)",
	"peak_queue":            "peak queue (calls waiting)",
	"successful":            "successful requests (per run)",
	"failed":                "failed requests (per run)",
	"pending":               "requests pending at the end (per run)",
	"retries_refused":       "tries refused by a policy (per run)",
	"refused_budget":        "refused by the retry budget (per run)",
	"refused_breaker":       "failed by an open breaker (per run)",
	"refused_deadline":      "refused after the deadline (per run)",
	"refused_pushback":      "not retried after pushback (per run)",
	"refused_limiter":       "refused by a concurrency limiter (per run)",
	"not_retryable":         "errors not retryable (per run)",
	"hedges":                "hedges sent (per run)",
	"shed":                  "calls shed by the admission rule (per run)",
	"in_system_mean":        "mean calls in the pool (waiting or on a worker)",
	"wait_mean_s":           "mean wait for a worker (s)",
	"service_mean_s":        "mean time on a worker (s)",
	"latency_p50_s":         "median time from a request's arrival to its success (s)",
	"latency_p95_s":         "95th-percentile time from a request's arrival to its success (s)",
	"latency_p99_s":         "99th-percentile time from a request's arrival to its success (s)",
	"error_latency_p50_s":   "median time from a request's arrival to its error (s)",
	"error_latency_p99_s":   "99th-percentile time from a request's arrival to its error (s)",
	"markov_verdict":        "the chain's verdict",
	"markov_states":         "states of the chain",
	"markov_queue_mean":     "mean calls at the server (chain, stationary)",
	"markov_orbit_mean":     "mean calls waiting to retry (chain, stationary)",
	"markov_high_p":         "probability of the high mode (chain, 0–1)",
	"markov_mixing_s":       "mixing time of the chain (s)",
	"markov_fill_s":         "expected time from empty to full (s)",
	"markov_drain_s":        "expected time from full to empty (s)",
	"markov_tip_s":          "expected time from empty to the high mode (s)",
	"markov_recover_s":      "expected time from full to the low mode (s)",
	"wasted":                "wasted work (share 0–1 of work served)",
	"replicates":            "seeded replicates (runs)",
	"recovered_share":       "share of replicates that recovered (0–1)",
	"recovered_share_lo":    "share recovered, lower 95% bound (0–1)",
	"recovered_share_hi":    "share recovered, upper 95% bound (0–1)",
	"recovery_s_p50":        "median recovery time after the fault (s)",
	"recovery_s_p90":        "90th percentile of recovery time (s)",
}

// metricLabel names a metric with its unit, for an axis or a colour bar:
// its entry in metricLabels, or for a metric without one its description
// (Metric.Doc), never its bare column name.
func metricLabel(m model.Metric) string {
	if l, ok := metricLabels[m.Name]; ok {
		return l
	}
	if doc := metricDoc(m); doc != "" {
		return doc
	}
	return strings.ReplaceAll(m.Name, "_", " ")
}

// metricDoc is what a metric means, for a caption: its results.csv
// description up to any note about empty cells, with the other columns it
// names put in words ("window_calls_per_s / base arrival rate" becomes
// "mean calls per second at the dependency during the fault / base arrival
// rate").
func metricDoc(m model.Metric) string {
	doc, _, _ := strings.Cut(m.Doc, "; empty")
	if !strings.Contains(doc, "_") {
		return doc
	}
	ms := model.MetricList()
	// Longer names first: calls_per_s is part of window_calls_per_s.
	sort.SliceStable(ms, func(i, j int) bool { return len(ms[i].Name) > len(ms[j].Name) })
	var pairs []string
	for _, o := range ms {
		if o.Name != m.Name && strings.Contains(o.Name, "_") {
			od, _, _ := strings.Cut(o.Doc, "; empty")
			pairs = append(pairs, o.Name, od)
		}
	}
	return strings.NewReplacer(pairs...).Replace(doc)
}

// shareMetric reports whether a metric is a share or a yes/no, 0 to 1, so
// that an axis over it has no ticks above 1.
func shareMetric(m model.Metric) bool {
	return m.Kind == "bool" || m.Name == "recovered_share" || m.Name == "wasted"
}

// notToScale is the caption's note on the axes placed by index, "" when
// there are none: "Backoff base and backoff cap: values evenly spaced, not
// to scale."
func notToScale(names ...string) string {
	if len(names) == 0 {
		return ""
	}
	words := make([]string, len(names))
	for i, n := range names {
		words[i] = axisName(n)
	}
	return capitalize(strings.Join(words, " and ")) + ": values evenly spaced, not to scale."
}

// cellLabel names a row by its values on the given axes: "27 attempts,
// load 80" (a policy by its name alone).
func cellLabel(c *Row, axes []string) string {
	var parts []string
	for _, a := range axes {
		v, _ := c.Get(a)
		parts = append(parts, valueLabel(a, v))
	}
	if len(parts) == 0 {
		return c.Label()
	}
	return strings.Join(parts, ", ")
}

// valueLabel names one axis value: a policy by its name, a number as
// "load 80" or "capacity 120", any other word as "backoff jitter: none".
func valueLabel(axis string, v Value) string {
	if axis == "policy" || axis == "" {
		return v.Text
	}
	if !v.IsNum {
		return pathLabel(axis) + ": " + v.Text
	}
	return pathLabel(axis) + " " + v.Text
}

// capitalize upper-cases the first letter, for a title made from labels.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
