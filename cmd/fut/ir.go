package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"fut/interp/ir"
	"fut/interp/lower"
	"fut/interp/session"
)

// cmdIR prints the stages of the offload path for an expression: the
// program after each source stage of lower.Stages, the core IR as lowered
// and after each pass of ir.Passes, then the kernels and their OpenCL C.
func cmdIR(args []string) int {
	const use = "ir [-f FILE] [--stage NAME | --dump-after NAME] [--passes] EXPR"
	fs := newFlagSet("ir", use)
	file := fs.String("f", "", "a file whose definitions are in scope")
	stage := fs.String("stage", "", "print only this stage: a source stage, lowered, a pass name, flattened or opencl")
	dumpAfter := fs.String("dump-after", "", "print the program after this pass only (as --stage)")
	listPasses := fs.Bool("passes", false, "list the passes, in order, with what each does")
	exprs, err := parseInterspersed(fs, args)
	if err != nil {
		return flagError("ir", use, err)
	}
	if *listPasses {
		for _, st := range lower.Stages {
			fmt.Printf("%s: %s\n", st.Name, st.Doc)
		}
		fmt.Println("lowered: the first-order program in the core IR (A-normal form, one composite SOAC)")
		for _, p := range ir.Passes {
			fmt.Printf("%s: %s\n", p.Name, p.Doc)
		}
		fmt.Println("flattened: the fused program as kernels and host steps")
		fmt.Println("opencl: the OpenCL C of the kernels")
		return 0
	}
	if len(exprs) != 1 {
		return flagError("ir", use, fmt.Errorf("give one expression"))
	}
	if *dumpAfter != "" {
		if *stage != "" && *stage != *dumpAfter {
			return flagError("ir", use, fmt.Errorf("--stage and --dump-after name different stages"))
		}
		*stage = *dumpAfter
	}
	s, err := session.NewSession(session.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "fut:", err)
		return 3
	}
	if *file != "" {
		if err := s.LoadFile(context.Background(), *file); err != nil {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
			return 1
		}
	}
	src := exprs[0]
	switch *stage {
	case "flattened", "opencl":
		text, err := s.KernelIR(src)
		if *stage == "opencl" {
			text, err = s.OpenCLSource(src)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, s.FormatError(err))
			return 1
		}
		fmt.Print(text)
		return 0
	}
	known := *stage == "" || *stage == "lowered"
	for _, st := range lower.Stages {
		known = known || st.Name == *stage
	}
	for _, p := range ir.Passes {
		known = known || p.Name == *stage
	}
	if !known {
		return flagError("ir", use, fmt.Errorf("no stage %q (fut ir --passes lists them)", *stage))
	}
	stages, err := s.IR(src)
	if err != nil {
		fmt.Fprintln(os.Stderr, s.FormatError(err))
		return 1
	}
	for _, st := range stages {
		if *stage != "" && st.Name != *stage {
			continue
		}
		fmt.Printf("-- %s\n%s\n", st.Name, strings.TrimRight(st.Text, "\n"))
	}
	if *stage == "" {
		text, err := s.KernelIR(src)
		if err == nil {
			fmt.Printf("-- flattened\n%s\n", strings.TrimRight(text, "\n"))
		}
	}
	return 0
}
