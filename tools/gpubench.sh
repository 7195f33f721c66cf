#!/usr/bin/env bash
# The GPU benchmarks' acceptance run in one go, on a machine with an
# NVIDIA GPU, PyTorch and CuPy: the peers of shared/bench (gpu_peers.py,
# expert_cuda.py), then `fut bench` on each workload of examples/bench
# with the peers' figures and the ratios beside (--compare), ROUNDS
# times, so that fut and the peers are measured in the same lease. The
# log and the peers' JSON go to OUT.
#
#   FUT=./fut PEERS=../shared/bench OUT=/tmp/gpubench tools/gpubench.sh [workload...]
#
# ROUNDS (2) and RUNS (15, timed runs a dataset) set the repetitions.
set -u
cd "$(dirname "$0")/.."
FUT=${FUT:-./fut} PEERS=${PEERS:-../shared/bench} OUT=${OUT:-/tmp/gpubench}
ROUNDS=${ROUNDS:-2} RUNS=${RUNS:-15}
ws=("$@")
[ ${#ws[@]} -gt 0 ] || ws=(saxpy dotprod scan filter hist blackscholes logsum mandelbrot nbody matmul)
mkdir -p "$OUT"
exec > >(tee "$OUT/log.txt") 2>&1
nvidia-smi -L 2>/dev/null
OUT=$OUT python3 "$PEERS/gpu_peers.py" copy "${ws[@]}" 2>&1 | grep -v Warning
OUT=$OUT python3 "$PEERS/expert_cuda.py" 2>&1
cmp=()
for f in peers.json expert.json; do
  [ -s "$OUT/$f" ] && cmp+=(--compare "$OUT/$f")
done
for r in $(seq "$ROUNDS"); do
  echo "== round $r"
  for w in "${ws[@]}"; do
    echo "-- $w"
    "$FUT" bench --backend=opencl -r "$RUNS" "${cmp[@]}" "examples/bench/$w.fut" 2>&1 |
      grep -E '^  (\[|#[1-9])|fut / best peer|rror'
  done
done
