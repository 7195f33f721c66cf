package lower

import (
	"fut/interp/syntax"
	"fut/interp/types"
)

// Stage is one source stage: its name (what --dump-after and :ir name it
// by), what it does, and the rewrite.
type Stage struct {
	Name string
	Doc  string
	run  func(fset *syntax.FileSet, p *Prog) (*Prog, error)
}

// Run runs the stage on a program of the stage before it.
func (s Stage) Run(fset *syntax.FileSet, p *Prog) (*Prog, error) {
	if s.run == nil {
		return p, nil // defunctorise: a program read back has no modules
	}
	return s.run(fset, p)
}

// Stages is the pipeline from the checked program to the first-order
// program the core IR is lowered from, in order. Ordering constraints:
//   - defunctorise runs first: the later stages see no module, so a name
//     denotes one definition and a type has no abstract part to hide;
//   - monomorphise runs before defunctionalise: the static value of a
//     function is then of one type, so the environment records and the
//     specialised copies have concrete types.
var Stages = []Stage{
	{"defunctorise", "modules, functors, module-type ascriptions and open become top-level definitions: one copy of a declaration per functor instance it is used in, types of a functor's parameter replaced by the argument's, abstract types by their definitions", nil},
	{"monomorphise", "type-polymorphic definitions become one copy per list of type arguments used (sizes stay values: a size a type argument brings is a size parameter of the copy)", Monomorphise},
	{"defunctionalise", "higher-order functions and lambdas become first order: a function value is the record of its environment, each application of a known function calls a copy specialised to the static values of its arguments, lambdas are lifted to the top level; functions given to intrinsics (SOACs) become lambdas that call those copies", Defunctionalise},
}

// Text is a stage's program as Futhark source.
type Text struct {
	Name string
	Text string
}

// Run takes the definitions root uses through every stage, and returns
// the last stage's program and the text of each.
func Run(fset *syntax.FileSet, info *types.Info, root Root) (*Prog, []Text, error) {
	p, err := Defunctorise(fset, info, root)
	if err != nil {
		return nil, nil, err
	}
	texts := []Text{{p.Stage, p.String()}}
	for _, st := range Stages[1:] {
		if p, err = st.Run(fset, p); err != nil {
			return nil, texts, err
		}
		texts = append(texts, Text{p.Stage, p.String()})
	}
	return p, texts, nil
}
