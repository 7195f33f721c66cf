-- Records, tuples and sum types.
def a = {x = 1, x = 2} -- ERROR 17 "Field \"x\" previously defined in this record\."
def b = (1, 2).2 -- ERROR 9 "Record type \"\(\(a numeric type\), \(a numeric type\)\)\" has no field \"2\"\."
def c (r: {x: i32, y: bool}) = r with z = 1 -- ERROR 39 "Record type \"\{x: i32, y: bool\}\" has no field \"z\"\."
type opt = #none | #some i32
def d (o: opt) = match o case #none -> 0 case #some x -> x
def e (o: opt) = match o case #none -> 0 case #some x y -> x -- ERROR 47 "The payloads of constructor \#some differ in arity \(1 and 2\)\."
def f : opt = #other -- ERROR 15 "Cannot unify sum type \"\#none \| \#some i32\" with a sum type that has \#other: Unshared co"
def g (x: i32, x: i32) = x -- ERROR 16 "also bound"
def h r = r.x -- ERROR 11 "Type of this record is ambiguous: it must be a record \{x: \?t\d+, \.\.\.\}, but is not kn"
