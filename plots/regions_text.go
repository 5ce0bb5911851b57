package plots

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/tipping"
	"github.com/stormlab/stormlab/model"
)

// This file holds what a regions figure says: its subtitle of facts, its
// caption, its labels.

// caption is what the figure adds to its cells' facts, a sentence each:
// the searches, the colours, the boundary, the rule of thumb, the y axis.
func (r *regions) caption() []string {
	t, exact := r.t, r.exact
	more := []string{fmt.Sprintf("Each column is one search over %s from %s to %s, to within %s%s, with the other parameters at the column's values.",
		tipping.KeyLabel(t), keyText(t, t.From), keyText(t, t.To), keyText(t, t.Tolerance), exactNote(exact, r.chain, t))}
	switch {
	case r.chain:
		more = append(more, "Green: the chain is healthy; orange: it is not (metastable or overloaded, the markov engine's verdict)")
	case exact:
		more = append(more, "Green: recovers after the fault; orange: never recovers, the backlog no longer shrinking when the run ends")
	default:
		more = append(more, "Green: most runs recover after the fault; orange: at least half of them never recover")
	}
	if r.seen["draining"] {
		more[1] += "; yellow: still unhealthy when the run ends but draining, slower than the run"
	}
	if r.seen["overloaded"] {
		more[1] += "; grey: unhealthy without any fault (overloaded)"
	}
	if r.seen["unclear"] {
		more[1] += "; a purple band at the top: a non-monotone column, each point's verdict holding halfway to its neighbours"
	}
	more[1] += "."
	if exact {
		more = append(more, fmt.Sprintf("Line: %s.", tipping.Mildest(t, true)))
	} else {
		more = append(more, "Line: where half of the replicates tip; bars: its 95% interval (from the Wilson intervals of the points searched).")
	}
	if r.drawn {
		more = append(more, "Dashed: the rule of thumb for naive retries, blip ≈ capacity × timeout / load.")
	}
	if r.y.cut {
		more = append(more, fmt.Sprintf("The y axis stops at %s; the search ran to %s.", keyText(t, r.y.hi), keyText(t, t.To)))
	}
	if r.y.log {
		more = append(more, "Log scale.")
	}
	if r.xp.index && !r.categories {
		more = append(more, notToScale(t.X))
	}
	return more
}

// panelTitle names a panel by its value on the panel axis; "" for one panel.
func (r *regions) panelTitle(v Value) string {
	if r.t.Panel == "" {
		return ""
	}
	return valueLabel(r.t.Panel, v)
}

// regionWords is what a legend entry adds about regions, for a search
// over a fault's key; empty for another key.
func (r *regions) regionWords(s string) string {
	if r.t.Trigger() {
		return s
	}
	return ""
}

// exactNote says how exact a deterministic search is.
func exactNote(exact, chain bool, t *spec.Tipping) string {
	if chain {
		return " (each point one solve of the markov engine's chain: the answer is exact to that)"
	}
	if exact && t.Duration {
		return " (the queue engine is deterministic: the answer is exact to that)"
	}
	if exact {
		return " (the queue engine is deterministic)"
	}
	return ""
}

// keyLabel names the y axis: the key with its unit.
func (r *regions) keyLabel() string {
	label := tipping.KeyLabel(r.t)
	if r.t.Unit != "" {
		label += " (" + r.t.Unit + ")"
	}
	return label
}

// facts are the figure's subtitle: the searches' cells described as every
// figure describes its cells, with the searched key said to be searched.
func (r *regions) facts() []string {
	rows := r.tab.Rows
	fs := facts(rows)
	t := r.t
	searched := fmt.Sprintf("%s searched from %s to %s", tipping.KeyLabel(t), keyText(t, t.From), keyText(t, t.To))
	if t.Unit != "" && !t.Duration {
		searched += " " + t.Unit
	}
	switch {
	case t.Path == "load":
		old := loadFact(rows)
		for i := range fs {
			if fs[i] == old {
				fs[i] = searched
			}
		}
	case t.Trigger():
		for _, old := range faultFacts(rows) {
			if i := slices.Index(fs, old); i >= 0 {
				fs[i] = r.faultSearched()
			}
		}
	default:
		fs = append(fs, searched)
	}
	return fs
}

// faultSearched describes the fault whose key is searched: "outage at
// 60s, length searched from 0s to 10m".
func (r *regions) faultSearched() string {
	t := r.t
	segs := strings.Split(t.Path, ".")
	faults := r.tab.Rows[0].Facts.Faults
	if len(segs) < 3 {
		return t.Key + " searched"
	}
	var j int
	fmt.Sscan(segs[1], &j)
	if j >= len(faults) {
		return t.Key + " searched"
	}
	f := faults[j]
	what := f.Kind
	switch segs[2] {
	case "length":
		return fmt.Sprintf("%s at %s, length searched from %s to %s", what, durText(f.Start), keyText(t, t.From), keyText(t, t.To))
	case "capacity":
		return fmt.Sprintf("%s at %s for %s, capacity left searched from %s to %s calls/s", what, durText(f.Start), durText(f.Length), keyText(t, t.From), keyText(t, t.To))
	case "factor":
		return fmt.Sprintf("%s at %s for %s, factor searched from ×%s to ×%s", what, durText(f.Start), durText(f.Length), keyText(t, t.From), keyText(t, t.To))
	}
	return fmt.Sprintf("%s at %s, %s searched from %s to %s", what, durText(f.Start), segs[2], keyText(t, t.From), keyText(t, t.To))
}

// keyText writes a value of the searched key: "10m", "2.5s", "42.1".
func keyText(t *spec.Tipping, x float64) string {
	if t.Duration {
		return durText(model.Seconds(x))
	}
	return formatNum(x)
}
