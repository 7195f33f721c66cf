package syntax

import (
	"fmt"
	"strings"
	"testing"
)

func mustExpr(t *testing.T, src string) Expr {
	t.Helper()
	fset := NewFileSet()
	e, err := ParseExpr(fset, "<test>", []byte(src))
	if err != nil {
		t.Fatalf("%q: %s", src, fset.FormatAll(err))
	}
	return e
}

// TestEquivalent checks precedence, associativity and the layout rules by
// comparing each text with an explicitly bracketed one.
func TestEquivalent(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"a + b * c", "a + (b * c)"},
		{"a * b + c", "(a * b) + c"},
		{"a - b - c", "(a - b) - c"},
		{"a ** b ** c", "(a ** b) ** c"},
		{"a |> f |> g", "(a |> f) |> g"},
		{"f <| g <| x", "f <| (g <| x)"},
		{"a || b && c", "a || (b && c)"},
		{"a == b || c < d", "(a == b) || (c < d)"},
		{"a & b == c", "(a & b) == c"},
		{"a << b + c", "a << (b + c)"},
		{"a + b << c", "(a + b) << c"},
		{"a | b ^ c & d", "((a | b) ^ c) & d"},
		{"x |> f || y", "x |> (f || y)"},
		{"a `f` b + c", "a `f` (b + c)"},
		{"a `f` b `g` c", "(a `f` b) `g` c"},
		{"a +^ b * c", "a +^ (b * c)"},
		{"a *^ b + c", "(a *^ b) + c"},
		{"a >>= b == c", "(a >>= b) == c"},
		{"a !== b + c", "a !== (b + c)"},
		{"a <=> b", "a <=> b"},
		{"a i32.+ b * c", "a i32.+ (b * c)"},
		{"f x y + g z", "(f x y) + (g z)"},
		{"-x + y", "(-x) + y"},
		{"-f x", "-(f x)"},
		{"-x ** 2", "(-x) ** 2"},
		{"!a && b", "(!a) && b"},
		{"f -1", "f - 1"},
		{"x + if c then a else b + 1", "x + (if c then a else (b + 1))"},
		{"let x = 1 in x + 1", "let x = 1 in (x + 1)"},
		{"\\x -> x + 1", "\\x -> (x + 1)"},
		{"map (\\x -> x) xs", "map (\\x -> x) xs"},
		{"f xs \\x -> x + 1", "f xs (\\x -> (x + 1))"},
		{"0..<n+1", "0..<(n+1)"},
		{"1..3...n", "1..3...n"},
		{"a with [i] = x + 1", "a with [i] = (x + 1)"},
		{"a with [i] = 1 with [j] = 2", "(a with [i] = 1) with [j] = 2"},
		{"x + a with [i] = 1", "(x + a) with [i] = 1"},
		{"x : i32", "(x) : i32"},
		{"#some x y", "#some x y"},
		{"#foo #bar", "#foo (#bar)"},
		{"assert (x > 0) x + 1", "assert (x > 0) (x + 1)"},
		{"#[trace] a + b", "#[trace] (a + b)"},
		{"r.x.y", "r.x.y"},
		{"(a).x.0", "((a).x).0"},
		{"x.0.1", "(x.0).1"},
		{"loop acc = 0 for i < n do acc + i", "loop acc = 0 for i < n do (acc + i)"},
		{"match x case 1 -> a case _ -> b + c", "match x case 1 -> a case _ -> (b + c)"},
	} {
		got, want := dump(mustExpr(t, c.src)), dump(mustExpr(t, c.want))
		if got != want {
			t.Errorf("%s\n got  %s\n want %s", c.src, got, want)
		}
	}
}

