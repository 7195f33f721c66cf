-- A closure passed to a higher-order function of the user's, a partial
-- application, an operator section and a prelude SOAC.
-- ir: scale 3 [1, 2, 3]

def twice 'a (f: a -> a) (x: a) = f (f x)

def scale (k: i32) (xs: []i32) =
  let add = (+)
  in map (twice (\x -> add x k)) xs |> map (* 2)
