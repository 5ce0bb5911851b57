package tipping

import "golang.org/x/sync/errgroup"

// walk runs a search's points over a line of n points: first the scan's
// points, evenly spread, both ends included, side by side; then, side by
// side, every stretch between two neighbouring scan points whose verdicts
// differ, bisected down to neighbouring points. eval runs point i, or
// returns it as run before. A point stopped at the memory cap ends the
// walk (after the scan) or its bisection.
func walk(n, scan int, eval func(i int) (*Eval, error)) error {
	pts := scanPoints(n, scan)
	evals := make([]*Eval, len(pts))
	if err := each(len(pts), func(j int) (err error) { evals[j], err = eval(pts[j]); return err }); err != nil {
		return err
	}
	for _, e := range evals {
		if e.Aborted != "" {
			return nil
		}
	}
	return each(len(pts)-1, func(j int) error {
		tips := evals[j].Tips()
		if tips == evals[j+1].Tips() {
			return nil
		}
		return bisect(pts[j], pts[j+1], eval, func(m *Eval) bool { return m.Tips() == tips })
	})
}

// bisect narrows the stretch between points a and b, where like(a) holds
// and like(b) does not, down to neighbouring points, running the point
// halfway each time and keeping the half whose ends still differ. It stops
// at a point stopped at the memory cap.
func bisect(a, b int, eval func(i int) (*Eval, error), like func(e *Eval) bool) error {
	for abs(b-a) > 1 {
		m, err := eval((a + b) / 2)
		if err != nil {
			return err
		}
		if m.Aborted != "" {
			return nil
		}
		if like(m) {
			a = m.Index
		} else {
			b = m.Index
		}
	}
	return nil
}

// narrow finds the ends of a stochastic estimate's interval to the line's
// resolution: between the bracket's mild end (point rec) and the nearest
// point on its mild side certain to recover, it bisects for the point
// nearest the bracket that is still certain to recover, and likewise on the
// severe side for the nearest point certain to tip. evals are the points
// run so far, in line order. With more replicates the Wilson intervals
// narrow, points nearer the boundary become certain, and so the interval
// narrows.
func narrow(evals []Eval, rec, tip int, eval func(i int) (*Eval, error)) error {
	sureRec, sureTip := -1, -1
	for i := range evals {
		e := &evals[i]
		if e.Index <= rec && e.SureRecovers() {
			sureRec = e.Index
		}
		if e.Index >= tip && e.SureTips() && sureTip < 0 {
			sureTip = e.Index
		}
	}
	sides := []struct {
		sure, unsure int
		holds        func(e *Eval) bool
	}{
		{sureRec, rec, (*Eval).SureRecovers},
		{sureTip, tip, (*Eval).SureTips},
	}
	return each(len(sides), func(j int) error {
		sd := sides[j]
		if sd.sure < 0 {
			return nil // no point on that side is certain: the interval stays open
		}
		return bisect(sd.sure, sd.unsure, eval, sd.holds)
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// each runs f(0), …, f(n−1) side by side and returns the first error.
func each(n int, f func(j int) error) error {
	var g errgroup.Group
	for j := 0; j < n; j++ {
		g.Go(func() error { return f(j) })
	}
	return g.Wait()
}
