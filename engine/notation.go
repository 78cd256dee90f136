package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// StepError reports a step of a move that could not be read or played: its
// place in the move (1-based, counting steps only, not capture tokens), the
// token as written, and why.
type StepError struct {
	Index int
	Token string
	Err   error
}

// Error returns a message such as `step 3 "cd4n": no piece on d4`.
func (e *StepError) Error() string {
	msg := e.Err.Error()
	// The parsers and Turn.CheckStep already name the step; say it once.
	msg = strings.TrimPrefix(msg, "step "+strconv.Quote(e.Token)+": ")
	msg = strings.TrimPrefix(msg, e.Token+": ")
	return fmt.Sprintf("step %d %q: %s", e.Index, e.Token, msg)
}

// Unwrap returns the underlying error.
func (e *StepError) Unwrap() error { return e.Err }

// errNoSteps is returned for a move without any step.
var errNoSteps = errors.New("a move needs 1 to 4 steps (pass is not a move in Arimaa)")

// isCaptureToken reports whether tok has the shape of a capture, such as "rc3x".
func isCaptureToken(tok string) bool { return len(tok) == 4 && tok[3] == 'x' }

// parseStepToken parses one step token, with an explicit message for "pass".
func parseStepToken(tok string) (Step, error) {
	if strings.EqualFold(tok, "pass") {
		return Step{}, errNoSteps
	}
	return ParseStep(tok)
}

// ParseSteps parses a move in standard notation, such as "Ed2n Ee2n cd4n Hd3n",
// into its steps. It checks the notation only, not the position: capture tokens
// such as "rc3x" are checked for their form and otherwise skipped. A move of
// no steps is an error.
func ParseSteps(s string) ([]Step, error) {
	var steps []Step
	for _, tok := range strings.Fields(s) {
		if isCaptureToken(tok) {
			if len(steps) == 0 {
				return nil, fmt.Errorf("capture %q before any step", tok)
			}
			if _, err := parseCapture(tok); err != nil {
				n := len(steps)
				return nil, &StepError{n, steps[n-1].String(), err}
			}
			continue
		}
		st, err := parseStepToken(tok)
		if err != nil {
			return nil, &StepError{len(steps) + 1, tok, err}
		}
		steps = append(steps, st)
	}
	if len(steps) == 0 {
		return nil, errNoSteps
	}
	return steps, nil
}

// playMove plays the move text s onto t step by step and returns the steps and
// the capture each caused. It does not check that the turn may end.
func playMove(t *Turn, s string) ([]Step, []Capture, error) {
	var (
		steps []Step
		caps  []Capture
		// noted reports whether the capture of the last step was written.
		noted bool
	)
	for _, tok := range strings.Fields(s) {
		if isCaptureToken(tok) {
			if len(steps) == 0 {
				return steps, caps, fmt.Errorf("capture %q before any step", tok)
			}
			n := len(steps)
			last := &StepError{n, steps[n-1].String(), nil}
			c, err := parseCapture(tok)
			switch {
			case err != nil:
				last.Err = err
			case caps[n-1] == NoCapture:
				last.Err = fmt.Errorf("%q is written but the step captured nothing", tok)
			case noted:
				last.Err = fmt.Errorf("%q: a step captures at most one piece", tok)
			case c != caps[n-1]:
				last.Err = fmt.Errorf("%q is written but the step captured %s", tok, caps[n-1])
			}
			if last.Err != nil {
				return steps, caps, last
			}
			noted = true
			continue
		}
		st, err := parseStepToken(tok)
		if err == nil {
			err = t.CheckStep(st)
		}
		if err != nil {
			return steps, caps, &StepError{len(steps) + 1, tok, err}
		}
		steps = append(steps, st)
		caps = append(caps, t.Play(st))
		noted = false
	}
	if len(steps) == 0 {
		return steps, caps, errNoSteps
	}
	return steps, caps, nil
}

// PlayMove plays a whole move given in standard notation onto t: steps separated
// by spaces, each capture written (as in "rc3x") after the step that caused it.
// Each step is checked with CheckStep; a written capture must be the one the
// step before it caused, while a capture the text leaves out is accepted. After
// the steps the turn must be able to end (see CanEnd).
//
// Errors name the step, such as `step 3 "cd4n": ...` (see StepError). On error t
// is left partly played: callers that need the turn afterwards play on a copy.
func (t *Turn) PlayMove(s string) error {
	if _, _, err := playMove(t, s); err != nil {
		return err
	}
	if err := t.CanEnd(); err != nil {
		return fmt.Errorf("move %q: %w", strings.TrimSpace(s), err)
	}
	return nil
}

// formatSteps writes steps in notation with each non-empty capture after the
// step that caused it.
func formatSteps(steps []Step, caps []Capture) string {
	var b strings.Builder
	b.Grow(len(steps) * 5)
	for i, st := range steps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(st.String())
		if i < len(caps) && caps[i] != NoCapture {
			b.WriteByte(' ')
			b.WriteString(caps[i].String())
		}
	}
	return b.String()
}

// FormatMove writes the move steps, played from start, in standard notation,
// with each capture written after the step that caused it, such as
// "Ed3w rc3x Ec3n". The steps are replayed to find the captures; from the first
// step that is not legal on, the steps are written without captures.
func FormatMove(start Position, steps []Step) string {
	t := NewTurn(start)
	caps := make([]Capture, len(steps))
	legal := true
	for i, st := range steps {
		caps[i] = NoCapture
		if legal && t.CheckStep(st) != nil {
			legal = false
		}
		if legal {
			caps[i] = t.Play(st)
		}
	}
	return formatSteps(steps, caps)
}
