def pats (x, _) ({a, b = (c, d), e: i32}) (y: i32) #c (z) ((+)) () = 0
def lit 1 = 0
def case_pats v =
  match v
  case (1, true) -> 0
  case (-1.5, 'x') -> 1
  case #node (#leaf l) r -> 2
  case #[trace] _ -> 3
  case {x = 1, y} -> y
  case (p : i32) -> p
