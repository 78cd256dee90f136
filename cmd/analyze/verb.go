package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/arimaalab/arimaalab/engine"
)

// env holds the streams a verb runs with.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// verb is one command of analyze.
type verb struct {
	name string // as typed on the command line
	args string // the arguments after the name, for the usage line
	doc  string // one sentence for the usage
	// setup defines the verb's flags on fs and returns the function that runs it
	// on the arguments left after the flags.
	setup func(fs *flag.FlagSet) func(e env, args []string) error
}

func (v *verb) usage(fs *flag.FlagSet) {
	w := fs.Output()
	fmt.Fprintf(w, "usage: analyze %s %s\n\n%s\n", v.name, v.args, v.doc)
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nflags:")
		fs.PrintDefaults()
	}
}

// parseFlags parses the flags of args on fs and returns the other arguments.
// Flags may follow the arguments, as in "game FILE -game 7"; after "--"
// everything is an argument.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			return append(rest, left...), nil
		}
		i := 0
		for i < len(left) && !isFlag(left[i]) {
			i++
		}
		rest = append(rest, left[:i]...)
		if i == len(left) {
			return rest, nil
		}
		args = left[i:]
	}
}

// isFlag reports whether the argument s is a flag ("-" alone names stdin).
func isFlag(s string) bool { return len(s) > 1 && s[0] == '-' }

// usageError is a mistake in the command line (exit status 2).
type usageError string

func (e usageError) Error() string { return string(e) }

// fileError is an error at a line of an input file, printed as FILE:LINE: message.
type fileError struct {
	name string
	line int
	err  error
}

func (e *fileError) Error() string { return fmt.Sprintf("%s:%d: %v", e.name, e.line, e.err) }

func (e *fileError) Unwrap() error { return e.err }

// input is an opened input file, or stdin for the name "-".
type input struct {
	io.Reader
	name string // the name for messages: the path, or "stdin"
	size int64  // the size in bytes, or -1 when unknown
	file *os.File
}

// openInput opens the file name, or returns stdin for "-".
func openInput(name string, stdin io.Reader) (*input, error) {
	if name == "-" {
		return &input{Reader: stdin, name: "stdin", size: -1}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	in := &input{Reader: f, name: name, size: -1, file: f}
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		in.size = st.Size()
	}
	return in, nil
}

// readArchive reads the game archive name ("-" for stdin) and returns its
// records and the name to use in messages.
func readArchive(name string, stdin io.Reader) ([]engine.Record, string, error) {
	in, err := openInput(name, stdin)
	if err != nil {
		return nil, "", err
	}
	defer in.Close()
	recs, err := engine.ReadArchive(in, in.name)
	return recs, in.name, err
}

// Close closes the file (not stdin).
func (in *input) Close() error {
	if in.file == nil {
		return nil
	}
	return in.file.Close()
}

// writeFileAtomic writes data to path: to a temporary file beside it, renamed
// to path when complete, so that path is never seen half written. The file
// gets mode 0644.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
