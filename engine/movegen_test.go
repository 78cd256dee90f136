package engine

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

type countCase struct {
	line  int
	pos   Position
	count int
}

func loadClueless(tb testing.TB) []countCase {
	tb.Helper()
	posData, err := os.ReadFile("testdata/clueless32.aei")
	if err != nil {
		tb.Fatal(err)
	}
	expData, err := os.ReadFile("testdata/clueless32.aei.expected")
	if err != nil {
		tb.Fatal(err)
	}
	var exp []int
	sc := bufio.NewScanner(strings.NewReader(string(expData)))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		n, err := strconv.Atoi(f[1])
		if err != nil {
			tb.Fatal(err)
		}
		exp = append(exp, n)
	}
	var out []countCase
	for i, line := range strings.Split(strings.TrimRight(string(posData), "\n"), "\n") {
		p, err := ParsePosition(line)
		if err != nil {
			tb.Fatalf("line %d: %v", i+1, err)
		}
		out = append(out, countCase{i + 1, p, exp[i]})
	}
	if len(out) != len(exp) {
		tb.Fatalf("%d positions, %d expected counts", len(out), len(exp))
	}
	return out
}

func TestClueless32Counts(t *testing.T) {
	g := NewMoveGen()
	total := 0
	for _, c := range loadClueless(t) {
		n := g.Generate(&c.pos, nil)
		total += n
		if n != c.count {
			t.Errorf("line %d: %d moves, want %d", c.line, n, c.count)
		}
	}
	if total != 2987987 {
		t.Errorf("total %d moves, want 2987987", total)
	}
}

func BenchmarkClueless32(b *testing.B) {
	cases := loadClueless(b)
	g := NewMoveGen()
	total := 0
	b.ResetTimer()
	for b.Loop() {
		for i := range cases {
			total += g.Generate(&cases[i].pos, nil)
		}
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "moves/s")
}

// TestGenerateUpTo: the moves of at most k steps are exactly the moves of
// Generate whose steps number k or fewer, each with the same steps, in the
// same order; k outside 1 to MaxSteps is clamped.
func TestGenerateUpTo(t *testing.T) {
	full, short := NewMoveGen(), NewMoveGen()
	for _, c := range loadClueless(t)[:8] {
		n := full.Generate(&c.pos, nil)
		for _, k := range []int{0, 1, 2, 3, 4, 5} {
			lim := min(max(k, 1), MaxSteps)
			var want []string
			for i := range n {
				if st := full.Steps(i, nil); len(st) <= lim {
					q := full.Position(i)
					want = append(want, fmt.Sprint(st)+" "+q.String())
				}
			}
			m := short.GenerateUpTo(&c.pos, nil, k)
			if m != len(want) || short.Len() != m {
				t.Errorf("line %d, %d steps: %d moves (Len %d), want %d", c.line, k, m, short.Len(), len(want))
				continue
			}
			for i := range m {
				q := short.Position(i)
				if got := fmt.Sprint(short.Steps(i, nil)) + " " + q.String(); got != want[i] {
					t.Errorf("line %d, %d steps: move %d is %s, want %s", c.line, k, i, got, want[i])
					break
				}
			}
		}
	}
}
