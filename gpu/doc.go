// Package gpu is the one entry point into the device for the rest of fut:
// the session (interp/session), the cost figures (interp/costs), the REPL
// and the command line import this package and no other under gpu/.
//
// Input: a fused core-IR program (the output of ir.Run) and the settings
// of the device (Config: --device, --devices, --cache-dir, --no-cache,
// --device-memory). Output: a Plan of kernels and host steps (Flatten),
// which runs on one open Device or is split across several, and the
// OpenCL C of its kernels (KernelSource), for :ir.
//
// The package is a facade, not a layer of its own: its types are aliases
// of the packages below it and its functions forward to them, so a
// method of a Plan or a Device is documented where it is written.
// Below it, in the order of their imports:
//
//   - gpu/cl: the OpenCL C API, bound at run time through purego (no
//     OpenCL library: no devices); on an NVIDIA GPU its objects run
//     through CUDA's driver API (cuda.go: OpenCL only compiles, to PTX;
//     FUT_CUDA=0 keeps OpenCL);
//   - gpu/kernel: the kernel IR;
//   - gpu/opencl: OpenCL C generated from the kernel IR;
//   - gpu/runtime: devices, buffers, the kernel cache, launches, profiles,
//     the device-memory budget and the offload policy;
//   - gpu/flatten: the fused IR to kernels (moderate flattening), and
//     the plans that run them, whole, in chunks or split across devices.
//
// Tests of the packages below may import those packages directly; code
// above them goes through here (tools/deps holds the rule).
package gpu
