package plots

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/model"
)

// This file writes what the captions and subtitles say of the cells a
// figure draws: their key parameters (Facts), each as one value or as the
// choices or the range the rows give it.

// facts lists the key parameters of the rows, each as one value, or as
// the choices or the range the rows give it; the timeout is the one the
// user waits (the edge layer's), the attempts those a request may make,
// both as the cells' plans state them. Open and closed loops are described
// apart ("load 40 requests/s (open) or 50 clients thinking 1.25s
// (closed)"), and so are cells whose faults differ in kind ("no fault,
// outage at 5s for 1s, or degradation to 100 calls/s at 5s for 10s").
func facts(rows []Row) []string {
	if len(rows) == 0 {
		return nil
	}
	each := func(f func(c *Facts) (float64, string)) string { return eachOf(rows, f) }
	out := []string{each(func(c *Facts) (float64, string) { return 0, c.Engine }) + " engine"}
	out = append(out,
		"capacity "+each(func(c *Facts) (float64, string) { return c.Capacity, rateText(c.Capacity) })+" calls/s",
		loadFact(rows),
		"timeout "+each(func(c *Facts) (float64, string) { return durChoice(c.Timeout) }),
		attemptsFact(each(func(c *Facts) (float64, string) { return float64(c.Attempts), strconv.Itoa(c.Attempts) })))
	switch q := each(func(c *Facts) (float64, string) { return 0, c.Server }); q {
	case "fifo":
	case "none":
		out = append(out, "no queue (a loss server)")
	case "latency":
		out = append(out, "no queue: latency grows with the calls in flight")
	default:
		out = append(out, "queue "+q)
	}
	run := each(func(c *Facts) (float64, string) { return c.Run.Seconds(), c.Run.String() })
	if each(func(c *Facts) (float64, string) { return 0, c.Engine }) == "markov" {
		// A chain's solve has no faults, changes or ticks: its run is the
		// horizon its verdict judges escape times by.
		return append(out, "a horizon of "+run)
	}
	out = append(out, faultFacts(rows)...)
	out = append(out, changeFacts(rows)...)
	out = append(out, each(func(c *Facts) (float64, string) { return durChoice(c.Tick) })+" ticks over "+run)
	if r := each(func(c *Facts) (float64, string) { return float64(c.Replicates), strconv.Itoa(c.Replicates) }); r != "1" {
		out = append(out, r+" seeded replicates per cell")
	}
	return out
}

// eachOf writes the distinct values of one parameter over the rows, as
// choices does; f gives a row's value as a number to sort by and a text.
func eachOf(rows []Row, f func(c *Facts) (float64, string)) string {
	vs := make([]choice, len(rows))
	for i := range rows {
		vs[i].num, vs[i].text = f(&rows[i].Facts)
	}
	return choices(vs)
}

// attemptsFact is the attempts per request, given as their choices ("1",
// "1 or 27"): one attempt is singular.
func attemptsFact(choices string) string {
	if choices == "1" {
		return "1 attempt per request"
	}
	return choices + " attempts per request"
}

