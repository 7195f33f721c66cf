-- A body whose type is not the declared return type.
def main (x: i32) : bool = x + 1
-- error: testdata/bad/ty_ret_type.fut:2:28-33: Function body does not have expected type.
-- error: Expected: bool
-- error: Actual:   i32
-- error: Cannot unify "bool" with "i32".
