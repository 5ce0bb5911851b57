package reports

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// LabFolder is the folder of an experiment's folder that stormlab lab
// writes: DIR/<name>/lab.
const LabFolder = "lab"

// WriteLab replaces dir/<name>/lab/ with files, as Write replaces an
// experiment's folder: written beside it and swapped in by rename, and only
// into dir/<name> when that is absent (it is then created, with the
// marker) or a folder stormlab wrote. The error is a *RefusedError for a
// folder stormlab did not write.
func WriteLab(dir, name string, files []File) error {
	exp := filepath.Join(dir, name)
	if err := replaceable(exp); err != nil {
		return err
	}
	if _, err := os.Stat(exp); errors.Is(err, fs.ErrNotExist) {
		if err := writeDir(exp, []File{{Marker, bytesOf([]byte(markerText))}}); err != nil {
			return err
		}
	}
	return writeDir(filepath.Join(exp, LabFolder), append([]File{{Marker, bytesOf([]byte(markerText))}}, files...))
}
