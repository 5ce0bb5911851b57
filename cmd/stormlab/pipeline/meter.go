package pipeline

import "io"

// Meter counts a stage's work as it goes: called with the stage's name and
// its units of work (cells, or searches), it returns done, called once per
// unit finished from any goroutine, and stop, called once when the stage
// ends, finished or not.
type Meter func(name string, total int) (done, stop func())

// Bar is the meter of the commands: a progress bar on w (stderr) when w is
// a terminal and the stage takes over a second; nothing otherwise.
func Bar(w io.Writer) Meter {
	return func(name string, total int) (func(), func()) {
		p := startProgress(w, name, total)
		return p.done, p.stop
	}
}

// Calls is a meter that calls f once per unit done, whatever the stage (the
// explorer's progress events); a nil f counts nothing.
func Calls(f func()) Meter {
	return func(string, int) (func(), func()) {
		if f == nil {
			f = func() {}
		}
		return f, func() {}
	}
}
