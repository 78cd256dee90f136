package train

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/arimaalab/arimaalab/features"
	"github.com/arimaalab/arimaalab/weights"
)

// TestOrder measures on a judge's groups the judge's own weights (every
// pair ordered as the judge), the judge's weights reversed (none),
// generation 0 (some, not all), and generation 0 against the judge pair by
// pair: the difference is the two shares' difference, and the intervals
// hold their values.
func TestOrder(t *testing.T) {
	gen0, judge := gen0Vector(t)
	judge[features.Index("trap_home_west")] = 0.8
	judge[features.Index("mobility_own")] = 0.6
	judge[features.Index("elephant_centrality")] = -0.5
	path := judgedGroups(t, judge, gen0.Scale, 6)

	same, err := weights.New(judge, gen0.Scale, 1)
	if err != nil {
		t.Fatal(err)
	}
	neg := make([]float64, len(judge))
	for j, v := range judge {
		neg[j] = -v
	}
	reversed, err := weights.New(neg, gen0.Scale, 1)
	if err != nil {
		t.Fatal(err)
	}
	measure := func(ws ...*weights.Weights) *OrderReport {
		t.Helper()
		o := DefaultOptions()
		o.Data, o.Threads = []string{path}, 2
		rep, err := Order(context.Background(), OrderOptions{Options: o, Weights: ws})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	inside := func(s Share) bool { return s.Low <= s.Value && s.Value <= s.High }

	tests := []struct {
		name     string
		w        *weights.Weights
		min, max float64
	}{
		{"the judge's weights", same, 1, 1},
		{"the judge's weights reversed", reversed, 0, 0},
		{"generation 0", gen0, 0.5, 0.99},
	}
	shares := map[string]float64{}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep := measure(tc.w)
			if rep.Pairs == 0 || rep.Groups == 0 || len(rep.Ordered) != 1 || rep.Diff != nil {
				t.Fatalf("pairs %d, groups %d, shares %d, diff %v", rep.Pairs, rep.Groups, len(rep.Ordered), rep.Diff)
			}
			s := rep.Ordered[0]
			if s.Value < tc.min || s.Value > tc.max || !inside(s) {
				t.Errorf("ordered %.4f (%.4f to %.4f), want %v to %v", s.Value, s.Low, s.High, tc.min, tc.max)
			}
			shares[tc.name] = s.Value
		})
	}

	rep := measure(gen0, same)
	if rep.Diff == nil || len(rep.Ordered) != 2 {
		t.Fatalf("two evaluations: diff %v, shares %d", rep.Diff, len(rep.Ordered))
	}
	if want := rep.Ordered[0].Value - rep.Ordered[1].Value; math.Abs(rep.Diff.Value-want) > 1e-12 || !inside(*rep.Diff) || rep.Diff.High >= 0 {
		t.Errorf("difference %.4f (%.4f to %.4f), want %.4f with an interval below 0", rep.Diff.Value, rep.Diff.Low, rep.Diff.High, want)
	}
	if rep.Ordered[0].Value != shares["generation 0"] {
		t.Errorf("generation 0 ordered %.4f beside the judge, %.4f alone", rep.Ordered[0].Value, shares["generation 0"])
	}
	var b strings.Builder
	if _, err := rep.WriteTo(&b); err != nil || !strings.Contains(b.String(), "difference") || strings.Count(b.String(), "ordered") != 2 {
		t.Errorf("report: %v\n%s", err, b.String())
	}
}

// TestOrderErrors: no evaluation or three, a margin out of range, nil
// weights, and
// labels without groups are refused with errors that say so.
func TestOrderErrors(t *testing.T) {
	gen0, judge := gen0Vector(t)
	path := judgedGroups(t, judge, gen0.Scale, 1) // one position a group: no pairs
	tests := []struct {
		name   string
		ws     []*weights.Weights
		margin float64
		want   string
	}{
		{"none", nil, 0, "want one or two"},
		{"three", []*weights.Weights{gen0, gen0, gen0}, 0, "want one or two"},
		{"margin", []*weights.Weights{gen0}, 2, "pair margin"},
		{"nil weights", []*weights.Weights{nil}, 0, "nil weights"},
		{"no pairs", []*weights.Weights{gen0}, 0, "no pairs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.Data = []string{path}
			_, err := Order(context.Background(), OrderOptions{Options: o, Weights: tc.ws, Margin: tc.margin})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one with %q", err, tc.want)
			}
		})
	}
}
