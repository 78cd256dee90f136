package aei

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/arimaalab/arimaalab/engine"
)

// Errors of a Controller; test for them with errors.Is.
var (
	// ErrEngineDied is returned once the engine's process has ended or closed
	// its output.
	ErrEngineDied = errors.New("the engine died")
	// ErrTimeout is returned when the engine did not answer in time.
	ErrTimeout = errors.New("the engine did not answer in time")
	// ErrIllegalMove is returned for a move that is not legal in the game: the
	// engine's bestmove, or a move given to MakeMove.
	ErrIllegalMove = errors.New("illegal move")
	// ErrClosed is returned after Close or Quit.
	ErrClosed = errors.New("the controller is closed")
)

// errDeadline is a read that reached its deadline.
var errDeadline = errors.New("deadline reached")

// maxCollected bounds each list of messages an Info keeps.
const maxCollected = 1000

// Options tunes a Controller. The zero value gives the defaults.
type Options struct {
	// Dir and Env are the engine's working directory and environment
	// (defaults: the controller's own, see exec.Cmd).
	Dir string
	Env []string
	// Stderr gets a copy of the engine's standard error (default: none; the
	// last lines are kept for error messages anyway).
	Stderr io.Writer
	// Transcript gets every message sent ("> aei") and received ("< aeiok").
	Transcript io.Writer
	// StartTimeout bounds the opening: from starting the process to aeiok, and
	// again to the first readyok (default 10 s).
	StartTimeout time.Duration
	// ReadyTimeout bounds the answer to isready and each write to the engine
	// (default 5 s).
	ReadyTimeout time.Duration
	// Grace is how long an engine gets after stop (for its bestmove) or quit
	// (to exit) before it is killed (default 2 s).
	Grace time.Duration
	// MoveTimeout is the deadline of Go when it is given none (default 1 min).
	MoveTimeout time.Duration
	// Logger gets a warning as soon as the controller reads an error the
	// engine reports (a log message starting with "error" in any case, such
	// as "log Error: go called without newgame"), with the engine's name
	// (default: slog.Default()). The last such message is also quoted in the
	// errors of an engine that then times out or dies.
	Logger *slog.Logger

	// clock tells the time of the deadlines and makes their timers (the
	// wall clock; tests put a fake one here, so that a deadline passes when
	// they say).
	clock timeSource
}

// timeSource tells the time and makes timers.
type timeSource struct {
	now   func() time.Time
	after func(time.Duration) <-chan time.Time
}

func (o Options) withDefaults() Options {
	set := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	set(&o.StartTimeout, 10*time.Second)
	set(&o.ReadyTimeout, 5*time.Second)
	set(&o.Grace, 2*time.Second)
	set(&o.MoveTimeout, time.Minute)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.clock.now == nil {
		o.clock.now = time.Now
	}
	if o.clock.after == nil {
		o.clock.after = time.After
	}
	return o
}

// Ident is what an engine says of itself in the opening of a session.
type Ident struct {
	// Protocol is the protocol-version it sent ("1"), or "" for none (the
	// original protocol, where colours are w and b).
	Protocol string
	// Name, Author and Version are its id lines.
	Name, Author, Version string
}

// Info is what an engine reported while it searched.
type Info struct {
	// Score is the last "info score", in the engine's units (centi-rabbits by
	// the protocol; this project's engine sends its value times 100); HasScore
	// says whether there was one.
	Score    int
	HasScore bool
	// Depth is the last "info depth" as sent, such as "10" or "10+".
	Depth string
	// Nodes is the last "info nodes".
	Nodes int64
	// PV is the last "info pv", such as "Ee2n Ee3n s ed7s ed6s".
	PV string
	// Time is the last "info time".
	Time time.Duration
	// Lines holds every info message without its "info " (the first 1,000).
	Lines []string
	// Logs holds every log message without its "log " (the first 1,000).
	Logs []string
	// Other holds the messages of unknown types (the first 1,000).
	Other []string
}

