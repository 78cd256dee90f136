package judge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// FileCache is a ScoreCache kept in a file of JSON lines, one score a line
// ({"judge": KEY, "position": POS, "score": S}), appended as each score comes,
// so that a run cut short keeps every score it had. A last line cut short by
// a crash is ignored and overwritten. A FileCache is safe for concurrent use.
type FileCache struct {
	mu     sync.Mutex
	f      *os.File
	name   string
	scores map[[2]string]float64
}

// cacheLine is a line of a FileCache's file.
type cacheLine struct {
	Judge    string  `json:"judge"`
	Position string  `json:"position"`
	Score    float64 `json:"score"`
}

// OpenCache opens the cache file name, creating it (and its directory) when
// absent. A line that
// does not read, other than a last one without its newline, is an error
// naming the file and line.
func OpenCache(name string) (*FileCache, error) {
	data, err := os.ReadFile(name)
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("judge: cache: %w", err)
	}
	c := &FileCache{name: name, scores: map[[2]string]float64{}}
	whole := len(data)
	if i := bytes.LastIndexByte(data, '\n'); i+1 < len(data) {
		whole = i + 1 // a last line cut short: dropped
	}
	sc := bufio.NewScanner(bytes.NewReader(data[:whole]))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var l cacheLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil || l.Position == "" {
			if err == nil {
				err = fmt.Errorf("no position")
			}
			return nil, fmt.Errorf("%s:%d: not a cached score: %w", name, line, err)
		}
		c.scores[[2]string{l.Judge, l.Position}] = l.Score
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, fmt.Errorf("judge: cache: %w", err)
	}
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("judge: cache: %w", err)
	}
	if err := f.Truncate(int64(whole)); err != nil {
		f.Close()
		return nil, fmt.Errorf("judge: cache %s: %w", name, err)
	}
	if _, err := f.Seek(int64(whole), 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("judge: cache %s: %w", name, err)
	}
	c.f = f
	return c, nil
}

// Len returns the number of scores kept.
func (c *FileCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.scores)
}

// Get returns the score of position by the judge key, if kept.
func (c *FileCache) Get(key, position string) (float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.scores[[2]string{key, position}]
	return v, ok
}

// Put keeps the score of position by the judge key, appending it to the
// file.
func (c *FileCache) Put(key, position string, score float64) error {
	line, err := json.Marshal(cacheLine{Judge: key, Position: position, Score: score})
	if err != nil {
		return fmt.Errorf("judge: cache: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("judge: cache %s: %w", c.name, err)
	}
	c.scores[[2]string{key, position}] = score
	return nil
}

// Close closes the file.
func (c *FileCache) Close() error { return c.f.Close() }
