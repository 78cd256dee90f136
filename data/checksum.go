package data

import (
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/zeebo/xxh3"
)

// SumSuffix ends the name of a shard's checksum file: PATH.xxh128 beside
// PATH. It holds one line in the format of `xxhsum -H2` (and of sha256sum):
// the XXH3-128 hash of the shard's bytes in 32 hexadecimal digits (canonical,
// big-endian), two spaces and the shard's base name, so that `xxhsum -c
// shard-00012.arrow.xxh128` checks it too.
const SumSuffix = ".xxh128"

// SumPath returns the checksum file of the shard path.
func SumPath(path string) string { return path + SumSuffix }

// checksum returns the XXH3-128 hash of b in canonical hexadecimal (high
// half first).
func checksum(b []byte) string {
	h := xxh3.Hash128(b).Bytes()
	return hex.EncodeToString(h[:])
}

// sumLine returns the content of the checksum file of the shard path.
func sumLine(path, sum string) string {
	return sum + "  " + filepath.Base(path) + "\n"
}

// readSum reads the checksum file of the shard path and returns the hash it
// records. The file must name the shard.
func readSum(path string) (string, error) {
	sp := SumPath(path)
	b, err := os.ReadFile(sp)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s: no checksum file %s (every shard is published with one; rewrite the shard)", path, filepath.Base(sp))
	}
	if err != nil {
		return "", err
	}
	if len(b) > 4096 {
		return "", fmt.Errorf("%s: not a checksum file (%d bytes)", sp, len(b))
	}
	line, ok := strings.CutSuffix(string(b), "\n")
	sum, name, ok2 := strings.Cut(line, "  ")
	if !ok || !ok2 || len(sum) != 32 || strings.Trim(sum, "0123456789abcdef") != "" || strings.Contains(name, "\n") {
		return "", fmt.Errorf("%s: not a checksum file (want one line: 32 hexadecimal digits, two spaces, the shard's name)", sp)
	}
	if name != filepath.Base(path) {
		return "", fmt.Errorf("%s: the checksum of %q, not of %s", sp, name, filepath.Base(path))
	}
	return sum, nil
}

// verifySum checks the bytes b of the shard path against its checksum file.
func verifySum(path string, b []byte) error {
	want, err := readSum(path)
	if err != nil {
		return err
	}
	if got := checksum(b); got != want {
		return fmt.Errorf("%s: checksum mismatch: the file's bytes hash to %s, %s says %s (the file is damaged)", path, got, filepath.Base(SumPath(path)), want)
	}
	return nil
}

// VerifyFile checks the shard file path against its checksum file
// (PATH.xxh128), reading the whole file. Open does the same for every file it
// opens.
func VerifyFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return verifySum(path, b)
}

// writeSum writes the checksum file of the shard path through a temporary
// file, synced and renamed.
func writeSum(path, sum string) error {
	return writeFileAtomic(SumPath(path), []byte(sumLine(path, sum)))
}

// writeFileAtomic writes b to name.tmp, syncs it and renames it to name. The
// directory is not synced.
func writeFileAtomic(name string, b []byte) error {
	tmp := name + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, name)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
