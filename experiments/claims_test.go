package experiments

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stormlab/stormlab/experiments/spec"
)

// comparing matches the words with which a finding compares or judges:
// such a sentence is a claim about its numbers and must say which, in its
// holds, so that the report can check it.
var comparing = regexp.MustCompile(`(?i)\b(never|earlier|later|sooner|rescues?|rescued|recover(s|ed|ing)?|tips?|tipped|stuck|drain(s|ed|ing)?|faster|slower|more than|less than|fewer|cuts?|halves|doubles|worse|better)\b`)

// TestComparingFindingsCarryClaims: every finding and answer of the
// committed experiments whose words compare or judge carries claims that
// say what it claims; the reports check them (reports.TestCommittedFindingsHold).
func TestComparingFindingsCarryClaims(t *testing.T) {
	files, _ := filepath.Glob("*.toml")
	for _, f := range files {
		e, err := Load(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		check := func(key string, fs []spec.Finding) {
			for i, fd := range fs {
				var text strings.Builder
				for _, p := range fd.Parts {
					text.WriteString(p.Text)
				}
				if w := comparing.FindString(text.String()); w != "" && len(fd.Claims) == 0 {
					t.Errorf("%s: %s.%d says %q but claims nothing: give it holds = [...]", f, key, i, w)
				}
			}
		}
		check("answer", e.Answer)
		check("findings", e.Findings)
	}
}
