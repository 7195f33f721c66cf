// Package soak holds a long-running test of the REPL (soak_test.go): a
// session driven for minutes with loads, errors, interrupts, offloads to
// OpenCL and large values, whose memory and goroutines must stay bounded.
// It runs only when asked:
//
//	FUT_SOAK=1 go test ./tools/soak -v -timeout 30m
//
// FUT_SOAK_DURATION (default 10m) sets how long it drives the session;
// FUT_SOAK_OPENCL=0 leaves the offloads out.
package soak
