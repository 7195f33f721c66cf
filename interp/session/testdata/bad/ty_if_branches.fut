-- The branches of an if differ in type.
def main (b: bool) = if b then 1i32 else 2.0f64
-- error: testdata/bad/ty_if_branches.fut:2:42-48: Type mismatch.
-- error: Expected: i32
-- error: Actual:   f64
-- error: Cannot unify "i32" with "f64".
