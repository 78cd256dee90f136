package train

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Target says what the evaluation is fitted to: a probability y in [0, 1] that
// the side to move wins, made from a row's game result, its search value, or a
// blend of the two.
type Target struct {
	// Kind is TargetResult, TargetValue or TargetBlend.
	Kind TargetKind
	// Lambda is the share of the result in a blend, in [0, 1].
	Lambda float64
}

// TargetKind is the kind of a Target.
type TargetKind uint8

// The kinds of target.
const (
	// TargetResult is y = (result+1)/2: 1 for a win, 0 for a loss. Rows of
	// unfinished games (result 0) are left out.
	TargetResult TargetKind = iota
	// TargetValue is y = (root_value+1)/2, the search's value of the row.
	TargetValue
	// TargetBlend is y = L*(result+1)/2 + (1-L)*(root_value+1)/2. Rows of
	// unfinished games have no result: their y is the value's alone.
	TargetBlend
)

// ParseTarget parses "result", "value" or "blend:L" with L in [0, 1].
func ParseTarget(s string) (Target, error) {
	switch s {
	case "result":
		return Target{Kind: TargetResult}, nil
	case "value":
		return Target{Kind: TargetValue}, nil
	}
	if l, ok := strings.CutPrefix(s, "blend:"); ok {
		v, err := strconv.ParseFloat(l, 64)
		if err != nil || math.IsNaN(v) || v < 0 || v > 1 {
			return Target{}, fmt.Errorf("target %q: the blend's share of the result must be a number in [0, 1]", s)
		}
		return Target{Kind: TargetBlend, Lambda: v}, nil
	}
	return Target{}, fmt.Errorf("target %q: want result, value or blend:L (L in [0, 1])", s)
}

// String returns the target in the form ParseTarget reads.
func (t Target) String() string {
	switch t.Kind {
	case TargetResult:
		return "result"
	case TargetValue:
		return "value"
	case TargetBlend:
		return "blend:" + strconv.FormatFloat(t.Lambda, 'g', -1, 64)
	}
	return fmt.Sprintf("TargetKind(%d)", t.Kind)
}

// Set implements flag.Value.
func (t *Target) Set(s string) error {
	v, err := ParseTarget(s)
	if err != nil {
		return err
	}
	*t = v
	return nil
}

// of returns the target of a row with the given result and root value, and
// whether the row is used at all. value must be finite.
func (t Target) of(result int8, value float32) (y float32, ok bool) {
	v := min(max((value+1)/2, 0), 1) // a value is in [-1, 1]; clamp rounding
	r := float32(result+1) / 2
	switch t.Kind {
	case TargetResult:
		return r, result != 0
	case TargetValue:
		return v, true
	default:
		if result == 0 {
			return v, true
		}
		l := float32(t.Lambda)
		return l*r + (1-l)*v, true
	}
}
