package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/arimaalab/arimaalab/progress"

	"github.com/arimaalab/arimaalab/data"
)

// exportVerb converts shards to Parquet files.
func exportVerb(fs *flag.FlagSet) func(env, []string) error {
	outDir := fs.String("parquet", "", "write Parquet files into the directory `OUT` (required)")
	codec := fs.String("compression", "snappy", "Parquet compression `C`: snappy or zstd")
	return func(e env, args []string) error {
		if *outDir == "" {
			return usageError("want -parquet OUT")
		}
		if len(args) == 0 {
			return usageError("want at least one PATH (a shard, a directory or a glob)")
		}
		if *codec != "snappy" && *codec != "zstd" {
			return usageError(fmt.Sprintf("-compression %q: want snappy or zstd", *codec))
		}
		// Open checks every shard (schema, feature version) before anything is written.
		r, err := data.Open(args...)
		if err != nil {
			return err
		}
		files, total := r.Files(), r.Rows()
		r.Close()
		outs := make([]string, len(files))
		seen := make(map[string]string)
		for i, f := range files {
			outs[i] = filepath.Join(*outDir, exportName(f))
			if prev, ok := seen[outs[i]]; ok {
				return fmt.Errorf("%s and %s would both be exported to %s", prev, f, outs[i])
			}
			seen[outs[i]] = f
		}

		bar := progress.New(e.stderr, total, "exporting", false)
		out := newOutWriter(e.stdout, bar)
		var rows int64
		for i, f := range files {
			n, err := data.WriteParquet(outs[i], f, *codec)
			if err != nil {
				bar.Finish()
				out.flush()
				return err
			}
			rows += n
			bar.Add(n)
			fmt.Fprintf(out, "%s: %d rows\n", outs[i], n)
		}
		bar.Finish()
		fmt.Fprintf(out, "%d shards, %d rows exported to %s\n", len(files), rows, *outDir)
		return out.flush()
	}
}

// exportName returns the path of the Parquet file of the shard file name,
// relative to the output directory: the shard's path from its last gen=NNNN
// directory on (the Hive layout kept), or its base name, with the extension
// .parquet in place of .arrow.
func exportName(name string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(name)), "/")
	start := len(parts) - 1
	for i := len(parts) - 2; i >= 0; i-- {
		if isGenDir(parts[i]) {
			start = i
			break
		}
	}
	rel := filepath.Join(parts[start:]...)
	return strings.TrimSuffix(rel, ".arrow") + ".parquet"
}

// isGenDir reports whether s names a generation directory of the Hive layout,
// such as gen=0003.
func isGenDir(s string) bool {
	digits, ok := strings.CutPrefix(s, "gen=")
	return ok && digits != "" && strings.Trim(digits, "0123456789") == ""
}