// numText writes a parameter's number as it is: 97.22, 100.
func numText(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// rateText writes a capacity: a whole number as it is, with thousands
// separators (100,000,000), another to four significant digits (a worker
// pool's capacity, its workers over the mean of its service law, is
// rarely whole: 100.0012 calls/s reads as 100).
func rateText(x float64) string {
	v := x
	if x != math.Trunc(x) {
		v, _ = strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	}
	return groupedText(v)
}

// groupedText writes a number as it is, a whole one with thousands
// separators: 10,000, 97.22.
func groupedText(x float64) string {
	if x == math.Trunc(x) {
		return Number(x)
	}
	return numText(x)
}

// durChoice is a duration as a choice: seconds to sort by, durText to show.
func durChoice(x model.Duration) (float64, string) { return x.Seconds(), durText(x) }

// loadFact describes the arrivals: the load of open-loop rows, the
// clients and think time of closed-loop ones (whose load means nothing),
// the requests of a burst (all at the start, whatever the load), or
// several of these: "load 40 requests/s (open) or 50 clients thinking
// 1.25s (closed)".
func loadFact(rows []Row) string {
	var open, closed, burst []Row
	for i := range rows {
		switch rows[i].Facts.Arrivals {
		case "closed":
			closed = append(closed, rows[i])
		case "burst":
			burst = append(burst, rows[i])
		default:
			open = append(open, rows[i])
		}
	}
	clients := func(rs []Row) string {
		return eachOf(rs, func(c *Facts) (float64, string) { return float64(c.Clients), strconv.Itoa(c.Clients) })
	}
	var parts []string
	if len(open) > 0 {
		parts = append(parts, openLoadFact(open))
	}
	if len(closed) > 0 {
		n := clients(closed)
		what := " clients thinking "
		if n == "1" {
			what = " client thinking "
		}
		parts = append(parts, n+what+eachOf(closed, func(c *Facts) (float64, string) { return durChoice(c.Think) }))
	}
	if len(burst) > 0 {
		parts = append(parts, "a burst of "+clients(burst)+" requests at the start")
	}
	if len(parts) == 1 {
		if len(closed) > 0 {
			return parts[0] + " (closed loop)"
		}
		return parts[0]
	}
	labels := []string{}
	if len(open) > 0 {
		labels = append(labels, "open")
	}
	if len(closed) > 0 {
		labels = append(labels, "closed")
	}
	if len(burst) > 0 {
		labels = append(labels, "burst")
	}
	for i := range parts {
		parts[i] += " (" + labels[i] + ")"
	}
	return strings.Join(parts, " or ")
}

// faultFacts describes the rows' faults. Rows whose faults are of the
// same kinds in the same order share phrases, one per fault, with the
// choices of each parameter ("outage at 60s for 0s–60s"); rows with other
// kinds, or none, get phrases of their own, in the order the rows first
// have them, listed as whole phrases: "no fault, outage at 5s for 1s, or
// degradation to 100 calls/s at 5s for 10s".
func faultFacts(rows []Row) []string {
	var keys []string
	groups := map[string][]Row{}
	for i := range rows {
		var kinds []string
		for _, ft := range rows[i].Facts.Faults {
			kinds = append(kinds, ft.Kind)
		}
		k := strings.Join(kinds, "+")
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], rows[i])
	}
	var phrases []string
	for _, k := range keys {
		g := groups[k]
		var ps []string
		for j := range g[0].Facts.Faults {
			ps = append(ps, faultPhrase(g, j))
		}
		if len(ps) == 0 {
			ps = []string{"no fault"}
		}
		if len(keys) == 1 {
			return ps
		}
		phrases = append(phrases, strings.Join(ps, " and "))
	}
	switch n := len(phrases); n {
	case 2:
		return []string{phrases[0] + " or " + phrases[1]}
	default:
		return []string{strings.Join(phrases[:n-1], ", ") + ", or " + phrases[n-1]}
	}
}

// faultPhrase describes the j-th fault of rows that all have a fault of
// the same kind there: "outage at 60s for 30s", "degradation to 100
// calls/s at 5s for 10s", "slowdown ×3 at 20s for 10s".
func faultPhrase(rows []Row, j int) string {
	each := func(f func(ft *Fault) (float64, string)) string {
		return eachOf(rows, func(c *Facts) (float64, string) { return f(&c.Faults[j]) })
	}
	kind := rows[0].Facts.Faults[j].Kind
	s := kind
	switch kind {
	case "degradation":
		s += " to " + each(func(ft *Fault) (float64, string) { return ft.Capacity, rateText(ft.Capacity) }) + " calls/s"
	case "slowdown", "spike":
		s += " ×" + each(func(ft *Fault) (float64, string) { return ft.Factor, numText(ft.Factor) })
	}
	return s + " at " + each(func(ft *Fault) (float64, string) { return durChoice(ft.Start) }) +
		" for " + each(func(ft *Fault) (float64, string) { return durChoice(ft.Length) })
}

// choice is one cell's value of a parameter: a number to sort by and its text.
type choice struct {
	num  float64
	text string
}

// choices writes the distinct values: "70", "1 or 27", "1, 3, 9 or 27",
// or the range "50–95" for more than four.
func choices(vs []choice) string {
	vs = slices.Clone(vs)
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].num < vs[j].num })
	var texts []string
	for _, v := range vs {
		if !slices.Contains(texts, v.text) {
			texts = append(texts, v.text)
		}
	}
	switch n := len(texts); {
	case n == 1:
		return texts[0]
	case n <= 4:
		return strings.Join(texts[:n-1], ", ") + " or " + texts[n-1]
	default:
		return texts[0] + "–" + texts[n-1]
	}
}