// add records the message line and returns the move of a bestmove message.
func (in *Info) add(line string) (move string, best bool) {
	word, rest := splitWord(line)
	switch word {
	case "bestmove":
		return rest, true
	case "info":
		if len(in.Lines) < maxCollected {
			in.Lines = append(in.Lines, rest)
		}
		typ, val := splitWord(rest)
		switch typ {
		case "score":
			if n, err := strconv.Atoi(val); err == nil {
				in.Score, in.HasScore = n, true
			} else if x, err := strconv.ParseFloat(val, 64); err == nil {
				in.Score, in.HasScore = int(x), true
			}
		case "depth":
			in.Depth = val
		case "nodes":
			if n, err := strconv.ParseInt(val, 10, 64); err == nil {
				in.Nodes = n
			}
		case "pv":
			in.PV = val
		case "time":
			if x, err := strconv.ParseFloat(val, 64); err == nil && x >= 0 {
				in.Time = seconds(x)
			}
		}
	case "log":
		if len(in.Logs) < maxCollected {
			in.Logs = append(in.Logs, rest)
		}
	default:
		if len(in.Other) < maxCollected {
			in.Other = append(in.Other, line)
		}
	}
	return "", false
}

// isLogError reports whether the engine's message line reports an error: a log
// message whose text starts with "error" in any case, such as
// "log Error: go called without newgame".
func isLogError(line string) bool {
	word, rest := splitWord(line)
	return word == "log" && len(rest) >= 5 && strings.EqualFold(rest[:5], "error")
}

// splitWord splits a message into its first word and the rest, trimmed.
func splitWord(s string) (word, rest string) {
	s = strings.TrimSpace(s)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i], strings.TrimSpace(s[i:])
	}
	return s, ""
}

// Controller runs an AEI engine as a child process and drives it. It keeps the
// game as the engine should see it (the position, the side to move or to set
// up, the repetition history), refuses illegal moves and checks the engine's
// answers against it. Every wait is bounded: an engine that dies, hangs or
// answers nonsense gives an error wrapping ErrEngineDied, ErrTimeout or
// ErrIllegalMove, and an engine that hangs is killed. After such an error, or a
// failure to write to the engine, the Controller only returns that error.
//
// A Controller is not safe for concurrent use. Close it to end the engine.
type Controller struct {
	opt    Options
	argv   []string
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	stderr *tail

	lines   chan inLine   // the engine's messages, closed at the end of its output
	readErr error         // why reading ended: set before lines is closed
	done    chan struct{} // closed by Close: ends the reading goroutine
	exited  chan struct{} // closed once the process has been waited for
	waitErr error         // the process's exit: set before exited is closed

	ident     Ident
	lastError string // the engine's last "log Error" message, for error messages
	game      gameState
	pondering bool
	err       error // the engine is dead or was killed: every method returns err
	closed    bool
	closeErr  error
}

// StartCommand starts the engine of the command line cmdline, split into words
// with SplitCommand (no shell runs it), and opens the session (see Start).
func StartCommand(ctx context.Context, cmdline string, opt Options) (*Controller, error) {
	argv, err := SplitCommand(cmdline)
	if err != nil {
		return nil, fmt.Errorf("aei: command %q: %w", cmdline, err)
	}
	return Start(ctx, argv, opt)
}

// Start starts the engine argv[0] with the arguments argv[1:] and opens the
// session: "aei", answered by the engine's protocol-version and id lines and
// "aeiok" within opt.StartTimeout, then "isready" answered by "readyok". The
// game is then on the empty board with Gold to set up. ctx bounds the opening
// only, not the engine's life.
func Start(ctx context.Context, argv []string, opt Options) (*Controller, error) {
	if len(argv) == 0 {
		return nil, errors.New("aei: empty command")
	}
	opt = opt.withDefaults()
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("aei: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("aei: %w", err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = opt.Dir, opt.Env
	cmd.Stdin, cmd.Stdout = inR, outW
	errTail := &tail{max: 4 << 10}
	cmd.Stderr = errTail
	if opt.Stderr != nil {
		cmd.Stderr = io.MultiWriter(errTail, opt.Stderr)
	}
	cmd.WaitDelay = opt.Grace
	ownGroup(cmd)
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("aei: starting the engine: %w", err)
	}
	c := &Controller{
		opt:    opt,
		argv:   argv,
		cmd:    cmd,
		stdin:  inW,
		stdout: outR,
		stderr: errTail,
		lines:  make(chan inLine, 64),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
		game:   newGameState(),
	}
	go c.read()
	go func() {
		c.waitErr = cmd.Wait()
		close(c.exited)
	}()
	if err := c.open(ctx); err != nil {
		c.kill()
		if c.err == nil {
			c.err = err
		}
		c.Close()
		return nil, err
	}
	return c, nil
}

