package engine

import "testing"

func TestSquareDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"a1", "a1", 0},
		{"c3", "c4", 1},
		{"c3", "d4", 2},
		{"c3", "e3", 2},
		{"a1", "h8", 14},
		{"h1", "a8", 14},
		{"f6", "c3", 6},
	}
	for _, tt := range tests {
		a, err := ParseSquare(tt.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseSquare(tt.b)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Distance(b); got != tt.want {
			t.Errorf("%s.Distance(%s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := b.Distance(a); got != tt.want {
			t.Errorf("%s.Distance(%s) = %d, want %d", tt.b, tt.a, got, tt.want)
		}
	}
}
