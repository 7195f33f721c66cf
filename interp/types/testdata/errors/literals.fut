-- Literals must fit their types.
def a : i8 = 127
def b : i8 = 128 -- ERROR 14 "Literal 128 out of bounds for type \"i8\" \(-128 to 127\)\."
def c : i8 = -128
def d : u8 = -1 -- ERROR 15 "Literal -1 out of bounds for type \"u8\" \(0 to 255\)\."
def e : f32 = 1e39 -- ERROR 15 "Literal 1e39 out of bounds for type \"f32\"\."
def f = 3000000000 -- ERROR 9 "Literal 3000000000 out of bounds for type \"i32\" \(-2147483648 to 2147483647\)\." -- WARNING 5 "Defaulting ambiguous type to i32"
def g = 3000000000i64
-- A suffix states the type: the literal is not bounds-checked, but wraps.
def h = 255i8
def i = (65535u16, 4294967295i32, 0xffu8)
