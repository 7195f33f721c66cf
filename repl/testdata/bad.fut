def ok = 1

def oops (x: i32) : bool = x + 1
