package importer

import (
	"strings"
)

// MappingMarkdown is the documentation's mapping, generated from the
// formats' Rules: per format, the published documents it follows and a
// table of its fields, the scenario keys each sets (none when stormlab
// does not model it) and the semantics.
func MappingMarkdown() string {
	var b strings.Builder
	for _, f := range Formats() {
		b.WriteString("\n**" + capitalize(f.Doc) + "** (`-format " + f.Name + "`), after " + f.Sources + ":\n\n")
		b.WriteString("| field | keys | semantics, or why it is not modelled |\n|---|---|---|\n")
		for _, r := range f.Rules {
			keys := "not modelled"
			if len(r.Keys) > 0 {
				keys = "`" + strings.Join(r.Keys, "`, `") + "`"
			}
			b.WriteString("| `" + r.Field + "` | " + keys + " | " + strings.ReplaceAll(r.Says, "|", "\\|") + " |\n")
		}
	}
	b.WriteString("\n")
	return b.String()
}

// capitalize drops a format's article and capitalizes its first word,
// unless the word is a name spelled with capitals inside (gRPC).
func capitalize(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "a "), "an ")
	if len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
