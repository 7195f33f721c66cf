-- A lambda argument that updates a record parameter takes the
-- parameter's whole type from the arguments after it (map's array), as
-- Futhark checks it; a record update needs the whole type, a field
-- constraint is not enough.

type body = {pos: f32, vel: f32}

def step (dt: f32) (bs: []body) : []body =
  map (\b -> b with pos = b.pos + dt * b.vel) bs

def bounce (bs: []body) : []body =
  map2 (\b w -> if b.pos > w then b with vel = -b.vel else b) bs (map (.pos) bs |> map (* 0.5))

-- ==
-- entry: main
-- input { 0.5f32 } output { [2f32, 0.5f32] [-2f32, -1f32] }
entry main (dt: f32) =
  let bs = step dt [{pos = 1, vel = 2}, {pos = 0, vel = 1}]
  let bs' = bounce bs
  in (map (.pos) bs', map (.vel) bs')
