-- A function applied to one argument too many.
def f (x: i32) = x + 1
def main (x: i32) = f x x
-- error: testdata/bad/ty_too_many_args.fut:3:25: Cannot apply "f" to 2 arguments: it takes only 1 arguments, and its result after them has type "i32".
