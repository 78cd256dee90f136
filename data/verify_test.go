package data

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyFile: VerifyFile accepts a published shard and refuses it once a
// byte of it has changed, naming the file, and refuses a shard that is missing.
func TestVerifyFile(t *testing.T) {
	dir := t.TempDir()
	path := writeShard(t, filepath.Join(dir, "s.arrow"), testMeta(0), WriterOptions{}, testRows(30, 4))
	if err := VerifyFile(path); err != nil {
		t.Fatalf("a published shard: %v", err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x10
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := VerifyFile(path); err == nil || !strings.HasPrefix(err.Error(), path+": checksum mismatch") {
		t.Errorf("a damaged shard: error %v, want a checksum mismatch naming it", err)
	}
	if err := VerifyFile(filepath.Join(dir, "none.arrow")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing shard: error %v, want one that is fs.ErrNotExist", err)
	}
}

// TestWriteFileAtomicFails: when the rename cannot happen (the name is a
// directory with files in it), writeFileAtomic returns the error and leaves
// neither the file nor its temporary behind.
func TestWriteFileAtomicFails(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "taken")
	if err := os.MkdirAll(filepath.Join(name, "inside"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomic(name, []byte("content\n")); err == nil {
		t.Fatal("writing over a directory succeeded")
	}
	if _, err := os.Lstat(name + ".tmp"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the temporary file is left: %v", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "ok"), []byte("content\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ok")); err != nil || string(b) != "content\n" {
		t.Errorf("written: %q, %v", b, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("the directory holds %d entries, want taken and ok", len(ents))
	}
}
