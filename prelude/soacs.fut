-- | Second-order array combinators (SOACs): the parallel building blocks.
--
-- Every SOAC here is a thin wrapper over one intrinsic of the same name,
-- so it costs exactly what COST_MODEL.md gives for that SOAC. In the cost
-- lines, n is the outer length of the input, W(f) and D(f) are the work and
-- depth of one application of the function, and lg n is ⌈log2 n⌉.
-- The functions passed to `reduce`, `scan`, `hist` and friends must be
-- associative (and commutative for `reduce_comm`), with `ne` their neutral
-- element; fut does not check this, and the result of a function that breaks
-- the rule depends on how the evaluator groups the applications.

-- | Apply f to every element of an array. Work n + Σ W(f), depth 1 + max D(f).
def map 'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x =
  intrinsics.map f as

-- | The same as `map`. Work n + Σ W(f), depth 1 + max D(f).
def map1 'a [n] 'x (f: a -> x) (as: [n]a) : *[n]x =
  intrinsics.map f as

-- | Apply f to the elements at each index of two arrays of the same size. Work n + Σ W(f), depth 1 + max D(f).
def map2 'a 'b [n] 'x (f: a -> b -> x) (as: [n]a) (bs: [n]b) : *[n]x =
  intrinsics.map (\(a, b) -> f a b) (intrinsics.zip as bs)

-- | As `map2`, for three arrays. Work n + Σ W(f), depth 1 + max D(f).
def map3 'a 'b 'c [n] 'x (f: a -> b -> c -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) : *[n]x =
  intrinsics.map (\(a, b, c) -> f a b c) (intrinsics.zip3 as bs cs)

-- | As `map2`, for four arrays. Work n + Σ W(f), depth 1 + max D(f).
def map4 'a 'b 'c 'd [n] 'x (f: a -> b -> c -> d -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) : *[n]x =
  intrinsics.map (\(a, b, c, d) -> f a b c d) (intrinsics.zip4 as bs cs ds)

-- | As `map2`, for five arrays. Work n + Σ W(f), depth 1 + max D(f).
def map5 'a 'b 'c 'd 'e [n] 'x (f: a -> b -> c -> d -> e -> x) (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e) : *[n]x =
  intrinsics.map (\(a, b, c, d, e) -> f a b c d e) (intrinsics.zip5 as bs cs ds es)

