// Package progress shows the advance of long jobs on stderr with a progress bar
// (github.com/schollz/progressbar/v3), only when stderr is a terminal unless asked.
package progress

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Bar is a progress bar. A nil *Bar shows nothing, so callers need not check.
type Bar struct {
	bar *progressbar.ProgressBar
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// New returns a bar on w counting up to total (-1 when unknown), or nil when w
// is not a terminal and force is false.
func New(w io.Writer, total int64, desc string, force bool) *Bar {
	return newBar(w, total, desc, force, progressbar.OptionShowCount())
}

// NewBytes is New for a bar that counts bytes.
func NewBytes(w io.Writer, total int64, desc string, force bool) *Bar {
	return newBar(w, total, desc, force, progressbar.OptionShowBytes(true))
}

func newBar(w io.Writer, total int64, desc string, force bool, unit progressbar.Option) *Bar {
	if !force && !IsTerminal(w) {
		return nil
	}
	return &Bar{progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		unit,
		progressbar.OptionClearOnFinish(),
	)}
}

// Set moves the bar to n.
func (b *Bar) Set(n int64) {
	if b != nil {
		_ = b.bar.Set64(n) // a bar that cannot draw is no reason to stop the work
	}
}

// Describe changes the text before the bar.
func (b *Bar) Describe(s string) {
	if b != nil {
		b.bar.Describe(s)
	}
}

// Finish completes and clears the bar.
func (b *Bar) Finish() {
	if b != nil {
		_ = b.bar.Finish()
		_ = b.bar.Clear()
	}
}

// Add advances the bar by n.
func (b *Bar) Add(n int64) {
	if b != nil {
		_ = b.bar.Add64(n)
	}
}

// Clear erases the bar from its line, so that other output can take it.
func (b *Bar) Clear() {
	if b != nil {
		_ = b.bar.Clear()
	}
}
