package experiments

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// position is a 1-based line and column (column counted in runes) in a TOML source.
type position struct{ Line, Col int }

// String formats p as "line:col", the form used in "file:line:col: key: message".
func (p position) String() string {
	return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// maxKeyNesting bounds how deeply arrays and inline tables are followed, so that absurd inputs
// cannot exhaust the stack (or build quadratically many path bytes). Scanning stops there.
const maxKeyNesting = 1000

// keyPositions maps every key path of a TOML document to the position where that key is written.
//
// Paths join segments with "." and name elements of arrays by their 0-based index, the same shape
// flattening the document decoded into map[string]any gives: a table [scenario.dependency] with
// capacity = 1 gives "scenario.dependency" and "scenario.dependency.capacity"; the second
// [[policy]] element's name key gives "policy.1.name" (and the element itself "policy.1");
// x = [{a = 1}, {a = 2}] gives "x", "x.0", "x.0.a", "x.1", "x.1.a"; a plain array y = [1, 2]
// gives "y", "y.0", "y.1" (position of each element's value).
//
// Dotted keys (a.b.c = 1) give "a", "a.b", "a.b.c", each at its own segment. Quoted keys are
// unquoted ("a b" stays one segment); a segment that contains a dot is kept as is, so
// "a.b" = 1 and a.b = 1 share the path "a.b".
//
// A key written more than once (a table header implied by a dotted key, etc.) keeps its first
// position. The position of a key is where its key token starts; for [[policy]] elements it is
// where the header's "[[" starts, for array elements where the value starts.
//
// The source is assumed to be a document BurntSushi/toml has already parsed; on invalid input
// the result is whatever could be found, and the scan always terminates without panicking.
func keyPositions(src []byte) map[string]position {
	s := &keyScanner{
		src:  src,
		pos:  position{Line: 1, Col: 1},
		keys: make(map[string]position),
		aot:  make(map[string]int),
	}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		s.off = len("\uFEFF") // a BOM is invisible: it does not count as a column
	}
	var table []string // path of the current [table] or [[array]] element
	for s.off < len(s.src) {
		s.skipBlank(true)
		switch s.peek() {
		case -1:
		case '[':
			table = s.header()
		default:
			s.keyValue(table)
		}
		s.skipLine()
	}
	return s.keys
}

// keyScanner is the state of one keyPositions scan.
type keyScanner struct {
	src   []byte
	off   int                 // byte offset of the next rune
	pos   position            // position of the next rune
	keys  map[string]position // the result
	aot   map[string]int      // elements seen so far per array of tables, by tablePathID
	depth int                 // current nesting of values
}

// keySegment is one part of a (possibly dotted) key, unquoted, with where it is written.
type keySegment struct {
	name string
	pos  position
}

// peek returns the next rune without consuming it, or -1 at the end of the source.
func (s *keyScanner) peek() rune {
	if s.off >= len(s.src) {
		return -1
	}
	r, _ := utf8.DecodeRune(s.src[s.off:])
	return r
}

// next consumes one rune (an invalid byte counts as one rune), tracking line and column.
func (s *keyScanner) next() {
	if s.off >= len(s.src) {
		return
	}
	r, w := utf8.DecodeRune(s.src[s.off:])
	s.off += w
	if r == '\n' {
		s.pos.Line++
		s.pos.Col = 1
	} else {
		s.pos.Col++
	}
}

// lookingAt reports whether the unconsumed source starts with prefix.
func (s *keyScanner) lookingAt(prefix string) bool {
	return bytes.HasPrefix(s.src[s.off:], []byte(prefix))
}

// skipBlank skips spaces, tabs, carriage returns and comments, and newlines too if newlines is set.
// A comment is skipped up to, not including, its newline.
func (s *keyScanner) skipBlank(newlines bool) {
	for {
		switch s.peek() {
		case ' ', '\t', '\r':
			s.next()
		case '\n':
			if !newlines {
				return
			}
			s.next()
		case '#':
			for r := s.peek(); r != -1 && r != '\n'; r = s.peek() {
				s.next()
			}
		default:
			return
		}
	}
}

