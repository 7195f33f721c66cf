-- An integer literal that does not fit its inferred type (300i8, with a
-- suffix, is the bit pattern it spells, as in Futhark).
def main (x: i8) = x + 300
-- error: testdata/bad/syn_int_too_big.fut:3:24-27: Literal 300 out of bounds for type "i8" (-128 to 127).
