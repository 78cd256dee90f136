package main

import "flag"

// parseFlags parses the flags of args on fs and returns the other arguments.
// Flags may follow the arguments, as in "-pool a.json b.json -games-per-pair 4";
// after "--" everything is an argument.
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

// isFlag reports whether the argument s is a flag.
func isFlag(s string) bool { return len(s) > 1 && s[0] == '-' }
