package flatten

import (
	"strings"
	"testing"
)

// TestResidentLimit: FUT_RESIDENT_BYTES sets the most a device keeps
// between calls (a size; 0 or off: nothing; unset: the default), and a
// value that is no size keeps nothing and says why.
func TestResidentLimit(t *testing.T) {
	for _, c := range []struct {
		env   string
		limit int64
		bad   bool
	}{
		{"", -1, false},
		{"0", 0, false},
		{"off", 0, false},
		{"512M", 512 << 20, false},
		{"1.5G", 3 << 29, false},
		{"lots", 0, true},
		{"-1", 0, true},
	} {
		t.Setenv("FUT_RESIDENT_BYTES", c.env)
		limit, bad := ResidentLimit()
		if limit != c.limit || (bad != "") != c.bad {
			t.Errorf("FUT_RESIDENT_BYTES=%q: %d %q; want %d (bad: %v)", c.env, limit, bad, c.limit, c.bad)
		}
		if c.bad && !strings.Contains(bad, "nothing is kept on the device") {
			t.Errorf("FUT_RESIDENT_BYTES=%q: %q does not say what follows", c.env, bad)
		}
	}
	st := ResidentStats{Hits: 2, HitBytes: 8 << 20, Kept: 1, KeptBytes: 4096, Evicted: 1}
	if got, want := st.String(), "2 arguments on the device already (8 MiB), 1 argument uploaded to stay there (4 KiB), released 1 array kept for other calls, to make room"; got != want {
		t.Errorf("stats: %q, want %q", got, want)
	}
}
