package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/arimaalab/arimaalab/data"
)

// BranchFile, in a run started as a branch of another, says which run and
// which of its stages it kept.
const BranchFile = "branch.json"

// BranchInfo is the content of branch.json.
type BranchInfo struct {
	// Parent is the run directory branched from.
	Parent string `json:"parent"`
	// Kept names the parent's stages kept, such as "self-play of
	// generations 0-1, candidates of generations 1-2, gates of generations 1-2"
	// ("nothing" when the new settings change every stage).
	Kept string `json:"kept"`
	// Changed lists the settings that differ from the parent's.
	Changed []string `json:"changed"`
}

func readBranch(dir string) (*BranchInfo, error) {
	var b BranchInfo
	if err := readJSON(filepath.Join(dir, BranchFile), &b); err != nil {
		return nil, err
	}
	return &b, nil
}

// Branch starts the run c (in c.Out, which must not hold a run yet) as a
// branch of the run in parent: it keeps, generation by generation, the
// parent's finished stages that the settings of c would make the same (the
// self-play, the candidate, the gate of each generation, in the order the
// loop runs them, up to the first that they would change), hard-linking the
// shards and copying the rest. The pool is never kept: it is played again
// in the branch, with the branch's generations. Run then continues the
// branch with the settings of c. When c.Out is already a branch of parent,
// Branch does nothing: the same command continues the branch.
func Branch(parent string, c Config) (*BranchInfo, error) {
	if b, err := readBranch(c.Out); err == nil {
		if filepath.Clean(b.Parent) != filepath.Clean(parent) {
			return nil, fmt.Errorf("branch %s: it is a branch of %s, not of %s", c.Out, b.Parent, parent)
		}
		return b, nil
	}
	if entries, err := os.ReadDir(c.Out); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("branch %s: the directory holds files and is not a branch of %s: choose a new directory", c.Out, parent)
	}
	if filepath.Clean(parent) == filepath.Clean(c.Out) {
		return nil, fmt.Errorf("branch %s: a branch goes in a directory of its own", c.Out)
	}
	saved, ok, err := ReadSettings(parent)
	if err != nil {
		return nil, fmt.Errorf("branch: %w", err)
	}
	if !ok {
		return nil, fmt.Errorf("branch: %s has no %s: it is not a run, or was made before runs kept their settings", parent, SettingsFile)
	}
	changes, err := diffSettings(saved, c)
	if err != nil {
		return nil, err
	}
	changed := map[stageGroup]bool{}
	var names []string
	for _, ch := range changes {
		changed[groupOf(ch.Key)] = true
		if ch.Key != "out" {
			names = append(names, ch.String())
		}
	}
	if changed[groupAll] {
		changed[groupSelfPlay], changed[groupTrain], changed[groupGate] = true, true, true
	}

	// The parent's stages in the loop's order, kept up to the first that is
	// not finished or whose settings changed.
	tmp := strings.TrimRight(c.Out, string(filepath.Separator)) + ".tmp"
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	var sp, tr, gt []int
	keep := func(g int, group stageGroup, done bool, files ...string) (bool, error) {
		if !done || changed[group] {
			return false, nil
		}
		for _, f := range files {
			if err := copyTree(filepath.Join(genDir(parent, g), f), filepath.Join(genDir(tmp, g), f)); err != nil {
				return false, fmt.Errorf("branch: %w", err)
			}
		}
		return true, nil
	}
	for g := 1; g <= c.Generations; g++ {
		ok, err := keep(g-1, groupSelfPlay, selfPlayDone(saved.SelfPlay, filepath.Join(genDir(parent, g-1), "selfplay")), "selfplay")
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		sp = append(sp, g-1)
		if ok, err = keep(g, groupTrain, exists(filepath.Join(genDir(parent, g), "candidate.json")), "candidate.json"); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			break
		}
		tr = append(tr, g)
		if ok, err = keep(g, groupGate, exists(filepath.Join(genDir(parent, g), "decision.json")), "gate", "weights.json", "decision.json"); err != nil || !ok {
			if err != nil {
				return nil, err
			}
			break
		}
		gt = append(gt, g)
	}
	var kept []string
	for _, s := range []string{gens("self-play of generation", "self-play of generations", sp), gens("candidate of generation", "candidates of generations", tr), gens("gate of generation", "gates of generations", gt)} {
		if s != "" {
			kept = append(kept, s)
		}
	}
	info := &BranchInfo{Parent: parent, Kept: strings.Join(kept, ", "), Changed: names}
	if info.Kept == "" {
		info.Kept = "nothing"
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "seed 1 -> 2", not "\u003e"
	enc.SetIndent("", "  ")
	if err := enc.Encode(info); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(tmp, BranchFile), buf.Bytes()); err != nil {
		return nil, err
	}
	if err := os.Remove(c.Out); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err // an empty directory made by hand goes; anything else was refused above
	}
	if err := os.MkdirAll(filepath.Dir(c.Out), 0o755); err != nil {
		return nil, err
	}
	return info, os.Rename(tmp, c.Out)
}

// copyTree copies the file or directory src to dst: Arrow shards (written
// once, never changed) are hard-linked where the file system allows, other
// files copied; temporary files and shard claims are left out.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		name := d.Name()
		if strings.HasSuffix(name, ".tmp") || strings.HasSuffix(name, data.ClaimSuffix) {
			return nil
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		if strings.HasSuffix(name, ".arrow") && os.Link(path, to) == nil {
			return nil
		}
		return copyFile(path, to)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
