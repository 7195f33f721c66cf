package opencl

import (
	"fmt"
	"strings"

	"fut/gpu/kernel"
)

// Error kinds written by kernels into err[1].
const (
	ErrBounds  = 1
	ErrDivZero = 2
	ErrNegExp  = 3
	ErrAssert  = 4
)

// ErrWords is the number of 64-bit words of the error buffer: err[0]'s low
// 32 bits are the flag, err[1] the kind, err[2] the number of indices
// plus 256 times the number of dimensions, then the indices and the
// dimensions (at most MaxRank each), then at ErrSite the site of
// the failing statement (its number in the kernel's Sites, 0 for none).
const (
	MaxRank  = 8
	ErrSite  = 3 + 2*MaxRank
	ErrWords = ErrSite + 1
)

var intTypes = []kernel.Type{kernel.I8, kernel.I16, kernel.I32, kernel.I64, kernel.U8, kernel.U16, kernel.U32, kernel.U64}

// ctype is the C type of a local value; btype of a buffer element.
func ctype(t kernel.Type) string {
	switch t {
	case kernel.Bool:
		return "bool"
	case kernel.I8:
		return "char"
	case kernel.I16:
		return "short"
	case kernel.I32:
		return "int"
	case kernel.I64:
		return "long"
	case kernel.U8:
		return "uchar"
	case kernel.U16:
		return "ushort"
	case kernel.U32:
		return "uint"
	case kernel.U64:
		return "ulong"
	case kernel.F16:
		return "half"
	case kernel.F32:
		return "float"
	case kernel.F64:
		return "double"
	}
	return "void"
}

func btype(t kernel.Type) string {
	if t == kernel.Bool {
		return "uchar"
	}
	return ctype(t)
}

func utype(t kernel.Type) string {
	switch t.Size() {
	case 1:
		return "uchar"
	case 2:
		return "ushort"
	case 4:
		return "uint"
	}
	return "ulong"
}

