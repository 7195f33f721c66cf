package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startCPUProfile starts Go's CPU profile into the file FUT_CPUPROFILE
// names, for those working on fut (where a call's host time goes:
// `go tool pprof fut FILE`); the function it returns stops it.
func startCPUProfile() func() {
	name := os.Getenv("FUT_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "fut: FUT_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
