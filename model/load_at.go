package model

// LoadAt is the open-loop load in requests per second the plan offers at
// tick t, as the arrivals draw it: the load in force then (after any
// change), or its shape's value at t; faults (spikes) left out.
func (p *Plan) LoadAt(t int64) float64 {
	q := p.planAt(t)
	if len(q.Shape) == 0 {
		return q.Load
	}
	a := arrivals{p: q}
	return a.shapeAt(t)
}
