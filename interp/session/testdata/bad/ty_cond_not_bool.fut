-- A condition that is not a bool.
def main (x: i32) = if x then 1 else 2
-- error: testdata/bad/ty_cond_not_bool.fut:2:24: Type mismatch.
-- error: Expected: bool
-- error: Actual:   i32
-- error: Cannot unify "bool" with "i32".
