-- A string literal that runs to the end of the line.
def s = "abc
def main (x: i32) = x
-- error: testdata/bad/syn_unterminated_string.fut:2:9-13: unterminated string literal
