-- Names that are not in scope.
def f (x: i32) = x + y -- ERROR 22 "Unknown name \"y\"\."
def g (x: t) = x -- ERROR 11 "Unknown type \"t\"\."
def h = M.x -- ERROR 9 "Unknown name \"M\.x\"\."
def k (xs: [n]i32) = xs -- ERROR 13 "Unknown size \"n\": it must be a size parameter or a variable of type i64 in scope\."
def rec = i32.nosuch 1 -- ERROR 11 "Unknown name \"i32\.nosuch\": module i32 has no value \"nosuch\"\."
