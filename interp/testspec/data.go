package testspec

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// ReadDataFile returns the contents of the data file name, written in a
// test block of the program at futFile: a relative name is taken relative
// to the directory of futFile, and a name ending in .gz is decompressed.
// The bytes are in Futhark's text or binary data format, for eval/value.
func ReadDataFile(futFile, name string) ([]byte, error) {
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(futFile), name)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if filepath.Ext(p) != ".gz" {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	defer zr.Close()
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	return out, nil
}

// CompileRegex compiles a regex from an `error:` or `warning:` line. As in
// Futhark, it may match anywhere in the message, and `.` matches newlines
// too (a message may span lines). Futhark's regexes are POSIX extended
// regular expressions; the ones its tests use mean the same in Go's syntax.
func CompileRegex(regex string) (*regexp.Regexp, error) {
	return regexp.Compile("(?s)" + regex)
}

// MatchError reports whether an error message satisfies an expected
// error's regex; the empty regex accepts every message.
func MatchError(regex, msg string) (bool, error) {
	if regex == "" {
		return true, nil
	}
	re, err := CompileRegex(regex)
	if err != nil {
		return false, err
	}
	return re.MatchString(msg), nil
}
