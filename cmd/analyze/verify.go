package main

import (
	"flag"
	"fmt"

	"github.com/arimaalab/arimaalab/data"
	"github.com/arimaalab/arimaalab/data/verify"
)

// verifyVerb checks datasets completely (package verify) and stops at the
// first problem.
func verifyVerb(fs *flag.FlagSet) func(env, []string) error {
	return func(e env, args []string) error {
		if len(args) == 0 {
			return usageError("want at least one PATH (a run, a shard, a directory or a glob)")
		}
		files, err := data.Files(args...)
		if err != nil {
			return err
		}
		v := verify.New(e.stderr)
		out := newOutWriter(e.stdout, nil)
		var rows, games int64
		for _, f := range files {
			n, g, err := v.Shard(f)
			if err != nil {
				out.flush()
				return err
			}
			rows, games = rows+n, games+int64(g)
			fmt.Fprintf(out, "ok  %s: %d rows, %d games\n", f, n, g)
		}
		if err := v.Complete(); err != nil {
			out.flush()
			return err
		}
		fmt.Fprintf(out, "verified %d shards, %d rows, %d games: checksums, schemas, values, boards, games and runs complete\n", len(files), rows, games)
		return out.flush()
	}
}
