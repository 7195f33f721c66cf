-- | Combining arrays into arrays of tuples and back.
--
-- An array of tuples is stored as a tuple of arrays (COST_MODEL.md), so
-- all of these are views: work 0, depth 0, no fresh space.

-- | Pair up the elements of two arrays of the same size. Work 0, depth 0.
def zip [n] 'a 'b (as: [n]a) (bs: [n]b) : *[n](a, b) =
  intrinsics.zip as bs

-- | The same as `zip`. Work 0, depth 0.
def zip2 [n] 'a 'b (as: [n]a) (bs: [n]b) : *[n](a, b) =
  intrinsics.zip as bs

-- | Three arrays of the same size as an array of triples. Work 0, depth 0.
def zip3 [n] 'a 'b 'c (as: [n]a) (bs: [n]b) (cs: [n]c) : *[n](a, b, c) =
  intrinsics.zip3 as bs cs

-- | Four arrays of the same size as an array of 4-tuples. Work 0, depth 0.
def zip4 [n] 'a 'b 'c 'd (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) : *[n](a, b, c, d) =
  intrinsics.zip4 as bs cs ds

-- | Five arrays of the same size as an array of 5-tuples. Work 0, depth 0.
def zip5 [n] 'a 'b 'c 'd 'e (as: [n]a) (bs: [n]b) (cs: [n]c) (ds: [n]d) (es: [n]e) : *[n](a, b, c, d, e) =
  intrinsics.zip5 as bs cs ds es

-- | An array of pairs as a pair of arrays. Work 0, depth 0.
def unzip [n] 'a 'b (xs: [n](a, b)) : ([n]a, [n]b) =
  intrinsics.unzip xs

-- | The same as `unzip`. Work 0, depth 0.
def unzip2 [n] 'a 'b (xs: [n](a, b)) : ([n]a, [n]b) =
  intrinsics.unzip xs

-- | An array of triples as three arrays. Work 0, depth 0.
def unzip3 [n] 'a 'b 'c (xs: [n](a, b, c)) : ([n]a, [n]b, [n]c) =
  intrinsics.unzip3 xs

-- | An array of 4-tuples as four arrays. Work 0, depth 0.
def unzip4 [n] 'a 'b 'c 'd (xs: [n](a, b, c, d)) : ([n]a, [n]b, [n]c, [n]d) =
  intrinsics.unzip4 xs

-- | An array of 5-tuples as five arrays. Work 0, depth 0.
def unzip5 [n] 'a 'b 'c 'd 'e (xs: [n](a, b, c, d, e)) : ([n]a, [n]b, [n]c, [n]d, [n]e) =
  intrinsics.unzip5 xs
