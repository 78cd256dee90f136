package engine

import (
	"bufio"
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