// subtitle joins the facts for the line under a figure's title.
func subtitle(fs []string) string { return strings.Join(fs, " · ") }

// caption is the facts as a sentence, then what the figure adds.
func caption(fs []string, more ...string) string {
	s := capitalize(strings.Join(fs, ", "))
	if s != "" {
		s += "."
	}
	for _, m := range more {
		if m != "" {
			s += " " + m
		}
	}
	return s
}

// durText writes a duration the way the figures' axes count time: whole
// seconds up to ten minutes ("90s"), else as model.Duration does ("1h").
func durText(x model.Duration) string {
	if s := x.Seconds(); s == math.Trunc(s) && s < 600 {
		return strconv.FormatFloat(s, 'f', -1, 64) + "s"
	}
	return x.String()
}

// shapeText describes a load shape: "load 20→68→8 requests/s at 0s, 4m, 8m".
func shapeText(shape []ShapePoint) string {
	loads, ats := make([]string, len(shape)), make([]string, len(shape))
	for i, pt := range shape {
		loads[i], ats[i] = numText(pt.Load), durText(pt.At)
	}
	return "load " + strings.Join(loads, "→") + " requests/s at " + strings.Join(ats, ", ")
}

// openLoadFact describes the load of open-loop rows: "load 70
// requests/s", "load 50–95 requests/s", or with a load shape "load 20→68→8
// requests/s at 0s, 240s, 480s".
func openLoadFact(open []Row) string {
	shaped := false
	for i := range open {
		shaped = shaped || len(open[i].Facts.Shape) > 0
	}
	if !shaped {
		return "load " + eachOf(open, func(c *Facts) (float64, string) { return c.Load, groupedText(c.Load) }) + " requests/s"
	}
	return "load " + eachOf(open, func(c *Facts) (float64, string) {
		if len(c.Shape) > 0 {
			return c.StartLoad, strings.TrimPrefix(shapeText(c.Shape), "load ")
		}
		return c.Load, groupedText(c.Load) + " requests/s"
	})
}

// changeFacts describes the rows' interventions ([[scenario.change]]),
// one phrase per change: "then at 43s budget.kind = token_bucket", or,
// when the rows differ, the times as choices and the keys changed: "then
// at 95s–30m a change of layer.0.attempts, dependency.drop_expired". None
// when no row has a change.
func changeFacts(rows []Row) []string {
	var out []string
	for j := 0; ; j++ {
		var with []Row
		for i := range rows {
			if len(rows[i].Facts.Changes) > j {
				with = append(with, rows[i])
			}
		}
		if len(with) == 0 {
			return out
		}
		when := eachOf(with, func(c *Facts) (float64, string) {
			return c.Changes[j].At.Seconds(), durText(c.Changes[j].At)
		})
		var sets, keys []string
		for i := range with {
			var parts []string
			for _, st := range with[i].Facts.Changes[j].Settings {
				parts = append(parts, fmt.Sprintf("%s = %v", st.Path, st.Value))
				if !slices.Contains(keys, st.Path) {
					keys = append(keys, st.Path)
				}
			}
			if t := strings.Join(parts, ", "); !slices.Contains(sets, t) {
				sets = append(sets, t)
			}
		}
		what := sets[0]
		if len(sets) > 1 {
			what = "a change of " + strings.Join(keyGroups(keys), ", ")
		}
		if len(with) < len(rows) {
			what += " (some cells)"
		}
		out = append(out, "then at "+when+" "+what)
	}
}

// keyGroups shortens a list of scenario keys to the tables they belong to
// where a table holds several of them: budget.kind and budget.ratio are
// "budget", layer.0.attempts alone stays as it is.
func keyGroups(keys []string) []string {
	parent := func(k string) string {
		if i := strings.LastIndex(k, "."); i > 0 {
			return k[:i]
		}
		return k
	}
	n := map[string]int{}
	for _, k := range keys {
		n[parent(k)]++
	}
	var out []string
	for _, k := range keys {
		g := k
		if n[parent(k)] > 1 {
			g = parent(k)
		}
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// pct writes a share as a whole percentage: "85%".
func pct(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }
