// Package costs presents the cost model's figures to a user: their names
// and units, Brent's bound with the number of processors of the machine,
// tables that put expressions side by side, sweeps over a size with the
// fitted growth of each figure, plots of a sweep, a breakdown of an
// expression's cost by its parts, and the growth that a program claims in
// a comment, checked by a sweep.
//
// In: a session (session.Session) in which expressions are evaluated with
// costs, and the fused plan's cost from package ir. Out: tables, JSON and
// pictures. The figures themselves are computed elsewhere (package eval
// for the program as written, package ir for the fused plan); nothing here
// changes them.
//
// The names are the model's (docs/cost.md): W (work) and D (depth) in
// steps, S1 (sequential space) and S∞ (parallel space) in words; in JSON
// the keys are "W", "D", "S1" and "Sinf", and the two rows are
// "as_written" and "fused".
package costs

import (
	"strconv"

	"fut/eval"
)

// Figures are the four figures of one evaluation.
type Figures struct {
	W    int64 `json:"W"`
	D    int64 `json:"D"`
	S1   int64 `json:"S1"`
	Sinf int64 `json:"Sinf"`
}

// FromCost converts the evaluator's cost.
func FromCost(c eval.Cost) Figures {
	return Figures{W: c.Work, D: c.Depth, S1: c.SpaceSeq, Sinf: c.SpacePar}
}

// Get is figure k (0 W, 1 D, 2 S1, 3 S∞).
func (f Figures) Get(k int) int64 {
	return [4]int64{f.W, f.D, f.S1, f.Sinf}[k]
}

// Parallelism is W/D, or 0 when D is 0.
func (f Figures) Parallelism() float64 {
	if f.D == 0 {
		return 0
	}
	return float64(f.W) / float64(f.D)
}

// Brent is Brent's bound W/P + D on the steps of P processors.
func (f Figures) Brent(p int64) float64 {
	return float64(f.W)/float64(max(p, 1)) + float64(f.D)
}

// Figure describes one of the four figures.
type Figure struct {
	Key    string // in JSON
	Symbol string // in tables
	Name   string
	Unit   string
}

// FigureInfo lists the figures in the order of Figures.Get.
var FigureInfo = [4]Figure{
	{"W", "W", "work", "steps"},
	{"D", "D", "depth", "steps"},
	{"S1", "S1", "sequential space", "words"},
	{"Sinf", "S∞", "parallel space", "words"},
}

// Units is the "units" object of every JSON that carries figures.
var Units = map[string]string{"W": "steps", "D": "steps", "S1": "words", "Sinf": "words", "brent": "steps"}

// RowJSON is one row of figures in JSON: the four figures, parallelism
// (W/D; absent when D is 0) and Brent's bound for the P given beside.
type RowJSON struct {
	Figures
	Parallelism *float64 `json:"parallelism,omitempty"`
	Brent       float64  `json:"brent"`
}

// JSONRow is f as a RowJSON, with Brent's bound for p processors.
func JSONRow(f Figures, p int64) *RowJSON {
	r := &RowJSON{Figures: f, Brent: round2(f.Brent(p))}
	if f.D > 0 {
		x := round2(f.Parallelism())
		r.Parallelism = &x
	}
	return r
}

func round2(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64)
	return v
}
