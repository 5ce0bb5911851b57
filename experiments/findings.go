package experiments

import (
	"fmt"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// readFindings reads the findings = ["...", ...] templates and resolves
// every reference to a cell and a column. In a template, {column[v1; v2]}
// stands for the results.csv column of the cell whose axis values are v1,
// v2 (in axis order); {column[v1; v2]%.2f} formats it with a Go verb and
// {column[v1; v2]pct} as a percentage; {column[v1; v2]sd} is its standard
// deviation over the cell's replicates (sd%.1f with a verb); {{ and }} are
// literal braces.
func (e *Experiment) readFindings(v any) (err error) {
	e.Findings, err = e.readTemplates("findings", v)
	return err
}

// readTemplates reads the templates written at key: a list of strings, or
// one; entry i is key.i.
func (e *Experiment) readTemplates(key string, v any) ([]spec.Finding, error) {
	if v == nil {
		return nil, nil
	}
	var out []spec.Finding
	for i, x := range listOf(v) {
		k := fmt.Sprintf("%s.%d", key, i)
		text, ok := x.(string)
		if !ok {
			return nil, e.errorf(k, "wants a string, got %s", sweep.Describe(x))
		}
		f, err := e.parseFinding(text)
		if err != nil {
			return nil, e.errorf(k, "%v", err)
		}
		out = append(out, f)
	}
	return out, nil
}

// parseFinding splits a finding template into text and references.
func (e *Experiment) parseFinding(text string) (spec.Finding, error) {
	var f spec.Finding
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			f.Parts = append(f.Parts, spec.FindingPart{Text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '{' && strings.HasPrefix(text[i:], "{{"), c == '}' && strings.HasPrefix(text[i:], "}}"):
			lit.WriteByte(c)
			i++
		case c == '}':
			return f, fmt.Errorf("a } without its {; write }} for a literal brace")
		case c == '{':
			end := strings.IndexByte(text[i:], '}')
			if end < 0 {
				return f, fmt.Errorf("a { without its }; write {{ for a literal brace")
			}
			ref, err := e.parseRef(text[i+1 : i+end])
			if err != nil {
				return f, err
			}
			flush()
			f.Parts = append(f.Parts, ref)
			i += end
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	return f, nil
}

// parseRef reads "column[v1; v2]%.2f" (or sd, pct, sd%.2f after the ]).
func (e *Experiment) parseRef(s string) (spec.FindingPart, error) {
	open, close := strings.IndexByte(s, '['), strings.LastIndexByte(s, ']')
	if open < 0 || close < open {
		return spec.FindingPart{}, fmt.Errorf("{%s}: write {column[value; value]} with one value per axis (%s)", s, e.Grid.AxisList())
	}
	part := spec.FindingPart{Column: strings.TrimSpace(s[:open]), Format: strings.TrimSpace(s[close+1:])}
	m, ok := e.Grid.Metric(part.Column)
	if !ok {
		return part, fmt.Errorf("{%s}: %q is not a results.csv column%s; use one of %s", s, part.Column, sweep.DidYouMean(part.Column, e.Grid.ColumnNames()), strings.Join(e.Grid.ColumnNames(), ", "))
	}
	if rest, ok := strings.CutPrefix(part.Format, "sd"); ok {
		if m.SD == nil {
			return part, fmt.Errorf("{%s}: %s has no spread over replicates", s, part.Column)
		}
		part.SD, part.Format = true, rest
	}
	if f := part.Format; f != "" && f != "pct" && (!strings.HasPrefix(f, "%") || strings.Count(f, "%") != 1) {
		return part, fmt.Errorf("{%s}: the format %q is neither one Go verb such as %%.2f nor pct", s, part.Format)
	}
	var want []string
	if inner := strings.TrimSpace(s[open+1 : close]); inner != "" {
		for _, v := range strings.Split(inner, ";") {
			want = append(want, strings.TrimSpace(v))
		}
	}
	if len(want) != len(e.Grid.Axes) {
		return part, fmt.Errorf("{%s}: %d values for %d axes (%s)", s, len(want), len(e.Grid.Axes), e.Grid.AxisList())
	}
	i, ok := e.Grid.Find(want)
	if !ok {
		return part, fmt.Errorf("{%s}: no cell has the values %s", s, strings.Join(want, "; "))
	}
	part.Cell = i
	return part, nil
}
