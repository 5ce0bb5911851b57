package model

import (
	"bufio"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
	"testing"
)

// metaforRun is one run of Metafor's single-server chain, as recorded in
// testdata/metafor/outputs.txt.
type metaforRun struct {
	lambda  float64
	retries int
	values  map[string]float64
}

// metaforRuns reads the recorded runs of Metafor.
func metaforRuns(t *testing.T) []metaforRun {
	t.Helper()
	f, err := os.Open("testdata/metafor/outputs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var runs []metaforRun
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) > 0 && fields[0] == "##":
			runs = append(runs, metaforRun{values: map[string]float64{}})
		case len(fields) == 0 || strings.HasPrefix(fields[0], "#") || len(runs) == 0:
		case fields[0] == "lambda":
			run := &runs[len(runs)-1]
			run.lambda, _ = strconv.ParseFloat(fields[1], 64)
			run.retries, _ = strconv.Atoi(fields[3])
		case len(runs) > 0 && len(fields) == 2:
			v, err := strconv.ParseFloat(fields[1], 64)
			if err != nil {
				t.Fatalf("%s: %v", sc.Text(), err)
			}
			runs[len(runs)-1].values[fields[0]] = v
		}
	}
	if len(runs) == 0 {
		t.Fatal("no run recorded")
	}
	return runs
}

// metaforPlan is the chain of Metafor's README example: a server of one
// worker at 10 calls a second, qsize 100 (99 calls at most), orbit_size 20
// (19 calls at most), a 3 s timeout.
func metaforPlan(lambda float64, retries int) MarkovPlan {
	return MarkovPlan{Arrival: lambda, Service: 10, Workers: 1, Limit: 99, Orbit: 19, Timeout: 3, Retries: retries,
		Alpha: metaforAlpha, High: 30, Horizon: 3600}
}

// TestMarkovMetafor: the chain of Metafor's README example, and of three
// more points of its single-server study, gives Metafor's own stationary
// means, second eigenvalue and hitting times within 0.1%.
func TestMarkovMetafor(t *testing.T) {
	long(t)
	for _, run := range metaforRuns(t) {
		p := metaforPlan(run.lambda, run.retries)
		m, notes := analyseMarkov(p)
		if len(notes) > 0 {
			t.Errorf("λ %g, %d retries: %v", run.lambda, run.retries, notes)
		}
		c := newMarkovChain(p)
		fill := c.hittingTime(c.index(0, 0), func(i int) bool { q, _ := c.level(i); return q < p.Limit }, false)
		got := map[string]float64{
			"states":      m.States,
			"queue_mean":  m.QueueMean,
			"orbit_mean":  m.OrbitMean,
			"eigenvalue2": -m.Gap,
			"mixing_time": math.Log2(100) / m.Gap,
			"fill_time":   fill,
			"drain_time":  m.DrainS,
		}
		for name, g := range got {
			want, ok := run.values[name]
			if !ok {
				t.Fatalf("λ %g: %s not recorded", run.lambda, name)
			}
			if rel := math.Abs(g-want) / math.Abs(want); rel > 1e-3 && name == "drain_time" {
				// Metafor solves densely in double precision, with a
				// condition number near the hitting time × the rates:
				// its own value is then the one off. Both against an
				// elimination in 256-bit floats.
				ref := bigHittingTime(c, c.index(p.Limit, p.Orbit), func(i int) bool { return i != c.index(0, 0) })
				if e := math.Abs(g-ref) / ref; e > 1e-9 {
					t.Errorf("λ %g, %d retries: drain_time = %.10g, 256-bit elimination %.10g (%.2g apart)", run.lambda, run.retries, g, ref, e)
				}
				if e := math.Abs(want-ref) / ref; e <= 1e-3 {
					t.Errorf("λ %g, %d retries: drain_time = %.10g, Metafor %.10g within 0.1%% of the 256-bit %.10g, the chain %.2g apart", run.lambda, run.retries, g, want, ref, rel)
				}
				t.Logf("λ %g, %d retries: drain_time = %.10g, Metafor %.10g (%.2g apart); 256-bit elimination %.10g", run.lambda, run.retries, g, want, rel, ref)
			} else if rel > 1e-3 {
				t.Errorf("λ %g, %d retries: %s = %.10g, Metafor %.10g (%.2g apart)", run.lambda, run.retries, name, g, want, rel)
			} else {
				t.Logf("λ %g, %d retries: %s = %.10g, Metafor %.10g (%.2g apart)", run.lambda, run.retries, name, g, want, rel)
			}
		}
	}
}

// bigHittingTime is hittingTime by plain Gaussian elimination of M = D − R
// in 256-bit floats, a reference for the banded elimination in doubles.
func bigHittingTime(c *markovChain, from int, in func(i int) bool) float64 {
	s, kept := newBandSolver(c, in, 0, false) // for its band and numbering only
	n, w := s.n, s.w
	pos := make([]int, c.states())
	for i := range pos {
		pos[i] = -1
	}
	for k, i := range kept {
		pos[i] = k
	}
	const prec = 256
	nf := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	a := make([][]*big.Float, n) // row k, columns k−w..k+w
	b := make([]*big.Float, n)
	for k, i := range kept {
		a[k] = make([]*big.Float, 2*w+1)
		for j := range a[k] {
			a[k][j] = nf(0)
		}
		b[k] = nf(1)
		for e := c.ptr[i]; e < c.ptr[i+1]; e++ { // the diagonal summed exactly
			a[k][w].Add(a[k][w], nf(c.rate[e]))
			if j := pos[c.to[e]]; j >= 0 {
				a[k][j-k+w].Sub(a[k][j-k+w], nf(c.rate[e]))
			}
		}
	}
	t := new(big.Float).SetPrec(prec)
	for k := range n {
		for i := k + 1; i <= min(n-1, k+w); i++ {
			if a[i][k-i+w].Sign() == 0 {
				continue
			}
			f := new(big.Float).SetPrec(prec).Quo(a[i][k-i+w], a[k][w])
			for l := k; l <= min(n-1, k+w); l++ {
				a[i][l-i+w].Sub(a[i][l-i+w], t.Mul(f, a[k][l-k+w]))
			}
			b[i].Sub(b[i], t.Mul(f, b[k]))
		}
	}
	x := make([]*big.Float, n)
	for k := n - 1; k >= 0; k-- {
		sum := new(big.Float).SetPrec(prec).Set(b[k])
		for l := k + 1; l <= min(n-1, k+w); l++ {
			sum.Sub(sum, t.Mul(a[k][l-k+w], x[l]))
		}
		x[k] = sum.Quo(sum, a[k][w])
	}
	v, _ := x[pos[from]].Float64()
	return v
}
