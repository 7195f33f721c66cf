package costs

// Growth that a program claims for itself, in comments, checked by a
// sweep (fut test does it for every program it runs). A claim is a block
// of comment lines:
//
//	-- cost of main xs xs
//	--   where xs = map f64.i64 (iota n)
//	--   for n = 2^8..2^12
//	--   as written: W n, D log n, S1 n, S∞ n
//	--   fused: S1 1
//
// "cost of" starts the block with the expression to cost; the lines
// after it, each starting with one of the words where, for, as written:
// and fused:, belong to it, and the first other line ends it. for gives
// the sweep (VAR = A..B doubles from A to B; VAR = a, b, c lists the
// sizes); where, optional, defines inputs at each size, whose own cost is
// not counted; as written: and fused: list the growth of each figure
// named (W, D, S1, S∞ or Sinf) as one of 1, log n, log^2 n, n, n log n,
// n^2, n^2 log n, n^3 or n^k. A figure not named is not checked.

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"fut/interp/session"
)

// Claim is one cost block of a program.
type Claim struct {
	Line  int // of "cost of"
	Expr  string
	Given []Binding
	Range Range
	// Want[0] is as written, Want[1] fused: figure index (0 W … 3 S∞) to
	// class.
	Want [2]map[int]string
}

// Label names the claim in reports.
func (c *Claim) Label() string {
	return fmt.Sprintf("cost of %s (line %d)", Shorten(c.Expr, 50), c.Line)
}

var (
	claimStart = regexp.MustCompile(`^\s*--\s*(?:\|\s*)?cost of\s+(.*\S)\s*$`)
	claimMore  = regexp.MustCompile(`^\s*--\s+(where|for|as written:|fused:)\s*(.*\S)\s*$`)
)

// ParseClaims finds the cost blocks of a program's source. Errors name
// the line of a block that is not well formed.
func ParseClaims(src []byte) ([]*Claim, error) {
	lines := strings.Split(string(src), "\n")
	var out []*Claim
	var errs []string
	for i := 0; i < len(lines); i++ {
		m := claimStart.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		c := &Claim{Line: i + 1, Expr: m[1]}
		c.Want[0], c.Want[1] = map[int]string{}, map[int]string{}
		var problems []string
		type item struct {
			row  int
			text string
			line int
		}
		var items []item
		hasFor := false
		for i+1 < len(lines) {
			mm := claimMore.FindStringSubmatch(lines[i+1])
			if mm == nil {
				break
			}
			i++
			switch key, rest := mm[1], mm[2]; key {
			case "where":
				_, bs, err := SplitWhere("() where " + rest)
				if err != nil {
					problems = append(problems, fmt.Sprintf("line %d: %v", i+1, err))
				}
				c.Given = append(c.Given, bs...)
			case "for":
				r, err := ParseRange(strings.ReplaceAll(rest, " ", ""))
				if err != nil {
					problems = append(problems, fmt.Sprintf("line %d: %v", i+1, err))
				}
				c.Range, hasFor = r, true
			default:
				row := 0
				if key == "fused:" {
					row = 1
				}
				for _, it := range strings.Split(rest, ",") {
					items = append(items, item{row, strings.TrimSpace(it), i + 1})
				}
			}
		}
		for _, it := range items { // after the loop: the classes are in the sweep's variable
			if err := c.addWant(it.row, it.text); err != nil {
				problems = append(problems, fmt.Sprintf("line %d: %v", it.line, err))
			}
		}
		if !hasFor {
			problems = append(problems, fmt.Sprintf("line %d: a cost block needs a line `--   for VAR = A..B`", c.Line))
		}
		if len(c.Want[0])+len(c.Want[1]) == 0 {
			problems = append(problems, fmt.Sprintf("line %d: a cost block claims nothing (add `--   as written: W n, …`)", c.Line))
		}
		if len(problems) > 0 {
			errs = append(errs, problems...)
			continue
		}
		out = append(out, c)
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return out, nil
}

// addWant reads "S1 n log n" into the claim.
func (c *Claim) addWant(row int, item string) error {
	fig, class, ok := strings.Cut(item, " ")
	if !ok {
		return fmt.Errorf("%q: a claim is FIGURE CLASS, as `W n log n`", item)
	}
	k := -1
	for i, f := range FigureInfo {
		if fig == f.Symbol || fig == f.Key {
			k = i
		}
	}
	if k < 0 {
		return fmt.Errorf("%q: the figures are W, D, S1 and S∞ (or Sinf)", fig)
	}
	cl, err := ParseClass(class, c.Range.Var)
	if err != nil {
		return err
	}
	c.Want[row][k] = cl
	return nil
}

// ClaimResult is the outcome of checking one claim.
type ClaimResult struct {
	Claim  *Claim
	Passed bool
	Msg    string // what differs, or why it could not be checked
	Sweep  *Sweep
}

// CheckOptions bound the checking of one program's claims.
type CheckOptions struct {
	Timeout   time.Duration // for all the claims of the program; 0: none
	MaxMemory int64
}

// CheckFile checks every cost claim of a program: none, nil. An error
// is a claim block that does not parse, or a program that does not load.
func CheckFile(ctx context.Context, file string, opts CheckOptions) ([]*ClaimResult, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	claims, err := ParseClaims(src)
	if err != nil {
		return nil, fmt.Errorf("%s: cost claims: %v", file, err)
	}
	if len(claims) == 0 {
		return nil, nil
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Timeout)
		defer cancel()
	}
	s, err := session.NewSession(session.Options{Cost: true, MaxMemory: opts.MaxMemory})
	if err != nil {
		return nil, err
	}
	if err := s.LoadFile(ctx, file); err != nil {
		return nil, fmt.Errorf("%s", s.FormatError(err))
	}
	var out []*ClaimResult
	for _, c := range claims {
		out = append(out, CheckClaim(ctx, s, c))
	}
	return out, nil
}

// CheckClaim sweeps the claim's expression in s and compares the fitted
// growth with the claimed.
func CheckClaim(ctx context.Context, s *session.Session, c *Claim) *ClaimResult {
	res := &ClaimResult{Claim: c}
	sw, err := RunSweep(ctx, s, c.Expr, c.Range, c.Given, nil)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("timed out")
		}
		res.Msg = firstLine(err.Error())
		return res
	}
	res.Sweep = sw
	var wrong []string
	for row := 0; row < 2; row++ {
		name := [2]string{"as written", "fused"}[row]
		for k := 0; k < 4; k++ {
			want, ok := c.Want[row][k]
			if !ok {
				continue
			}
			if row == 1 && sw.Growth.Fused == nil {
				wrong = append(wrong, fmt.Sprintf("%s %s: no fused plan", name, FigureInfo[k].Symbol))
				continue
			}
			if fit := sw.Fits[row][k]; !SameGrowth(fit, want) {
				var ys []string
				for _, p := range sw.Points {
					f := p.AsWritten
					if row == 1 {
						f = *p.Fused
					}
					ys = append(ys, itoa(f.Get(k)))
				}
				wrong = append(wrong, fmt.Sprintf("%s %s is %s, not %s as claimed (at %s: %s)",
					name, FigureInfo[k].Symbol, fit.Class, want, c.Range, strings.Join(ys, ", ")))
			}
		}
	}
	res.Passed = len(wrong) == 0
	res.Msg = strings.Join(wrong, "; ")
	return res
}
