package experiments

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stormlab/stormlab/experiments/sweep"
)

// Error is a problem with an input file (an experiment, or a configuration
// file given to stormlab import), positioned where the file says it:
// "file:line:col: key: message". Line is 0 when the problem has no place in
// the file (a -set flag, a default) and Col is 0 when only the line is known
// (a parser that gives no column); Key is empty for a problem with the
// file as a whole.
type Error struct {
	File      string
	Line, Col int
	Key       string
	Msg       string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return oneLine(b.String())
}

// oneLine escapes control characters (a key or value may hold a newline),
// so an error is always one line.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// errorf makes an Error positioned at the file key (dotted, from the top).
func (e *Experiment) errorf(key, format string, args ...any) *Error {
	err := &Error{File: e.File, Key: key, Msg: fmt.Sprintf(format, args...)}
	e.locate(err, key)
	return err
}

// errorAt turns an error from sweep.Assign or model validation into an
// Error at the file key that caused it, an assignment to the scenario path
// set. An error deeper inside the assigned value (a key of a
// [[scenario.layer]] entry) is placed at that key. context names the cell
// or policy, if any.
func (e *Experiment) errorAt(key, set string, err error, context string) error {
	msg := err.Error()
	if p, ok := sweep.KeyPath(err); ok {
		msg = strings.TrimPrefix(msg, p+": ")
		switch {
		case strings.HasPrefix(p, set+"."):
			key += p[len(set):]
		case p != set && !sweep.Covers(set, p):
			msg = "scenario." + p + " " + msg
		}
	}
	if context != "" {
		msg += " (" + context + ")"
	}
	out := &Error{File: e.File, Key: key, Msg: msg}
	e.locate(out, key)
	return out
}

// cellError positions a cell the grid could not build at the grid axis or
// named set that set the key at fault, else at the key in [scenario].
func (e *Experiment) cellError(err error) error {
	var ce *sweep.CellError
	if !errors.As(err, &ce) {
		return &Error{File: e.File, Msg: err.Error()}
	}
	if ce.Path == "" {
		out := &Error{File: e.File, Key: ce.Source, Msg: ce.Error()}
		e.locate(out, ce.Source)
		return out
	}
	key := ce.Source
	if key == "" {
		key = "scenario." + ce.Path
	}
	return e.errorAt(key, ce.Path, ce.Err, ce.Context)
}

// locate fills in where the key is written, or the nearest enclosing key
// that is; a key a -set flag gave is reported as such.
func (e *Experiment) locate(err *Error, key string) {
	for k := key; k != ""; {
		if e.sets[k] {
			err.Key = "-set " + key
			return
		}
		if p, ok := e.pos[k]; ok {
			err.Line, err.Col = p.Line, p.Col
			return
		}
		i := strings.LastIndex(k, ".")
		if i < 0 {
			break
		}
		k = k[:i]
	}
}
