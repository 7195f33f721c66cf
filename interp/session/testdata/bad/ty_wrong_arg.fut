-- An argument of the wrong type.
def main (x: f32) = f64.sqrt x
-- error: testdata/bad/ty_wrong_arg.fut:2:30: Cannot apply "f64.sqrt" to "x" (invalid type).
-- error: Expected: f64
-- error: Actual:   f32
-- error: Cannot unify "f64" with "f32".
