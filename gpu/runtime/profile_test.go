package runtime

import (
	"errors"
	"strings"
	"testing"
)

// TestUntimed: a launch whose profiling fails is counted and said, not
// added as zero time.
func TestUntimed(t *testing.T) {
	p := NewProfile()
	p.add("k1", 1000)
	p.untimed("k2", errors.New("CL_PROFILING_INFO_NOT_AVAILABLE"))
	if n, err := p.Untimed(); n != 1 || err == nil || !strings.Contains(err.Error(), "k2") {
		t.Fatalf("untimed = %d, %v", n, err)
	}
	if tab := p.Table(); !strings.Contains(tab, "1 launches have no device time") {
		t.Fatalf("the table does not say so:\n%s", tab)
	}
	for _, e := range p.Entries() {
		if e.Name == "k2" {
			t.Fatal("an untimed launch has an entry of zero time")
		}
	}
	p.Reset()
	if n, _ := p.Untimed(); n != 0 {
		t.Fatal("Reset keeps the untimed count")
	}
}
