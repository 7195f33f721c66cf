-- Matches must cover every value; constructors need a known type.
type planet = #mercury | #venus | #earth
def a (p: planet) = match p case #mercury -> 1 case #venus -> 2 -- ERROR 21 "Unmatched cases.*For example: #earth\." -- WARNING 5 "Defaulting ambiguous type to i32"
def b (p: planet) = match p case #mercury -> 1 case _ -> 2 -- WARNING 5 "Defaulting ambiguous type to i32"
def c (x: (bool, bool)) = match x case (false, _) -> 0 case (true, true) -> 1 -- ERROR 27 "Unmatched cases.*For example: \(true, false\)" -- WARNING 5 "Defaulting ambiguous type to i32"
def d (x: (bool, bool)) = match x case (false, _) -> 0 case (true, true) -> 1 case (_, false) -> 2 -- WARNING 5 "Defaulting ambiguous type to i32"
def e (x: i32) = match x case 1 -> 1 case 2 -> 2 -- ERROR 18 "Unmatched cases.*For example: _\." -- WARNING 5 "Defaulting ambiguous type to i32"
def f = match #foo case #foo -> 1 case #bar -> 2 -- ERROR 15 "Type is ambiguous" -- WARNING 5 "Defaulting ambiguous type to i32"
def g (o: #some i32 | #none) = match o case #some 0 -> 0 case #none -> 1 -- ERROR 32 "Unmatched cases.*For example: #some _\." -- WARNING 5 "Defaulting ambiguous type to i32"
-- Matching constructors against a value that is not of a sum type.
def not_sum = match [1i32, 2]
  case #found x -> x -- ERROR "Cannot unify type with constructors #found \?t[0-9]* \| ... with type \"\[2\]i32\""
  case #none -> 0 -- ERROR "Cannot unify type with constructors #none \| ... with type \"\[2\]i32\" \(not a sum type\)"
