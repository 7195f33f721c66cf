-- A top-level definition whose type holds a numeric type that inference
-- left open is defaulted, and warned of (as Futhark does).
def twice x = x + x -- WARNING 5 "Defaulting ambiguous type to i32\."
def half x = x / 2.0 -- WARNING 5 "Defaulting ambiguous type to f64\."
def seven = 3 + 4 -- WARNING 5 "Defaulting ambiguous type to i32\."
-- Known types, or an open type that does not reach the definition's type,
-- are no warning.
def seven' : i64 = 3 + 4
def inc (y: i32) = y + 1
def local_only (y: bool) = let z = 1 + 2 in if y then z > 0 else false
def float_only x = f32.sqrt x + 1
-- The defaulted type is then what later definitions see.
def sum2 a b = a + b -- WARNING 5 "Defaulting ambiguous type to i32\."
def use_sum2 = sum2 1 2.5 -- ERROR 23 "Cannot unify \"i32\" with a floating-point type"
-- Inside a module too.
module m = { def one = 1 } -- WARNING 18 "Defaulting ambiguous type to i32\."
