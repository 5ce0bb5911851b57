package model

// lossServer answers each call as it comes: the first calls of a tick, up to
// the tick's capacity, are served; the rest fail at once. Nothing waits.
// Overload collapse measures the calls offered over its window.
type lossServer struct {
	s           *stoch
	cr          credit
	cl          collapse
	left, start int64 // calls the tick may still serve, and could at its start
}

func (l *lossServer) begin(t int64, sg *Segment) {
	n, ok := int64(0), false
	if l.cl.offered == nil {
		n, ok = l.cr.takeWhole(sg.PerTick)
	} else {
		l.cl.advance(t)
	}
	if !ok {
		n = l.cr.take(sg.CapRate * l.cl.keep(sg.CapRate, 0) / l.s.p.TPS)
	}
	l.left, l.start = n, n
}

func (l *lossServer) arrive(g *group, n int64) {
	if l.cl.offered != nil {
		l.cl.offer(l.s.now, n)
	}
	k := min(n, l.left)
	l.left -= k
	if k > 0 {
		l.s.completeServed(g, k)
	}
	if r := n - k; r > 0 {
		l.s.fail(g, r, 0)
	}
}

func (l *lossServer) work(int64, *Segment, []event) {}

func (l *lossServer) end() { l.cr.spend(l.start - l.left) }

func (l *lossServer) backlog() int64 { return 0 }

func (l *lossServer) next(int64) int64 { return never }

func (l *lossServer) idle(a, b int64) { idleCredit(l.s, &l.cr, a, b) }

func (l *lossServer) withdraw(*group, int64) {}

func (l *lossServer) entries() int64 { return 0 }

func (l *lossServer) adopt(old, np *Plan) {
	if old.Collapse != np.Collapse {
		l.cl = newCollapse(np.Collapse)
	}
}
