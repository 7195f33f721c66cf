// Package interp holds no code of its own: it is the folder of fut's
// stages, each a package beside the others. A program goes through them
// in this order:
//
//   - syntax: text → AST (positions, lexer, parser, printer).
//   - types: AST → side tables of types and of what every name denotes;
//     the tree stays as parsed.
//   - lower: checked AST → core IR, through the source stages
//     (defunctorise, monomorphise, defunctionalise) and the lowering of
//     the first-order program.
//   - ir: the core IR and its passes (simplification, fusion, AD), its
//     text form, its evaluator and the fused plan's cost. It imports
//     neither syntax nor types.
//   - session: ties the stages together. It loads the prelude and files,
//     keeps the environment, and routes evaluation to eval or, through
//     package gpu (the one entry point into the device), to a device.
//   - costs: the cost figures as a user meets them (tables, sweeps,
//     plots, claims), over a session.
//   - testspec, testrun: the `-- ==` test blocks of Futhark programs, and
//     fut test and fut bench over a session.
//
// The imports between them: types imports syntax; lower imports syntax,
// types and ir; ir and testspec import none of the others; session imports
// the first four; costs and testrun sit on session. tools/deps states the
// allowed imports as data and fails on an arrow that runs back up.
package interp
