package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/arimaalab/arimaalab/data"
)

// ClaimFile is the run claim in a run directory: the host, pid and start
// time of the pipeline that runs the directory, as JSON (see data.Owner).
const ClaimFile = "pipeline" + data.ClaimSuffix

// ClaimError is returned when another pipeline runs the directory.
type ClaimError struct {
	Out   string // the run directory
	Claim *data.ClaimError
}

func (e *ClaimError) Error() string {
	return fmt.Sprintf("%s: another pipeline runs this directory: %s (claim file %s); %s",
		e.Out, e.Claim.Owner, ClaimFile, e.Claim.Why)
}

// Unwrap returns the claim's own error.
func (e *ClaimError) Unwrap() error { return e.Claim }

// ClaimRun claims the run directory out (creating it) for this process: one
// pipeline at a time runs a directory, through all its stages, so that two
// never write the same shard, weights or games. When another pipeline holds
// the claim, ClaimRun returns a *ClaimError naming it, unless its owner is
// provably gone (it ran on this host and its process no longer exists, as
// after kill -9), or takeOver is set (for an owner on another host known to
// be gone): the claim is then taken over. Release the claim when the run
// ends.
func ClaimRun(out string, takeOver bool) (*data.Claim, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	claim, err := data.TakeClaim(filepath.Join(out, "pipeline"), data.ClaimOptions{TakeOver: takeOver})
	if ce := (*data.ClaimError)(nil); errors.As(err, &ce) {
		return nil, &ClaimError{Out: out, Claim: ce}
	}
	if err != nil {
		return nil, err
	}
	// Claim files half written by killed pipelines.
	stale, _ := filepath.Glob(filepath.Join(out, ClaimFile) + ".*.tmp")
	for _, p := range stale {
		os.Remove(p)
	}
	return claim, nil
}

// holdsRun checks that claim is the claim of the run directory out.
func holdsRun(claim *data.Claim, out string) error {
	if claim.Path() != filepath.Join(out, "pipeline") {
		return fmt.Errorf("pipeline: the claim of %s given to the run of %s", claim.Path(), out)
	}
	if !claim.Held() {
		return fmt.Errorf("%s: the run claim %s is no longer this process's", out, ClaimFile)
	}
	return nil
}
