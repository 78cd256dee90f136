package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows the advance of a long job on stderr when stderr is a terminal.
// A nil *progress shows nothing, so callers need not check.
type progress struct {
	bar *progressbar.ProgressBar
}

// newProgress returns a bar on stderr counting up to total, or nil when stderr
// is not a terminal.
func newProgress(stderr io.Writer, total int64, desc string) *progress {
	f, ok := stderr.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &progress{progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)}
}

// add advances the bar by n.
func (p *progress) add(n int) {
	if p != nil {
		_ = p.bar.Add(n) // a bar that cannot draw is no reason to stop the work
	}
}

// describe changes the bar's label.
func (p *progress) describe(s string) {
	if p != nil {
		p.bar.Describe(s)
	}
}

// clear erases the bar from its line, so that other output can take it.
func (p *progress) clear() {
	if p != nil {
		_ = p.bar.Clear()
	}
}

// done finishes the bar and erases it.
func (p *progress) done() {
	if p != nil {
		_ = p.bar.Finish()
		_ = p.bar.Clear()
	}
}
