package data

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestChecksumFormat checks the hash against XXH3-128's reference value for
// no input (xxhsum -H2 prints 99aa06d3014798d86001c324468d497f) and the
// checksum file a writer publishes.
func TestChecksumFormat(t *testing.T) {
	if got, want := checksum(nil), "99aa06d3014798d86001c324468d497f"; got != want {
		t.Fatalf("XXH3-128 of nothing: %s, want %s", got, want)
	}
	dir := t.TempDir()
	path := writeShard(t, filepath.Join(dir, "shard-00003.arrow"), testMeta(3), WriterOptions{}, testRows(20, 3))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	line, err := os.ReadFile(SumPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if want := checksum(b) + "  shard-00003.arrow\n"; string(line) != want {
		t.Fatalf("checksum file %q, want %q", line, want)
	}
	if err := VerifyFile(path); err != nil {
		t.Fatal(err)
	}
}

// TestChecksumFileErrors: a missing, malformed or misnamed checksum file, or
// a damaged shard, is an error naming the file.
func TestChecksumFileErrors(t *testing.T) {
	dir := t.TempDir()
	path := writeShard(t, filepath.Join(dir, "s.arrow"), testMeta(0), WriterOptions{}, testRows(20, 3))
	good, err := os.ReadFile(SumPath(path))
	if err != nil {
		t.Fatal(err)
	}
	sum := string(good[:32])
	tests := []struct {
		name string
		sum  *string // the checksum file's content, nil for none
		want string
	}{
		{"missing", nil, "no checksum file s.arrow.xxh128"},
		{"empty", ptr(""), "not a checksum file"},
		{"no newline", ptr(sum + "  s.arrow"), "not a checksum file"},
		{"short hash", ptr(sum[:31] + "  s.arrow\n"), "not a checksum file"},
		{"upper case", ptr(strings.ToUpper(sum) + "  s.arrow\n"), "not a checksum file"},
		{"other name", ptr(sum + "  t.arrow\n"), `the checksum of "t.arrow"`},
		{"other hash", ptr(strings.Repeat("0", 32) + "  s.arrow\n"), "checksum mismatch"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(SumPath(path))
			if tc.sum != nil {
				if err := os.WriteFile(SumPath(path), []byte(*tc.sum), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := Open(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("error %v, want one naming %s with %q", err, path, tc.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
