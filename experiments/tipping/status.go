package tipping

// Status is what a search found along its line.
type Status string

const (
	// Found: one change of verdict, from recovering at the mild end to
	// tipping at the severe end.
	Found Status = "found"
	// Nothing: no point of the range tips; the critical value, if any, lies
	// beyond the severe end.
	Nothing Status = "none in range"
	// Already: every point tips, the mild end included, though the run
	// without a fault recovers: the critical value lies beyond the mild end.
	Already Status = "tips at the mild end"
	// Overloaded: the run without any fault is unhealthy at its end.
	Overloaded Status = "overloaded"
	// NonMonotone: the verdict changes more than once along the line, or
	// changes the wrong way (tipping at the mild end, recovering beyond).
	NonMonotone Status = "non-monotone"
	// Aborted: a point's cell was stopped at the memory cap; the search
	// stopped there.
	Aborted Status = "aborted"
)

// Region is where a combination of the other axes lies for a search over a
// fault's key: stable (no trigger in range tips it), vulnerable (a large
// enough trigger does) or overloaded (unhealthy without any trigger).
type Region string

const (
	Stable     Region = "stable"
	Vulnerable Region = "vulnerable"
	Overload   Region = "overloaded"
)
