package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/parquet/file"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/features"
)

// testGame is a game of the test dataset.
type testGame struct {
	id          uint64
	turns       int
	winner      int // 0 gold, 1 silver, -1 none
	termination string
}

// writeDataset writes a run of two generations in the Hive layout: shard 0
// (generation 1) with games 1 and 2, shard 1 (generation 2) with games 3 to 5,
// and returns the run directory. Row r (counting over the run) has feature k
// equal to k+r%2, and a full search when r is even.
func writeDataset(t *testing.T) string {
	t.Helper()
	run := filepath.Join(t.TempDir(), "run")
	shards := [][]testGame{
		{{1, 5, 0, "goal"}, {2, 3, 1, "elimination"}},
		{{3, 4, -1, "max-turns"}, {4, 12, 1, "goal"}, {5, 6, 0, "immobilization"}},
	}
	r := 0
	for s, games := range shards {
		meta := data.Meta{FeatureNames: features.Names(), FeatureVersion: features.Version(), Shard: s, Search: `{"visits":8}`}
		path := filepath.Join(run, fmt.Sprintf("gen=%04d", s+1), "selfplay", fmt.Sprintf("shard-%05d.arrow", s))
		w, err := data.Create(path, meta, data.WriterOptions{BatchRows: 4})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			for i := range g.turns {
				side := i % 2
				row := data.Row{GameID: g.id, Turn: uint16(2 + i/2), Side: uint8(side), Move: "Ra2n",
					PliesLeft: uint16(g.turns - i), Termination: g.termination, FullSearch: r%2 == 0,
					Features: make([]float32, features.N)}
				for k := range row.Features {
					row.Features[k] = float32(k + r%2)
				}
				switch {
				case g.winner < 0:
				case g.winner == side:
					row.Result = 1
				default:
					row.Result = -1
				}
				if err := w.Write(&row); err != nil {
					t.Fatal(err)
				}
				r++
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return run
}

func TestDataVerb(t *testing.T) {
	run := writeDataset(t)
	// 30 rows: 15 with feature k = k, 15 with k+1, so the means are k+0.5.
	res := runCmd(t, "", "data", run)
	if res.code != 0 {
		t.Fatalf("status %d, stderr %q", res.code, res.stderr)
	}
	for _, want := range []string{
		"shards        2\n",
		"rows          30\n",
		"games         5\n",
		"plies/game    6.0\n",
		"results       gold wins 2 (40.0%), silver wins 2 (40.0%), unfinished 1 (20.0%)\n",
		"terminations  goal 2, elimination 1, immobilization 1, max-turns 1\n",
		"full search   50.0% of rows (15)\n",
		"game length (plies: moves after the setups)\n",
		"   3 | ######################################## 1\n",
		"   7 |                                          0\n",
		"  12 | ######################################## 1\n",
		"feature means (" + features.Version() + ", " + strconv.Itoa(features.N) + " features)\n",
		"  bias                     0.5000\n",
		"  frames                  35.5000\n",
	} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, res.stdout)
		}
	}
	// One generation, by a glob.
	res = runCmd(t, "", "data", filepath.Join(run, "gen=0002", "*", "*.arrow"))
	if res.code != 0 || !strings.Contains(res.stdout, "rows          22\n") || !strings.Contains(res.stdout, "games         3\n") {
		t.Errorf("glob: status %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
	}

	bad := writeFile(t, "bad.arrow", "{}")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no path", []string{"data"}, 2, "usage: analyze data"},
		{"missing", []string{"data", filepath.Join(run, "none")}, 1, "no such file"},
		{"not arrow", []string{"data", run, bad}, 1, "analyze data: " + bad + ": not an Arrow IPC file\n"},
		{"empty dir", []string{"data", t.TempDir()}, 1, "no .arrow files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runCmd(t, "", tt.args...)
			if res.code != tt.wantCode || !strings.Contains(res.stderr, tt.wantErr) || strings.Count(res.stderr, "\n") != 1 {
				t.Errorf("status %d, stderr %q; want status %d, one line with %q", res.code, res.stderr, tt.wantCode, tt.wantErr)
			}
		})
	}
}

// parquetRows returns the number of rows of a Parquet file.
func parquetRows(t *testing.T, path string) int64 {
	t.Helper()
	f, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return f.NumRows()
}

