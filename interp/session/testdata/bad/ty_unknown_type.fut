-- A type that is not defined.
def main (x: nosuchtype) = x
-- error: testdata/bad/ty_unknown_type.fut:2:14-24: Unknown type "nosuchtype".
