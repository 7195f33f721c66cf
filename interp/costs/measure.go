package costs

import (
	"context"
	"fmt"
	"strings"

	"fut/eval/value"
	"fut/interp/lower"
	"fut/interp/session"
)

// Measured is one expression evaluated with its costs: the figures of the
// program as written (the reference evaluator) and of its fused plan.
type Measured struct {
	Expr      string
	Value     value.Value
	Type      string
	AsWritten Figures
	// Fused is nil when the expression has no fused plan; FusedNote then
	// says why, in a few words.
	Fused     *Figures
	FusedNote string
}

// Measure evaluates src in s (which must count costs) and costs its fused
// plan. An error is the expression's (syntax, type, run time); a fused
// plan that cannot be built is only a note.
func Measure(ctx context.Context, s *session.Session, src string) (*Measured, error) {
	res, err := s.EvalExpr(ctx, src)
	if err != nil {
		return nil, err
	}
	m := &Measured{Expr: src, Value: res.Value, Type: res.Type, AsWritten: FromCost(res.Cost)}
	m.Fused, m.FusedNote = FusedFigures(ctx, s, src)
	return m, nil
}

// FusedFigures costs the fused plan of src, or says why there is none.
func FusedFigures(ctx context.Context, s *session.Session, src string) (*Figures, string) {
	c, err := s.FusedCost(ctx, src)
	switch {
	case err == nil:
		f := FromCost(c)
		return &f, ""
	case session.Interrupted(err):
		return nil, "interrupted"
	case lower.IsNotLowered(err):
		return nil, "(" + err.Error() + ")"
	default:
		if _, _, ok := session.Located(err); ok {
			// the fused path's own error: "file:line:col: message" on one
			// line (FormatError puts the message under the position)
			return nil, "(error: " + firstLine(err.Error()) + ")"
		}
		return nil, "(error: " + firstLine(s.FormatError(err)) + ")"
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// Rows are the table rows of measured expressions: "as written" and
// "fused" for one; for several, a heading [k] EXPR over each pair.
func Rows(ms []*Measured) []Row {
	var rows []Row
	for i, m := range ms {
		indent := ""
		if len(ms) > 1 {
			rows = append(rows, Row{Label: fmt.Sprintf("[%d] %s", i+1, Shorten(m.Expr, 60)), Heading: true})
			indent = "  "
		}
		rows = append(rows, Row{Label: indent + "as written", Fig: m.AsWritten})
		fused := Row{Label: indent + "fused", Note: m.FusedNote}
		if m.Fused != nil {
			fused.Fig = *m.Fused
		}
		rows = append(rows, fused)
	}
	return rows
}

// CostJSON is the JSON of one costed expression, for fut cost --json and
// fut eval --json.
type CostJSON struct {
	Expr       string            `json:"expr"`
	Value      string            `json:"value,omitempty"`
	Type       string            `json:"type,omitempty"`
	AsWritten  *RowJSON          `json:"as_written,omitempty"`
	Fused      *RowJSON          `json:"fused,omitempty"`
	FusedError string            `json:"fused_error,omitempty"`
	P          int64             `json:"P,omitempty"`
	PSource    string            `json:"P_source,omitempty"`
	Units      map[string]string `json:"units,omitempty"`
	Error      string            `json:"error,omitempty"`
}

// JSON is m's CostJSON with Brent's bound for p.
func (m *Measured) JSON(p Procs) *CostJSON {
	out := &CostJSON{Expr: m.Expr, Value: value.String(m.Value), Type: m.Type,
		AsWritten: JSONRow(m.AsWritten, p.P), FusedError: m.FusedNote, P: p.P, PSource: p.Why, Units: Units}
	if m.Fused != nil {
		out.Fused = JSONRow(*m.Fused, p.P)
	}
	return out
}
