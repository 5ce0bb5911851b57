package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/stormlab/stormlab/cmd/stormlab/pipeline"
)

// manualRef is where every usage text sends its reader for the rest.
const manualRef = "The manual: go doc github.com/stormlab/stormlab/cmd/stormlab"

// setFlags collects repeated -set PATH=VALUE flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

// parse parses flags that may come before, between or after the file
// arguments, and returns the files. -h returns flag.ErrHelp, which exits 0;
// with need set, no file is a usage error.
func parse(fs *flag.FlagSet, args []string, need bool) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &usageError{err.Error()}
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if need && len(files) == 0 {
		fs.Usage()
		return nil, &usageError{fs.Name() + " needs at least one experiment file"}
	}
	return files, nil
}

// newFlagSet is a subcommand's FlagSet, whose usage is text and then its
// flags.
func newFlagSet(stderr io.Writer, name, text string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, text)
		fs.PrintDefaults()
	}
	return fs
}

// given reports whether the flag was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// regenerate is the command line that writes the same report again: the
// flags that change what it holds or where it goes, then the file.
func regenerate(fs *flag.FlagSet, file string) string {
	parts := []string{"stormlab", "run"}
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "j", "shard":
		case "set":
			for _, s := range *f.Value.(*setFlags) {
				parts = append(parts, "-set", pipeline.ShellQuote(s))
			}
		case "refine", "figures":
			if f.Value.String() == "true" {
				parts = append(parts, "-"+f.Name)
			} else {
				parts = append(parts, "-"+f.Name+"=false")
			}
		default:
			parts = append(parts, "-"+f.Name, pipeline.ShellQuote(f.Value.String()))
		}
	})
	return strings.Join(append(parts, pipeline.ShellQuote(file)), " ")
}

// orAllExperiments is files, or every experiments/*.toml when none are
// given (check and serve default to them).
func orAllExperiments(files []string) ([]string, error) {
	if len(files) > 0 {
		return files, nil
	}
	all, err := filepath.Glob("experiments/*.toml")
	if err != nil || len(all) == 0 {
		return nil, &usageError{"no experiment files given and none in experiments/"}
	}
	return all, nil
}
