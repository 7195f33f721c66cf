-- A name that is not defined.
def main (x: i32) = x + y
-- error: testdata/bad/ty_unbound.fut:2:25: Unknown name "y".
