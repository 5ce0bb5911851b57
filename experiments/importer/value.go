package importer

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stormlab/stormlab/experiments"
	"github.com/stormlab/stormlab/experiments/sweep"
	"github.com/stormlab/stormlab/model"
)

// bad is an error at the field n.
func bad(n *node, format string, args ...any) *experiments.Error {
	return &experiments.Error{File: n.file, Line: n.line, Col: n.col, Key: n.path(), Msg: fmt.Sprintf(format, args...)}
}

// table checks that n is a table whose fields, in the format's spelling,
// are all among allowed (a proto table's "@type" is always allowed), and
// names the one that is not with the fields the table has and the
// nearest of them.
func table(n *node, what string, canon func(string) string, allowed []string) error {
	if n.kind != mapNode {
		return bad(n, "must be a table of fields (%s), got %s", what, describe(n))
	}
	for i, k := range n.keys {
		c := canon(k)
		if c == "@type" || slices.Contains(allowed, c) {
			continue
		}
		return bad(n.items[i], "unknown field %q%s; %s has %s", k, sweep.DidYouMean(c, allowed), what, strings.Join(allowed, ", "))
	}
	return nil
}

// describe names what n holds, for an error.
func describe(n *node) string {
	switch n.kind {
	case mapNode:
		return "a table"
	case listNode:
		return "a list"
	}
	if n.tag == "!!str" {
		return strconv.Quote(n.value)
	}
	return n.value
}

// list checks that n is a list.
func list(n *node) error {
	if n.kind != listNode {
		return bad(n, "must be a list, got %s", describe(n))
	}
	return nil
}

// text reads a string.
func text(n *node) (string, error) {
	if n.kind != scalarNode || n.tag != "!!str" {
		return "", bad(n, "must be a string, got %s", describe(n))
	}
	return n.value, nil
}

// integer reads a whole number: a number, or a string holding one (proto
// JSON writes 64-bit integers as strings).
func integer(n *node) (int64, error) {
	if n.kind == scalarNode && (n.tag == "!!int" || n.tag == "!!str" || n.tag == "!!float") {
		if v, err := strconv.ParseInt(strings.TrimSpace(n.value), 10, 64); err == nil {
			return v, nil
		}
		if f, err := strconv.ParseFloat(n.value, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return int64(f), nil
		}
	}
	return 0, bad(n, "must be a whole number, got %s", describe(n))
}

// whole reads a whole number from lo to hi (integer's forms); why, when
// not empty, says where the range comes from.
func whole(n *node, lo, hi int64, why string) (int64, error) {
	v, err := integer(n)
	if err != nil {
		return 0, err
	}
	if v < lo || v > hi {
		if why != "" {
			why = " (" + why + ")"
		}
		return 0, bad(n, "must be a whole number from %d to %d%s, got %d", lo, hi, why, v)
	}
	return v, nil
}

// retryCount reads a policy's count of retries: stormlab's attempts, one
// more than the retries, go to 1000.
func retryCount(n *node) (int64, error) {
	return whole(n, 0, 999, "stormlab's attempts go to 1000")
}

// number reads a number, or a string holding one.
func number(n *node) (float64, error) {
	if n.kind == scalarNode && (n.tag == "!!int" || n.tag == "!!float" || n.tag == "!!str") {
		if v, err := strconv.ParseFloat(strings.TrimSpace(n.value), 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
			return v, nil
		}
	}
	return 0, bad(n, "must be a number, got %s", describe(n))
}

// boolean reads true or false.
func boolean(n *node) (bool, error) {
	if n.kind == scalarNode && n.tag == "!!bool" {
		switch strings.ToLower(n.value) {
		case "true", "yes", "on":
			return true, nil
		case "false", "no", "off":
			return false, nil
		}
	}
	return false, bad(n, "must be true or false, got %s", describe(n))
}

// protoSeconds is a proto3 JSON Duration: seconds with up to nine
// decimals and an "s".
var protoSeconds = regexp.MustCompile(`^(\d*)(?:\.(\d{1,9}))?s$`)

// protoDuration reads a proto3 JSON Duration ("0.1s", ".5s", "15s"), as
// the gRPC service config and Envoy's YAML and JSON write durations.
func protoDuration(n *node) (model.Duration, error) {
	s, err := text(n)
	m := protoSeconds.FindStringSubmatch(s)
	if err != nil || m == nil || m[1] == "" && m[2] == "" {
		return 0, bad(n, "must be a duration written as seconds with an \"s\" (\"0.25s\", \"15s\"), got %s", describe(n))
	}
	secs, err := strconv.ParseInt(zero(m[1]), 10, 64)
	if err != nil || secs > 315576000000 {
		return 0, bad(n, "must be at most 315576000000s, the longest proto Duration, got %s", describe(n))
	}
	nanos, _ := strconv.ParseInt((m[2] + "000000000")[:9], 10, 64)
	if secs > int64(model.MaxDuration/model.Duration(time.Second))-1 {
		return 0, bad(n, "is too long: stormlab's spans end at %v", model.MaxDuration)
	}
	return model.Duration(secs*int64(time.Second) + nanos), nil
}

func zero(s string) string {
	if s == "" {
		return "0"
	}
	return s
}

// goDuration reads a duration written as Kubernetes resources write them
// ("300ms", "2s", "1h"), as Istio and Linkerd take them.
func goDuration(n *node) (model.Duration, error) {
	s, err := text(n)
	if err == nil {
		if d, perr := time.ParseDuration(s); perr == nil && d >= 0 {
			return model.Duration(d), nil
		}
	}
	return 0, bad(n, "must be a duration such as \"300ms\", \"2s\" or \"1h\", got %s", describe(n))
}

// retriesSays is "one try and up to n retries", in words.
func retriesSays(n int64) string {
	if n == 1 {
		return "one try and up to 1 retry"
	}
	return fmt.Sprintf("one try and up to %d retries", n)
}
