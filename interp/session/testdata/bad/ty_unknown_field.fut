-- A record has no such field.
def main (x: i32) = let r = {a = x, b = 2} in r.c
-- error: testdata/bad/ty_unknown_field.fut:2:47-50: Record type "{a: i32, b: (a numeric type)}" has no field "c".
