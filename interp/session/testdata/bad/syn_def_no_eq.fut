-- A definition without =.
def main (x: i32) x + 1
-- error: testdata/bad/syn_def_no_eq.fut:2:21: Unexpected token: '+', expected "="
