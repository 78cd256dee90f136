// Command analyze inspects the engine's work and the search's: move counts and
// move generation speed over position files, replays of game archives checked
// against their recorded results, the best move of a position, a turn by turn
// evaluation of a recorded game, the regret of a player's moves judged by a
// reference engine, and the same moves judged again by another or checked
// with the deep scan of an evaluation, positions labelled by a reference engine as datasets and
// positions one move after those of games for it to label, the material
// players keep in recorded games, the positions their games reach judged by a
// reference engine and compared game by game with another player's,
// summaries and Parquet exports of self-play datasets, a board viewer that
// steps through games, and a game against the bot in the terminal.
//
// Usage:
//
//	analyze movecount [-list] FILE
//	analyze bench [-runs N] [FILE]
//	analyze bench -selfplay [-cores N] [-games G] [-visits N] [-config FILE] [-weights FILE] [-seed S]
//	analyze replay FILE...
//	analyze best -position 'g [64 squares]' [-visits N | -time D] [-threads T] [-weights FILE] [-seed S] [-json]
//	analyze game [-game ID] [-visits N] [-threads T] [-weights FILE] FILE
//	analyze regret -engine COMMAND [-option NAME=VALUE]... -a PLAYER [-b PLAYER] [-mover NAME] [-n N] [-seed S] [-turns T-T] [-decided X] [-base FILE] [-json] FILE...
//	analyze rejudge -engine COMMAND [-option NAME=VALUE]... [-workers W] [-json] REPORT
//	analyze deepcheck [-weights FILE] [-json] REPORT
//	analyze label -engine COMMAND [-option NAME=VALUE]... -out DIR [-n N] [-seed S] [-every K] [-workers W] [-scale X] FILE...
//	analyze successors [-out FILE] [-every K] [-top N] [-pick P] [-random R] [-weights FILE] [-seed S] FILE...
//	analyze material -opponent NAME [-at T] [-siege] [-base FILE]... [-sprt MEASURE:D0,D1] FILE...
//	analyze rate [-anchor NAME] [-prior X] [-model bt|davidson] [-bootstrap N] [-json] FILE...
//	analyze reach -engine COMMAND [-option NAME=VALUE]... -opponent NAME [-turns T,T,...] [-base FILE]... [-workers W] [-cache FILE] [-json] FILE...
//	analyze data PATH...
//	analyze export -parquet OUT [-compression snappy|zstd] PATH...
//	analyze verify PATH...
//	analyze show [-position 'g [64 squares]' | -moves LIST | [-game ID] PATH] [-turn LABEL] [-plain]
//	analyze play [-color gold|silver] [-setup SETUP] [-bot-setup random|standard] [-visits N | -time D] [-threads T] [-weights FILE] [-seed S] [-save FILE]
//
// Run "analyze VERB -h" for the flags of a verb.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// verbs returns the commands of analyze, in the order the usage shows them.
func verbs() []verb {
	return []verb{
		{"movecount", "[-list] FILE", "Count the unique legal moves of each position in FILE (- for stdin).", movecountVerb},
		{"bench", "[-runs N] [FILE] | -selfplay [flags]", "Time move generation over FILE (default: the embedded clueless32 positions), or with -selfplay print how self-play and the search scale with cores.", benchVerb},
		{"replay", "FILE...", "Replay game archive files and check each game against its recorded result.", replayVerb},
		{"best", "-position 'g [64 squares]' [flags]", "Search a position and print the best move, its value, the principal variation and the top moves.", bestVerb},
		{"game", "[flags] FILE", "Search every turn of a recorded game and print what each move played lost against the search's best.", gameVerb},
		{"regret", "-engine COMMAND -a PLAYER [-b PLAYER] [flags] FILE...", "Judge a player's moves (or two players' on the same positions) with a reference AEI engine such as Sharp: mean regret in rabbits, blunders, worst moves.", regretVerb},
		{"rejudge", "-engine COMMAND [flags] REPORT", "Judge the moves of an earlier regret report (-json) again with another judge, such as Sharp at a smaller depth, and compare the two judges' regrets move by move: which of the losses the other judge sees.", rejudgeVerb},
		{"deepcheck", "[-weights FILE] [-json] REPORT", "Check the moves of a regret report (-json) with the deep scan of an evaluation, no engine run: whether the scan would have searched the judge's best move at two turns, and whether its two-turn value puts it above the move played.", deepcheckVerb},
		{"label", "-engine COMMAND -out DIR [flags] FILE...", "Score positions of archives or position files with a reference AEI engine such as Sharp and write them as dataset shards, for train -target value.", labelVerb},
		{"successors", "[flags] FILE...", "Write positions one move after those of archives or position files: of each, moves drawn among the mover's best by an evaluation and at random, as a position file for label.", successorsVerb},
		{"order", "[-weights FILE] [-base FILE] DATA...", "Measure how often an evaluation orders a judge's labelled positions (analyze label of a successors file) as the judge does, with 95 % intervals, and with -base against another evaluation pair by pair.", orderVerb},
		{"material", "-opponent NAME [-at T] [-siege] [-base FILE]... [-sprt MEASURE:D0,D1] FILE...", "Measure how long a player keeps its pieces in recorded games against an opponent: the turn of its first loss, the net material at turn T, pieces lost and taken, moves that leave steps unused, with 95 % intervals, game by game against -base, and with -sprt a sequential test of one difference.", materialVerb},
		{"rate", "[-anchor NAME] [flags] FILE...", "Rate the players of recorded games on one scale by maximum likelihood, the anchor at 0, with 95 % intervals: the ladder from every game already played, as BayesElo and Ordo rate PGN files.", rateVerb},
		{"reach", "-engine COMMAND -opponent NAME [-turns T,T,...] [-base FILE]... [flags] FILE...", "Score with a reference AEI engine such as Sharp the positions a player's recorded games reached at given turns, and compare them game by game with another player's games of the same setups (-base).", reachVerb},
		{"data", "PATH...", "Summarize self-play shards (files, directories or globs): rows, games, results, terminations, game lengths, feature means.", dataVerb},
		{"export", "-parquet OUT [-compression C] PATH...", "Write each shard as a Parquet file into OUT, keeping the gen=NNNN/ layout.", exportVerb},
		{"verify", "PATH...", "Check datasets completely (checksums, schemas, values, boards, games, runs); exit 1 at the first problem, naming the file.", verifyVerb},
		{"show", "[flags] [PATH]", "Draw a position, or step through a game of an archive, a shard, a move list or a run, move by move, with the search's values.", showVerb},
		{"play", "[flags]", "Play the bot in the terminal: moves typed in standard notation, illegal ones explained, the board drawn after each move.", playVerb},
	}
}