// skipLine consumes the rest of the current line, including its newline.
func (s *keyScanner) skipLine() {
	for r := s.peek(); r != -1; r = s.peek() {
		s.next()
		if r == '\n' {
			return
		}
	}
}

// record stores the position of path unless it already has one.
func (s *keyScanner) record(path []string, p position) {
	k := strings.Join(path, ".")
	if _, ok := s.keys[k]; !ok {
		s.keys[k] = p
	}
}

// tablePathID identifies a table path unambiguously, even when segments contain dots.
func tablePathID(path []string) string {
	return fmt.Sprintf("%q", path)
}

// header scans a [table] or [[array]] header, records its keys and returns the path of the
// table that the following key/value pairs belong to.
func (s *keyScanner) header() []string {
	start := s.pos
	s.next() // '['
	array := s.peek() == '['
	if array {
		s.next()
	}
	keys := s.key()
	path := s.keyPath(nil, keys)
	if array && len(keys) > 0 {
		id := tablePathID(path)
		n := s.aot[id]
		s.aot[id] = n + 1
		path = append(path, strconv.Itoa(n))
		s.record(path, start)
	}
	return path
}

// keyValue scans "key = value" in the table at path table, recording the key and its contents.
func (s *keyScanner) keyValue(table []string) {
	keys := s.key()
	if len(keys) == 0 {
		return
	}
	path := s.keyPath(table, keys)
	s.skipBlank(false)
	if s.peek() != '=' {
		return
	}
	s.next()
	s.value(path)
}

// keyPath records the segments of keys below the path base and returns the resulting path.
// A segment that names an array of tables, other than the last one, refers to the array's last
// element: [a.b] after [[a]] is b in the last a (BurntSushi also reads dotted keys this way).
func (s *keyScanner) keyPath(base []string, keys []keySegment) []string {
	path := base[:len(base):len(base)] // appending must not write into the caller's slice
	for i, k := range keys {
		path = append(path, k.name)
		s.record(path, k.pos)
		if n := s.aot[tablePathID(path)]; n > 0 && i < len(keys)-1 {
			path = append(path, strconv.Itoa(n-1))
		}
	}
	return path
}

// key scans a possibly dotted key and returns its segments; none if there is no key here.
func (s *keyScanner) key() []keySegment {
	var segs []keySegment
	for {
		s.skipBlank(false)
		p := s.pos
		name, ok := s.simpleKey()
		if !ok {
			return segs
		}
		segs = append(segs, keySegment{name, p})
		s.skipBlank(false)
		if s.peek() != '.' {
			return segs
		}
		s.next()
	}
}

// simpleKey scans one bare, "basic" or 'literal' key segment and returns its unquoted name.
func (s *keyScanner) simpleKey() (string, bool) {
	switch r := s.peek(); {
	case r == '"':
		s.next()
		return unescapeBasic(s.quoted('"')), true
	case r == '\'':
		s.next()
		return s.quoted('\''), true
	case isBareKeyRune(r):
		start := s.off
		for isBareKeyRune(s.peek()) {
			s.next()
		}
		return string(s.src[start:s.off]), true
	}
	return "", false
}

// isBareKeyRune reports whether r may appear in a bare key: A-Z a-z 0-9 _ - (and, leniently,
// any non-ASCII rune, which TOML 1.0 only allows quoted).
func isBareKeyRune(r rune) bool {
	return 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' ||
		r == '_' || r == '-' || r >= utf8.RuneSelf
}

