-- Functions where only values of non-functional types may go.
def a = [\(x: i32) -> x] -- ERROR 10 "arrays of functions are not allowed"
def b (c: bool) = if c then (\(x: i32) -> x) else (\x -> x + 1) -- ERROR 19 "conditional cannot return a function"
def id 't (x: t) = x
def c = id (\(x: i32) -> x) -- ERROR 12 "non-lifted type cannot be instantiated with the functional type"
type t = i32 -> i32 -- ERROR 1 "non-lifted type t"
type^ u = i32 -> i32
type v = []i32 -- ERROR 1 "anonymous size"
def d (f: i32 -> i32) = loop f for i < 10 do f -- ERROR 30 "loop parameter cannot be a function"
