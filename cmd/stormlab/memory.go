package main

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// memoryFlag is -max-memory: the bytes of live simulation state one cell may
// hold, written as model.Bytes writes sizes ("500MB", "1.5GB"; 1 MB = 2^20
// bytes), or 0 for no cap. Unset, the cap is defaultMemory over the workers.
type memoryFlag struct {
	bytes int64
	text  string // as given
	set   bool
}

func (m *memoryFlag) String() string {
	if m == nil {
		return ""
	}
	return m.text
}

func (m *memoryFlag) Set(s string) error {
	n, err := parseBytes(s)
	if err != nil {
		return err
	}
	m.bytes, m.text, m.set = n, s, true
	return nil
}

// perCell is the cap for each of workers cells running at once: the flag's
// value, or by default half the machine's memory shared among the workers.
func (m *memoryFlag) perCell(workers int) int64 {
	if m.set {
		return m.bytes
	}
	return defaultMemory() / int64(max(1, workers))
}

// parseBytes reads a size: a number and a unit (B, KB, MB, GB, TB, each
// 1024 times the one before, as model.Bytes writes them; KiB, MiB... and K,
// M, G alike), or a bare number of bytes.
func parseBytes(s string) (int64, error) {
	units := []struct {
		suffix string
		scale  float64
	}{
		{"KIB", 1 << 10}, {"MIB", 1 << 20}, {"GIB", 1 << 30}, {"TIB", 1 << 40},
		{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"TB", 1 << 40},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
		{"B", 1},
	}
	t := strings.ToUpper(strings.TrimSpace(s))
	scale := 1.0
	for _, u := range units {
		if strings.HasSuffix(t, u.suffix) {
			t, scale = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.scale
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || x < 0 || math.IsInf(x, 0) || x*scale > math.MaxInt64/2 {
		return 0, fmt.Errorf("want a size such as 500MB or 2GB (0 = no cap), got %q", s)
	}
	return int64(x * scale), nil
}

// assumedMemory is the machine's memory where /proc/meminfo does not say.
const assumedMemory = 8 << 30

// defaultMemory is the share of the machine's memory the cells of a run may
// hold together: half of MemTotal in /proc/meminfo (of 8 GB where there is
// none).
func defaultMemory() int64 {
	total := int64(assumedMemory)
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		if kb, ok := memTotal(data); ok {
			total = kb << 10
		}
	}
	return total / 2
}

// memTotal reads MemTotal, in kB, from the text of /proc/meminfo.
func memTotal(meminfo []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(meminfo))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb, err == nil && kb > 0
		}
	}
	return 0, false
}
