-- Literals must fit their types.
def a : i8 = 127
def b : i8 = 128 -- ERROR 14 "out of bounds for type i8"
def c : i8 = -128
def d : u8 = -1 -- ERROR 15 "out of bounds for type u8"
def e : f32 = 1e39 -- ERROR 15 "out of bounds for type f32"
def f = 3000000000 -- ERROR 9 "out of bounds for type i32"
def g = 3000000000i64
