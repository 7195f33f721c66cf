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
-- A conditional may not return a function, even inside a tuple, and even
-- when that is known only after the branches were checked.
def pick_fn : (i32, i32) -> i32 = ((true, (.0)), (false, (.1))) |> (\p -> if p.0.0 then p.0 else p.1) |> (.1) -- ERROR 75 "Conditional branches may not be of function type \(here \"\(bool, \(i32, i32\) -> i32\)\"\)"
def same_val x = if true then x else x
def use_same (x: i32) = same_val x