// TestExprForms checks the node each form gives.
func TestExprForms(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"42", "(IntLit Text=\"42\" Value=42)"},
		{"1_000i64", "(IntLit Text=\"1_000\" Value=1000 Suffix=\"i64\")"},
		{"0xffu8", "(IntLit Text=\"0xff\" Value=255 Suffix=\"u8\")"},
		{"0b101", "(IntLit Text=\"0b101\" Value=5)"},
		{"2.5f16", "(FloatLit Text=\"2.5\" Value=2.5 Suffix=\"f16\")"},
		{"1e3", "(FloatLit Text=\"1e3\" Value=1000)"},
		{"1337e2f64", "(FloatLit Text=\"1337e2\" Value=133700 Suffix=\"f64\")"},
		{"0x1.8p1", "(FloatLit Text=\"0x1.8p1\" Value=3)"},
		{"3f32", "(FloatLit Text=\"3\" Value=3 Suffix=\"f32\")"},
		{"'a'", "(CharLit Value=97)"},
		{`'\n'`, "(CharLit Value=10)"},
		{`"a\tb\"c"`, "(StringLit Value=\"a\\tb\\\"c\")"},
		{"true", "(BoolLit Value=true)"},
		{"???", "(Hole)"},
		{"xs[i]", "(Index X=(Var Name=xs) Indices=[(DimIndex Fix=(Var Name=i))])"},
		{"f [x]", "(Apply Fn=(Var Name=f) Args=[(ArrayLit Elems=[(Var Name=x)])])"},
		{"f(x)[0]", "(Apply Fn=(Var Name=f) Args=[(Index X=(Var Name=x) Indices=[(DimIndex Fix=(IntLit Text=\"0\" Value=0))])])"},
		{"xs[1:n:2]", "(Index X=(Var Name=xs) Indices=[(DimIndex Start=(IntLit Text=\"1\" Value=1) End=(Var Name=n) Stride=(IntLit Text=\"2\" Value=2) IsSlice=true HasStride=true HasColon=true)])"},
		{"xs[::-1]", "(Index X=(Var Name=xs) Indices=[(DimIndex Stride=(Negate X=(IntLit Text=\"1\" Value=1)) IsSlice=true HasStride=true HasColon=true)])"},
		{"M.(x + y)", "(QualParen Quals=[\"M\"] X=(Binary Op=+ L=(Var Name=x) R=(Var Name=y)))"},
		{"x.0", "(Project X=(Var Name=x) Field=\"0\")"},
		{"(+)", "(OpSection Op=+)"},
		{"(-)", "(OpSection Op=-)"},
		{"(+ 1)", "(RightSection Op=+ R=(IntLit Text=\"1\" Value=1))"},
		{"(x -)", "(LeftSection Op=- L=(Var Name=x))"},
		{"(-x)", "(Negate X=(Var Name=x))"},
		{"(`f` 2)", "(RightSection Op=f Backtick=true R=(IntLit Text=\"2\" Value=2))"},
		{"(2 `M.f`)", "(LeftSection Op=M.f Backtick=true L=(IntLit Text=\"2\" Value=2))"},
		{"(`f`)", "(OpSection Op=f Backtick=true)"},
		{"(.x.y)", "(ProjectSection Fields=[\"x\" \"y\"])"},
		{"(.[i])", "(IndexSection Path=[(PathElem Indices=[(DimIndex Fix=(Var Name=i))])])"},
		{"(.x[i])", "(IndexSection Path=[(PathElem Field=\"x\") (PathElem Indices=[(DimIndex Fix=(Var Name=i))])])"},
		{"()", "(TupleLit)"},
		{"(1, 2,)", "(TupleLit Elems=[(IntLit Text=\"1\" Value=1) (IntLit Text=\"2\" Value=2)])"},
		{"{a = 1, b}", "(RecordLit Fields=[(RecordField Name=\"a\" Value=(IntLit Text=\"1\" Value=1)) (RecordField Name=\"b\" Value=(Var Name=b) Short=true)])"},
		{"r with x.y = 1", "(Update X=(Var Name=r) Path=[(PathElem Field=\"x\") (PathElem Field=\"y\")] Value=(IntLit Text=\"1\" Value=1))"},
		{"x :> [n]i32", "(Coerce X=(Var Name=x) Type=(TEArray Dim=(Var Name=n) Elem=(TEVar Name=i32)))"},
		{"let a[i] = v in a", "(LetWith Dest=(Var Name=a) Path=[(PathElem Indices=[(DimIndex Fix=(Var Name=i))])] Value=(Var Name=v) Body=(Var Name=a))"},
		{"let f [n] 't (x: [n]t) : t = x[0] in f", "(LetFun Fun=(FunBind Name=\"f\" TypeParams=[(TypeParam Name=\"n\") (TypeParam Name=\"t\" Kind=1)] Params=[(PAscript P=(PId Name=\"x\") Type=(TEArray Dim=(Var Name=n) Elem=(TEVar Name=t)))] RetType=(TEVar Name=t) Body=(Index X=(Var Name=x) Indices=[(DimIndex Fix=(IntLit Text=\"0\" Value=0))])) Body=(Var Name=f))"},
		{"let [n] (xs: [n]i32) = ys in n", "(LetIn Sizes=[(SizeBinder Name=\"n\")] Pat=(PAscript P=(PId Name=\"xs\") Type=(TEArray Dim=(Var Name=n) Elem=(TEVar Name=i32))) Value=(Var Name=ys) Body=(Var Name=n))"},
		{"let x = 1 let y = 2 in y", "(LetIn Pat=(PId Name=\"x\") Value=(IntLit Text=\"1\" Value=1) Body=(LetIn Pat=(PId Name=\"y\") Value=(IntLit Text=\"2\" Value=2) Body=(Var Name=y)))"},
		{"loop (x, y) for z in zs do x", "(Loop Pat=(PTuple Elems=[(PId Name=\"x\") (PId Name=\"y\")]) Form=(ForIn Pat=(PId Name=\"z\") Arr=(Var Name=zs)) Body=(Var Name=x))"},
		{"loop x = 1 while x < 10 do x * 2", "(Loop Pat=(PId Name=\"x\") Init=(IntLit Text=\"1\" Value=1) Form=(While Cond=(Binary Op=< L=(Var Name=x) R=(IntLit Text=\"10\" Value=10))) Body=(Binary Op=* L=(Var Name=x) R=(IntLit Text=\"2\" Value=2)))"},
		{"match x case #some (-1) -> 0 case #none -> 1", "(Match X=(Var Name=x) Cases=[(Case Pat=(PConstr Name=\"some\" Args=[(PLit Lit=(Negate X=(IntLit Text=\"1\" Value=1)))]) Body=(IntLit Text=\"0\" Value=0)) (Case Pat=(PConstr Name=\"none\") Body=(IntLit Text=\"1\" Value=1))])"},
		{"#[unroll] #[incremental_flattening(only_inner, 3)] x", "(Attr Attr=(AttrInfo Name=\"unroll\") X=(Attr Attr=(AttrInfo Name=\"incremental_flattening\" Args=[(AttrInfo Name=\"only_inner\") (AttrInfo Int=3)]) X=(Var Name=x)))"},
		{"\\(x: i32) y : i32 -> x", "(Lambda Params=[(PAscript P=(PId Name=\"x\") Type=(TEVar Name=i32)) (PId Name=\"y\")] RetType=(TEVar Name=i32) Body=(Var Name=x))"},
	} {
		if got := dump(mustExpr(t, c.src)); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.src, got, c.want)
		}
	}
}