func TestExportVerb(t *testing.T) {
	run := writeDataset(t)
	for _, codec := range []string{"snappy", "zstd"} {
		t.Run(codec, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "pq")
			res := runCmd(t, "", "export", "-parquet", out, "-compression", codec, run)
			if res.code != 0 {
				t.Fatalf("status %d, stderr %q", res.code, res.stderr)
			}
			want := map[string]int64{
				filepath.Join(out, "gen=0001", "selfplay", "shard-00000.parquet"): 8,
				filepath.Join(out, "gen=0002", "selfplay", "shard-00001.parquet"): 22,
			}
			for path, n := range want {
				if got := parquetRows(t, path); got != n {
					t.Errorf("%s: %d rows, want %d", path, got, n)
				}
				if !strings.Contains(res.stdout, path+": ") {
					t.Errorf("output does not name %s:\n%s", path, res.stdout)
				}
			}
			if !strings.HasSuffix(res.stdout, "2 shards, 30 rows exported to "+out+"\n") {
				t.Errorf("output:\n%s", res.stdout)
			}
			var files []string
			filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					files = append(files, p)
				}
				return err
			})
			if len(files) != 2 {
				t.Errorf("files in %s: %v", out, files)
			}
		})
	}

	// Shards outside a gen=NNNN directory keep their base name; two of one
	// name are refused before anything is written.
	a := filepath.Join(run, "gen=0001", "selfplay", "shard-00000.arrow")
	b := filepath.Join(t.TempDir(), "x", "shard-00000.arrow")
	if err := os.MkdirAll(filepath.Dir(b), 0o755); err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(t.TempDir(), "shard-00000.arrow")
	for _, suffix := range []string{"", data.SumSuffix} { // the shard and its checksum
		content, err := os.ReadFile(a + suffix)
		if err != nil {
			t.Fatal(err)
		}
		for _, dst := range []string{b, c} {
			if err := os.WriteFile(dst+suffix, content, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no -parquet", []string{"export", run}, 2, "want -parquet OUT"},
		{"no path", []string{"export", "-parquet", out}, 2, "usage: analyze export"},
		{"bad compression", []string{"export", "-parquet", out, "-compression", "gzip", run}, 2, `"gzip"`},
		{"collision", []string{"export", "-parquet", out, b, c}, 1, "would both be exported to " + filepath.Join(out, "shard-00000.parquet")},
		{"not arrow", []string{"export", "-parquet", out, writeFile(t, "x.arrow", "PAR1")}, 1, "not an Arrow IPC file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runCmd(t, "", tt.args...)
			if res.code != tt.wantCode || !strings.Contains(res.stderr, tt.wantErr) || strings.Count(res.stderr, "\n") != 1 {
				t.Errorf("status %d, stderr %q; want status %d, one line with %q", res.code, res.stderr, tt.wantCode, tt.wantErr)
			}
		})
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("failed exports left %v", entries)
	}
	res := runCmd(t, "", "export", "-parquet", out, b)
	if res.code != 0 || parquetRows(t, filepath.Join(out, "shard-00000.parquet")) != 8 {
		t.Errorf("export of a shard outside gen=: status %d, stderr %q", res.code, res.stderr)
	}
}

func TestHistogram(t *testing.T) {
	tests := []struct {
		xs   []int
		want string
	}{
		{[]int{5}, "  5 | #### 1\n"},
		{[]int{1, 2, 2, 4}, "  1 | ##   1\n  2 | #### 2\n  3 |      0\n  4 | ##   1\n"},
		{[]int{3, 4, 9, 30}, "    0-4 | #### 2\n    5-9 | ##   1\n" +
			"  10-14 |      0\n  15-19 |      0\n  20-24 |      0\n  25-29 |      0\n  30-34 | ##   1\n"},
		{[]int{101, 250}, "  100-119 | #### 1\n  120-139 |      0\n  140-159 |      0\n  160-179 |      0\n" +
			"  180-199 |      0\n  200-219 |      0\n  220-239 |      0\n  240-259 | #### 1\n"},
	}
	for _, tt := range tests {
		var b strings.Builder
		histogram(&b, tt.xs, 8, 4)
		if b.String() != tt.want {
			t.Errorf("histogram(%v):\n%s\nwant\n%s", tt.xs, b.String(), tt.want)
		}
	}
}

func TestExportName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"run/gen=0003/selfplay/shard-00012.arrow", "gen=0003/selfplay/shard-00012.parquet"},
		{"/abs/run/gen=0003/shard-00012.arrow", "gen=0003/shard-00012.parquet"},
		{"a/gen=1/b/gen=22/c/s.arrow", "gen=22/c/s.parquet"},
		{"shards/s.arrow", "s.parquet"},
		{"gen=x/s.arrow", "s.parquet"},
		{"gen=/s.arrow", "s.parquet"},
		{"s", "s.parquet"},
	}
	for _, tt := range tests {
		if got := exportName(filepath.FromSlash(tt.in)); got != filepath.FromSlash(tt.want) {
			t.Errorf("exportName(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
