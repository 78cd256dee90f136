package engine

import (
	"strings"
	"testing"
)

// TestImpossibleBoards: boards with more pieces of a type than a side starts
// with, or two pieces on a square, are refused by ParsePosition and
// PositionFromBits; every legal count is accepted.
func TestImpossibleBoards(t *testing.T) {
	board := func(pieces string) string { // pieces from a8 on, the rest empty
		return "g [" + pieces + strings.Repeat(" ", 64-len(pieces)) + "]"
	}
	tests := []struct {
		name, pos, want string // want "" for a legal board
	}{
		{"standard opening", "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]", ""},
		{"empty board", board(""), ""},
		{"one of each", board("EMHDCRemhdcr"), ""},
		{"9 elephants", board(strings.Repeat("E", 9)), "9 Gold elephants, but a side has at most 1 elephant"},
		{"2 silver elephants", board("ee"), "2 Silver elephants, but a side has at most 1 elephant"},
		{"2 camels", board("MM"), "2 Gold camels"},
		{"3 horses", board("hhh"), "3 Silver horses, but a side has at most 2 horses"},
		{"3 dogs", board("DDD"), "3 Gold dogs"},
		{"3 cats", board("ccc"), "3 Silver cats"},
		{"16 rabbits", board(strings.Repeat("R", 16)), "16 Gold rabbits, but a side has at most 8 rabbits"},
		{"9 silver rabbits", board(strings.Repeat("r", 9)), "9 Silver rabbits"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParsePosition(tc.pos)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				q, err := PositionFromBits(p.Bits, p.Side)
				if err != nil || q != p {
					t.Fatalf("PositionFromBits: %v, %v; want %v", q, err, p)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParsePosition: error %v, want %q", err, tc.want)
			}
		})
	}
	// Two pieces on one square, and a bad side, from bitboards.
	var bits [12]Bitboard
	bits[MakePiece(Gold, Elephant)] = MakeSquare(3, 3).Bit()
	bits[MakePiece(Silver, Rabbit)] = MakeSquare(3, 3).Bit()
	if _, err := PositionFromBits(bits, Gold); err == nil || !strings.Contains(err.Error(), "d4 holds two pieces") {
		t.Errorf("two pieces on d4: %v", err)
	}
	if _, err := PositionFromBits([12]Bitboard{}, Color(2)); err == nil || !strings.Contains(err.Error(), "side 2") {
		t.Errorf("side 2: %v", err)
	}
	var many [12]Bitboard
	many[MakePiece(Silver, Rabbit)] = Bitboard(0xFFFF)
	if _, err := PositionFromBits(many, Silver); err == nil || !strings.Contains(err.Error(), "16 Silver rabbits") {
		t.Errorf("16 rabbits: %v", err)
	}
}
