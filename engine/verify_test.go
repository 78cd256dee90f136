package engine

import (
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

func TestVerifyAll(t *testing.T) {
	f, err := os.Open("testdata/allgames202602.txt")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadArchive(f, "allgames202602.txt")
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int64
	turns, errs := VerifyAll(recs, func() { calls.Add(1) })
	total := 0
	for i := range recs {
		if errs[i] != nil {
			t.Fatalf("%s: %v", recs[i].Label(), errs[i])
		}
		total += turns[i]
	}
	if calls.Load() != 147 || total != 10298 {
		t.Fatalf("%d games, %d turns; want 147 and 10298", calls.Load(), total)
	}
	// A wrong recorded winner is a mismatch naming the game and the last turn.
	var bad Record
	for _, r := range recs {
		if r.Termination == Goal {
			bad = r
			break
		}
	}
	bad.Result = bad.Result.Other()
	_, err = Verify(bad)
	if err == nil || !strings.Contains(err.Error(), bad.Label()+", turn ") {
		t.Fatalf("wrong winner: error %v, want one naming %s and the turn", err, bad.Label())
	}
}
