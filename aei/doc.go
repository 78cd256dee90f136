// Package aei speaks the Arimaa Engine Interface (AEI, protocol-version 1) both
// ways: Engine serves the protocol for the project's MCTS bot over any reader
// and writer (cmd/aei runs it on stdin and stdout), and Controller runs any AEI
// engine as a child process and drives it, checking every answer.
//
// AEI is line based. A controller opens the session with "aei"; the engine
// answers "protocol-version 1", its "id" lines and "aeiok". Then the controller
// sets options ("setoption name N value V"), starts games ("newgame"), sets
// positions ("setposition g [64 squares]"), tells the moves played ("makemove
// STEPS", or a setup such as "makemove Ra1 Rb1 ..." during the setup phase)
// and asks for a move ("go"), which the engine answers with "info" lines and
// "bestmove STEPS". "go ponder" searches until the controller moves on; "stop"
// ends a search early; "isready" is answered "readyok" once every message
// before it has been handled; "quit" ends the session.
//
// Both sides keep the game the same way: the position with the side to move
// (or to set up) and the repetition history, every setup and move checked with
// package engine. See docs/aei.md for the time management and the details.
package aei
