package plots

// This file holds what the kinds' findings share.

// sample keeps at most n items, evenly spread and keeping the ends.
func sample(items []string, n int) []string {
	if len(items) <= n {
		return items
	}
	out := make([]string, 0, n+1)
	for i := 0; i < n-1; i++ {
		out = append(out, items[i*(len(items)-1)/(n-1)])
	}
	out = append(out, "…", items[len(items)-1])
	return out
}

// aboutRecovery reports whether a figure's metric is recovery (the
// default), which the phase and lines findings describe; a figure of
// another metric leaves its numbers to the author's findings.
func aboutRecovery(metric string) bool {
	switch metric {
	case "", "recovery_s", "recovered", "recovered_share":
		return true
	}
	return false
}

// replicated reports whether any of the rows at idx ran several
// replicates.
func replicated(rows []Row, idx []int) bool {
	for _, i := range idx {
		if rows[i].Result.Replicates > 1 {
			return true
		}
	}
	return false
}