// read sends the engine's messages to c.lines until the end of its output.
func (c *Controller) read() {
	defer close(c.lines)
	br := bufio.NewReader(c.stdout)
	for {
		text, err := readLine(br)
		if errors.Is(err, errLineTooLong) {
			text, err = fmt.Sprintf("(a message of more than %d bytes)", maxLine), nil
		}
		if err != nil {
			c.readErr = err
			return
		}
		select {
		case c.lines <- inLine{text: text}:
		case <-c.done:
			return
		}
	}
}

// open runs the opening of the session.
func (c *Controller) open(ctx context.Context) error {
	if err := c.send("aei"); err != nil {
		return err
	}
	deadline := c.opt.clock.now().Add(c.opt.StartTimeout)
	var other []string
	for done := false; !done; {
		line, err := c.next(ctx, deadline)
		if errors.Is(err, errDeadline) {
			return fmt.Errorf("aei: %s: %w: no aeiok within %v of aei%s%s", c.label(), ErrTimeout, c.opt.StartTimeout, sample(other), c.lastErrorNote())
		}
		if err != nil {
			return fmt.Errorf("aei: opening: %w", err)
		}
		word, rest := splitWord(line)
		switch word {
		case "protocol-version":
			c.ident.Protocol = rest
		case "id":
			key, val := splitWord(rest)
			switch key {
			case "name":
				c.ident.Name = val
			case "author":
				c.ident.Author = val
			case "version":
				c.ident.Version = val
			}
		case "aeiok":
			done = true
		case "log":
		default:
			other = append(other, line)
		}
	}
	_, _, err := c.sync(ctx, c.opt.StartTimeout)
	return err
}

// sample quotes the first unexpected messages for an error.
func sample(msgs []string) string {
	if len(msgs) == 0 {
		return ""
	}
	msgs = msgs[:min(len(msgs), 3)]
	return fmt.Sprintf(" (it sent %q)", msgs)
}

// label names the engine in errors: its id name, or its command.
func (c *Controller) label() string { return fmt.Sprintf("engine %q", c.name()) }

// name is the engine's id name, or its command.
func (c *Controller) name() string {
	if c.ident.Name != "" {
		return c.ident.Name
	}
	return c.argv[0]
}

// lastErrorNote quotes the engine's last error message for an error, if it
// reported one.
func (c *Controller) lastErrorNote() string {
	if c.lastError == "" {
		return ""
	}
	return fmt.Sprintf("; its last error: %q", c.lastError)
}

// Ident returns what the engine said of itself.
func (c *Controller) Ident() Ident { return c.ident }

// Position returns the position of the game: the side to move, or to set up.
func (c *Controller) Position() engine.Position { return c.game.pos }

// InSetup reports whether the side to move of Position has still to set up.
func (c *Controller) InSetup() bool { return c.game.setup }

// Outcome returns the result of the game so far (NotOver while it goes on).
func (c *Controller) Outcome() engine.Outcome { return c.game.outcome() }

// send writes one message to the engine.
func (c *Controller) send(msg string) error {
	if c.closed {
		return fmt.Errorf("aei: %w", ErrClosed)
	}
	if c.err != nil {
		return c.err
	}
	c.note("> " + msg)
	_ = c.stdin.SetWriteDeadline(time.Now().Add(c.opt.ReadyTimeout))
	if _, err := io.WriteString(c.stdin, msg+"\n"); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			c.kill()
			c.err = fmt.Errorf("aei: %s: %w: it read no message for %v; killed%s", c.label(), ErrTimeout, c.opt.ReadyTimeout, c.lastErrorNote())
			return c.err
		}
		return c.died(err)
	}
	return nil
}

