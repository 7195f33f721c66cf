-- | A small program for the :load transcript.

-- | The square of x.
def square (x: i64) : i64 = x * x

-- | The sum of the squares up to n.
def sumsq (n: i64) : i64 = reduce (+) 0 (map square (iota n))

type pair = (i64, i64)

module stats = {
  -- | The mean of xs.
  def mean [n] (xs: [n]f64) : f64 = f64.sum xs / f64.i64 n
}