// prelude is the helper code every program starts with; f16: the
// program has emulated f16 (no cl_khr_fp16, see gen.emu).
func prelude(caps Caps, f16 bool) string {
	var b strings.Builder
	// a*b+c must round twice, as in the reference evaluator, except in
	// the folds of tiled kernels that contractible allows
	b.WriteString("#pragma OPENCL FP_CONTRACT OFF\n")
	if caps.F64 {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n")
	}
	if caps.F16 {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n")
	}
	if caps.Int64Atomics {
		b.WriteString("#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n")
	}
	// f16 values computed in f32: rounded to half precision (to nearest,
	// ties to even) after each operation, through the half storage
	// functions that OpenCL has without cl_khr_fp16.
	b.WriteString(`
static inline float fut_r16(float x) { ushort u; vstore_half_rte(x, 0, (__private half *)&u); return vload_half(0, (__private half *)&u); }
static inline ushort fut_f16_bits(float x) { ushort u; vstore_half_rte(x, 0, (__private half *)&u); return u; }
static inline float fut_f16_from_bits(ushort u) { return vload_half(0, (__private half *)&u); }
`)
	if f16 && caps.F64 {
		// f64 to f16 rounded once: to float rounding to odd (toward zero,
		// then the last bit set where inexact; 24 >= 11+2 bits), then to half.
		b.WriteString(`static inline float fut_d2h(double x) {
  float f = convert_float_rtz(x);
  if ((double)f != x && !isnan(x)) f = as_float(as_uint(f) | 1u);
  return fut_r16(f);
}
`)
	}
	fmt.Fprintf(&b, `
static inline void fut_fail(__global long *err, long kind, long site) {
  if (atomic_cmpxchg((volatile __global int *)err, 0, 1) == 0) { err[1] = kind; err[2] = 0; err[%d] = site; }
}
`, ErrSite)
	for _, t := range intTypes {
		c, u, w, n := ctype(t), utype(t), t.Bits(), t.String()
		fmt.Fprintf(&b, `static inline %[1]s add_%[4]s(%[1]s x, %[1]s y) { return (%[1]s)((%[2]s)x + (%[2]s)y); }
static inline %[1]s sub_%[4]s(%[1]s x, %[1]s y) { return (%[1]s)((%[2]s)x - (%[2]s)y); }
static inline %[1]s mul_%[4]s(%[1]s x, %[1]s y) { return (%[1]s)((%[2]s)x * (%[2]s)y); }
static inline %[1]s neg_%[4]s(%[1]s x) { return (%[1]s)(-(%[2]s)x); }
static inline %[1]s shl_%[4]s(%[1]s x, %[1]s y) { return ((%[2]s)y >= %[3]d) ? (%[1]s)0 : (%[1]s)((%[2]s)x << (%[2]s)y); }
static inline %[1]s lshr_%[4]s(%[1]s x, %[1]s y) { return ((%[2]s)y >= %[3]d) ? (%[1]s)0 : (%[1]s)((%[2]s)x >> (%[2]s)y); }
static inline int ctz_%[4]s(%[1]s x) { %[2]s u = (%[2]s)x; return (int)popcount((%[2]s)((u & (%[2]s)(-u)) - (%[2]s)1)); }
`, c, u, w, n)
		if t.IsSigned() {
			fmt.Fprintf(&b, `static inline %[1]s div_%[3]s(%[1]s x, %[1]s y, __global long *err, long site) {
  if (y == 0) { fut_fail(err, %[4]d, site); return 0; }
  if (y == -1) return neg_%[3]s(x);
  %[1]s q = x / y, r = x %% y;
  if (r != 0 && ((r < 0) != (y < 0))) q--;
  return q;
}
static inline %[1]s mod_%[3]s(%[1]s x, %[1]s y, __global long *err, long site) {
  if (y == 0) { fut_fail(err, %[4]d, site); return 0; }
  if (y == -1) return 0;
  %[1]s r = x %% y;
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}
static inline %[1]s quot_%[3]s(%[1]s x, %[1]s y, __global long *err, long site) {
  if (y == 0) { fut_fail(err, %[4]d, site); return 0; }
  if (y == -1) return neg_%[3]s(x);
  return x / y;
}
static inline %[1]s rem_%[3]s(%[1]s x, %[1]s y, __global long *err, long site) {
  if (y == 0) { fut_fail(err, %[4]d, site); return 0; }
  if (y == -1) return 0;
  return x %% y;
}
static inline %[1]s ashr_%[3]s(%[1]s x, %[1]s y) { long s = (y < 0 || y >= 64) ? 63 : (long)y; return (%[1]s)((long)x >> s); }
static inline %[1]s pow_%[3]s(%[1]s x, %[1]s y, __global long *err, long site) {
  if (y < 0) { fut_fail(err, %[5]d, site); return 0; }
  %[2]s r = 1, b = (%[2]s)x; ulong e = (ulong)y;
  while (e > 0) { if (e & 1) r *= b; b *= b; e >>= 1; }
  return (%[1]s)r;
}
static inline %[1]s abs_%[3]s(%[1]s x) { return x < 0 ? neg_%[3]s(x) : x; }
static inline %[1]s sgn_%[3]s(%[1]s x) { return (%[1]s)((x > 0) - (x < 0)); }
`, c, u, n, ErrDivZero, ErrNegExp)
		} else {
			fmt.Fprintf(&b, `static inline %[1]s div_%[2]s(%[1]s x, %[1]s y, __global long *err, long site) { if (y == 0) { fut_fail(err, %[3]d, site); return 0; } return x / y; }
static inline %[1]s mod_%[2]s(%[1]s x, %[1]s y, __global long *err, long site) { if (y == 0) { fut_fail(err, %[3]d, site); return 0; } return x %% y; }
static inline %[1]s pow_%[2]s(%[1]s x, %[1]s y, __global long *err, long site) {
  %[1]s r = 1, b = x; ulong e = (ulong)y;
  while (e > 0) { if (e & 1) r *= b; b *= b; e >>= 1; }
  return r;
}
static inline %[1]s sgn_%[2]s(%[1]s x) { return (%[1]s)(x != 0); }
`, c, n, ErrDivZero)
		}
	}
	floats := []kernel.Type{kernel.F32}
	if caps.F64 {
		floats = append(floats, kernel.F64)
	}
	if caps.F16 || f16 {
		floats = append(floats, kernel.F16)
	}
	for _, t := range floats {
		c, n := ctype(t), t.String()
		if t == kernel.F16 && f16 {
			// emulated f16 (see gen.emu) is held in float: fmod is
			// exact, r + y rounds once (as for + in gen.binop)
			c = "float"
			fmt.Fprintf(&b, `static inline float mod_f16(float x, float y) { return fut_r16(mod_f32(x, y)); }
static inline float sgn_f16(float x) { return sgn_f32(x); }
`)
		} else {
			fmt.Fprintf(&b, `static inline %[1]s mod_%[2]s(%[1]s x, %[1]s y) { %[1]s r = fmod(x, y); if (r != 0 && ((r < 0) != (y < 0))) r += y; return r; }
static inline %[1]s sgn_%[2]s(%[1]s x) { return x > 0 ? (%[1]s)1 : (x < 0 ? (%[1]s)-1 : x); }
`, c, n)
		}
		// float to integer: NaN and infinities give 0; saturate to 64 bits, then wrap.
		for _, it := range intTypes {
			if it.IsUnsigned() {
				fmt.Fprintf(&b, `static inline %[1]s f2i_%[2]s_%[3]s(%[4]s x) {
  if (isnan(x) || isinf(x)) return 0;
  %[4]s f = trunc(x);
  if (f >= (%[4]s)0) { if ((double)f >= 18446744073709551616.0) return (%[1]s)0xffffffffffffffffUL; return (%[1]s)(ulong)f; }
  if ((double)f < -9223372036854775808.0) return (%[1]s)(long)(-9223372036854775807L - 1);
  return (%[1]s)(long)f;
}
`, ctype(it), n, it.String(), c)
			} else {
				fmt.Fprintf(&b, `static inline %[1]s f2i_%[2]s_%[3]s(%[4]s x) {
  if (isnan(x) || isinf(x)) return 0;
  %[4]s f = trunc(x);
  if ((double)f >= 9223372036854775808.0) return (%[1]s)(long)9223372036854775807L;
  if ((double)f < -9223372036854775808.0) return (%[1]s)(long)(-9223372036854775807L - 1);
  return (%[1]s)(long)f;
}
`, ctype(it), n, it.String(), c)
			}
		}
	}
	if !caps.F64 {
		// without doubles the saturation tests above must not mention double
		return strings.ReplaceAll(b.String(), "(double)", "(float)")
	}
	return b.String()
}