// note writes s to the transcript.
func (c *Controller) note(s string) {
	if c.opt.Transcript != nil {
		fmt.Fprintln(c.opt.Transcript, s)
	}
}

// next returns the engine's next message, waiting until deadline (errDeadline)
// or the end of ctx. An error the engine reports is logged at once and kept
// for the error messages.
func (c *Controller) next(ctx context.Context, deadline time.Time) (string, error) {
	if c.err != nil {
		return "", c.err
	}
	timeout := c.opt.clock.after(deadline.Sub(c.opt.clock.now()))
	select {
	case l, ok := <-c.lines:
		if !ok {
			return "", c.died(c.readErr)
		}
		c.note("< " + l.text)
		if isLogError(l.text) {
			c.lastError = l.text
			c.opt.Logger.Warn("aei: the engine reported an error", "engine", c.name(), "message", l.text)
		}
		return l.text, nil
	case <-timeout:
		return "", errDeadline
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// died records that the engine is gone, with its exit status and the end of
// its standard error, and returns the error (wrapping ErrEngineDied).
func (c *Controller) died(cause error) error {
	if c.err != nil {
		return c.err
	}
	var b strings.Builder
	select {
	case <-c.exited:
		if c.waitErr != nil {
			fmt.Fprintf(&b, "it exited: %v", c.waitErr)
		} else {
			b.WriteString("it exited with status 0")
		}
	case <-c.opt.clock.after(c.opt.Grace):
		b.WriteString("it closed its output")
		if cause != nil && !errors.Is(cause, io.EOF) {
			fmt.Fprintf(&b, " (%v)", cause)
		}
		c.kill()
	}
	if s := c.stderr.last(3); s != "" {
		fmt.Fprintf(&b, "; stderr: %s", s)
	}
	b.WriteString(c.lastErrorNote())
	c.err = fmt.Errorf("aei: %s: %w: %s", c.label(), ErrEngineDied, b.String())
	return c.err
}

// kill kills the engine's process (and its process group).
func (c *Controller) kill() {
	select {
	case <-c.exited:
	default:
		_ = kill(c.cmd.Process)
	}
}

// usable returns the error that stops the Controller from talking, if any.
func (c *Controller) usable() error {
	if c.closed {
		return fmt.Errorf("aei: %w", ErrClosed)
	}
	return c.err
}

// sync sends isready and reads until readyok within timeout, collecting what
// comes before it; a bestmove among it is returned (as after stopping a
// ponder search).
func (c *Controller) sync(ctx context.Context, timeout time.Duration) (move string, info Info, err error) {
	if err := c.send("isready"); err != nil {
		return "", info, err
	}
	deadline := c.opt.clock.now().Add(timeout)
	for {
		line, err := c.next(ctx, deadline)
		if errors.Is(err, errDeadline) {
			c.kill()
			c.err = fmt.Errorf("aei: %s: %w: no readyok within %v of isready; killed%s", c.label(), ErrTimeout, timeout, c.lastErrorNote())
			return "", info, c.err
		}
		if err != nil {
			return "", info, err
		}
		if strings.TrimSpace(line) == "readyok" {
			return move, info, nil
		}
		if m, ok := info.add(line); ok {
			move = m
		}
	}
}

// IsReady sends isready and waits for readyok (within Options.ReadyTimeout):
// the engine has then handled every message sent before.
func (c *Controller) IsReady(ctx context.Context) error {
	if err := c.usable(); err != nil {
		return err
	}
	_, _, err := c.sync(ctx, c.opt.ReadyTimeout)
	return err
}

// endPonder is called after a message that ends a ponder search (makemove,
// setposition, newgame): it waits for the engine with isready, dropping any
// bestmove the engine sends for the search it abandoned.
func (c *Controller) endPonder() error {
	if !c.pondering {
		return nil
	}
	c.pondering = false
	_, _, err := c.sync(context.Background(), c.opt.ReadyTimeout+c.opt.Grace)
	return err
}

// NewGame starts a new game on the empty board, Gold to set up.
func (c *Controller) NewGame() error {
	if err := c.send("newgame"); err != nil {
		return err
	}
	c.game = newGameState()
	return c.endPonder()
}

// SetPosition sets the position of the game, with a fresh repetition history.
// A side to move without pieces on the board is setting up (see newgame).
func (c *Controller) SetPosition(p engine.Position) error {
	s := p.String()
	if c.ident.Protocol == "" { // the original protocol has w and b
		s = string("wb"[p.Side]) + s[1:]
	}
	if err := c.send("setposition " + s); err != nil {
		return err
	}
	c.game.setPosition(p)
	return c.endPonder()
}

// SetOption sets the engine option name to value ("setoption name N value V";
// an empty value sends "setoption name N").
func (c *Controller) SetOption(name, value string) error {
	if name == "" || strings.ContainsFunc(name, unicode.IsSpace) {
		return fmt.Errorf("aei: setoption: bad option name %q", name)
	}
	if strings.ContainsAny(value, "\r\n") {
		return fmt.Errorf("aei: setoption %s: the value %q holds a line break", name, value)
	}
	msg := "setoption name " + name
	if value != "" {
		msg += " value " + value
	}
	return c.send(msg)
}

// MakeMove plays move in the game and tells the engine ("makemove"): a setup,
// such as "Ra1 Rb1 ...", during the setup phase, a move in standard notation
// otherwise. An illegal move is refused (ErrIllegalMove) and not sent. It ends
// a ponder search.
func (c *Controller) MakeMove(move string) error {
	if err := c.usable(); err != nil {
		return err
	}
	move = strings.TrimSpace(move)
	if strings.ContainsAny(move, "\r\n") {
		return fmt.Errorf("aei: makemove %q: %w: a line break in the move", move, ErrIllegalMove)
	}
	if _, err := c.game.next(move); err != nil {
		return fmt.Errorf("aei: makemove %q (%s): %w: %v", move, c.game.describe(), ErrIllegalMove, err)
	}
	if err := c.send("makemove " + move); err != nil {
		return err
	}
	if err := c.game.play(move); err != nil { // cannot fail after next
		return fmt.Errorf("aei: makemove %q: %w", move, err)
	}
	return c.endPonder()
}

// Go asks the engine for its move in the game ("go") and reads its messages
// until "bestmove", which must come by deadline (zero: Options.MoveTimeout
// from now) and before the end of ctx. The move is checked against the game but
// not played: call MakeMove to play it.
//
// An engine that has not answered by then is sent "stop" and given
// Options.Grace to answer; the error wraps ErrTimeout (or ctx's error), and
// an engine that does not answer stop either is killed. An answer that is not
// a legal move gives an error wrapping ErrIllegalMove; an engine that dies,
// one wrapping ErrEngineDied. Info holds what the engine reported.
func (c *Controller) Go(ctx context.Context, deadline time.Time) (move string, info Info, err error) {
	if err := c.usable(); err != nil {
		return "", info, err
	}
	if c.pondering {
		if _, _, err := c.Stop(ctx); err != nil {
			return "", info, err
		}
	}
	if out := c.game.outcome(); out.Over() {
		return "", info, fmt.Errorf("aei: go: %w (%s)", engine.ErrGameOver, out)
	}
	if deadline.IsZero() {
		deadline = c.opt.clock.now().Add(c.opt.MoveTimeout)
	}
	if err := c.send("go"); err != nil {
		return "", info, err
	}
	for {
		line, err := c.next(ctx, deadline)
		if errors.Is(err, errDeadline) || (err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())) {
			return "", info, c.overtime(err, &info)
		}
		if err != nil {
			return "", info, err
		}
		if m, ok := info.add(line); ok {
			return m, info, c.check(m)
		}
	}
}

// check checks the engine's bestmove against the game.
func (c *Controller) check(move string) error {
	if strings.TrimSpace(move) == "" {
		return fmt.Errorf("aei: %s: %w: an empty bestmove (%s)", c.label(), ErrIllegalMove, c.game.describe())
	}
	if _, err := c.game.next(move); err != nil {
		return fmt.Errorf("aei: %s: %w: bestmove %q (%s): %v", c.label(), ErrIllegalMove, move, c.game.describe(), err)
	}
	return nil
}

// overtime handles a search that outlived its deadline or its context
// (cause): it sends stop and waits Options.Grace for the bestmove, killing an
// engine that does not send it.
func (c *Controller) overtime(cause error, info *Info) error {
	why := "no bestmove by the deadline"
	wrapped := ErrTimeout
	if !errors.Is(cause, errDeadline) {
		why, wrapped = "the search was cancelled", cause
	}
	if err := c.send("stop"); err != nil {
		return err
	}
	deadline := c.opt.clock.now().Add(c.opt.Grace)
	for {
		line, err := c.next(context.Background(), deadline)
		if errors.Is(err, errDeadline) {
			c.kill()
			c.err = fmt.Errorf("aei: %s: %w: %s, nor within %v of stop; killed%s", c.label(), wrapped, why, c.opt.Grace, c.lastErrorNote())
			return c.err
		}
		if err != nil {
			return err
		}
		if m, ok := info.add(line); ok {
			return fmt.Errorf("aei: %s: %w: %s (it answered stop with %q)%s", c.label(), wrapped, why, m, c.lastErrorNote())
		}
	}
}

// GoPonder asks the engine to search the position, the opponent to move, while
// it waits for the opponent's move ("go ponder"). MakeMove, SetPosition and
// NewGame end the search without a move; Stop ends it with one.
func (c *Controller) GoPonder() error {
	if err := c.usable(); err != nil {
		return err
	}
	if c.pondering {
		return nil
	}
	if out := c.game.outcome(); out.Over() {
		return fmt.Errorf("aei: go ponder: %w (%s)", engine.ErrGameOver, out)
	}
	if err := c.send("go ponder"); err != nil {
		return err
	}
	c.pondering = true
	return nil
}

// Stop ends a ponder search: it sends stop, then isready, and returns the
// bestmove the engine sent before readyok (checked against the game; "" when
// the engine sent none) with its info. Without a ponder search it does nothing.
func (c *Controller) Stop(ctx context.Context) (move string, info Info, err error) {
	if err := c.usable(); err != nil {
		return "", info, err
	}
	if !c.pondering {
		return "", info, nil
	}
	c.pondering = false
	if err := c.send("stop"); err != nil {
		return "", info, err
	}
	move, info, err = c.sync(ctx, c.opt.ReadyTimeout+c.opt.Grace)
	if err != nil || move == "" {
		return move, info, err
	}
	return move, info, c.check(move)
}

// Quit ends the session: it sends quit, closes the engine's input and waits
// Options.Grace for the engine to exit, then kills it. It returns an error
// when the engine had to be killed. Quit and Close may be called more than
// once; the later calls return the first one's result.
func (c *Controller) Quit() error {
	if c.closed {
		return c.closeErr
	}
	if c.err == nil {
		_ = c.send("quit")
	}
	c.closed = true
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-c.opt.clock.after(c.opt.Grace):
		c.kill()
		select {
		case <-c.exited:
		case <-c.opt.clock.after(c.opt.Grace + time.Second):
		}
		c.closeErr = fmt.Errorf("aei: %s: %w: still running %v after quit; killed", c.label(), ErrTimeout, c.opt.Grace)
	}
	close(c.done)
	c.stdout.Close()
	return c.closeErr
}

// Close is Quit.
func (c *Controller) Close() error { return c.Quit() }

// tail keeps the end of what is written to it (an engine's standard error).
type tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if n := len(t.buf) - t.max; n > 0 {
		t.buf = append(t.buf[:0], t.buf[n:]...)
	}
	return len(p), nil
}

// last returns up to n last non-empty lines, joined by " | ".
func (t *tail) last(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(string(t.buf), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines[max(len(lines)-n, 0):], " | ")
}
