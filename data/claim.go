package data

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ClaimSuffix ends the name of a shard's claim file: PATH.claim beside PATH.
const ClaimSuffix = ".claim"

// ClaimPath returns the claim file of the shard path.
func ClaimPath(path string) string { return path + ClaimSuffix }

// Owner identifies the process that holds a claim.
type Owner struct {
	Host  string    `json:"host"`
	PID   int       `json:"pid"`
	Start time.Time `json:"start"`
	// Token tells this claim from any other, even of the same process.
	Token string `json:"token"`
}

func (o Owner) String() string {
	if o.PID <= 0 {
		return "an unknown writer (its claim file is unreadable)"
	}
	return fmt.Sprintf("pid %d on host %s since %s", o.PID, o.Host, o.Start.Format(time.RFC3339))
}

// ClaimError is returned when a shard is claimed by another writer.
type ClaimError struct {
	Path  string // the shard
	Owner Owner  // the claim's owner, as its claim file says
	Why   string // why the claim was not taken over
}

func (e *ClaimError) Error() string {
	return fmt.Sprintf("%s: being written by %s (claim %s); %s", e.Path, e.Owner, filepath.Base(ClaimPath(e.Path)), e.Why)
}

// Claim is a writer's exclusive claim on a shard: the file PATH.claim,
// created with O_EXCL, that holds its owner's host, pid and start time. At most
// one process holds the claim of a shard at a time; it writes and publishes the
// shard, then releases the claim.
type Claim struct {
	path    string // the shard
	content []byte // what this claim's file holds
}

// ClaimOptions are the settings of TakeClaim.
type ClaimOptions struct {
	// TakeOver takes over a claim whatever its owner: for a claim left by a
	// process known to be gone (on another host, which TakeClaim cannot see).
	TakeOver bool
}

// TakeClaim claims the shard path for writing. When the shard is already
// claimed, the claim is taken over only if its owner is provably gone (it ran
// on this host and its pid no longer exists) or opt.TakeOver is set; otherwise
// TakeClaim returns a *ClaimError naming the owner. The directory of path must
// exist.
func TakeClaim(path string, opt ClaimOptions) (*Claim, error) {
	host, err := os.Hostname()
	if err != nil {
		return nil, fmt.Errorf("%s: claim: %w", path, err)
	}
	var token [8]byte
	rand.Read(token[:])
	me := Owner{Host: host, PID: os.Getpid(), Start: time.Now().UTC().Truncate(time.Millisecond), Token: hex.EncodeToString(token[:])}
	content, err := json.Marshal(me)
	if err != nil {
		return nil, fmt.Errorf("%s: claim: %w", path, err)
	}
	content = append(content, '\n')
	c := &Claim{path: path, content: content}
	for try := 0; ; try++ {
		err := createExclusive(ClaimPath(path), content)
		if err == nil {
			return c, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("%s: claim: %w", path, err)
		}
		old, owner, err := readClaim(ClaimPath(path))
		if errors.Is(err, fs.ErrNotExist) && try < 3 {
			continue // released meanwhile
		}
		if err != nil {
			return nil, fmt.Errorf("%s: claim: %w", path, err)
		}
		gone := owner.Host == host && processGone(owner.PID) && owner.PID != os.Getpid()
		if !gone && !opt.TakeOver {
			why := "wait for it to finish"
			if owner.Host == host {
				why += ", or stop it"
			} else {
				why += "; if it is gone, rerun with the take-over flag (-takeover)"
			}
			return nil, &ClaimError{Path: path, Owner: owner, Why: why}
		}
		if try >= 3 {
			return nil, &ClaimError{Path: path, Owner: owner, Why: "it changed hands while this process tried to take it over"}
		}
		if err := takeOver(path, old, content); err != nil {
			if errors.Is(err, errClaimChanged) {
				continue
			}
			return nil, err
		}
		return c, nil
	}
}

// errClaimChanged says that a stale claim was replaced before it could be
// taken over.
var errClaimChanged = errors.New("claim changed")

// takeOver replaces the claim file of path, whose content was old, by
// content. Take-overs are serialized by a second exclusive file,
// PATH.claim.takeover, so that only one process removes a stale claim, and
// only after checking that it is still the stale one.
func takeOver(path string, old, content []byte) error {
	lock := ClaimPath(path) + ".takeover"
	if err := createExclusive(lock, content); err != nil {
		if !errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: claim: %w", path, err)
		}
		// A take-over in progress, or one whose process died: the latter only
		// if its process is provably gone.
		_, owner, rerr := readClaim(lock)
		host, _ := os.Hostname()
		if rerr != nil || owner.Host != host || !processGone(owner.PID) {
			return &ClaimError{Path: path, Owner: owner, Why: "it is taking over a stale claim"}
		}
		os.Remove(lock)
		return errClaimChanged
	}
	defer os.Remove(lock)
	cur, err := os.ReadFile(ClaimPath(path))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: claim: %w", path, err)
	}
	if err == nil {
		if !bytes.Equal(cur, old) {
			return errClaimChanged
		}
		if err := os.Remove(ClaimPath(path)); err != nil {
			return fmt.Errorf("%s: claim: %w", path, err)
		}
	}
	if err := createExclusive(ClaimPath(path), content); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return errClaimChanged
		}
		return fmt.Errorf("%s: claim: %w", path, err)
	}
	return nil
}

// createExclusive creates the file name holding b, failing with
// fs.ErrExist if it exists. The file appears whole: b is written and synced
// to a temporary file of a unique name that is then hard-linked to name
// (link, like O_EXCL, fails when name exists, also on NFS). Where links are
// not supported, the file is created with O_EXCL and written.
func createExclusive(name string, b []byte) error {
	var suffix [8]byte
	rand.Read(suffix[:])
	tmp := name + "." + hex.EncodeToString(suffix[:]) + ".tmp"
	if err := writeNew(tmp, b); err != nil {
		return err
	}
	defer os.Remove(tmp)
	err := os.Link(tmp, name)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	return writeNew(name, b)
}

// writeNew creates the file name with O_EXCL, writes b and syncs it.
func writeNew(name string, b []byte) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
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
	if err != nil {
		os.Remove(name)
	}
	return err
}

// readClaim reads a claim file.
func readClaim(name string) ([]byte, Owner, error) {
	var o Owner
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, o, err
	}
	if err := json.Unmarshal(b, &o); err != nil || o.PID <= 0 {
		// A claim file cut short by a crash as it was written: its owner is
		// unknown, so it is never taken over without TakeOver.
		return b, Owner{Host: "?", PID: 0}, nil
	}
	return b, o, nil
}

// Path returns the shard the claim is on.
func (c *Claim) Path() string { return c.path }

// Held reports whether the claim file is still this claim's (it is not if
// another process took it over).
func (c *Claim) Held() bool {
	b, err := os.ReadFile(ClaimPath(c.path))
	return err == nil && bytes.Equal(b, c.content)
}

// Release removes the claim file, if it is still this claim's. Releasing a
// released claim does nothing.
func (c *Claim) Release() error {
	if c == nil || c.content == nil {
		return nil
	}
	defer func() { c.content = nil }()
	if !c.Held() {
		return nil
	}
	if err := os.Remove(ClaimPath(c.path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: release claim: %w", c.path, err)
	}
	return nil
}
