-- Imported by errors/scoping.fut.
import "hidden"
def main (x: i32) = x + hidden
type t = i32