func TestTypes(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[n][]i32", "(TEArray Dim=(Var Name=n) Elem=(TEArray Elem=(TEVar Name=i32)))"},
		{"*[n]f32", "(TEUnique T=(TEArray Dim=(Var Name=n) Elem=(TEVar Name=f32)))"},
		{"?[n][m].[n][m]bool", "(TEExist Sizes=[\"n\" \"m\"] T=(TEArray Dim=(Var Name=n) Elem=(TEArray Dim=(Var Name=m) Elem=(TEVar Name=bool))))"},
		{"(x: i64) -> [x]i32 -> bool", "(TEArrow Param=\"x\" From=(TEVar Name=i64) To=(TEArrow From=(TEArray Dim=(Var Name=x) Elem=(TEVar Name=i32)) To=(TEVar Name=bool)))"},
		{"t [n] i32", "(TEApply Fn=(TEVar Name=t) Args=[(TypeArg IsSize=true Dim=(Var Name=n)) (TypeArg Type=(TEVar Name=i32))])"},
		{"M.t [] (i32, f32)", "(TEApply Fn=(TEVar Name=M.t) Args=[(TypeArg IsSize=true) (TypeArg Type=(TETuple Elems=[(TEVar Name=i32) (TEVar Name=f32)]))])"},
		{"#c i32 bool | #d", "(TESum Constrs=[(TEConstr Name=\"c\" Payload=[(TEVar Name=i32) (TEVar Name=bool)]) (TEConstr Name=\"d\")])"},
		{"{a: i32, 0: bool}", "(TERecord Fields=[(TEField Name=\"a\" Type=(TEVar Name=i32)) (TEField Name=\"0\" Type=(TEVar Name=bool))])"},
	} {
		fset := NewFileSet()
		te, err := ParseType(fset, "<t>", []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %s", c.src, fset.FormatAll(err))
		}
		if got := dump(te); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.src, got, c.want)
		}
	}
}

