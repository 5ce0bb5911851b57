package experiments

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
	"github.com/stormlab/stormlab/experiments/sweep"
)

// readFindings reads the findings = [...] templates and resolves every
// reference to a cell and a column. In a template, {column[v1; v2]} stands
// for the results.csv column of the cell whose axis values are v1, v2 (in
// axis order); {column[v1; v2]%.2f} formats it with a Go verb and
// {column[v1; v2]pct} as a percentage, {column[v1; v2]int} rounded to a
// whole number with its thousands grouped (227,633: a mean over replicates
// is rarely whole); {column[v1; v2]sd} is its standard
// deviation over the cell's replicates (sd%.1f with a verb);
// {rule_of_thumb_s[v1; v2]} is the rule of thumb's blip at the cell's load;
// {@path} is the value of the file's key at path as this run has it (after
// any -set), so that "between {@window.0.from} and {@window.0.to}" follows
// an override; {{ and }} are literal braces.
//
// An entry is a string, or a table { text = "...", holds = ["...", ...] }
// whose holds are the claims the sentence makes, each a comparison of two
// references, numbers or words ("recovery_s[naive; 80] > rule_of_thumb_s[naive;
// 80]", "verdict[naive; 80] == stuck"), checked on the results when the
// report is written.
func (e *Experiment) readFindings(v any, tree map[string]any) (err error) {
	e.Findings, err = e.readTemplates("findings", v, tree)
	return err
}

// missingCell is the error of a reference to a cell the grid lacks.
type missingCell struct{ msg string }

func (m *missingCell) Error() string { return m.msg }

// overridden reports whether err is a reference to a cell the grid lacks
// in a run whose -set overrides changed the file: the author's finding
// fits the file's grid, not the run's, so it is left out rather than
// refused. Without overrides such a reference is the file's mistake.
func (e *Experiment) overridden(err error) bool {
	var m *missingCell
	return len(e.Overrides) > 0 && errors.As(err, &m)
}

// findingTable is a finding written as a table.
type findingTable struct {
	Text  string   `toml:"text"`
	Holds []string `toml:"holds"`
}

// readTemplates reads the templates written at key: a list of strings or
// tables, or one; entry i is key.i.
func (e *Experiment) readTemplates(key string, v any, tree map[string]any) ([]spec.Finding, error) {
	if v == nil {
		return nil, nil
	}
	var out []spec.Finding
	for i, x := range listOf(v) {
		k := fmt.Sprintf("%s.%d", key, i)
		var ft findingTable
		switch y := x.(type) {
		case string:
			ft.Text = y
		case map[string]any:
			if err := e.decodeTable(k, "a finding (text, holds)", y, &ft); err != nil {
				return nil, err
			}
			if ft.Text == "" {
				return nil, e.errorf(k, "needs text = \"...\", the sentence")
			}
		default:
			return nil, e.errorf(k, "wants a string, or a table { text = \"...\", holds = [...] }, got %s", sweep.Describe(x))
		}
		tk := k
		if _, ok := x.(map[string]any); ok {
			tk = k + ".text"
		}
		f, err := e.parseFinding(ft.Text, tree)
		if e.overridden(err) {
			e.Omitted = append(e.Omitted, fmt.Sprintf("%s is left out: it cites a cell the overrides removed (%v)", k, err))
			continue
		}
		if err != nil {
			return nil, e.errorf(tk, "%v", err)
		}
		unchecked := ""
		for j, h := range ft.Holds {
			c, err := e.parseClaim(h)
			if e.overridden(err) && unchecked == "" {
				unchecked = fmt.Sprintf("%s is left out: its claim %s.holds.%d cites a cell the overrides removed, so it cannot be checked (%v)", k, k, j, err)
				continue
			}
			if err != nil && !e.overridden(err) {
				return nil, e.errorf(fmt.Sprintf("%s.holds.%d", k, j), "%v", err)
			}
			f.Claims = append(f.Claims, c)
		}
		if unchecked != "" {
			e.Omitted = append(e.Omitted, unchecked)
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// keyText is the value of the file's key at a dotted path (list entries by
// index), as a finding writes it: a string as it is, anything else as Go
// prints it.
func keyText(tree map[string]any, path string) (string, bool) {
	var cur any = tree
	for _, part := range strings.Split(path, ".") {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[part]
			if !ok {
				return "", false
			}
			cur = v
		default:
			i, err := strconv.Atoi(part)
			items := listOf(x)
			if err != nil || i < 0 || i >= len(items) {
				return "", false
			}
			cur = items[i]
		}
	}
	switch x := cur.(type) {
	case map[string]any, []any, []map[string]any:
		return "", false
	case string:
		return x, true
	default:
		return fmt.Sprint(x), true
	}
}

// parseFinding splits a finding template into text and references.
func (e *Experiment) parseFinding(text string, tree map[string]any) (spec.Finding, error) {
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
			inner := text[i+1 : i+end]
			if path, ok := strings.CutPrefix(inner, "@"); ok {
				v, found := keyText(tree, strings.TrimSpace(path))
				if !found {
					return f, fmt.Errorf("{%s}: the file has no value at %q", inner, strings.TrimSpace(path))
				}
				lit.WriteString(v)
				i += end
				continue
			}
			ref, err := e.parseRef(inner)
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
	m, known := e.Grid.Metric(part.Column)
	if !known && part.Column != spec.RuleOfThumb {
		names := append(e.Grid.ColumnNames(), spec.RuleOfThumb)
		return part, fmt.Errorf("{%s}: %q is not a results.csv column%s; use one of %s", s, part.Column, sweep.DidYouMean(part.Column, names), strings.Join(names, ", "))
	}
	if rest, ok := strings.CutPrefix(part.Format, "sd"); ok {
		if !known || m.SD == nil {
			return part, fmt.Errorf("{%s}: %s has no spread over replicates", s, part.Column)
		}
		part.SD, part.Format = true, rest
	}
	if f := part.Format; f != "" && f != "pct" && f != "int" && (!strings.HasPrefix(f, "%") || strings.Count(f, "%") != 1) {
		return part, fmt.Errorf("{%s}: the format %q is none of one Go verb such as %%.2f, pct or int", s, part.Format)
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
		return part, &missingCell{fmt.Sprintf("{%s}: no cell has the values %s", s, strings.Join(want, "; "))}
	}
	part.Cell = i
	return part, nil
}
