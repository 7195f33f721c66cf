-- An operator where an expression must start.
def main (x: i32) = x + * 2
-- error: testdata/bad/syn_unexpected_token.fut:2:25: Unexpected token: '*', expected an expression
