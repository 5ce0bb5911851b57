package model

// expAverage is the library's exponential average: the plain mean of the
// first warmup samples, then each sample weighted 2 / (window + 1).
type expAverage struct {
	value, sum     float64
	window, warmup int
	count          int
}

func (e *expAverage) add(x float64) float64 {
	if e.count < e.warmup {
		e.count++
		e.sum += x
		e.value = e.sum / float64(e.count)
		return e.value
	}
	f := 2 / (float64(e.window) + 1)
	e.value = e.value*(1-f) + x*f
	return e.value
}
