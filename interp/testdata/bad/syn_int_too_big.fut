-- An integer literal that does not fit its type.
def main (x: i8) = x + 300i8
-- error: testdata/bad/syn_int_too_big.fut:2:24: Literal 300 out of bounds for type "i8" (-128 to 127).
