-- An in-place update of a parameter that is not unique.
def main (xs: []i32) = xs with [0] = 1
-- error: testdata/bad/ty_consume_nonunique.fut:2:24-39: Consuming variable "xs" (this in-place update), which is not consumable: it is a parameter that is not unique (declare it with *).
