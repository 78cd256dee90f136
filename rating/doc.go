// Package rating turns game results into strength estimates: the score and
// Elo difference of two players with 95% intervals, normalized Elo and the
// likelihood of superiority from trinomial (win, draw, loss) or pentanomial
// (game pair) counts, with the formulas fastchess publishes; the generalized
// sequential probability ratio test on those counts, with Wald's bounds; and
// maximum-likelihood ratings of a pool of players (Bradley-Terry or
// Davidson) with Fisher or bootstrap intervals. It plays no games: package
// match does, and counts their results here. See docs/eval.md.
package rating
