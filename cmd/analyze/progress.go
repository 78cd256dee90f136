package main

import (
	"bufio"
	"bytes"
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

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// newProgress returns a bar on stderr counting up to total (-1 when unknown),
// or nil when stderr is not a terminal. With bytes set it counts bytes.
func newProgress(stderr io.Writer, total int64, desc string, bytes bool) *progress {
	if !isTerminal(stderr) {
		return nil
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(stderr),
		progressbar.OptionSetDescription(desc),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	}
	if bytes {
		opts = append(opts, progressbar.OptionShowBytes(true))
	} else {
		opts = append(opts, progressbar.OptionShowCount())
	}
	return &progress{progressbar.NewOptions64(total, opts...)}
}

// add advances the bar by n.
func (p *progress) add(n int64) {
	if p != nil {
		_ = p.bar.Add64(n) // a bar that cannot draw is no reason to stop the work
	}
}

// set moves the bar to n.
func (p *progress) set(n int64) {
	if p != nil {
		_ = p.bar.Set64(n)
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

// lineWriter passes only complete lines to w and erases the progress bar before
// each write, so that output and a bar sharing one terminal do not mix.
type lineWriter struct {
	w       io.Writer
	p       *progress
	pending []byte
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.pending = append(l.pending, b...)
	i := bytes.LastIndexByte(l.pending, '\n')
	if i < 0 {
		return len(b), nil
	}
	l.p.clear()
	_, err := l.w.Write(l.pending[:i+1])
	n := copy(l.pending, l.pending[i+1:])
	l.pending = l.pending[:n]
	return len(b), err
}

// flush writes what is left, complete line or not.
func (l *lineWriter) flush() error {
	if len(l.pending) == 0 {
		return nil
	}
	l.p.clear()
	_, err := l.w.Write(l.pending)
	l.pending = l.pending[:0]
	return err
}

// outWriter is buffered output on stdout that keeps clear of a progress bar.
type outWriter struct {
	*bufio.Writer
	lw *lineWriter // nil without a bar
}

// newOutWriter returns buffered output on stdout that keeps clear of the bar p.
// Call flush when done.
func newOutWriter(stdout io.Writer, p *progress) *outWriter {
	if p == nil {
		return &outWriter{Writer: bufio.NewWriterSize(stdout, 64<<10)}
	}
	lw := &lineWriter{w: stdout, p: p}
	return &outWriter{bufio.NewWriterSize(lw, 64<<10), lw}
}

// flush writes all buffered output.
func (o *outWriter) flush() error {
	if err := o.Flush(); err != nil {
		return err
	}
	if o.lw != nil {
		return o.lw.flush()
	}
	return nil
}
