package data

// HeldOut reports whether the rows of the game go to the held-out side of a
// split that holds out a share frac of the games with the given seed. The
// choice is a hash of the game and the seed, so a game is wholly on one side,
// and the same game, seed and share always give the same answer: the
// evaluation's trainer and the step model's (packages train and policy) split
// a dataset alike.
func HeldOut(gameID, seed uint64, frac float64) bool {
	if frac <= 0 {
		return false
	}
	if frac >= 1 {
		return true
	}
	h := mix(gameID ^ mix(seed^0x9e3779b97f4a7c15))
	return float64(h>>11)*(1.0/(1<<53)) < frac
}

// mix is the SplitMix64 finalizer: a bijection of 64-bit words that spreads
// every input bit over the output.
func mix(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
