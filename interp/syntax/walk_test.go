package syntax

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// allNodeTypes lists every node type of ast.go.
var allNodeTypes = strings.Fields(`IntLit FloatLit BoolLit CharLit StringLit Var Paren TupleLit
	RecordLit ArrayLit Range Project QualParen Binary Negate Not Apply Constr OpSection
	LeftSection RightSection ProjectSection IndexSection Lambda If LetIn LetFun LetWith Update
	Index Loop Match Assert Ascript Coerce Attr Hole For ForIn While PId PWild PTuple PRecord
	PParen PAscript PLit PConstr PAttr TEVar TEParen TETuple TERecord TEArray TEUnique TEArrow
	TESum TEApply TEExist ValDecl TypeDecl ModDecl ModTypeDecl OpenDecl ImportDecl LocalDecl
	ModVar ModParen ModStruct ModImport ModApply ModAscript ModLambda SigVar SigParen SigSpecs
	SigWith SigArrow ValSpec TypeSpec ModSpec IncludeSpec RecordField Case SizeBinder Ident
	AttrInfo PField TEField TEConstr TypeParam FunBind ModParam Program`)

// TestCoverage checks that the test programs in testdata use every
// construct of the language (every node type), and that Inspect reaches
// all of them.
func TestCoverage(t *testing.T) {
	seen := map[string]bool{}
	files, _ := filepath.Glob("testdata/*.fut")
	for _, path := range files {
		src, _ := os.ReadFile(path)
		prog, err := ParseFile(NewFileSet(), path, src)
		if err != nil {
			t.Fatal(err)
		}
		Inspect(prog, func(n Node) bool {
			if n != nil {
				seen[strings.TrimPrefix(fmt.Sprintf("%T", n), "*syntax.")] = true
			}
			return true
		})
	}
	var missing []string
	for _, n := range allNodeTypes {
		if !seen[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no test program has: %s", strings.Join(missing, " "))
	}
}

func TestInspectPrune(t *testing.T) {
	e := mustExpr(t, "f (a + b) (c * d)")
	var visited []string
	Inspect(e, func(n Node) bool {
		if n == nil {
			return false
		}
		visited = append(visited, Print(n))
		_, isBin := n.(*Binary)
		return !isBin // do not enter binary operations
	})
	want := "f (a + b) (c * d)|f|(a + b)|a + b|(c * d)|c * d"
	if got := strings.Join(visited, "|"); got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
