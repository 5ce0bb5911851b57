package model

import "strconv"

func fmt1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
func pct(x float64) string  { return strconv.FormatFloat(100*x, 'f', 0, 64) }
