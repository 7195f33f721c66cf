// Package lower takes the checked program to the core IR (package ir):
// for one root (an entry point, or the expression being evaluated) the
// source stages make a first-order, monomorphic program without modules,
// and the lowering (lower*.go) writes it in the core IR, so that the IR
// and the device's packages import neither the syntax tree nor the
// checker.
//
//	checked program + resolution (types.Info)
//	  ── defunctorise ──▶ top-level definitions, no modules
//	  ── monomorphise ──▶ no type parameters
//	  ── defunctionalise ──▶ first order (lambdas only as SOAC arguments)
//	  ── LowerFun / LowerExpr ──▶ core IR (package ir) in A-normal form
//
// Input: the checker's tables (every name resolved to the object it
// denotes, the types of every expression and pattern, the type arguments
// of every use of a polymorphic value). Output: a Prog per stage, whose
// nodes are new, keep the source's positions (errors name the user's
// file:line:col) and have side tables of their own (Info, which the
// lowering asks as it asked the checker). No stage decides anything from
// a name's spelling: a use is rewritten by what it resolved to.
//
// Invariants after each stage: every definition uses only those before
// it (or itself: Futhark's recursion); the root is last; after
// defunctorise no name is qualified but intrinsics.*; after monomorphise
// no definition has type parameters (sizes stay parameters: sizes are
// values, bound from the arguments' shapes); after defunctionalise no
// parameter, let or record holds a function, and function values appear
// only as the arguments of intrinsics.
//
// Each stage's text (Prog.String) is a Futhark program: ReadBack parses
// and checks it with nothing but the intrinsics in scope, and the stages
// after it run on the result (TestStagesReadBack checks that every stage
// of the test programs and examples reads back and computes the same
// values). Two gaps remain in the defunctionalised text, not in what is
// lowered from it: a copy of a higher-order function specialised to a
// closure does not state that its own sizes equal the closure's (the
// checker then sees two sizes it cannot relate), and a lifted lambda's
// parameter that the function it calls consumes is not marked unique.
// Making sizes explicit value parameters, as Futhark's monomorphiser does,
// would close the first.
package lower
