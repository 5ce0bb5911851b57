package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
)

// BuildVersion names the build of stormlab that computes results: its
// module version, the commit it was built from, the Go release and the
// platform; and when that does not pin the code (no commit recorded, as
// with -buildvcs=false, or a tree with changes), a hash of the executable
// itself. Shards merge only when they were computed by the same build,
// since the bytes of a number are only promised for one build (a compiler
// may fuse a multiply and an add on one platform and not on another).
func BuildVersion() string {
	mod, rev, pinned := "(devel)", "", false
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			mod = info.Main.Version
		}
		modified := false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value[:min(len(s.Value), 12)]
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
		pinned = rev != "" && !modified
		if rev != "" && modified {
			rev += "+changes"
		}
	}
	v := "stormlab " + mod
	if rev != "" {
		v += " rev " + rev
	}
	v = fmt.Sprintf("%s %s %s/%s", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if !pinned {
		if sum, err := executableHash(); err == nil {
			v += " exe " + sum
		}
	}
	return v
}

// executableHash is the start of the SHA-256 of the running executable.
func executableHash() (string, error) {
	path, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}