-- | Combine all elements with op, starting from ne for an empty array. Work n + Σ W(op), depth 1 + lg n · max D(op).
def reduce [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a =
  intrinsics.reduce op ne as

-- | As `reduce`, for an op that is also commutative. Work n + Σ W(op), depth 1 + lg n · max D(op).
def reduce_comm [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : a =
  intrinsics.reduce_comm op ne as

-- | Inclusive prefix scan: element i is the reduction of the first i + 1 elements. Work n + 2 · Σ W(op), depth 1 + 2 · lg n · max D(op).
def scan [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : *[n]a =
  intrinsics.scan op ne as

-- | Exclusive prefix scan: element i is the reduction of the first i elements, so element 0 is ne. Work about 9n + 2 · Σ W(op), depth about 9 + 2 · lg n · max D(op).
def exscan [n] 'a (op: a -> a -> a) (ne: a) (as: [n]a) : *[n]a =
  let s = intrinsics.scan op ne as
  in intrinsics.map (\i -> if i == 0 then ne else s[i - 1]) (intrinsics.iota n)

-- | A histogram of k bins: bin j combines ne with every as[i] where is[i] == j; indices outside 0..k-1 are ignored. Work n + k + Σ W(op), depth 1 + lg n · max D(op).
def hist 'a [n] (op: a -> a -> a) (ne: a) (k: i64) (is: [n]i64) (as: [n]a) : *[k]a =
  intrinsics.hist op ne k is as

-- | Combine as[i] into dest[is[i]] with op for every in-bounds index; ne must be op's neutral element. Consumes dest. Work n + k + Σ W(op), depth 1 + lg n · max D(op).
def reduce_by_index 'a [k] [n] (dest: *[k]a) (f: a -> a -> a) (ne: a) (is: [n]i64) (as: [n]a) : *[k]a =
  intrinsics.reduce_by_index dest f ne is as

-- | As `reduce_by_index`, with two-dimensional indices. Work n + k·m + Σ W(op), depth 1 + lg n · max D(op).
def reduce_by_index_2d 'a [k] [n] [m] (dest: *[k][m]a) (f: a -> a -> a) (ne: a) (is: [n](i64, i64)) (as: [n]a) : *[k][m]a =
  intrinsics.reduce_by_index_2d dest f ne is as

-- | As `reduce_by_index`, with three-dimensional indices. Work n + k·m·l + Σ W(op), depth 1 + lg n · max D(op).
def reduce_by_index_3d 'a [k] [n] [m] [l] (dest: *[k][m][l]a) (f: a -> a -> a) (ne: a) (is: [n](i64, i64, i64)) (as: [n]a) : *[k][m][l]a =
  intrinsics.reduce_by_index_3d dest f ne is as

-- | Whether f holds for every element (true for an empty array). Work 3n + Σ W(f), depth 3 + max D(f) + lg n.
def all [n] 'a (f: a -> bool) (as: [n]a) : bool =
  intrinsics.reduce (\x y -> x && y) true (intrinsics.map f as)

-- | Whether f holds for some element (false for an empty array). Work 3n + Σ W(f), depth 3 + max D(f) + lg n.
def any [n] 'a (f: a -> bool) (as: [n]a) : bool =
  intrinsics.reduce (\x y -> x || y) false (intrinsics.map f as)

-- | Write vs[i] at index is[i] of dest, for every index in bounds; consumes dest. Which value wins when an index repeats is unspecified. Work n, depth 1.
def scatter 't [k] [n] (dest: *[k]t) (is: [n]i64) (vs: [n]t) : *[k]t =
  intrinsics.scatter dest is vs

-- | As `scatter`, with two-dimensional indices. Work n, depth 1.
def scatter_2d 't [k] [n] [l] (dest: *[k][n]t) (is: [l](i64, i64)) (vs: [l]t) : *[k][n]t =
  intrinsics.scatter_2d dest is vs

-- | As `scatter`, with three-dimensional indices. Work n, depth 1.
def scatter_3d 't [k] [n] [o] [l] (dest: *[k][n][o]t) (is: [l](i64, i64, i64)) (vs: [l]t) : *[k][n][o]t =
  intrinsics.scatter_3d dest is vs

-- | An array of k copies of x, with vs[i] written at index is[i]: `scatter` into a fresh array. Work k + n, depth 2.
def spread 't [n] (k: i64) (x: t) (is: [n]i64) (vs: [n]t) : *[k]t =
  intrinsics.scatter (intrinsics.replicate k x) is vs

-- | The elements that satisfy p, in their order. Work 4n + Σ W(p), depth 3 + max D(p) + 2 · lg n.
def filter [n] 'a (p: a -> bool) (as: [n]a) : *[]a =
  intrinsics.filter p as

-- | The elements that satisfy p, and those that do not, each in their order. Work 4n + Σ W(p), depth 3 + max D(p) + 2 · lg n.
def partition [n] 'a (p: a -> bool) (as: [n]a) : ?[k].([k]a, [n - k]a) =
  intrinsics.partition p as

-- | Split by two predicates: the elements that satisfy p1, those that satisfy p2 but not p1, and the rest, each in order. Work about 8n + Σ (W(p1) + W(p2)), depth about 6 + max D(p1) + max D(p2) + 4 · lg n.
def partition2 [n] 'a (p1: a -> bool) (p2: a -> bool) (as: [n]a) : ?[k][l].([k]a, [l]a, [n - k - l]a) =
  let (xs, rest) = intrinsics.partition p1 as
  let (ys, zs) = intrinsics.partition p2 rest
  in (xs, ys, zs)

-- | Reduce chunks of the input with f and combine the results with op (associative, and f of an empty chunk its neutral element). Work m + Σ W(f) + Σ W(op) over m chunks, depth 1 + max D(f) + lg m · max D(op).
def reduce_stream [n] 'a 'b (op: b -> b -> b) (f: (k: i64) -> [k]a -> b) (as: [n]a) : b =
  intrinsics.reduce_stream op f as

-- | As `reduce_stream`, for an op that is also commutative (chunks need not be contiguous). Same cost as `reduce_stream`.
def reduce_stream_per [n] 'a 'b (op: b -> b -> b) (f: (k: i64) -> [k]a -> b) (as: [n]a) : b =
  intrinsics.reduce_stream_per op f as

-- | Map each chunk of the input to a chunk of the same size, and concatenate the results. Work m + Σ W(f), depth 1 + max D(f) over m chunks.
def map_stream [n] 'a 'b (f: (k: i64) -> [k]a -> [k]b) (as: [n]a) : *[n]b =
  intrinsics.map_stream f as

-- | As `map_stream`, with chunks that need not be contiguous. Same cost as `map_stream`.
def map_stream_per [n] 'a 'b (f: (k: i64) -> [k]a -> [k]b) (as: [n]a) : *[n]b =
  intrinsics.map_stream_per f as
