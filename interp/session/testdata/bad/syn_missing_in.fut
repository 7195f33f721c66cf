-- A let without in.
def main (x: i32) =
  let y = x + 1
  y * 2 )
-- error: testdata/bad/syn_missing_in.fut:4:9: Unexpected token: ')', expected "in"
