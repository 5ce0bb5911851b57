package experiments

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stormlab/stormlab/experiments/spec"
)

// parseClaim reads a claim: two sides and a comparison between them (<,
// <=, >, >=, ==, !=). A side is an expression of references as a template
// writes them without braces (column[v1; v2], sd after the ] for the
// spread), numbers, + - * / and parentheses, and abs(x), min(x, y, ...)
// and max(x, y, ...); or a word (stuck, recovered, true), compared with ==
// or != to a column that has words.
func (e *Experiment) parseClaim(s string) (spec.Claim, error) {
	c := spec.Claim{Text: strings.TrimSpace(s)}
	depth, at, width := 0, -1, 0
	for i := 0; i < len(s) && at < 0; i++ {
		switch ch := s[i]; {
		case ch == '[' || ch == '(':
			depth++
		case ch == ']' || ch == ')':
			depth--
		case depth == 0 && strings.ContainsRune("<>=!", rune(ch)):
			at, width = i, 1
			if i+1 < len(s) && s[i+1] == '=' {
				width = 2
			}
		}
	}
	if at < 0 {
		return c, fmt.Errorf("%q compares nothing: write two sides with <, <=, >, >=, == or != between them", s)
	}
	c.Op = s[at : at+width]
	if c.Op == "=" || c.Op == "!" {
		return c, fmt.Errorf("%q: %q is not a comparison; use ==, !=, <, <=, > or >=", s, c.Op)
	}
	var err error
	if c.Left, err = e.parseSide(s[:at]); err != nil {
		return c, fmt.Errorf("%q: %w", s, err)
	}
	if c.Right, err = e.parseSide(s[at+width:]); err != nil {
		return c, fmt.Errorf("%q: %w", s, err)
	}
	if !c.Left.HasRef() && !c.Right.HasRef() {
		return c, fmt.Errorf("%q compares no result: one side must refer to one, such as recovery_s[%s]", s, e.Grid.AxisList())
	}
	words := c.Left.Op == "" && c.Left.Kind == spec.OperandWord || c.Right.Op == "" && c.Right.Kind == spec.OperandWord
	if words && c.Op != "==" && c.Op != "!=" {
		return c, fmt.Errorf("%q: a word compares only with == or !=", s)
	}
	return c, nil
}

// parseSide reads one side of a claim.
func (e *Experiment) parseSide(s string) (spec.Expr, error) {
	p := &exprParser{e: e, s: s}
	p.skip()
	if p.i == len(p.s) {
		return spec.Expr{}, fmt.Errorf("a comparison needs a value on both sides")
	}
	if w := strings.TrimSpace(s); isWord(w) {
		return spec.Expr{Kind: spec.OperandWord, Word: strings.Trim(w, `"`)}, nil
	}
	x, err := p.sum()
	if err != nil {
		return x, err
	}
	if p.skip(); p.i < len(p.s) {
		return x, fmt.Errorf("unexpected %q", p.s[p.i:])
	}
	return x, nil
}

// isWord reports whether a side is a bare word: letters and spaces (or a
// quoted string), no reference, number or function.
func isWord(s string) bool {
	if strings.HasPrefix(s, `"`) && strings.HasSuffix(s, `"`) && len(s) >= 2 {
		return true
	}
	if s == "" || strings.ContainsAny(s, "[]()+-*/0123456789") {
		return false
	}
	return true
}

// exprParser reads an expression by recursive descent: sum = product
// {(+|-) product}; product = unary {(*|/) unary}; unary = [-] atom; atom =
// number | reference | (sum) | abs(sum) | min(sum, ...) | max(sum, ...).
type exprParser struct {
	e *Experiment
	s string
	i int
}

func (p *exprParser) skip() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *exprParser) sum() (spec.Expr, error) {
	x, err := p.product()
	for err == nil {
		p.skip()
		if p.i == len(p.s) || (p.s[p.i] != '+' && p.s[p.i] != '-') {
			break
		}
		op := string(p.s[p.i])
		p.i++
		var y spec.Expr
		if y, err = p.product(); err == nil {
			x = spec.Expr{Op: op, Args: []spec.Expr{x, y}}
		}
	}
	return x, err
}

func (p *exprParser) product() (spec.Expr, error) {
	x, err := p.unary()
	for err == nil {
		p.skip()
		if p.i == len(p.s) || (p.s[p.i] != '*' && p.s[p.i] != '/') {
			break
		}
		op := string(p.s[p.i])
		p.i++
		var y spec.Expr
		if y, err = p.unary(); err == nil {
			x = spec.Expr{Op: op, Args: []spec.Expr{x, y}}
		}
	}
	return x, err
}

func (p *exprParser) unary() (spec.Expr, error) {
	p.skip()
	if p.i < len(p.s) && p.s[p.i] == '-' {
		p.i++
		x, err := p.unary()
		return spec.Expr{Op: "neg", Args: []spec.Expr{x}}, err
	}
	return p.atom()
}

func (p *exprParser) atom() (spec.Expr, error) {
	p.skip()
	if p.i == len(p.s) {
		return spec.Expr{}, fmt.Errorf("a value is missing at the end")
	}
	if p.s[p.i] == '(' {
		p.i++
		x, err := p.sum()
		if err != nil {
			return x, err
		}
		if p.skip(); p.i == len(p.s) || p.s[p.i] != ')' {
			return x, fmt.Errorf("a ( without its )")
		}
		p.i++
		return x, nil
	}
	start := p.i
	for p.i < len(p.s) && (isLetter(p.s[p.i]) || p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '.' || p.s[p.i] == '_') {
		p.i++
	}
	name := p.s[start:p.i]
	if name == "" {
		return spec.Expr{}, fmt.Errorf("unexpected %q", p.s[p.i:])
	}
	if x, err := strconv.ParseFloat(name, 64); err == nil {
		return spec.Expr{Kind: spec.OperandNum, Num: x}, nil
	}
	p.skip()
	switch {
	case p.i < len(p.s) && p.s[p.i] == '(':
		return p.call(name)
	case p.i < len(p.s) && p.s[p.i] == '[':
		end := strings.IndexByte(p.s[p.i:], ']')
		if end < 0 {
			return spec.Expr{}, fmt.Errorf("%s[ without its ]", name)
		}
		p.i += end + 1
		if strings.HasPrefix(p.s[p.i:], "sd") {
			p.i += 2
		}
		ref, err := p.e.parseRef(p.s[start:p.i])
		return spec.Expr{Kind: spec.OperandRef, Ref: ref}, err
	}
	return spec.Expr{}, fmt.Errorf("%q is neither a number, a reference such as recovery_s[...], nor abs, min or max", name)
}

// call reads the arguments of abs, min or max.
func (p *exprParser) call(name string) (spec.Expr, error) {
	if name != "abs" && name != "min" && name != "max" {
		return spec.Expr{}, fmt.Errorf("%s(...) is not a function; use abs, min or max", name)
	}
	p.i++ // (
	x := spec.Expr{Op: name}
	for {
		a, err := p.sum()
		if err != nil {
			return x, err
		}
		x.Args = append(x.Args, a)
		p.skip()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i == len(p.s) || p.s[p.i] != ')' {
			return x, fmt.Errorf("%s( without its )", name)
		}
		p.i++
		break
	}
	if name == "abs" && len(x.Args) != 1 || name != "abs" && len(x.Args) < 2 {
		return x, fmt.Errorf("%s takes %s", name, map[bool]string{true: "one value", false: "two values or more"}[name == "abs"])
	}
	return x, nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
