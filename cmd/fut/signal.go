package main

import (
	"context"
	"os"
	"os/signal"
)

// interruptible returns a context cancelled by the first Ctrl-C; a second
// Ctrl-C kills the process as usual.
func interruptible(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	go func() {
		select {
		case <-ch:
			cancel()
			signal.Stop(ch)
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(ch); cancel() }
}
