package main

import "testing"

func TestRate(t *testing.T) {
	const control = "../../docs/strength/fifty-eighth-control-1s-vs-sharp4.games.txt"     // gen0 against Sharp at depth 4: 60 games in pairs, none won
	const trial = "../../docs/strength/fifty-sixth-recapture-0.59-1s-vs-sharp4.games.txt" // 80 games in pairs, 2 won
	runVerbCases(t, []verbCase{
		{name: "two files", args: []string{"rate", control, trial}, wantOut: []string{
			"140 games (140 in pairs with colours swapped); Bradley-Terry ratings, sharp4 at 0, a prior of 1 (virtual draws a pairing), 95 % intervals from the Fisher information\n",
			"1    sharp4                         +0             +0 to +0     140    98.6%\n",
			"2    gen0                         -697         -915 to -480     140     1.4%\n",
			"gen0                     sharp4                       2-0-138    1.4%      -736 (-inf to -582)\n"}},
		{name: "every game lost", args: []string{"rate", control}, wantOut: []string{
			"2    gen0                         -833        -1317 to -350      60     0.0%\n",
			"gen0                     sharp4                        0-0-60    0.0%                unbounded\n"}},
		{name: "json", args: []string{"rate", "-json", control}, wantOut: []string{`"anchor": "sharp4"`, `"paired": 60`, `"ll": 30`}},
		{name: "no prior", args: []string{"rate", "-prior", "0", control}, wantCode: 1, wantErr: "won or lost every game"},
		{name: "anchor", args: []string{"rate", "-anchor", "gen0", control}, wantOut: []string{"1    sharp4                       +833        +350 to +1317      60   100.0%\n"}},
		{name: "unknown anchor", args: []string{"rate", "-anchor", "sharp6", control}, wantCode: 1,
			wantErr: `-anchor "sharp6": no such player in the games (players: "gen0", "sharp4")`},
		{name: "no files", args: []string{"rate"}, wantCode: 2, wantErr: "want at least one archive FILE"},
		{name: "model", args: []string{"rate", "-model", "elo", control}, wantCode: 2, wantErr: `-model "elo": want bt or davidson`},
		{name: "missing file", args: []string{"rate", "nothere.games.txt"}, wantCode: 1, wantErr: "nothere.games.txt"},
	})
}
