package ir

import "fmt"

// Pass is a named rewrite of a program.
type Pass struct {
	Name string
	Doc  string
	Run  func(*Prog) (*Prog, error)
}

// Passes is the pipeline, in order. Ordering constraints:
//   - simplify runs first so that fusion sees copies propagated and dead
//     code gone (a dead use would otherwise block a fusion);
//   - fuse-vertical runs before fuse-horizontal: vertical fusion removes
//     intermediate arrays, horizontal fusion then merges what is left;
//   - simplify runs again last to remove the producers fusion made dead
//     and hoist what fused lambdas compute the same for every element.
var Passes = []Pass{
	{"simplify", "constant folding, copy propagation, common subexpressions, dead code, hoisting of invariant code out of loops and SOAC lambdas", Simplify},
	{"inline", "nothing to do: lowering already inlined every function (kept so that --dump-after=inline names the stage)", func(p *Prog) (*Prog, error) { return p, nil }},
	{"fuse-vertical", "producer-consumer fusion: a map (or iota, replicate) whose only use is a SOAC's input joins that SOAC's lambda", FuseVertical},
	{"fuse-horizontal", "SOACs of the same size with no dependence between them become one Screma", FuseHorizontal},
	{"simplify-final", "simplification again, after fusion", Simplify},
}

// Stage is the text of the program after one pass ("lowered" first).
type Stage struct {
	Name string
	Text string
}

// Pipeline runs every pass, checking the program after each. With
// dumpAfter "" it returns every stage; otherwise only the stage of that
// name (an unknown name is an error).
func Pipeline(p *Prog, dumpAfter string) ([]Stage, error) {
	_, stages, err := Run(p, dumpAfter)
	return stages, err
}

// Run is Pipeline returning the final program too.
func Run(p *Prog, dumpAfter string) (*Prog, []Stage, error) {
	if dumpAfter != "" && dumpAfter != "lowered" {
		found := false
		for _, ps := range Passes {
			found = found || ps.Name == dumpAfter
		}
		if !found {
			return nil, nil, fmt.Errorf("no pass named %q", dumpAfter)
		}
	}
	var stages []Stage
	keep := func(name string, q *Prog) {
		if dumpAfter == "" || dumpAfter == name {
			stages = append(stages, Stage{name, q.String()})
		}
	}
	if err := Verify(p); err != nil {
		return nil, nil, fmt.Errorf("the lowered program: %v", err)
	}
	keep("lowered", p)
	for _, ps := range Passes {
		q, err := ps.Run(p)
		if err != nil {
			return nil, nil, fmt.Errorf("pass %s: %v", ps.Name, err)
		}
		if err := Verify(q); err != nil {
			return nil, nil, fmt.Errorf("pass %s made an ill-formed program: %v\n%s", ps.Name, err, q)
		}
		p = q
		keep(ps.Name, p)
	}
	return p, stages, nil
}
