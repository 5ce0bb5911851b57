package reports

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// ClaimFails opens the note report.md writes beside a finding whose claim
// does not hold on the results; a committed report never contains it.
const ClaimFails = "**Does not hold on these results:**"

// refValue is the value a finding's reference stands for: the number, and
// the word where the column has one (a verdict, a boolean); NaN and "none"
// when the cell has no value there (a recovery that never came, a collapse
// that never happened).
func refValue(g *sweep.Grid, p spec.FindingPart, results []model.Result) (float64, string) {
	r := &results[p.Cell]
	if r.Aborted != "" {
		return math.NaN(), "none"
	}
	if p.Column == spec.RuleOfThumb {
		pl := g.Cells()[p.Cell].Plan
		v, ok := pl.RuleOfThumb(pl.Load)
		if !ok {
			return math.NaN(), "none"
		}
		return v, ""
	}
	m, _ := g.Metric(p.Column)
	v := m.Value(r)
	if p.SD {
		v = m.SD(r)
		if math.IsNaN(v) {
			return v, "none"
		}
		return v, ""
	}
	switch {
	case m.Kind == "verdict" && !math.IsNaN(v):
		return v, model.Verdict(v).String()
	case m.Kind == "phase" && !math.IsNaN(v):
		return v, model.MarkovPhase(v).String()
	case m.Kind == "bool" && !math.IsNaN(v):
		return v, fmt.Sprint(v != 0)
	case math.IsNaN(v):
		return v, "none"
	}
	return v, ""
}

// FailedClaims checks the claims of an experiment's answer and findings on
// its results: one line for each finding with a claim that does not hold
// ("findings.2: `recovery_s[...] > 3` (none against 3)"); none when all
// hold. report.md says the same beside the sentence.
func FailedClaims(r *spec.Report, g *sweep.Grid, results []model.Result) []string {
	var out []string
	for key, fs := range map[string][]spec.Finding{"answer": r.Answer, "findings": r.Findings} {
		for i, f := range fs {
			if failed := failedClaims(g, f, results); len(failed) > 0 {
				out = append(out, fmt.Sprintf("%s.%d does not hold on these results: %s", key, i, strings.Join(failed, "; ")))
			}
		}
	}
	sort.Strings(out)
	return out
}

// failedClaims checks a finding's claims on the results and says, for each
// that does not hold, what it claimed and what the results hold.
func failedClaims(g *sweep.Grid, f spec.Finding, results []model.Result) []string {
	var out []string
	for _, c := range f.Claims {
		if ok, l, r := holds(g, c, results); !ok {
			out = append(out, fmt.Sprintf("`%s` (%s against %s)", c.Text, l, r))
		}
	}
	return out
}

// holds evaluates a claim, and writes both sides as the results have them.
// A side without a value (a recovery that never came) satisfies only !=.
func holds(g *sweep.Grid, c spec.Claim, results []model.Result) (ok bool, left, right string) {
	lv, lw := eval(g, &c.Left, results)
	rv, rw := eval(g, &c.Right, results)
	ls, rs := showSide(lv, lw), showSide(rv, rw)
	if isWord(&c.Left) || isWord(&c.Right) {
		switch c.Op {
		case "==":
			return lw == rw, ls, rs
		case "!=":
			return lw != rw, ls, rs
		}
		return false, ls, rs
	}
	if math.IsNaN(lv) || math.IsNaN(rv) {
		return c.Op == "!=", ls, rs
	}
	switch c.Op {
	case "<":
		ok = lv < rv
	case "<=":
		ok = lv <= rv
	case ">":
		ok = lv > rv
	case ">=":
		ok = lv >= rv
	case "==":
		ok = lv == rv
	case "!=":
		ok = lv != rv
	}
	return ok, ls, rs
}

func isWord(x *spec.Expr) bool { return x.Op == "" && x.Kind == spec.OperandWord }

// eval is an expression's number and, for a leaf with one, its word.
// Arithmetic on a value that is missing (NaN) is missing too.
func eval(g *sweep.Grid, x *spec.Expr, results []model.Result) (float64, string) {
	if x.Op == "" {
		switch x.Kind {
		case spec.OperandNum:
			return x.Num, ""
		case spec.OperandWord:
			return math.NaN(), x.Word
		}
		return refValue(g, x.Ref, results)
	}
	args := make([]float64, len(x.Args))
	for i := range x.Args {
		args[i], _ = eval(g, &x.Args[i], results)
	}
	switch x.Op {
	case "+":
		return args[0] + args[1], ""
	case "-":
		return args[0] - args[1], ""
	case "*":
		return args[0] * args[1], ""
	case "/":
		return args[0] / args[1], ""
	case "neg":
		return -args[0], ""
	case "abs":
		return math.Abs(args[0]), ""
	}
	v := args[0]
	for _, a := range args[1:] {
		if math.IsNaN(a) || math.IsNaN(v) {
			return math.NaN(), ""
		}
		if x.Op == "min" {
			v = math.Min(v, a)
		} else {
			v = math.Max(v, a)
		}
	}
	return v, ""
}

// showSide writes a side's value in a note: its word, its number, or "no
// value".
func showSide(v float64, w string) string {
	switch {
	case w != "":
		return w
	case math.IsNaN(v):
		return "no value"
	}
	return strings.TrimSpace(fmt.Sprintf("%.6g", v))
}
