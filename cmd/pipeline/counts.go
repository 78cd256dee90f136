package main

import (
	"github.com/arimaalab/arimaalab/progress"

	"bufio"
	"fmt"
	"strconv"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// countCase is a position with its expected number of unique legal moves.
type countCase struct {
	line int
	pos  engine.Position
	want int
}

// parseCounts reads a position file (one AEI setposition string a line; blank
// lines and # comments skipped) and its expected counts (`<line> <count>` a
// line), and pairs them by line number.
func parseCounts(name, positions, expected string) ([]countCase, error) {
	want := map[int]int{}
	for i, text := range lines(expected) {
		f := strings.Fields(text)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("%s.expected:%d: want `<line> <count>`", name, i+1)
		}
		line, err1 := strconv.Atoi(f[0])
		n, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || line < 1 || n < 0 {
			return nil, fmt.Errorf("%s.expected:%d: want `<line> <count>`, got %q", name, i+1, text)
		}
		want[line] = n
	}
	var cases []countCase
	for i, text := range lines(positions) {
		text = strings.TrimSpace(text)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		p, err := engine.ParsePosition(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, i+1, err)
		}
		n, ok := want[i+1]
		if !ok {
			return nil, fmt.Errorf("%s:%d: no expected count", name, i+1)
		}
		delete(want, i+1)
		cases = append(cases, countCase{i + 1, p, n})
	}
	for line := range want {
		return nil, fmt.Errorf("%s.expected: a count for line %d, which holds no position", name, line)
	}
	return cases, nil
}

// lines splits s into lines, without their line ends.
func lines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

// countReport is the outcome of the move count check.
type countReport struct {
	positions, moves int
	problems         []string
}

// checkCounts generates the moves of every case and compares their number with
// the expected count.
func checkCounts(name string, cases []countCase, bar *progress.Bar) countReport {
	got := make([]int, len(cases))
	g := engine.NewMoveGen()
	for i := range cases {
		got[i] = g.Generate(&cases[i].pos, nil)
		bar.Add(1)
	}
	r := countReport{positions: len(cases)}
	for i, c := range cases {
		r.moves += got[i]
		if got[i] != c.want {
			r.problems = append(r.problems, fmt.Sprintf("%s:%d: %d moves, expected %d", name, c.line, got[i], c.want))
		}
	}
	return r
}
