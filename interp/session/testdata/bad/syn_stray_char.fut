-- A character that starts no token.
def main (x: i32) = x $ 1
-- error: testdata/bad/syn_stray_char.fut:2:23: Unexpected token: '$', expected a declaration
