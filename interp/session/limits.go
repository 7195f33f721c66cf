package session

import (
	"bufio"
	"os"
	"strconv"
	"strings"

	"fut/gpu"
)

// DefaultMaxMemory is the default bound on the bytes a session's values
// hold live: half of the machine's memory where it can be read, otherwise
// 4 GiB. A program that needs more (replicate 40000000000 1u8, or many
// rows of a map held at once) gets an error instead of bringing the
// machine down.
func DefaultMaxMemory() int64 {
	if total := totalMemory(); total > 0 {
		return total / 2
	}
	return 4 << 30
}

func totalMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb * 1024
		}
	}
	return 0
}

// ParseBytes reads a size such as 512M, 8G, 1024 or 1.5GiB.
func ParseBytes(s string) (int64, bool) { return gpu.ParseSize(s) }
