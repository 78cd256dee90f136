package match

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestGameResultJSON reads lines of the results file: the current form, the
// form written before "turns" was renamed "plies", and a line with an unknown
// key (an error).
func TestGameResultJSON(t *testing.T) {
	g := GameResult{Pairing: 1, Game: 3, A: "a", B: "b", Gold: "b", ScoreA: 0.5, Termination: "max-turns", Plies: 58, ID: "1000004", Seconds: 1.5}
	b, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"plies":58`) || strings.Contains(string(b), "turns\":") {
		t.Errorf("written as %s", b)
	}
	var back GameResult
	if err := json.Unmarshal(b, &back); err != nil || back != g {
		t.Errorf("read back %+v, %v; want %+v", back, err, g)
	}
	legacy := strings.Replace(string(b), `"plies"`, `"turns"`, 1)
	back = GameResult{}
	if err := json.Unmarshal([]byte(legacy), &back); err != nil || back != g {
		t.Errorf("legacy line read as %+v, %v; want %+v", back, err, g)
	}
	bad := strings.Replace(string(b), `"plies"`, `"moves"`, 1)
	if err := json.Unmarshal([]byte(bad), &back); err == nil || !strings.Contains(err.Error(), `unknown field "moves"`) {
		t.Errorf("an unknown key: %v", err)
	}
}
