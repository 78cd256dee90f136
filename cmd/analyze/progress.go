package main

import (
	"bufio"
	"bytes"
	"io"

	"github.com/arimaalab/arimaalab/progress"
)

// lineWriter passes only complete lines to w and erases the progress bar before
// each write, so that output and a bar sharing one terminal do not mix.
type lineWriter struct {
	w       io.Writer
	p       *progress.Bar
	pending []byte
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.pending = append(l.pending, b...)
	i := bytes.LastIndexByte(l.pending, '\n')
	if i < 0 {
		return len(b), nil
	}
	l.p.Clear()
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
	l.p.Clear()
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
func newOutWriter(stdout io.Writer, p *progress.Bar) *outWriter {
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
