package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"fut/interp/testrun"
)

// A peer's figure for one workload, as shared/bench's scripts write them:
// gpu_peers.py an object {"device": …, "rows": [row…]}, expert_cuda.py a
// bare list of rows.
type peerRow struct {
	Bench string  `json:"bench"`
	Peer  string  `json:"peer"`
	MS    float64 `json:"ms"`
	Note  string  `json:"note"`
	dev   string  // the file's device
}

type peerFile struct {
	Device string    `json:"device"`
	Rows   []peerRow `json:"rows"`
}

// loadPeers reads the rows of each file, by workload.
func loadPeers(files []string) (map[string][]peerRow, error) {
	byBench := map[string][]peerRow{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var pf peerFile
		if err := json.Unmarshal(data, &pf); err != nil {
			// not an object: a bare list of rows
			if err2 := json.Unmarshal(data, &pf.Rows); err2 != nil {
				return nil, fmt.Errorf("%s: neither {\"rows\": [...]} nor a list of rows: %v", f, err)
			}
		}
		for _, r := range pf.Rows {
			if r.Bench == "" || r.Peer == "" || r.MS <= 0 {
				continue
			}
			r.dev = pf.Device
			byBench[r.Bench] = append(byBench[r.Bench], r)
		}
	}
	return byBench, nil
}

// peersOf are the rows for a program (its file's name without .fut, or
// else its entry point's name), fastest first, leaving out the copy
// ceiling.
func peersOf(byBench map[string][]peerRow, file, entry string) []peerRow {
	rows := byBench[strings.TrimSuffix(filepath.Base(file), ".fut")]
	if len(rows) == 0 && entry != "main" {
		rows = byBench[entry]
	}
	rows = append([]peerRow(nil), rows...)
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].MS < rows[j].MS })
	return rows
}

// comparePeers prints the peers' figures beside the dataset's, with the
// ratio of fut's to the fastest peer's by each figure fut has: the wall
// time of the call, the device's span of it (as a pair of CUDA events
// around a library's call times it) and the kernels' time.
func comparePeers(d *testrun.Dataset, rows []peerRow) {
	if len(rows) == 0 {
		return
	}
	var list []string
	for _, r := range rows {
		list = append(list, fmt.Sprintf("%s %.3fms", r.Peer, r.MS))
	}
	fmt.Printf("    peers: %s\n", strings.Join(list, ", "))
	best := rows[0]
	ratio := func(t time.Duration) string {
		return fmt.Sprintf("%.2f", float64(t.Nanoseconds())/1e6/best.MS)
	}
	parts := []string{"wall " + ratio(d.Median())}
	if s := d.SpanMedian(); s > 0 {
		parts = append(parts, "device span "+ratio(s))
	}
	if k := d.KernelMedian(); k > 0 {
		parts = append(parts, "kernels "+ratio(k))
	}
	who := best.Peer
	if best.dev != "" {
		who += " on " + best.dev
	}
	if best.Note != "" {
		who += ", " + best.Note
	}
	fmt.Printf("    fut / best peer (%s): %s\n", who, strings.Join(parts, ", "))
}

// largest is the dataset of a program that took longest (the one the
// peers' figures are for: its large, device-tagged input).
func largest(ds []*testrun.Dataset) *testrun.Dataset {
	var out *testrun.Dataset
	for _, d := range ds {
		if d.Err == "" && (out == nil || d.Median() > out.Median()) {
			out = d
		}
	}
	return out
}
