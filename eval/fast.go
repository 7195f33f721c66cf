package eval

import (
	"fut/eval/value"
	"fut/interp/syntax"
)

// Specialised SOACs over primitive arrays. Each returns ok=false when it
// does not apply; when it applies it computes exactly the value and cost
// that the general path would.

func (t *thread) fastMap(f value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	return nil, false, nil
}

func (t *thread) fastReduce(op value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	return nil, false, nil
}

func (t *thread) fastScan(op value.Value, xs *value.Array, pos syntax.Pos) (value.Value, bool, error) {
	return nil, false, nil
}

func (t *thread) fastHist(op value.Value, dest, is, vs *value.Array, pos syntax.Pos, d int) (value.Value, bool, error) {
	return nil, false, nil
}