// run executes the command line args (without the program name) and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		topUsage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && name == "help" {
			return run([]string{args[1], "-h"}, stdin, stdout, stderr)
		}
		topUsage(stdout)
		return 0
	}
	var v *verb
	for _, cand := range verbs() {
		if cand.name == name {
			v = &cand
		}
	}
	if v == nil {
		fmt.Fprintf(stderr, "analyze: unknown verb %q\n", name)
		topUsage(stderr)
		return 2
	}

	fs := flag.NewFlagSet("analyze "+v.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { v.usage(fs) }
	do := v.setup(fs)
	rest, err := parseFlags(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	err = do(env{stdin, stdout, stderr}, rest)
	var ue usageError
	var fe *fileError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "analyze %s: %v; usage: analyze %s %s\n", v.name, err, v.name, v.args)
		return 2
	case errors.As(err, &fe):
		fmt.Fprintln(stderr, err) // FILE:LINE: message, as compilers print it
		return 1
	default:
		fmt.Fprintf(stderr, "analyze %s: %v\n", v.name, err)
		return 1
	}
}

func topUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: analyze VERB [flags] ARGS")
	fmt.Fprintln(w, "\nverbs:")
	for _, v := range verbs() {
		fmt.Fprintf(w, "  %-10s %s\n", v.name, v.doc)
	}
	fmt.Fprintln(w, "\nRun analyze VERB -h for the flags of a verb.")
}
