package main

import (
	"fmt"
	"os"
	"strings"

	"fut/gpu"
)

// cmdDevices lists the OpenCL platforms and devices; #k numbers are the
// order of preference (GPUs, accelerators, CPUs) that --device #k and
// FUT_DEVICE=#k use, and the device that would be chosen is marked.
func cmdDevices(args []string) int {
	cfg, rest, err := gpu.ParseFlags(args)
	bandwidth := int64(0)
	if err == nil && len(rest) > 0 {
		name, val, hasVal := strings.Cut(rest[0], "=")
		if name == "--bandwidth" {
			if !hasVal {
				val = "1G"
			}
			n, ok := gpu.ParseSize(val)
			if ok && n > 0 {
				bandwidth, rest = n, rest[1:]
			}
		}
	}
	if err != nil || len(rest) > 0 {
		fmt.Fprintln(os.Stderr, "usage: fut devices [--device NAME|#k] [--bandwidth[=SIZE]]")
		return 2
	}
	if bandwidth > 0 {
		return measureBandwidth(cfg, bandwidth)
	}
	ps, err := gpu.Platforms()
	if err != nil {
		fmt.Printf("no OpenCL devices: %v\n", err)
		return 0
	}
	cands, err := gpu.Candidates()
	if err != nil {
		fmt.Fprintf(os.Stderr, "fut devices: %v\n", err)
		return 1
	}
	chosen, chooseErr := gpu.Choose(cands, cfg.Spec())
	index := map[uintptr]int{}
	for i, d := range cands {
		index[d.ID] = i
	}
	for pi, p := range ps {
		fmt.Printf("platform %d: %s (%s), %s\n", pi, p.Name, p.Vendor, p.Version)
		ds, err := p.Devices()
		if err != nil {
			fmt.Printf("  %v\n", err)
			continue
		}
		if len(ds) == 0 {
			fmt.Println("  no devices")
		}
		for _, d := range ds {
			k := index[d.ID]
			mark := " "
			if k == chosen {
				mark = "*"
			}
			fmt.Printf(" %s#%d %s\n", mark, k, d.Name)
			fmt.Printf("     %s, %s, %d compute units, max work group %d, local memory %d KiB, f64 %s, f16 %s\n",
				d.Type, gib(d.GlobalMem), d.ComputeUnits, d.MaxWorkGroup, d.LocalMem>>10, yesNo(d.HasF64), yesNo(d.HasF16))
			fmt.Printf("     %s, driver %s\n", d.Version, d.DriverVersion)
			if how := gpu.DeviceAPI(d); how != "" {
				fmt.Printf("     %s\n", how)
			}
			if !d.RoundedDivSqrt {
				fmt.Printf("     f32 division and square root are not correctly rounded here: results may differ from the reference path's in the last bit\n")
			}
		}
	}
	if chooseErr != nil {
		fmt.Printf("no device chosen: %v\n", chooseErr)
	} else {
		fmt.Printf("chosen (*): #%d %s\n", chosen, cands[chosen].Name)
	}
	return 0
}

func gib(b uint64) string { return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30)) }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// measureBandwidth prints what copies between the host and the chosen
// device reach: plain copies from pinned and from ordinary memory, and
// fut's staged uploads and downloads (those of chunked runs).
func measureBandwidth(cfg gpu.Config, size int64) int {
	d, err := gpu.Open(cfg)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fut devices: %v\n", err)
		return 1
	}
	defer d.Close()
	bw, err := d.MeasureBandwidth(int(size))
	if err != nil {
		fmt.Fprintf(os.Stderr, "fut devices: %v\n", err)
		return 1
	}
	gbs := func(x float64) string { return fmt.Sprintf("%6.1f GB/s", x/1e9) }
	fmt.Printf("%s, %s each way\n", d.Name(), gpu.FormatBytes(bw.Bytes))
	fmt.Printf("  host to device, pinned memory:    %s\n", gbs(bw.PinnedIn))
	fmt.Printf("  host to device, ordinary memory:  %s\n", gbs(bw.PageableIn))
	fmt.Printf("  host to device, fut (staged):     %s  (%.0f%% of pinned)\n", gbs(bw.StagedIn), 100*bw.StagedIn/bw.PinnedIn)
	fmt.Printf("  device to host, pinned memory:    %s\n", gbs(bw.PinnedOut))
	fmt.Printf("  device to host, fut (staged):     %s  (%.0f%% of pinned)\n", gbs(bw.StagedOut), 100*bw.StagedOut/bw.PinnedOut)
	fmt.Printf("  both ways at once, pinned:        %s in, %s out\n", gbs(bw.BothIn), gbs(bw.BothOut))
	return 0
}
