-- One program (of our own) for each category of Futhark's error index
-- that fut reports, under the category's name.

-- use-after-consume
def uac (arr: *[]i32) = let b = arr with [1] = 2 in arr[0] + b[0] -- ERROR "Using \"arr\", but this was consumed"
-- not-consumable
def nc (vs: []f32) = let vs[1] = 0 in vs -- ERROR "Consuming variable \"vs\" .*which is not consumable"
-- return-aliased
def ra (vs: []f32) : *[]f32 = vs -- ERROR "Unique-typed return value of \"ra\" is aliased to \"vs\", which is not consumable"
-- unique-return-aliased
def ura (vs: *[]f32) : (*[]f32, *[]f32) = (vs, vs) -- ERROR "aliased to some other component"
-- self-aliasing-arg
def takes2 (p: *([]i32, []i32)) = length p.0
def sa (k: i64) = let v = replicate k 0i32 in takes2 (v, v) -- ERROR "self-aliased"
-- consuming-argument
def app2 'a 'b (g: a -> b) (v: a) = g v
def cons1 (vs: *[]u8) = vs with [0] = 1
def ca (vs: *[]u8) = app2 cons1 vs -- ERROR "contains-consumption"
-- alias-free-variable
def table = [4u8, 5, 6]
def afv (_: i32) = table -- ERROR "aliases the free variable \"table\""
-- inaccessible-size
def ia (p: i64, q: i64) (bs: [p]bool) = true -- ERROR "would refer to the size \"p\""
-- consuming-loop-param-aliases
def lpa (n: i64) : i64 =
  let outer = iota n
  let r = loop acc = iota n for i < n do let acc[i] = 0 in outer -- ERROR "consuming-loop-param-aliases"
  in r[0]
-- loop-parameter-aliases-other
def lpo (n: i64) =
  loop (a: *[]i64, b: *[]i64) = (iota n, iota n) for i < n do (a, a) -- ERROR "loop-parameter-aliases-other"
-- aliases-previously-returned
def apr (n: i64) =
  loop (acc, arr) = (iota 1, iota n) for i < n do -- ERROR "aliases-previously-returned"
    let arr[i] = 0
    in (arr, arr)
-- unused-size
def us [k] (v: i32) = v -- ERROR "Size parameter \"\[k\]\" is not used"
-- causality-check
def cc (xs: []i32) = let a = [] : [][]i32 let b = [filter (>0) xs] in a[0] == b[0] -- ERROR "Causality check"
-- unused-existential
type^ ue = ?[k].bool -- ERROR "Existential size \"k\" not used as array size"
-- anonymous-nonconstructive
type^ an = []f32 -> f32 -- ERROR "anonymous-nonconstructive"
-- unify-consuming-param
def eats (vs: *[]f32) : f32 = 1
def ucp : []f32 -> f32 = eats -- ERROR "consumes an argument that the declared type does not"
-- module-is-parametric
module pm (P: {val v : i64}) = { def w = P.v + 2 }
def mip = pm.w -- ERROR "Module pm is a parametric module"
-- scope-violation
def sv xs k = zip xs (iota k) -- ERROR "scope-violation"
-- literal-out-of-bounds
def lob = 300 : u8 -- ERROR "Literal 300 out of bounds"
-- ambiguous-type
def at r = r.fld -- ERROR "Type of this record is ambiguous"
-- may-not-be-redefined
def (||) (a: bool) (b: bool) = a -- ERROR "cannot be redefined"
-- unmatched-cases
def uc (v: i32) = match v case 3 -> 1i32 case 4 -> 2 -- ERROR "Unmatched cases"
-- refutable-pattern
def rp (p: (i32, i32)) = let (7, q) = p in q -- ERROR "Refutable pattern"
-- record-type-not-known
def rtn r : {fld: i32} = r with fld = 1 -- ERROR "Full type of \"r\" is not known"
-- occurs-check
def oc x = x x -- ERROR "Occurs check"
-- nested-entry
module mm = { entry ne (v: i32) = v + 1 } -- ERROR "Entry points may only be declared at the top level"
-- polymorphic-entry
entry pe 'q (v: q) : (q, q) = (v, v) -- ERROR "may not be polymorphic"
-- higher-order-entry
entry hoe (g: i32 -> i32) (v: i32) = g v -- ERROR "may not be higher-order"
-- size-polymorphic-entry and nonconstructive-entry
entry spe [k] : [0][k]i32 = [] -- ERROR "Entry point size parameter \"\[k\]\""
entry nce [k] (vs: [k+1]i32) = vs[0] -- ERROR "Entry point size parameter \"\[k\]\" is only used non-constructively"
-- size-expression-bind (an error in a type, a warning for an argument)
def seb1 (k: i64) (vs: [let j = k in j]u8) = vs -- ERROR 25 "Size expression with binding is forbidden \(size-expression-bind\)"
def seb2 (k: i64) = length (iota (let j = k in j + 1)) -- WARNING 34 "Size expression with binding is replaced by unknown size \(size-expression-bind\)"
-- contains-consumption (a let-bound function whose evaluation consumed)
def cc2 (vs: *[]u8) = let g = let ws = vs with [0] = 1 in \(i: i64) -> ws[i] in g 0 -- ERROR 31 "Let-bound expression of higher-order type .* consumes \"vs\".*\(contains-consumption\)"
-- unknown-param-def
def upd (b: bool) = let k = if b then 3 else 4 in \(vs: [k]u8) -> vs[0] -- ERROR 21 "unknown-param-def"
-- existential-param-ret (an existential result of a composed function)
def epr (vs: []i32) = (filter (> 0) >-> length) vs -- ERROR 24 "Existential size would appear in function parameter of return type.*\(existential-param-ret\)"
-- ambiguous-size
def as1 = let [r][c] (m: [r][c]i64) = [] in r -- ERROR 18 "Ambiguous size \"c\".*\(ambiguous-size\)"
-- loop-variant-escape
def lve_grow [k] (p: [k]f32) (q: [k + 1]f32) : [k + 1]f32 = q
def lve [k] (p: [k]f32) (q: []f32) = loop p' = p for i < 2 do lve_grow p' q -- ERROR "Loop-variant size has escaped.*\(loop-variant-escape\)"
