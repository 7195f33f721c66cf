-- Functions where only values of non-functional types may go.
def a = [\(x: i32) -> x] -- ERROR 10 "Cannot create array with elements of lifted type \"i32 -> i32\" \(arrays of functional valu"
def b (c: bool) = if c then (\(x: i32) -> x) else (\x -> x + 1) -- ERROR 19 "Conditional branches may not be of function type \(here \"i32 -> i32\"\)\."
def id 't (x: t) = x
def c = id (\(x: i32) -> x) -- ERROR 12 "A non-lifted type variable cannot be instantiated with the function type \"i32 -> i32\": f"
type t = i32 -> i32 -- ERROR 1 "Non-lifted type abbreviations may not contain functions: \"t\" is defined as \"i32 -> i32\" "
type^ u = i32 -> i32
type v = []i32 -- ERROR 1 "anonymous size"
def d (f: i32 -> i32) = loop f for i < 10 do f -- ERROR 30 "Loop parameters may not be of function type \(here \"i32 -> i32\"\)\."
def e 'a '~b (f: i64 -> a -> b) (x: a) = [f 0 x, f 1 x] -- ERROR 43 "the type \"b\" is lifted"
