package types

import "testing"

func TestPreludeChecks(t *testing.T) {
	c, _ := newPreludeChecker(t, nil)
	for _, name := range []string{"map", "reduce", "iota", "filter", "zip"} {
		if _, ok := c.LookupValue(name); !ok {
			t.Errorf("prelude does not define %s", name)
		}
	}
	sch, _ := c.LookupValue("map")
	t.Logf("map: %s", sch)
	sch, _ = c.LookupValue("filter")
	t.Logf("filter: %s", sch)
}
