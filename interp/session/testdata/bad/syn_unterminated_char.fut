-- A character literal never closed.
def c = 'a
def main (x: i32) = x
-- error: testdata/bad/syn_unterminated_char.fut:2:9: Unexpected token: ''', expected an expression
