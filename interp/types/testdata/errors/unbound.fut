-- Names that are not in scope.
def f (x: i32) = x + y -- ERROR 22 "unknown name y"
def g (x: t) = x -- ERROR 11 "unknown type t"
def h = M.x -- ERROR 9 "unknown (module|name) M"
def k (xs: [n]i32) = xs -- ERROR 13 "unknown size n"
def rec = i32.nosuch 1 -- ERROR 11 "module i32 has no value nosuch"
