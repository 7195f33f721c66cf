// Package prelude holds fut's standard library, written in fut itself.
//
// Input: nothing; the sources are embedded in the binary with go:embed.
// Output: the text of each file, by name (Source, Intrinsics).
//
// # Layout
//
// intrinsics.fut is a list of `val` specifications only: the signature of
// a built-in module named `intrinsics`, whose functions the evaluator
// implements in Go (eval's intrinsic table). The type checker reads it with
// syntax.ParseSpecs; it is not part of Files and is never evaluated.
//
// Files lists the prelude proper, in load order. A session loads them as
// if concatenated, into one top-level environment that every program
// starts from; they use no `import`, and each file uses only what the
// files before it define (and `intrinsics`):
//
//	functional.fut  |>, <|, >->, <-<, flip, curry, uncurry, const, id, iterate…
//	soacs.fut       map…map5, reduce, scan, exscan, hist, reduce_by_index,
//	                scatter, spread, filter, partition, partition2, all, any,
//	                reduce_stream, map_stream (and _per)
//	math.fut        module types from_prim, numeric, integral, real, float;
//	                module bool
//	ints.fut        modules i8 i16 i32 i64     (generated: gen_math.go)
//	uints.fut       modules u8 u16 u32 u64     (generated: gen_math.go)
//	floats.fut      modules f16 f32 f64        (generated: gen_math.go)
//	zip.fut         zip…zip5, unzip…unzip5
//	array.fut       length, head, tail, take, drop, split, reverse, ++,
//	                concat, iota, rotate, replicate, copy, flatten,
//	                unflatten, transpose, foldl, foldr, tabulate…,
//	                flatmap (here, as it needs tabulate and filter)
//	prelude.fut     r32 t32 r64 t64, not, opaque, trace, break, jvp, vjp,
//	                jmp, mjp (and …2), with_vjp, with_vjp_tape
//
// The eleven numeric modules differ only in their type and limits, so they
// are generated from the tables in gen_math.go; run `go generate
// ./prelude` after editing those, never edit the .fut files directly (a
// test compares them with the generator's output).
//
// # Intrinsics
//
// The intrinsics are few and generic. A scalar intrinsic such as `add`,
// `sqrt` or `to_i64` has a type `'a: a -> a -> a` and is dispatched on the
// primitive type of its argument at run time, so one `add` serves all
// eleven numeric types, and signed and unsigned variants (`div`, `shr`,
// `mul_hi`, conversions) are told apart by the run-time type, not by name.
// Applying one to a type it does not support is a bug in the prelude, not
// in the user's program: the prelude only applies them at the right types.
//
// Only map takes one array; map2…map5 map over a zip of their arrays, and
// zip and unzip are views, so that costs nothing extra. SOACs whose cost
// COST_MODEL.md fixes (filter, partition, hist, the streams) are
// intrinsics of their own rather than compositions, so that their cost is
// the model's.
//
// Not in the intrinsics: the overloaded operators (`+`, `==`, `<`, `!`,
// `&&`, …) that Futhark programs use unqualified on any primitive type, and
// structural `==` on arrays and tuples. A `val` cannot express "for any
// numeric type", so the type checker provides them itself; the numeric
// modules define `i32.+` and the rest over the intrinsics.
//
// # Costs
//
// Every definition carries a `-- |` doc comment that says what it does and
// what it costs, after COST_MODEL.md (a test checks that every function
// has one). A call is free and a lambda is free, so a wrapper such as
// `def map f as = intrinsics.map f as` costs exactly what the intrinsic
// costs; where a definition does more (a literal, an index, a second
// intrinsic), its comment gives the exact total, e.g. `head` is work 2
// (the literal 0 and the index).
//
// # Semantics of conversions
//
// As in Futhark's prelude: a number becomes bool as `x != 0`; true is 1;
// an integer narrows by dropping bits and widens by zero extension when
// either type is unsigned (so `u32.i8 (-1) == 255`), by sign extension
// when both are signed; a float becomes an integer by truncation towards
// zero; `>>` is arithmetic on signed types and logical on unsigned ones,
// and `>>>` is always logical.
//
// # Known gaps
//
// Every top-level name of Futhark's prelude is defined (a test checks this
// against a Futhark checkout). Two are weaker than Futhark's: flatmap is
// built from regular SOACs (it pads segments to the longest, so its work is
// O(n · longest) rather than O(total)), and with_vjp ignores its custom
// adjoint (vjp differentiates f itself); each wants an intrinsic of its own
// once the evaluator has one (an intrinsic the evaluator lacks stops the
// prelude from loading, so add it to eval first).
package prelude

import "embed"

//go:generate go run gen_math.go

//go:embed *.fut
var files embed.FS

// IntrinsicsFile is the name of the file of `val` specifications for the
// built-in module `intrinsics`.
const IntrinsicsFile = "intrinsics.fut"

// Files are the prelude's source files in load order.
var Files = []string{
	"functional.fut",
	"soacs.fut",
	"math.fut",
	"ints.fut",
	"uints.fut",
	"floats.fut",
	"zip.fut",
	"array.fut",
	"prelude.fut",
}

// Source returns the text of the embedded file name (one of Files, or
// IntrinsicsFile), or nil when there is no such file.
func Source(name string) []byte {
	b, err := files.ReadFile(name)
	if err != nil {
		return nil
	}
	return b
}

// Intrinsics returns the text of intrinsics.fut.
func Intrinsics() []byte { return Source(IntrinsicsFile) }
