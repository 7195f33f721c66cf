-- An import of a file that does not exist.
import "nosuchfile"
def main (x: i32) = x
-- error: testdata/bad/ty_missing_import.fut:2:1-20: Cannot import "nosuchfile": cannot import testdata/bad/nosuchfile.fut: no such file or directory
