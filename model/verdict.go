package model

// Verdict is what the end of a run says about the system as the user at the
// edge sees it (Plan.Health): recovered, not recovered because its backlog
// is still shrinking (draining, slower than the run is long) or because it
// no longer shrinks (stuck: metastable, or down), or not judged at all.
//
// A verdict needs demand to judge: health rules compare what was served
// with what was asked, and a run in which no user request arrives after the
// trigger (the fault's end; the run's first tick without a fault) has
// nothing to compare. A burst of requests at the start is such a run: its
// outcome is in its counts (successful, failed), not in a verdict.
type Verdict uint8

const (
	// NotJudged: no user request arrived after the trigger.
	NotJudged Verdict = iota
	// Recovered: healthy from some tick after the trigger to the end of
	// the run, with at least one request answered with a success after it.
	Recovered
	// Draining: unhealthy when the run ends, its backlog falling steadily
	// over the run's last three eighths: a longer run would see it recover.
	Draining
	// Stuck: unhealthy when the run ends, its backlog no longer falling;
	// also a run in which no request after the trigger succeeded, whatever
	// the health rule says.
	Stuck
)

// verdictNames are the words results.csv and the reports use.
var verdictNames = [...]string{NotJudged: "not judged", Recovered: "recovered", Draining: "draining", Stuck: "stuck"}

// String is the verdict's word in results.csv: "recovered", "draining",
// "stuck" or "not judged".
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "invalid verdict"
}

// Judged reports whether the run had demand to judge.
func (v Verdict) Judged() bool { return v != NotJudged }

// Never reports whether the run ended unhealthy: stuck or still draining.
func (v Verdict) Never() bool { return v == Draining || v == Stuck }

// ParseVerdict reads a verdict's word back (results.csv); ok is false for
// anything else.
func ParseVerdict(s string) (v Verdict, ok bool) {
	for i, n := range verdictNames {
		if n == s {
			return Verdict(i), true
		}
	}
	return NotJudged, false
}

// cellVerdict is the verdict of a cell from its replicates': recovered when
// every judged replicate recovered, not judged when none was judged, and
// otherwise stuck when any replicate is stuck, draining when the ones that
// did not recover are all still draining.
func cellVerdict(runs []Metrics) Verdict {
	judged, rec, stuck := 0, 0, 0
	for i := range runs {
		switch runs[i].Verdict {
		case NotJudged:
			continue
		case Recovered:
			rec++
		case Stuck:
			stuck++
		}
		judged++
	}
	switch {
	case judged == 0:
		return NotJudged
	case rec == judged:
		return Recovered
	case stuck > 0:
		return Stuck
	}
	return Draining
}
