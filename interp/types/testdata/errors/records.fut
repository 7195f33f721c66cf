-- Records, tuples and sum types.
def a = {x = 1, x = 2} -- ERROR 17 "field x is given more than once"
def b = (1, 2).2 -- ERROR 9 "no field 2"
def c (r: {x: i32, y: bool}) = r with z = 1 -- ERROR 39 "no field z"
type opt = #none | #some i32
def d (o: opt) = match o case #none -> 0 case #some x -> x
def e (o: opt) = match o case #none -> 0 case #some x y -> x -- ERROR 47 "takes 1 arguments, not 2|1 and 2 arguments"
def f : opt = #other -- ERROR 15 "no constructor #other"
def g (x: i32, x: i32) = x -- ERROR 16 "also bound"
def h r = r.x -- ERROR 11 "record is not known"
