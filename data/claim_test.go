package data

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeClaimFile writes a claim file for path as if owned by o.
func writeClaimFile(t *testing.T, path string, o Owner) {
	t.Helper()
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ClaimPath(path), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if !processGone(pid) {
		t.Skipf("pid %d was reused already", pid)
	}
	return pid
}

func TestClaim(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		owner    func(t *testing.T) *Owner // the claim found, nil for none
		takeOver bool
		want     string // "" for the claim taken, else part of the error
	}{
		{"free", func(*testing.T) *Owner { return nil }, false, ""},
		{"live owner here", func(*testing.T) *Owner {
			return &Owner{Host: host, PID: os.Getppid(), Start: time.Now(), Token: "a"}
		}, false, "being written by pid"},
		{"live owner here, take over", func(*testing.T) *Owner {
			return &Owner{Host: host, PID: os.Getppid(), Start: time.Now(), Token: "a"}
		}, true, ""},
		{"dead owner here", func(t *testing.T) *Owner {
			return &Owner{Host: host, PID: deadPID(t), Start: time.Now(), Token: "b"}
		}, false, ""},
		{"owner on another host", func(*testing.T) *Owner {
			return &Owner{Host: host + "-elsewhere", PID: 1 << 30, Start: time.Now(), Token: "c"}
		}, false, "-takeover"},
		{"owner on another host, take over", func(*testing.T) *Owner {
			return &Owner{Host: host + "-elsewhere", PID: 1 << 30, Start: time.Now(), Token: "c"}
		}, true, ""},
		{"unreadable claim", func(t *testing.T) *Owner { return &Owner{} }, false, "being written by"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "shard-00000.arrow")
			if o := tc.owner(t); o != nil {
				if o.PID == 0 {
					os.WriteFile(ClaimPath(path), []byte(`{"ho`), 0o644)
				} else {
					writeClaimFile(t, path, *o)
				}
			}
			c, err := TakeClaim(path, ClaimOptions{TakeOver: tc.takeOver})
			if tc.want != "" {
				var ce *ClaimError
				if err == nil || !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), path+": ") {
					t.Fatalf("error %v, want a ClaimError with %q", err, tc.want)
				}
				t.Log(err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !c.Held() {
				t.Error("claim not held")
			}
			if err := c.Release(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(ClaimPath(path)); !os.IsNotExist(err) {
				t.Errorf("claim file left after Release: %v", err)
			}
			if _, err := os.Stat(ClaimPath(path) + ".takeover"); !os.IsNotExist(err) {
				t.Errorf("take-over file left: %v", err)
			}
		})
	}
}

// TestTwoWriters starts writers of one shard at once, many times: exactly one
// gets the claim and publishes, the others are refused naming it, and the
// shard read back is the winner's, whole.
func TestTwoWriters(t *testing.T) {
	const trials, writers = 20, 4
	for trial := range trials {
		dir := t.TempDir()
		path := filepath.Join(dir, "shard-00000.arrow")
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for k := range writers {
			wg.Go(func() {
				w, err := Create(path, testMeta(k), WriterOptions{BatchRows: 7})
				if err != nil {
					errs[k] = err
					return
				}
				rows := testRows(50, uint64(k))
				for i := range rows {
					if err := w.Write(&rows[i]); err != nil {
						errs[k] = err
						w.Abort()
						return
					}
				}
				errs[k] = w.Close()
			})
		}
		wg.Wait()
		winner := -1
		for k, err := range errs {
			var ce *ClaimError
			switch {
			case err == nil:
				if winner >= 0 {
					// Both published, one after the other: each whole.
					t.Logf("trial %d: writers %d and %d both published, in turn", trial, winner, k)
				}
				winner = k
			case errors.As(err, &ce):
				if !strings.Contains(err.Error(), "being written by pid") {
					t.Errorf("trial %d: writer %d: %v", trial, k, err)
				}
			default:
				t.Errorf("trial %d: writer %d: %v", trial, k, err)
			}
		}
		if winner < 0 {
			t.Fatalf("trial %d: no writer published", trial)
		}
		r, err := Open(path)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		shard := r.Meta(0).Shard
		r.Close()
		got, err := ReadRows(path)
		if err != nil {
			t.Fatal(err)
		}
		want := testRows(50, uint64(shard))
		if len(got) != len(want) || got[10].GameID != want[10].GameID {
			t.Errorf("trial %d: the shard of writer %d holds other rows", trial, shard)
		}
		left, _ := filepath.Glob(filepath.Join(dir, "*"))
		if len(left) != 2 {
			t.Errorf("trial %d: files left %v, want the shard and its checksum", trial, left)
		}
	}
}

// TestTakenOverWriterDoesNotPublish: a writer whose claim was taken over
// (forced) refuses to publish.
func TestTakenOverWriterDoesNotPublish(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.arrow")
	w, err := Create(path, testMeta(0), WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows := testRows(5, 1)
	for i := range rows {
		if err := w.Write(&rows[i]); err != nil {
			t.Fatal(err)
		}
	}
	c, err := TakeClaim(path, ClaimOptions{TakeOver: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if err := w.Close(); err == nil || !strings.Contains(err.Error(), "took the claim over") {
		t.Errorf("Close after a take-over: %v", err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("shard published: %v", err)
	}
	if !c.Held() {
		t.Error("the new owner lost its claim")
	}
}
