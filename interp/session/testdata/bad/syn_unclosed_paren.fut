-- A parenthesis never closed.
def main (x: i32) = (x + 1
-- error: testdata/bad/syn_unclosed_paren.fut:4:1: Unexpected end of file, expected ")" or ","
