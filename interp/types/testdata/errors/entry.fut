-- Entry points are called from outside, with first-order values.
entry a (x: i32) = (x, \(y: i32) -> x + y) -- ERROR 7 "entry point cannot return a function"
entry b (f: i32 -> i32) = f 1 -- ERROR 9 "entry point parameter cannot be a function"
entry c 't (x: t) = x -- ERROR 7 "cannot be polymorphic"
entry d (x: i32) = x + 1
