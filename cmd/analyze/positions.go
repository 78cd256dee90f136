package main

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/arimaalab/arimaalab/engine"
)

// numbered is a position of a position file with its line number.
type numbered struct {
	line int
	pos  engine.Position
}

// positionReader reads a position file: one position a line in the AEI
// setposition form `<g|s> [64 characters a8..h1]`. Blank lines and lines
// starting with # are skipped but counted for line numbers.
type positionReader struct {
	sc   *bufio.Scanner
	name string
	line int
	read int64 // bytes consumed, for progress
}

func newPositionReader(r io.Reader, name string) *positionReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	return &positionReader{sc: sc, name: name}
}

// next returns the next position, or io.EOF at the end of the file. A bad line
// gives a *fileError.
func (r *positionReader) next() (numbered, error) {
	for r.sc.Scan() {
		r.line++
		text := r.sc.Text()
		r.read += int64(len(text)) + 1
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		// Inside the brackets spaces are empty squares: trim only outside them.
		p, err := engine.ParsePosition(strings.TrimRight(strings.TrimLeft(text, " \t"), " \t\r"))
		if err != nil {
			return numbered{}, &fileError{r.name, r.line, err}
		}
		return numbered{r.line, p}, nil
	}
	if err := r.sc.Err(); err != nil {
		return numbered{}, &fileError{r.name, r.line + 1, err}
	}
	return numbered{}, io.EOF
}

// readPositions reads a whole position file.
func readPositions(r io.Reader, name string) ([]numbered, error) {
	pr := newPositionReader(r, name)
	var out []numbered
	for {
		p, err := pr.next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
}
