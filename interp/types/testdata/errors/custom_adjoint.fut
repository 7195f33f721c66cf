-- fut does not use with_vjp's custom adjoint yet: a use of the prelude's
-- with_vjp or with_vjp_tape is warned about where it is; a with_vjp of
-- the program's own is not.

def primal (x: f64) = with_vjp (\x -> x * 2) (\c x_adj -> x_adj + f64.sqrt c) x -- WARNING 23 "with_vjp's custom adjoint is not used yet"

def taped (x: f64) = with_vjp_tape (\x -> (x, x * 2)) (\(c, a) -> a + c) x -- WARNING 22 "with_vjp_tape's custom adjoint is not used yet"

entry d x = vjp primal x 1 + vjp taped x 1

def mine 'a 'b (f: a -> b) (_: b -> b -> a) (x: a) : b = f x

entry e (x: f64) = let with_vjp = mine in with_vjp (\y -> y + 1) (\_ a -> a) x