func TestDecls(t *testing.T) {
	src := `-- | The file.

-- | Adds.
def (+^) 'a (x: a) (y: a) : a = x
def (a: i32) <-> (b: i32) = a - b
entry main [n] (xs: [n]i32) : i32 = 0
let old = 1
type^ fn 'a = a -> a
type~ ex = ?[n].[n]i32
module type S = { type t  val (+): t -> t -> t  val f [n]: [n]t -> t  module M: {}  include T with t = i32 }
module F (P: S) : S with t = P.t = { open P  local def x = 1 }
module G = F (import "lib") : S
module H = \(p: S) : S -> p
import "foo/bar"
#[inline] def g = 1
`
	fset := NewFileSet()
	prog, err := ParseFile(fset, "t.fut", []byte(src))
	if err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	if prog.Doc != "The file." {
		t.Errorf("file doc %q", prog.Doc)
	}
	want := []string{"*syntax.ValDecl", "*syntax.ValDecl", "*syntax.ValDecl", "*syntax.ValDecl",
		"*syntax.TypeDecl", "*syntax.TypeDecl", "*syntax.ModTypeDecl", "*syntax.ModDecl",
		"*syntax.ModDecl", "*syntax.ModDecl", "*syntax.ImportDecl", "*syntax.ValDecl"}
	if len(prog.Decls) != len(want) {
		t.Fatalf("got %d decls, want %d", len(prog.Decls), len(want))
	}
	for i, d := range prog.Decls {
		if got := typeName(d); got != want[i] {
			t.Errorf("decl %d: %s, want %s", i, got, want[i])
		}
	}
	f0 := prog.Decls[0].(*ValDecl).Fun
	if f0.Name != "+^" || !f0.IsOp || f0.Doc != "Adds." || len(f0.Params) != 2 || len(f0.TypeParams) != 1 {
		t.Errorf("decl 0: %s", dump(f0))
	}
	f1 := prog.Decls[1].(*ValDecl).Fun
	if f1.Name != "<->" || !f1.IsOp || len(f1.Params) != 2 {
		t.Errorf("infix def: %s", dump(f1))
	}
	if !prog.Decls[2].(*ValDecl).Entry {
		t.Errorf("entry not marked")
	}
	if l := prog.Decls[4].(*TypeDecl).Lifted; l != Lifted {
		t.Errorf("type^ gave %d", l)
	}
	if l := prog.Decls[5].(*TypeDecl).Lifted; l != SizeLifted {
		t.Errorf("type~ gave %d", l)
	}
	specs := prog.Decls[6].(*ModTypeDecl).Def.(*SigSpecs).Specs
	if len(specs) != 5 || !specs[1].(*ValSpec).IsOp || specs[1].(*ValSpec).Name != "+" {
		t.Errorf("specs: %s", dump(specs))
	}
	if a := prog.Decls[11].(*ValDecl).Fun.Attrs; len(a) != 1 || a[0].Name != "inline" {
		t.Errorf("attrs: %s", dump(a))
	}
	if msg := checkSpans(prog); msg != "" {
		t.Error(msg)
	}
	if msg := checkStable(prog); msg != "" {
		t.Error(msg)
	}
}

func typeName(x any) string { return fmt.Sprintf("%T", x) }

func TestParseSpecs(t *testing.T) {
	src := "val map 'a 'b [n]: (a -> b) -> [n]a -> *[n]b\n-- | doc\nval (+): i32 -> i32 -> i32\ntype t\ntype^ f 'a = a -> a\n"
	fset := NewFileSet()
	specs, err := ParseSpecs(fset, "intrinsics", []byte(src))
	if err != nil {
		t.Fatal(fset.FormatAll(err))
	}
	if len(specs) != 4 {
		t.Fatalf("got %d specs", len(specs))
	}
	if v := specs[1].(*ValSpec); v.Name != "+" || !v.IsOp || v.Doc != "doc" {
		t.Errorf("op spec: %s", dump(v))
	}
	if ts := specs[2].(*TypeSpec); ts.Def != nil || ts.Name != "t" {
		t.Errorf("abstract type: %s", dump(ts))
	}
}

func TestSpans(t *testing.T) {
	src := "def f x = x + g (y * 2)"
	fset := NewFileSet()
	prog, err := ParseFile(fset, "s.fut", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	text := func(n Node) string { return src[int(n.Pos())-prog.File.Base : int(n.End())-prog.File.Base] }
	var got []string
	Inspect(prog, func(n Node) bool {
		if n != nil && n != Node(prog) {
			got = append(got, text(n))
		}
		return true
	})
	want := []string{"def f x = x + g (y * 2)", "def f x = x + g (y * 2)", "x", "x + g (y * 2)", "x",
		"g (y * 2)", "g", "(y * 2)", "y * 2", "y", "2"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("spans:\n got  %q\n want %q", got, want)
	}
	b := prog.Decls[0].(*ValDecl).Fun.Body.(*Binary)
	if p := fset.Position(b.OpSpan.Start); p.Line != 1 || p.Col != 13 {
		t.Errorf("operator at %s", p)
	}
}
