package main

import (
	"path/filepath"
	"testing"
)

// TestOrderVerb measures generation 0 on a stored run of Sharp's labels
// (the deep scan's reply positions, 2,534 rows): the figures the
// forty-third and forty-fourth rounds of docs/strength.md give, and
// against itself a difference of exactly 0.
func TestOrderVerb(t *testing.T) {
	const labels = "../../docs/strength/labels/forty-third-replies-b"
	missing := filepath.Join(t.TempDir(), "none.json")
	runVerbCases(t, []verbCase{
		{name: "generation 0", args: []string{"order", "-threads", "2", labels}, wantOut: []string{
			"rows       2534 read, 0 decided by the rules left out\n",
			"pairs      2046 in 547 groups, margin 0.03\n",
			"ordered    86.22 % (", ") as the judge: generation 0, hash b960f25b5a4a\n"}},
		{name: "against itself", args: []string{"order", "-threads", "2", "-base", "gen0", labels}, wantOut: []string{
			"difference +0.00 points (+0.00 to +0.00)"}},
		{name: "no data", args: []string{"order"}, wantCode: 2, wantErr: "want labelled shards"},
		{name: "bad margin", args: []string{"order", "-margin", "0", labels}, wantCode: 2, wantErr: "-margin 0"},
		{name: "missing base", args: []string{"order", "-base", missing, labels}, wantCode: 1, wantErr: "-base: open " + missing},
		{name: "missing data", args: []string{"order", missing}, wantCode: 1, wantErr: "none.json"},
	})
}
