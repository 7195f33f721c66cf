-- A literal with a suffix that is no type.
def main (x: i32) = x + 1i33
-- error: testdata/bad/syn_bad_suffix.fut:2:26-29: invalid suffix "i33" on a numeric literal