// quoted scans the rest of a single-line string whose opening quote q is consumed, consumes the
// closing quote and returns the raw text in between (escapes left as written for '"').
func (s *keyScanner) quoted(q rune) string {
	start := s.off
	for {
		switch r := s.peek(); r {
		case -1, '\n':
			return string(s.src[start:s.off])
		case q:
			raw := string(s.src[start:s.off])
			s.next()
			return raw
		case '\\':
			s.next()
			if q == '"' && s.peek() != '\n' {
				s.next() // the escaped rune, which may be a quote
			}
		default:
			s.next()
		}
	}
}

// skipString consumes a basic, literal or multi-line string value starting at its opening quote.
func (s *keyScanner) skipString() {
	q := s.peek()
	triple := strings.Repeat(string(q), 3)
	if !s.lookingAt(triple) {
		s.next()
		s.quoted(q)
		return
	}
	s.next()
	s.next()
	s.next()
	for s.peek() != -1 {
		switch {
		case q == '"' && s.peek() == '\\':
			s.next()
			s.next()
		case s.lookingAt(triple):
			s.next()
			s.next()
			s.next()
			// Up to two more quotes belong to the content: """a""""" is `a""`.
			for i := 0; i < 2 && s.peek() == q; i++ {
				s.next()
			}
			return
		default:
			s.next()
		}
	}
}

// value scans the value of the key at path, recording the elements of arrays and the keys of
// inline tables.
func (s *keyScanner) value(path []string) {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxKeyNesting {
		s.off = len(s.src) // give up: nothing after this point is recorded
		return
	}
	s.skipBlank(false)
	switch s.peek() {
	case '"', '\'':
		s.skipString()
	case '[':
		s.array(path)
	case '{':
		s.inlineTable(path)
	default: // number, boolean or date-time (which may contain a space)
		for r := s.peek(); r != -1 && !strings.ContainsRune(",]}#\n", r); r = s.peek() {
			s.next()
		}
	}
}

// array scans an array value starting at '[', recording each element as path.<index>.
func (s *keyScanner) array(path []string) {
	s.next() // '['
	for i := 0; ; i++ {
		s.skipBlank(true)
		switch s.peek() {
		case -1:
			return
		case ']':
			s.next()
			return
		}
		start := s.off
		elem := append(path[:len(path):len(path)], strconv.Itoa(i))
		s.record(elem, s.pos)
		s.value(elem)
		s.skipBlank(true)
		if s.peek() == ',' || s.off == start {
			s.next() // the separator, or a stray rune in invalid input
		}
	}
}

// inlineTable scans an inline table starting at '{', recording its keys under path. Newlines
// and comments are allowed inside, as in TOML 1.1.
func (s *keyScanner) inlineTable(path []string) {
	s.next() // '{'
	for {
		s.skipBlank(true)
		switch s.peek() {
		case -1:
			return
		case '}':
			s.next()
			return
		}
		start := s.off
		s.keyValue(path)
		s.skipBlank(true)
		if s.peek() == ',' || s.off == start {
			s.next() // the separator, or a stray rune in invalid input
		}
	}
}

// unescapeBasic decodes the escape sequences of a basic string as BurntSushi/toml does
// (\b \t \n \f \r \e \" \\ \xHH \uHHHH \UHHHHHHHH); anything else is kept as written.
func unescapeBasic(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw
	}
	simple := map[byte]string{'b': "\b", 't': "\t", 'n': "\n", 'f': "\f", 'r': "\r", 'e': "\x1b", '"': `"`, '\\': `\`}
	hexLen := map[byte]int{'x': 2, 'u': 4, 'U': 8}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			b.WriteByte(raw[i])
			continue
		}
		c := raw[i+1]
		if r, ok := simple[c]; ok {
			b.WriteString(r)
			i++
			continue
		}
		if n, ok := hexLen[c]; ok && i+2+n <= len(raw) {
			if v, err := strconv.ParseUint(raw[i+2:i+2+n], 16, 32); err == nil {
				b.WriteRune(rune(v))
				i += 1 + n
				continue
			}
		}
		b.WriteByte(raw[i])
	}
	return b.String()
}
