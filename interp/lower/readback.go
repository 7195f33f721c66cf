package lower

import (
	"fmt"

	"fut/interp/syntax"
	"fut/interp/types"
)

// ReadBack parses a stage's text (Prog.String) and checks it in an
// environment of the intrinsics alone: a stage's program is a Futhark
// program of its own. The result is the program as defunctorised from
// its last definition, which is its root; the later stages can run on it
// again.
func ReadBack(fset *syntax.FileSet, name, text string, intrinsics []syntax.Spec) (*Prog, error) {
	prog, err := syntax.ParseFile(fset, name, []byte(text))
	if err != nil {
		return nil, err
	}
	c := types.NewChecker(fset, nil)
	if err := c.LoadIntrinsics(intrinsics); err != nil {
		return nil, err
	}
	if err := c.CheckProgram(prog); err != nil {
		return nil, err
	}
	if len(prog.Decls) == 0 {
		return nil, fmt.Errorf("%s: no definitions", name)
	}
	last, ok := prog.Decls[len(prog.Decls)-1].(*syntax.ValDecl)
	if !ok {
		return nil, fmt.Errorf("%s: the last declaration is not a definition", name)
	}
	return Defunctorise(fset, c.Info(), Root{Fun: last.Fun, Entry: last.Entry})
}
